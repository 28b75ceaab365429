"""The turn prompt's menu and buttons, the buttons of a lay-by-picture answer, the answer
buttons of requests (undo votes, proposed deals) and of seat offers, and a game lobby's Join /
Leave / Start, as persistent Discord components.

Each component keeps what it means in its custom id (`rc:m:<game>:<version>:<kind>` for a
one-click move, `rc:s:<game>:<version>` for the menu, whose options carry the moves' keys,
`rc:l:<game>:<version>:<key>` for a move picked from a short list (a lay by picture, a hint), `rc:x:<game>:<version>` for an
admin's confirmed undo, `rc:o:<game>:<set|cancel>` for a player's menu of programmed moves,
`rc:u:<request>:<yes|no>` for an undo vote, `rc:d:<request>:<yes|no>` for a deal,
`rc:i:<offer>:<yes|no>` for a seat offer, `rc:c:<token>:<yes|no>` for a previewed move,
`rc:g:<game>:<join|leave|start>` under a lobby and `rc:v:<game>:<view>` for a full image shown
privately), so it works after a restart without any view kept in memory; the game version lets
the service refuse a component from an older turn, and a request that was answered or lapsed is
refused by the service from its stored status. Every component answers the press first
(`GameItem`), then asks the service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.core.moves import Quick, by_key, quick_action
from bot.core.results import Result
from bot.discord_ui.answers import answer
from bot.discord_ui.component_values import NOT_VALID, NotValid, check_custom_id
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import (
    acknowledge,
    caller_of,
    fit,
    follow_thread,
    report_error,
    turned_away,
)

log = logging.getLogger(__name__)

MAX_BUTTONS = 25
MAX_MOVE_BUTTONS = 15  # rows 1-3 (the menu takes row 0, the image buttons row 4)
STYLES = {
    "pass": discord.ButtonStyle.secondary,
    "done": discord.ButtonStyle.secondary,
    "payout": discord.ButtonStyle.success,
    "withhold": discord.ButtonStyle.primary,
    "run": discord.ButtonStyle.primary,
    "train": discord.ButtonStyle.primary,
}


def select(
    custom_id: str, placeholder: str, options: Sequence[discord.SelectOption]
) -> discord.ui.Select[Any]:
    """A persistent menu (Discord refuses one without options: a lone "-" stands in until the
    options are known, as when the item is rebuilt from its custom id)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=list(options) or [discord.SelectOption(label="-", value="-")],
    )


