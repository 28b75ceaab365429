"""The Discord shell offline: the real command tree and callbacks of discord.py, driven with
stand-in interaction, channel and thread objects instead of a gateway connection."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot.discord_app import RailchatBot
from bot.discord_io import NO_GAME_HERE
from bot.service import GameService
from bot.store import Store

GUILD, CHANNEL = 500, 600
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
_ids = itertools.count(9000)


@dataclass
class Sent:
    text: str
    ephemeral: bool = False


@dataclass
class Response:
    sent: list[Sent] = field(default_factory=list)
    deferred: bool = False

    def is_done(self) -> bool:
        return self.deferred or bool(self.sent)

    async def send_message(self, content: str, *, ephemeral: bool = False, **_: object) -> None:
        assert not self.is_done(), "an interaction is answered once"
        self.sent.append(Sent(content, ephemeral))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.is_done()
        self.deferred = True


class Followup:
    def __init__(self, response: Response) -> None:
        self.response = response

    async def send(self, content: str, *, ephemeral: bool = False, **_: object) -> None:
        assert self.response.is_done(), "followups come after the first answer"
        self.response.sent.append(Sent(content, ephemeral))


def make_thread(thread_id: int) -> MagicMock:
    thread = MagicMock(spec=discord.Thread)
    thread.id, thread.mention = thread_id, f"<#{thread_id}>"
    thread.send, thread.add_user, thread.delete = AsyncMock(), AsyncMock(), AsyncMock()
    return thread


class World:
    """A bot with its cogs loaded, one text channel, and the threads created in it."""

    def __init__(self, bot: RailchatBot) -> None:
        self.bot = bot
        self.threads: dict[int, MagicMock] = {}
        self.channel = MagicMock(spec=discord.TextChannel)
        self.channel.id = CHANNEL
        self.channel.create_thread = AsyncMock(side_effect=self._create_thread)
        bot.get_channel = self.threads.get  # the gateway cache, offline

    async def _create_thread(self, **kwargs: object) -> MagicMock:
        thread = make_thread(700 + len(self.threads))
        thread.name = kwargs["name"]
        self.threads[thread.id] = thread
        return thread

    def interaction(self, user_id: int, *, where: int | None = None, admin: bool = False,
                    interaction_id: int | None = None):
        channel = self.channel if where is None else self.threads[where]
        response = Response()
        return SimpleNamespace(
            id=interaction_id or next(_ids), client=self.bot, guild_id=GUILD,
            channel=channel, channel_id=channel.id,
            user=SimpleNamespace(id=user_id, display_name=f"user{user_id}",
                                 mention=f"<@{user_id}>"),
            permissions=discord.Permissions(manage_threads=admin),
            response=response, followup=Followup(response),
            namespace=SimpleNamespace(game=None),  # options typed so far, for autocomplete
            command=None)

    def command(self, name: str) -> app_commands.Command:
        command = self.bot.tree.get_command("game").get_command(name)
        assert command is not None
        return command

    async def run(self, name: str, interaction, **kwargs):
        command = self.command(name)
        await command.callback(command.binding, interaction, **kwargs)
        return interaction.response.sent


@pytest.fixture
async def world(db_path):
    bot = RailchatBot(GameService(Store(db_path), new_seed=lambda: 7))
    await bot.load_cogs()
    return World(bot)


def _check_payload(payload: dict, depth: int = 0) -> int:
    """Check one command/option payload against Discord's limits; return commands seen."""
    assert NAME.match(payload["name"]), payload["name"]
    assert 1 <= len(payload["description"]) <= 100, payload["name"]
    options = payload.get("options", [])
    assert len(options) <= 25, payload["name"]
    assert len(payload.get("choices", [])) <= 25, payload["name"]
    for choice in payload.get("choices", []):
        assert 1 <= len(choice["name"]) <= 100
    seen = 1
    subcommands = [o for o in options if o["type"] in (1, 2)]
    if subcommands:
        assert depth < 2 and len(subcommands) == len(options) <= 25
        for sub in subcommands:
            seen += _check_payload(sub, depth + 1)
    else:
        required = [o.get("required", False) for o in options]
        assert required == sorted(required, reverse=True), "required options come first"
        for option in options:
            _check_payload(option, depth + 1)
    return seen


