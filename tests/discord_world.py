"""Discord offline: the real command tree, callbacks and persistent buttons of discord.py,
driven with stand-in interaction, channel and thread objects instead of a gateway connection.

Shared by the Discord test modules. Thread posts are read from each thread's `send` mock;
buttons are pressed the way discord.py dispatches them after a restart: from the custom id
alone, through the item class whose template matches it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
from discord import app_commands

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.admin_controls import ADMIN_ITEMS
from bot.discord_ui.app import RailchatBot
from bot.discord_ui.buttons import DYNAMIC_ITEMS

GUILD, CHANNEL = 500, 600
_ids = itertools.count(9000)


@dataclass
class Sent:
    text: str
    ephemeral: bool = False
    files: list[str] = field(default_factory=list, compare=False)
    buttons: list[tuple[str, str]] = field(default_factory=list, compare=False)
    images: list[bytes] = field(default_factory=list, compare=False, repr=False)
    embeds: list[Any] = field(default_factory=list, compare=False, repr=False)


def _buttons(view: discord.ui.View | None) -> list[tuple[str, str]]:
    return (
        [(item.item.custom_id, getattr(item.item, "label", None) or "") for item in view.children]
        if view
        else []
    )


@dataclass
class Response:
    sent: list[Sent] = field(default_factory=list)
    deferred: bool = False

    def is_done(self) -> bool:
        return self.deferred or bool(self.sent)

    async def send_message(
        self,
        content: str,
        *,
        ephemeral: bool = False,
        files: list[discord.File] = (),
        view: discord.ui.View | None = None,
        **_: object,
    ) -> None:
        assert not self.is_done(), "an interaction is answered once"
        self.sent.append(Sent(content, ephemeral, [f.filename for f in files], _buttons(view)))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.is_done()
        self.deferred = True


class Followup:
    def __init__(self, response: Response) -> None:
        self.response = response

    async def send(
        self,
        content: str = "",
        *,
        ephemeral: bool = False,
        files: list[discord.File] = (),
        view: discord.ui.View | None = None,
        embeds: list[discord.Embed] = (),
        **_: object,
    ) -> None:
        assert self.response.is_done(), "followups come after the first answer"
        self.response.sent.append(
            Sent(
                content or "\n".join(_embed_text(e) for e in embeds),
                ephemeral,
                [f.filename for f in files],
                _buttons(view),
                [f.fp.getvalue() for f in files],
                list(embeds),
            )
        )


def _embed_text(embed: discord.Embed) -> str:
    """An embed read as text: its title, description and fields."""
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(p for p in parts if p)


@dataclass
class Post:
    """One message the bot sent to a thread, as it reads now."""

    text: str
    files: dict[str, bytes]
    buttons: list[tuple[str, str]]  # (custom id, label); a menu's label is ""
    pinged: list[int]
    embed: Any = None
    edits: int = 0
    menu: list[Any] = field(default_factory=list)  # the options of its menu of moves


KEEP = object()  # an edit's field left as it was


class Message:
    """A message the bot sent, as it reads now (edits applied). `uploads` counts every image
    sent with it or with an edit, with its bytes."""

    def __init__(self, message_id: int, content: str, **kwargs: Any) -> None:
        self.id = message_id
        self.content, self.embed, self.view, self.pinged = content, None, None, []
        self.attachments: list[SimpleNamespace] = []
        self.files: dict[str, bytes] = {}
        self.uploads: list[tuple[str, int]] = []
        self.edits = 0
        self.deleted = False
        self._apply(
            files=kwargs.get("files", []), embed=kwargs.get("embed"), view=kwargs.get("view")
        )
        mentions = kwargs.get("allowed_mentions")
        users = mentions.users if mentions is not None else []
        self.pinged = [u.id for u in users] if isinstance(users, list) else []

    def _apply(self, *, files: list[Any], embed: Any, view: Any) -> None:
        kept: dict[str, bytes] = {}  # in the order given, as Discord shows attachments
        for f in files:
            if isinstance(f, discord.File):
                data = f.fp.getvalue()
                kept[f.filename] = data
                self.uploads.append((f.filename, len(data)))
            elif isinstance(f, SimpleNamespace) and f.filename in self.files:
                kept[f.filename] = self.files[f.filename]
        self.files = kept
        self.attachments = [SimpleNamespace(filename=name) for name in kept]
        self.embed, self.view = embed, view

    async def delete(self) -> None:
        self.deleted = True

    async def edit(
        self,
        *,
        content: str | None = None,
        attachments: list[Any] | None = None,
        embed: Any = KEEP,
        view: Any = KEEP,
        **_: object,
    ) -> Message:
        """As Discord edits: what the edit does not name stays as it was."""
        self.edits += 1
        if content is not None:
            self.content = content
        self._apply(
            files=attachments if attachments is not None else list(self.attachments),
            embed=self.embed if embed is KEEP else embed,
            view=self.view if view is KEEP else view,
        )
        return self


def make_thread(thread_id: int) -> MagicMock:
    thread = MagicMock(spec=discord.Thread)
    thread.id, thread.mention = thread_id, f"<#{thread_id}>"
    thread.jump_url = f"https://discord.com/channels/{GUILD}/{thread_id}"
    thread.messages = []

    async def send(content: str = "", **kwargs: Any) -> Message:
        message = Message(next(_ids), content, **kwargs)
        message.channel = thread
        thread.messages.append(message)
        return message

    async def fetch_message(message_id: int) -> Message:
        found = next((m for m in thread.messages if m.id == message_id), None)
        if found is None:
            raise discord.NotFound(
                SimpleNamespace(status=404, reason="Not Found"), "Unknown Message"
            )
        return found

    thread.send = AsyncMock(side_effect=send)
    thread.fetch_message = AsyncMock(side_effect=fetch_message)
    thread.get_partial_message = lambda message_id: _partial(thread, message_id)
    thread.add_user, thread.delete = AsyncMock(), AsyncMock()
    return thread


def _partial(channel: MagicMock, message_id: int) -> Any:
    """A message known by its id: editing one that is gone is refused as Discord does."""
    found = next((m for m in channel.messages if m.id == message_id), None)
    if found is not None and not found.deleted:
        return found

    async def edit(**_: object) -> None:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message")

    return SimpleNamespace(id=message_id, edit=edit)


def posts(thread: MagicMock) -> list[Post]:
    """The thread's messages as they read now (after any edits), since the last
    `thread.send.reset_mock()`."""
    out = []
    sent = len(thread.send.call_args_list)
    for m in thread.messages[len(thread.messages) - sent :]:
        buttons = (
            [
                (item.item.custom_id, getattr(item.item, "label", None) or "")
                for item in m.view.children
            ]
            if m.view
            else []
        )
        menu = next(
            (
                list(i.item.options)
                for i in (m.view.children if m.view else [])
                if isinstance(i.item, discord.ui.Select)
            ),
            [],
        )
        out.append(Post(m.content, dict(m.files), buttons, m.pinged, m.embed, m.edits, menu))
    return out


class World:
    """A bot with its cogs loaded, one text channel, and the threads created in it."""

    def __init__(self, bot: RailchatBot) -> None:
        self.bot = bot
        self.threads: dict[int, MagicMock] = {}
        self.channel = make_thread(CHANNEL)  # a text channel: messages, edits...
        self.channel.__class__ = discord.TextChannel  # type: ignore[assignment]
        self.channel.create_thread = AsyncMock(side_effect=self._create_thread)
        self.dms: list[tuple[int, str]] = []
        # the bot's permissions in the channel and its threads: those docs/hosting.md asks for
        self.app_permissions = discord.Permissions(
            view_channel=True,
            send_messages=True,
            create_public_threads=True,
            send_messages_in_threads=True,
            embed_links=True,
            attach_files=True,
            read_message_history=True,
        )
        # the gateway cache, offline
        bot.get_channel = lambda cid: self.channel if cid == CHANNEL else self.threads.get(cid)
        bot.get_user = lambda user_id: SimpleNamespace(
            id=user_id,
            send=AsyncMock(
                side_effect=lambda text, embed=None: self.dms.append(
                    (user_id, text) if embed is None else (user_id, text, embed.title)
                )
            ),
        )

    async def _create_thread(self, **kwargs: Any) -> MagicMock:
        """A thread of the channel; started from a message (the lobby), it has its id."""
        started = kwargs.get("message")
        thread = make_thread(started.id if started is not None else 700 + len(self.threads))
        thread.name, thread.parent_id = kwargs["name"], CHANNEL
        self.threads[thread.id] = thread
        return thread

    def interaction(
        self,
        user_id: int,
        *,
        where: int | None = None,
        admin: bool = False,
        interaction_id: int | None = None,
        guild: int = GUILD,
        channel_admin: bool = False,
        **typed: Any,
    ):
        """`typed`: options already filled in (what autocomplete sees). `admin`: Manage
        Threads in the server `guild`; `channel_admin`: only in the channel used."""
        channel = self.channel if where is None else self.threads[where]
        response = Response()
        return SimpleNamespace(
            id=interaction_id or next(_ids),
            client=self.bot,
            guild_id=guild,
            channel=channel,
            channel_id=channel.id,
            user=SimpleNamespace(
                id=user_id,
                display_name=f"user{user_id}",
                mention=f"<@{user_id}>",
                guild_permissions=discord.Permissions(manage_threads=admin),
            ),
            permissions=discord.Permissions(manage_threads=admin or channel_admin),
            app_permissions=self.app_permissions,
            response=response,
            followup=Followup(response),
            namespace=SimpleNamespace(**{"game": None, **typed}),
            command=None,
        )

    def command(self, name: str, group: str | None = None) -> app_commands.Command:
        """A command by its name: in `group`, else the one command of that name in any group
        (`notify` is a command of its own)."""
        groups = [group] if group else ["game", "game-admin", "play"]
        found = [
            g.get_command(name)
            for g in map(self.bot.tree.get_command, groups)
            if isinstance(g, app_commands.Group) and g.get_command(name) is not None
        ]
        if not found and group is None and self.bot.tree.get_command(name) is not None:
            found = [self.bot.tree.get_command(name)]
        assert len(found) == 1, f"{name}: {len(found)} commands"
        return found[0]

    async def run(self, name: str, interaction, group: str | None = None, **kwargs):
        """As discord.py runs a command: the tree's check (which answers it first), then the
        callback, its errors handled by the tree."""
        command = self.command(name, group)
        interaction.type = discord.InteractionType.application_command
        interaction.command = command
        if await self.bot.tree.interaction_check(interaction):
            try:
                await command.callback(command.binding, interaction, **kwargs)
            except Exception as exc:
                error = app_commands.CommandInvokeError(command, exc)
                await self.bot.tree.on_error(interaction, error)
        await self.bot.poster.drain()
        return interaction.response.sent

    async def play(self, name: str, interaction, **kwargs):
        """A `/play` command; a kind of move that has no command of its own (`bid`, `par`...)
        is typed into `/play move` as a player would (`bid CS 50`, or a suggestion's key)."""
        if self.bot.tree.get_command("play").get_command(name) is None:
            game = kwargs.pop("game", None)
            return await self.run("move", interaction, group="play", move=move_text(name, kwargs),
                                  game=game)  # fmt: skip
        return await self.run(name, interaction, group="play", **kwargs)

    async def suggest_move(self, interaction, current: str = "") -> list[app_commands.Choice]:
        """`/play move`'s suggestions while the user types `current`."""
        return await self.suggest("move", "move", interaction, current, group="play")

    async def suggest(
        self, command: str, option: str, interaction, current: str = "", group: str | None = None
    ) -> list[app_commands.Choice]:
        cmd = self.command(command, group)
        callback = cmd._params[option].autocomplete
        if getattr(callback, "pass_command_binding", True):
            return await callback(cmd.binding, interaction, current)
        return await callback(interaction, current)  # a function shared by every command

    async def press(self, custom_id: str, interaction):
        """Press a button known only by its custom id (as after a restart)."""
        for cls in (*DYNAMIC_ITEMS, *ADMIN_ITEMS):
            match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match:
                button = discord.ui.Button(custom_id=custom_id, label="?")
                item = await cls.from_custom_id(interaction, button, match)
                if await item.interaction_check(interaction):
                    await item.callback(interaction)
                await self.bot.poster.drain()
                return interaction.response.sent
        raise AssertionError(f"no button matches {custom_id}")

    async def select(self, custom_id: str, options: list[Any], value: str, interaction):
        """Pick `value` in a menu known by its custom id and options (as after a restart)."""
        for cls in (*DYNAMIC_ITEMS, *ADMIN_ITEMS):
            match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match:
                menu = discord.ui.Select(custom_id=custom_id, options=options)
                item = await cls.from_custom_id(interaction, menu, match)
                item._refresh_state(interaction, {"values": [value]})
                if await item.interaction_check(interaction):
                    await item.callback(interaction)
                await self.bot.poster.drain()
                return interaction.response.sent
        raise AssertionError(f"no menu matches {custom_id}")


def move_text(kind: str, options: dict[str, Any]) -> str:
    """A kind of move and its options as typed into /play move: a picked suggestion's key
    (and a price after it), else the words in order (`bid CS 50`)."""
    values = [str(v) for v in options.values() if v is not None]
    if values and values[0].startswith("~"):
        return " ".join(values)
    return " ".join([kind, *values])


# What each view of an 18xx title draws of its snapshot (see render/): a header, then its own.
HEADER = ("title", "round", "turn", "round_num", "phase", "bank", "active", "finished")
SHOWN = {
    "map": ("tiles", "tokens"),
    "market": ("corporations",),
    "market_compact": ("corporations",),
    "sheet": ("players", "corporations", "companies", "trains", "depot"),
}


def drawn_from(game, view: str, focus: tuple[object, ...]) -> object:
    """What a picture of `view` shows: it changes exactly when this does. Titles without a
    snapshot: the log's length."""
    snapshot = getattr(game, "snapshot", None)
    if not callable(snapshot):
        return len(game.actions)
    state = snapshot()
    if view == "focus":  # the close-up: the map around the places, no header
        return [{k: state[k] for k in SHOWN["map"]}, list(focus)]
    return {k: state[k] for k in HEADER + SHOWN.get(view, ())}


def fake_renderer(game, view: str, *focus: object) -> bytes:
    """A stand-in for render/: a tiny PNG whose colour is a digest of the view and of what it
    shows, so that it changes exactly when the real picture would."""
    from io import BytesIO

    from PIL import Image

    shown = json.dumps([view, drawn_from(game, view, focus)], sort_keys=True, default=str)
    colour = tuple(hashlib.sha1(shown.encode()).digest()[:3])
    buffer = BytesIO()
    Image.new("RGB", (2, 2), colour).save(buffer, format="PNG")
    return buffer.getvalue()


async def make_world(db_path, *, renderer=fake_renderer, seed: int = 7) -> World:
    bot = RailchatBot(
        GameService(Store(db_path), new_seed=lambda: seed), renderer=renderer, post_delay=0
    )
    await bot.load_cogs()
    return World(bot)


async def three_players(world: World):
    """A started three-seat game of the test title; returns its thread."""
    await world.run("new", world.interaction(1), title="tally", seats=3, options=None)
    thread = list(world.threads.values())[-1]
    for user in (2, 3):
        await world.run("join", world.interaction(user, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    return thread