class GameItem:
    """What every persistent component does: answer the press before any work (Discord drops
    a press not answered within 3 s), then its `press`, whose errors are logged under an id
    the user is told; a forged custom id or picked value is refused with a sentence; while
    the bot closes, the press is told it is restarting. Mixed into each `DynamicItem` below."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if await turned_away(interaction):
            return False
        try:
            await acknowledge(interaction)
        except discord.HTTPException as exc:  # too late, or Discord refused: nothing to do
            log.warning("could not answer a press of %s: %s", self, exc)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast(BotContext, interaction.client)
        try:
            check_custom_id(self.template, self.custom_id)  # type: ignore[attr-defined]
            result = await self.press(bot, interaction)
            if result is not None:
                await bot.poster.publish(interaction, result)
        except NotValid as exc:
            log.info("refused a press of %s: %s", type(self).__name__, exc)
            await interaction.followup.send(NOT_VALID, ephemeral=True)
        except Exception as exc:
            await report_error(interaction, exc, f"the component {type(self).__name__}")

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        raise NotImplementedError


class MoveButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:m:(?P<game>\d+):(?P<version>\d+):(?P<kind>[a-z]+)$",
):
    def __init__(self, game_id: int, version: int, kind: str, label: str = "Move") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=STYLES.get(kind, discord.ButtonStyle.secondary),
                custom_id=f"rc:m:{game_id}:{version}:{kind}",
            )
        )
        self.game_id, self.version, self.kind = game_id, version, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["version"]), match["kind"], _label(item, "Move"))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        kind = self.kind
        return await bot.service.play(
            self.game_id,
            caller_of(interaction),
            lambda game, choices: quick_action(kind, choices),
            version=self.version,
            interaction_id=interaction.id,
        )


class ViewButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:v:(?P<game>\d+):(?P<view>[a-z_]+)$",
):
    """A full image (map, market, sheet) of the game as it stands, shown only to who asks: a
    post shows what reads on a phone, the rest is one tap away."""

    def __init__(self, game_id: int, view: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=view.replace("_", " ").capitalize(),
                style=discord.ButtonStyle.secondary,
                custom_id=f"rc:v:{game_id}:{view}",
                row=4,  # the last row, under the moves
            )
        )
        self.game_id, self.image = game_id, view

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ViewButton:
        return cls(int(match["game"]), match["view"])

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> None:
        shown = await bot.service.view(
            self.game_id, self.image, bot.renderer, guild_id=interaction.guild_id
        )
        await answer(interaction, shown)


class LayButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:l:(?P<game>\d+):(?P<version>\d+):(?P<key>~[0-9a-f]{12})$",
):
    """One move of a short list answered to one player: a lay of a lay-by-picture answer
    (named by its number and exits), a hint's suggestion (by its number and words)."""

    def __init__(self, game_id: int, version: int, key: str, label: str = "Lay") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"rc:l:{game_id}:{version}:{key}",
            )
        )
        self.game_id, self.version, self.key = game_id, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LayButton:
        return cls(int(match["game"]), int(match["version"]), match["key"], _label(item, "Lay"))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        key = self.key
        return await bot.service.play(
            self.game_id,
            caller_of(interaction),
            lambda game, choices: by_key(key, choices),
            version=self.version,
            interaction_id=interaction.id,
        )


class MoveMenu(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"^rc:s:(?P<game>\d+):(?P<version>\d+)$",
):
    """The menu of legal moves of one turn (each option's value is the move's key)."""

    def __init__(
        self, game_id: int, version: int, options: Sequence[discord.SelectOption] = ()
    ) -> None:
        super().__init__(select(f"rc:s:{game_id}:{version}", "Choose a move…", options))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveMenu:
        return cls(int(match["game"]), int(match["version"]), getattr(item, "options", ()))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        picked = (self.item.values or [""])[0]
        if picked == ORDERS_KEY:  # the presser's own programmed moves, only to them
            await show_orders(bot, interaction, self.game_id)
            return None
        return await bot.service.play(
            self.game_id,
            caller_of(interaction),
            lambda game, choices: by_key(picked, choices),
            version=self.version,
            interaction_id=interaction.id,
        )


class OrderMenu(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"^rc:o:(?P<game>\d+):(?P<what>set|cancel)$",
):
    """A menu of programmed moves, shown to one player alone: those they may set now, or
    those they have set, to cancel (each option's value is its key)."""

    def __init__(
        self, game_id: int, what: str, options: Sequence[discord.SelectOption] = ()
    ) -> None:
        placeholder = "Program a move…" if what == "set" else "Cancel a programmed move…"
        super().__init__(select(f"rc:o:{game_id}:{what}", placeholder, options))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OrderMenu:
        return cls(int(match["game"]), match["what"], getattr(item, "options", ()))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        picked = (self.item.values or [""])[0]
        caller = caller_of(interaction)
        if self.what == "set":
            return await bot.service.set_order(
                self.game_id, caller, picked, interaction_id=interaction.id
            )
        return await bot.service.cancel_order(self.game_id, caller, picked, interaction.id)


