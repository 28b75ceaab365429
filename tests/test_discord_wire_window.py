"""Every slash command and every persistent button and menu of the bot is acknowledged within
Discord's answer window even when what it waits on is slow: each is sent over the wire (the
commands walked from the bot's own command tree, the buttons and menus from DYNAMIC_ITEMS) with
the window shortened and every store call, and the CDN a file comes from, slower than the
window. An interaction not acknowledged within its window can no longer be: Discord refuses a
later answer with 10062 Unknown interaction and the user sees "This interaction failed".
The bot answers first by construction (its command tree and its components' common check), so
none may be late."""

from __future__ import annotations

import asyncio
import itertools
import json
import typing
from collections.abc import Iterator
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from bot.discord_ui.buttons import DYNAMIC_ITEMS
from tests.fake_discord import (
    BUTTON,
    STRING_SELECT,
    FakeDiscord,
    attachment_option,
    user_option,
)
from tests.wire_bot import ANN, BOB, SlowStore, Wire, bots, open_game, until

pytestmark = pytest.mark.asyncio(loop_scope="module")

WINDOW = 0.3  # seconds to acknowledge (Discord's 3, shortened)
DELAY = 0.4  # seconds each store call (and a download) takes: longer than the window
# Values for required string options by name (a move, a title, a view of the test title);
# other strings get "x", which every command must at least answer in time.
STRINGS = {"action": json.dumps({"type": "pass"}), "title": "tally", "view": "board"}
IDS = itertools.count(9000)


def _walk(commands: list[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    for command in commands:
        if isinstance(command, app_commands.Group):
            yield from _walk(command.commands)
        else:
            yield command


def _slash_commands() -> list[str]:
    """The qualified names of every slash command the bot registers."""

    async def load() -> list[str]:
        store = Store(":memory:")
        try:
            bot = RailchatBot(GameService(store))  # the tree only
            await bot.load_cogs()
            return [c.qualified_name for c in _walk(bot.tree.get_commands())]
        finally:
            store.close()

    return asyncio.run(load())


def _cases() -> list[Any]:
    return [pytest.param(name, id=name) for name in _slash_commands()]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def slow(tmp_path_factory):
    """The bot on the fake Discord, its store slowed (`delay` 0 while a case is set up)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        async with bots(tmp_path_factory.mktemp("wire") / "railchat.db", monkeypatch) as start:
            wire = await start(window=WINDOW)
            slowed = SlowStore(monkeypatch, wire.service, 0)
            yield wire, slowed
            slowed.delay = wire.fake.download_delay = 0  # let the late ones finish
            asked = list(wire.fake.desk.interactions.values())
            await until(lambda: all(i.answer or i.late for i in asked), "every answer", 20)
            await wire.bot.poster.drain()


async def _case(wire: Wire, store: SlowStore) -> tuple[dict[str, Any], int]:
    """A thread of its own with a started game of ann's and bob's (a command like /game
    abandon must not change another case's game)."""
    store.delay = wire.fake.download_delay = 0
    thread = await wire.fake.add_thread(f"case {next(IDS)}")
    game_id = await open_game(wire.service, int(thread["id"]))
    store.delay = wire.fake.download_delay = DELAY
    return thread, game_id


async def acknowledged(fake: FakeDiscord, iid: int, what: str) -> None:
    """The interaction was acknowledged within its window (after it, nothing the bot does can
    acknowledge it: Discord answers 10062)."""
    asked = fake.interaction(iid)
    await until(
        lambda: asked.answer or asked.late or fake.clock() - asked.created > WINDOW, what, 10
    )
    assert asked.answer is not None and not asked.late, (
        f"{what} was not acknowledged within {WINDOW} s: Discord refuses a later answer "
        "with 10062 Unknown interaction"
    )


@pytest.mark.parametrize("name", _cases())
async def test_every_slash_command_is_acknowledged_in_time(slow, name: str) -> None:
    wire, store = slow
    command = wire.bot.tree.get_command(name.split()[0])
    for part in name.split()[1:]:
        assert isinstance(command, app_commands.Group)
        command = command.get_command(part)
    assert isinstance(command, app_commands.Command)
    thread, _ = await _case(wire, store)
    options = {p.name: _value(p, wire.fake) for p in command.parameters if p.required}
    group, *sub = name.split()
    iid = next(IDS)
    await wire.fake.command(iid, ANN, group, sub[0] if sub else None, where=thread, **options)
    await acknowledged(wire.fake, iid, f"/{name}")


def _value(parameter: app_commands.Parameter, fake: FakeDiscord) -> Any:
    """A value of a required option as a user would give it."""
    kind = parameter.type
    if parameter.choices:
        return parameter.choices[0].value
    if kind is discord.AppCommandOptionType.string:
        return STRINGS.get(parameter.name, "x")
    if kind is discord.AppCommandOptionType.integer:
        return int(parameter.min_value or 1)
    if kind is discord.AppCommandOptionType.number:
        return float(parameter.min_value or 1)
    if kind is discord.AppCommandOptionType.boolean:
        return False
    if kind is discord.AppCommandOptionType.user:
        return user_option(BOB)
    if kind is discord.AppCommandOptionType.attachment:
        return attachment_option(fake.upload("game.json", b"{}"))
    raise AssertionError(f"no sample value for option {parameter.name} of type {kind}")


@pytest.mark.parametrize("item", DYNAMIC_ITEMS, ids=lambda item: item.__name__)
async def test_every_button_and_menu_is_acknowledged_in_time(slow, item) -> None:
    wire, store = slow
    thread, game_id = await _case(wire, store)
    version = (await wire.service.store.game(game_id)).version  # type: ignore[union-attr]
    samples = [
        f"rc:m:{game_id}:{version}:pass",
        f"rc:s:{game_id}:{version}",
        f"rc:l:{game_id}:{version}:~0123456789ab",
        f"rc:x:{game_id}:{version}",
        "rc:u:1:yes",
        "rc:d:1:yes",
        "rc:i:1:yes",
        "rc:c:0a1b:yes",
        f"rc:o:{game_id}:set",
        f"rc:g:{game_id}:join",
        f"rc:v:{game_id}:map",
    ]
    for sample in samples:  # a press reaches one component only, whatever its id
        owners = [i for i in DYNAMIC_ITEMS if i.__discord_ui_compiled_template__.fullmatch(sample)]
        assert len(owners) == 1, f"{sample} is claimed by {owners}"
    matching = [s for s in samples if item.__discord_ui_compiled_template__.fullmatch(s)]
    assert matching, f"add a custom id of {item.__name__} to the samples"
    [dynamic] = [b for b in item.__orig_bases__ if typing.get_origin(b) is discord.ui.DynamicItem]
    [wrapped] = typing.get_args(dynamic)  # DynamicItem[Button] or [Select]
    if issubclass(wrapped, discord.ui.Select):
        component = {"type": STRING_SELECT, "custom_id": matching[0]}
        component["options"] = [{"label": "pass", "value": "~0123456789ab"}]
        values = ["~0123456789ab"]
    else:
        component = {"type": BUTTON, "style": 2, "label": "Go", "custom_id": matching[0]}
        values = []
    row = {"type": 1, "components": [component]}
    posted = wire.fake.put_message(int(thread["id"]), content="a post", components=[row])
    iid = next(IDS)
    await wire.fake.press(iid, ANN, posted.id, matching[0], *values)
    await acknowledged(wire.fake, iid, item.__name__)