async def test_command_tree_fits_discord_limits(world):
    commands = world.bot.tree.get_commands()
    assert 1 <= len(commands) <= 100
    payloads = [c.to_dict(world.bot.tree) for c in commands]
    assert sum(_check_payload(p) for p in payloads) > len(payloads)
    game = next(p for p in payloads if p["name"] == "game")
    assert {o["name"] for o in game["options"]} == {
        "new", "join", "leave", "start", "act", "undo", "status", "list", "help"}
    assert game["dm_permission"] is False


async def test_limit_check_catches_bad_payloads():
    with pytest.raises(AssertionError):
        _check_payload({"name": "Game", "description": "x"})
    with pytest.raises(AssertionError):
        _check_payload({"name": "game", "description": "x" * 101})
    with pytest.raises(AssertionError):
        _check_payload({"name": "game", "description": "x",
                        "options": [{"name": f"o{i}", "description": "x", "type": 3}
                                    for i in range(26)]})


async def open_game(world: World, user: int = 1, **kwargs) -> tuple[int, MagicMock]:
    interaction = world.interaction(user)
    sent = await world.run("new", interaction, title="tally", seats=kwargs.pop("seats", 2),
                           options=kwargs.pop("options", None))
    thread = list(world.threads.values())[-1]
    game_id = world.bot.service.game_for_thread(thread.id)
    assert game_id is not None, sent
    return game_id, thread


async def test_new_opens_a_thread_and_posts_there(world):
    game_id, thread = await open_game(world)
    kwargs = world.channel.create_thread.call_args.kwargs
    assert kwargs["type"] == discord.ChannelType.public_thread
    assert kwargs["name"] == "tally · user1's game"
    posted = thread.send.call_args.args[0]
    assert posted.startswith(f"user1 opened game #{game_id} of tally for up to 2 players")
    thread.add_user.assert_awaited_once()
    record = world.bot.service.store.game(game_id)
    assert (record.guild_id, record.channel_id, record.thread_id) == (GUILD, CHANNEL, thread.id)


async def test_new_refusals_are_ephemeral_and_change_nothing(world):
    sent = await world.run("new", world.interaction(1), title="chess", seats=None, options=None)
    assert sent[0].ephemeral and sent[0].text.startswith("Refused: unknown title 'chess'")
    sent = await world.run("new", world.interaction(1), title="tally", seats=None,
                           options="target=")
    assert sent[0].ephemeral and "cannot read option 'target='" in sent[0].text
    sent = await world.run("new", world.interaction(1), title="tally", seats=9, options=None)
    assert sent[0].text == "Refused: tally is played by 2 to 4 players, not 9"
    world.channel.create_thread.assert_not_awaited()
    game_id, thread = await open_game(world)
    sent = await world.run("new", world.interaction(1, where=thread.id), title="tally",
                           seats=None, options=None)
    assert sent[0].text.startswith("Refused: open games from a server text channel")
    assert [g.id for g in world.bot.service.store.games()] == [game_id]


async def test_a_game_played_in_its_thread(world):
    game_id, thread = await open_game(world)
    sent = await world.run("join", world.interaction(2, where=thread.id), game=None)
    assert sent == [Sent(f"user2 joined game #{game_id} at seat 2 (2/2 seated).")]
    refused = await world.run("start", world.interaction(2, where=thread.id), game=None)
    assert refused[0].ephemeral and "only the creator" in refused[0].text
    started = await world.run("start", world.interaction(1, where=thread.id), game=None)
    assert not started[0].ephemeral and started[0].text.endswith("To act: <@1>")
    wrong = await world.run("act", world.interaction(2, where=thread.id), game=None,
                            action='{"type": "pass", "entity": 2, "entity_type": "player"}')
    assert wrong[0] == Sent(f"Refused: it is not your turn in game #{game_id}; waiting for "
                            "user1", ephemeral=True)
    acted = await world.run("act", world.interaction(1, where=thread.id), game=None,
                            action='{"type": "add", "amount": 4, "entity": 1, '
                                   '"entity_type": "player"}')
    assert acted == [Sent("user1 added 4.\nTo act: <@2>")]
    status = await world.run("status", world.interaction(3, where=thread.id), game=None)
    assert status[0].ephemeral and "To act: user2" in status[0].text
    undone = await world.run("undo", world.interaction(1, where=thread.id), game=None)
    assert undone[0].text.startswith("user1 undid action 1: user1 added 4.")
    assert world.bot.service.store.actions(game_id) == []