async def show_orders(bot: BotContext, interaction: discord.Interaction, game_id: int) -> None:
    """The user's programmed moves in the game, with menus to set one and to cancel one, for
    their eyes only (what they programmed nobody else is shown)."""
    listed = await bot.service.orders(game_id, caller_of(interaction))
    if not listed.ok:
        await interaction.followup.send(f"Refused: {listed.error}", ephemeral=True)
        return
    items: list[discord.ui.Item[Any]] = []
    for what in ("set", "cancel"):
        found = await bot.service.order_suggestions(
            game_id,
            interaction.user.id,
            "",
            guild_id=interaction.guild_id,
            cancel=what == "cancel",
            limit=MENU_OPTIONS,
        )
        if found:
            options = [discord.SelectOption(label=name, value=key) for name, key in found]
            items.append(OrderMenu(game_id, what, options))
    await interaction.followup.send(listed.text[:2000], ephemeral=True, view=_view(items))


class ConfirmUndo(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:x:(?P<game>\d+):(?P<version>\d+)$",
):
    """An admin's confirmation that another player's move be taken back (valid while the game
    is at the version it was asked at)."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm undo",
                style=discord.ButtonStyle.danger,
                custom_id=f"rc:x:{game_id}:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmUndo:
        return cls(int(match["game"]), int(match["version"]))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        return await bot.service.undo(
            self.game_id, caller_of(interaction), interaction.id, confirmed=self.version
        )


VOTE_LABELS = {
    "u": ("Approve undo", "Reject undo"),
    "d": ("Accept deal", "Decline deal"),
    "i": ("Take the seat", "Decline"),
}
VOTE_PREFIX = {"undo": "u", "deal": "d", "seat": "i"}  # what is asked, in a custom id


class VoteButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:(?P<kind>[udi]):(?P<request>\d+):(?P<answer>yes|no)$",
):
    """An answer to a request (an undo vote, a deal) or to a seat offer."""

    def __init__(self, kind: str, request_id: int, approve: bool) -> None:
        yes, no = VOTE_LABELS[kind]
        super().__init__(
            discord.ui.Button(
                label=yes if approve else no,
                style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
                custom_id=f"rc:{kind}:{request_id}:{'yes' if approve else 'no'}",
            )
        )
        self.kind, self.request_id, self.approve = kind, request_id, approve

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VoteButton:
        return cls(match["kind"], int(match["request"]), match["answer"] == "yes")

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        if self.kind == "i":
            answered = await bot.service.answer_invitation(
                self.request_id, caller_of(interaction), self.approve, interaction.id
            )
            if answered.changed and self.approve:
                await follow_thread(bot, answered.thread_id, interaction.user)
            return answered
        return await bot.service.vote(
            self.request_id, caller_of(interaction), self.approve, interaction.id
        )


class ConfirmButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:c:(?P<token>[0-9a-f]+):(?P<answer>yes|no)$",
):
    """Confirm or Cancel under a previewed move (shown only to the player who asked)."""

    def __init__(self, token: str, approve: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm" if approve else "Cancel",
                style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
                custom_id=f"rc:c:{token}:{'yes' if approve else 'no'}",
            )
        )
        self.token, self.approve = token, approve

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmButton:
        return cls(match["token"], match["answer"] == "yes")

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result:
        return await bot.service.confirm(
            self.token, caller_of(interaction), self.approve, interaction.id
        )


LOBBY_LABELS = {"join": "Join", "leave": "Leave", "start": "Start"}
LOBBY_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
}


class LobbyButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:g:(?P<game>\d+):(?P<what>join|leave|start|begin)$",
):
    """Join, Leave or Start under a game's public lobby: anyone may press; the service
    decides (a free seat for a stranger, the start for the creator or an admin) and refuses
    the others privately. "begin" is the creator's confirmation of a start with seats still
    empty, offered to them alone."""

    def __init__(self, game_id: int, what: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or LOBBY_LABELS.get(what, "Start"),
                style=LOBBY_STYLES.get(what, discord.ButtonStyle.primary),
                custom_id=f"rc:g:{game_id}:{what}",
            )
        )
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["what"])

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        caller = caller_of(interaction)
        if self.what == "join":
            joined = await bot.service.join(self.game_id, caller, interaction.id)
            if joined.changed:
                await follow_thread(bot, joined.thread_id, interaction.user)
            return joined
        if self.what == "leave":
            return await bot.service.leave(self.game_id, caller, interaction.id)
        started = await bot.service.start(
            self.game_id, caller, interaction.id, confirmed=self.what == "begin"
        )
        return await ask_before_a_short_start(interaction, started)


async def ask_before_a_short_start(
    interaction: discord.Interaction, result: Result
) -> Result | None:
    """A start with seats still empty is asked first, privately, with a button that starts
    it as it is; any other answer is the caller's to publish."""
    if result.confirm_start is None or result.game_id is None:
        return result
    button = LobbyButton(result.game_id, "begin", f"Start with {result.confirm_start}")
    await interaction.followup.send(fit(result.error or ""), ephemeral=True, view=_view([button]))
    return None


