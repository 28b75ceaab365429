"""The turn prompt's buttons and the answer buttons of requests (undo votes, proposed deals),
as persistent Discord components.

Each button keeps what it means in its custom id (`rc:m:<game>:<version>:<kind>`, and
`rc:u:<request>:<yes|no>` for an undo vote or `rc:d:<request>:<yes|no>` for a deal), so it works
after a restart without any view kept in memory; the game version in a move button lets the
service refuse a button from an older turn, and a request that was answered or lapsed is
refused by the service from its stored status.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

import discord

from bot.discord_ui.io import caller_of
from bot.core.moves import Quick, quick_action

if TYPE_CHECKING:
    from bot.discord_ui.app import RailchatBot

MAX_BUTTONS = 25
STYLES = {"pass": discord.ButtonStyle.secondary, "done": discord.ButtonStyle.secondary,
          "payout": discord.ButtonStyle.success, "withhold": discord.ButtonStyle.primary,
          "run": discord.ButtonStyle.primary, "train": discord.ButtonStyle.primary}


class MoveButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"^rc:m:(?P<game>\d+):(?P<version>\d+):(?P<kind>[a-z]+)$"):
    def __init__(self, game_id: int, version: int, kind: str, label: str = "Move") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=STYLES.get(kind, discord.ButtonStyle.secondary),
            custom_id=f"rc:m:{game_id}:{version}:{kind}"))
        self.game_id, self.version, self.kind = game_id, version, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> MoveButton:
        return cls(int(match["game"]), int(match["version"]), match["kind"], item.label or "Move")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: RailchatBot = interaction.client  # type: ignore[assignment]
        kind = self.kind
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await bot.service.play(
            self.game_id, caller_of(interaction),
            lambda game, choices: quick_action(kind, choices),
            version=self.version, interaction_id=interaction.id)
        await bot.poster.publish(interaction, result)


VOTE_LABELS = {"u": ("Approve undo", "Reject undo"), "d": ("Accept deal", "Decline deal")}
VOTE_PREFIX = {"undo": "u", "deal": "d"}  # the request's kind in a custom id


class VoteButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"^rc:(?P<kind>[ud]):(?P<request>\d+):(?P<answer>yes|no)$"):
    def __init__(self, kind: str, request_id: int, approve: bool) -> None:
        yes, no = VOTE_LABELS[kind]
        super().__init__(discord.ui.Button(
            label=yes if approve else no,
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=f"rc:{kind}:{request_id}:{'yes' if approve else 'no'}"))
        self.request_id, self.approve = request_id, approve

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> VoteButton:
        return cls(match["kind"], int(match["request"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: RailchatBot = interaction.client  # type: ignore[assignment]
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await bot.service.vote(self.request_id, caller_of(interaction), self.approve,
                                        interaction.id)
        await bot.poster.publish(interaction, result)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"^rc:c:(?P<token>[0-9a-f]+):(?P<answer>yes|no)$"):
    """Confirm or Cancel under a previewed move (shown only to the player who asked)."""

    def __init__(self, token: str, approve: bool) -> None:
        super().__init__(discord.ui.Button(
            label="Confirm" if approve else "Cancel",
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
            custom_id=f"rc:c:{token}:{'yes' if approve else 'no'}"))
        self.token, self.approve = token, approve

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ConfirmButton:
        return cls(match["token"], match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: RailchatBot = interaction.client  # type: ignore[assignment]
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await bot.service.confirm(self.token, caller_of(interaction), self.approve,
                                           interaction.id)
        await bot.poster.publish(interaction, result)


def confirm_view(token: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token, True))
    view.add_item(ConfirmButton(token, False))
    view.stop()
    return view


DYNAMIC_ITEMS: tuple[Any, ...] = (MoveButton, VoteButton, ConfirmButton)


def prompt_view(game_id: int, version: int, quick: Sequence[Quick], vote: int | None = None,
                vote_kind: str = "undo") -> discord.ui.View | None:
    """Buttons for a thread post: the request's answers first (if any), then the one-click
    moves."""
    items: list[discord.ui.Item[Any]] = []
    if vote is not None:
        kind = VOTE_PREFIX[vote_kind]
        items += [VoteButton(kind, vote, True), VoteButton(kind, vote, False)]
    items += [MoveButton(game_id, version, q.kind, q.label) for q in quick]
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items[:MAX_BUTTONS]:
        view.add_item(item)
    view.stop()  # the registered DYNAMIC_ITEMS answer presses; no view is kept in memory
    return view