async def test_commands_from_outside_the_thread_post_into_it(world):
    game_id, thread = await open_game(world)
    thread.send.reset_mock()
    sent = await world.run("join", world.interaction(2), game=game_id)
    assert sent == [Sent(f"Done; posted in <#{thread.id}>.", ephemeral=True)]
    assert thread.send.call_args.args[0] == f"user2 joined game #{game_id} at seat 2 (2/2 seated)."
    assert thread.add_user.await_count == 2
    admin_start = await world.run("start", world.interaction(3, admin=True), game=game_id)
    assert admin_start[0].ephemeral and "posted in" in admin_start[0].text
    assert "has started" in thread.send.call_args.args[0]


async def test_bad_input_gets_a_specific_private_answer(world):
    sent = await world.run("status", world.interaction(1), game=None)
    assert sent == [Sent(f"Refused: {NO_GAME_HERE}", ephemeral=True)]
    sent = await world.run("join", world.interaction(1), game=42)
    assert sent == [Sent("Refused: there is no game #42", ephemeral=True)]
    game_id, thread = await open_game(world)
    sent = await world.run("act", world.interaction(1, where=thread.id), game=None,
                           action='{"type": "pass"')
    assert sent[0].ephemeral and sent[0].text.startswith("Refused: the action is not valid JSON")
    sent = await world.run("act", world.interaction(1, where=thread.id), game=None,
                           action='{"type": "pass"}')
    assert sent[0] == Sent(f"Refused: game #{game_id} has not started yet; its creator starts "
                           "it with /game start", ephemeral=True)
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    sent = await world.run("join", world.interaction(3, where=thread.id), game=None)
    assert sent == [Sent(f"Refused: game #{game_id} is full (2/2 seats taken)", ephemeral=True)]
    assert len(world.bot.service.store.seats(game_id)) == 2


async def test_a_resubmitted_interaction_is_ignored(world):
    game_id, thread = await open_game(world)
    first = await world.run("join", world.interaction(2, where=thread.id, interaction_id=77),
                            game=None)
    again = await world.run("leave", world.interaction(2, where=thread.id, interaction_id=77),
                            game=None)
    assert not first[0].ephemeral
    assert again == [Sent("That command was already handled.", ephemeral=True)]
    assert len(world.bot.service.store.seats(game_id)) == 2


async def test_list_and_help(world):
    sent = await world.run("list", world.interaction(1))
    assert sent[0].text.startswith("No games here yet")
    game_id, _ = await open_game(world)
    sent = await world.run("list", world.interaction(1))
    assert sent == [Sent(f"#{game_id} · tally · waiting for players · user1", ephemeral=True)]
    sent = await world.run("help", world.interaction(1))
    for name in ("new", "join", "leave", "start", "act", "undo", "status", "list", "help"):
        assert f"/game {name} — " in sent[0].text
    assert "Titles: " in sent[0].text and "tally" in sent[0].text


async def test_autocomplete(world):
    cog = world.command("new").binding
    titles = await cog._title_choices(world.interaction(1), "TAL")
    assert [c.value for c in titles] == ["tally"]
    game_id, thread = await open_game(world)
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    interaction = world.interaction(1, where=thread.id)
    choices = await cog._action_choices(interaction, "add")
    assert [c.name for c in choices] == [f"add {n}" for n in range(1, 10)]
    assert choices[0].value == '{"type":"add","amount":1,"entity":1,"entity_type":"player"}'
    assert await cog._action_choices(world.interaction(3, where=thread.id), "") == []
    elsewhere = world.interaction(1)
    elsewhere.namespace.game = game_id
    assert len(await cog._action_choices(elsewhere, "")) == 10


async def test_unexpected_errors_are_answered(world):
    cog = world.command("new").binding
    interaction = world.interaction(1)
    await cog.cog_app_command_error(interaction, app_commands.AppCommandError("boom"))
    assert interaction.response.sent[0].ephemeral
    assert interaction.response.sent[0].text.startswith("Something went wrong on my side")


async def test_a_resubmitted_new_discards_its_second_thread(world):
    first = world.interaction(1, interaction_id=55)
    await world.run("new", first, title="tally", seats=2, options=None)
    again = world.interaction(1, interaction_id=55)
    sent = await world.run("new", again, title="tally", seats=2, options=None)
    assert sent[-1] == Sent("That command was already handled.", ephemeral=True)
    kept, extra = world.threads.values()
    extra.delete.assert_awaited_once()
    kept.delete.assert_not_awaited()
    assert [g.thread_id for g in world.bot.service.store.games()] == [kept.id]