def _label(item: discord.ui.Item[Any], default: str) -> str:
    """The label a pressed button carried (kept as it was shown)."""
    return getattr(item, "label", None) or default


def confirm_view(token: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token, True))
    view.add_item(ConfirmButton(token, False))
    view.stop()
    return view


DYNAMIC_ITEMS: tuple[Any, ...] = (
    MoveButton,
    ViewButton,
    VoteButton,
    ConfirmButton,
    LayButton,
    MoveMenu,
    ConfirmUndo,
    OrderMenu,
    LobbyButton,
)
ORDERS_KEY = "orders"  # the turn menu's entry that shows the presser their programmed moves
MENU_OPTIONS = 25  # Discord's limit for a select menu


def turn_view(
    game_id: int,
    version: int,
    quick: Sequence[Quick],
    options: Sequence[discord.SelectOption],
    views: Sequence[str] = (),
    *,
    orders: bool = False,
) -> discord.ui.View | None:
    """A turn post's components: the menu of legal moves (`orders`: ending with the entry
    that shows whoever picks it their own programmed moves; a 25th move gives it its place),
    the one-click moves, then the buttons that show `views` in full, privately."""
    items: list[discord.ui.Item[Any]] = []
    if orders:
        entry = discord.SelectOption(
            label="Your programmed moves…",
            value=ORDERS_KEY,
            description="Moves made for you when due: set, see or cancel (only you see them)",
        )
        options = [*options[: MENU_OPTIONS - 1], entry]
    if options:
        items.append(MoveMenu(game_id, version, options))
    items += [MoveButton(game_id, version, q.kind, q.label) for q in quick][:MAX_MOVE_BUTTONS]
    items += [ViewButton(game_id, view) for view in views]
    return _view(items) if items else None


def request_view(
    kind: str, request_id: int, game_id: int, version: int, quick: Sequence[Quick]
) -> discord.ui.View:
    """The answer buttons of a request (`kind`: "undo" or "deal"), then the one-click moves
    of whoever must act (a move lapses the request)."""
    prefix = VOTE_PREFIX[kind]
    return _view(
        [
            VoteButton(prefix, request_id, True),
            VoteButton(prefix, request_id, False),
            *(MoveButton(game_id, version, q.kind, q.label) for q in quick),
        ]
    )


def offers_view(offers: Sequence[int]) -> discord.ui.View:
    """Take / Decline for each seat offered (only the user it is offered to may press)."""
    prefix = VOTE_PREFIX["seat"]
    return _view([VoteButton(prefix, o, yes) for o in offers for yes in (True, False)])


def lobby_view(game_id: int) -> discord.ui.View:
    """Join / Leave / Start under an open game's lobby."""
    return _view([LobbyButton(game_id, what) for what in LOBBY_LABELS])


def undo_confirm_view(game_id: int, version: int) -> discord.ui.View:
    return _view([ConfirmUndo(game_id, version)])


def pick_view(game_id: int, version: int, moves: Sequence[tuple[str, str]]) -> discord.ui.View:
    """One button per (key, label) move of a short list (lays by picture, a hint)."""
    return _view([LayButton(game_id, version, key, label) for key, label in moves])


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items[:MAX_BUTTONS]:
        view.add_item(item)
    view.stop()  # the registered DYNAMIC_ITEMS answer presses; no view is kept in memory
    return view
