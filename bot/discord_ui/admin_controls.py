"""A game's administration as components, under `/game status` for those who administer it: the
creator of a game keeps every power over it even without the server permission that shows the
`/game-admin` commands. Pause or resume, abandon (asked twice), reminders, rewind, and a seat
offered to a member or handed to the computer. Every press is checked by the service again (`_require_admin`).

Custom ids: `rc:a:<game>:<pause|resume|abandon|abandon!>` (buttons),
`rc:ah:<game>` (reminder hours), `rc:ar:<game>` (rewind to an action), `rc:as:<game>` (the
seat to offer) then `rc:au:<game>:<seat>` (the member it is offered to), `rc:ac:<game>` (a seat
handed to the computer, or back: `<seat>:<on|off>`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.core.results import AdminControls, Result
from bot.discord_ui.buttons import GameItem, select
from bot.discord_ui.component_values import NotValid, number
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import caller_of, fit

REMINDER_HOURS = (("Off", 0.0), ("6 h", 6.0), ("12 h", 12.0), ("1 day", 24.0), ("2 days", 48.0),
                  ("1 week", 168.0))  # fmt: skip
HOURS_BY_VALUE = {str(hours): hours for _, hours in REMINDER_HOURS}  # a menu option's value
BUTTONS = {
    "pause": ("Pause", discord.ButtonStyle.secondary),
    "resume": ("Resume", discord.ButtonStyle.success),
    "abandon": ("Abandon…", discord.ButtonStyle.danger),
    "abandon!": ("Yes, abandon it", discord.ButtonStyle.danger),
}


class AdminButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"^rc:a:(?P<game>\d+):(?P<op>pause|resume|abandon!?)$",
):
    def __init__(self, game_id: int, op: str) -> None:
        label, style = BUTTONS[op]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"rc:a:{game_id}:{op}")
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AdminButton:
        return cls(int(match["game"]), match["op"])

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        caller = caller_of(interaction)
        if self.op == "abandon":  # asked once more, only to the admin
            view = discord.ui.View(timeout=None)
            view.add_item(AdminButton(self.game_id, "abandon!"))
            view.stop()
            await interaction.followup.send(
                f"Abandon game #{self.game_id}? It ends without a result; its log is kept.",
                ephemeral=True,
                view=view,
            )
            return None
        if self.op == "abandon!":
            return await bot.service.abandon(self.game_id, caller, interaction.id)
        return await bot.service.pause(self.game_id, caller, self.op == "pause", interaction.id)


class AdminMenu(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"^rc:a(?P<op>[hrsc]):(?P<game>\d+)$",
):
    """Reminder hours (h), rewind to an action (r), the seat to offer (s), or a seat handed to
    the computer or back (c)."""

    def __init__(self, game_id: int, op: str, options: Sequence[discord.SelectOption] = ()) -> None:
        placeholder = {
            "h": "Reminders…",
            "r": "Rewind to just after…",
            "s": "Offer a seat…",
            "c": "The computer plays…",
        }[op]
        super().__init__(select(f"rc:a{op}:{game_id}", placeholder, options))
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AdminMenu:
        return cls(int(match["game"]), match["op"], getattr(item, "options", ()))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        picked = (self.item.values or [""])[0]
        caller = caller_of(interaction)
        if self.op == "h":
            if picked not in HOURS_BY_VALUE:
                raise NotValid(f"not a reminder option: {picked[:40]!r}")
            return await bot.service.set_reminders(
                self.game_id, caller, HOURS_BY_VALUE[picked], interaction.id
            )
        if self.op == "r":
            return await bot.service.rewind(self.game_id, caller, number(picked), interaction.id)
        if self.op == "c":
            seat, _, on = picked.partition(":")
            if on not in ("on", "off"):
                raise NotValid(f"not a seat for the computer: {picked[:40]!r}")
            return await bot.service.computer_seat(
                self.game_id, caller, number(seat), on == "on", interaction_id=interaction.id
            )
        view = discord.ui.View(timeout=None)
        view.add_item(SeatOffer(self.game_id, number(picked)))
        view.stop()
        await interaction.followup.send(
            f"Who is offered seat {picked} of game #{self.game_id}? They hold it once they accept.",
            ephemeral=True,
            view=view,
        )
        return None


class SeatOffer(
    GameItem,
    discord.ui.DynamicItem[discord.ui.UserSelect],
    template=r"^rc:au:(?P<game>\d+):(?P<seat>\d+)$",
):
    """The member a seat is offered to (or the admin, who takes it at once)."""

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(
            discord.ui.UserSelect(custom_id=f"rc:au:{game_id}:{seat}", placeholder="A member…")
        )
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatOffer:
        return cls(int(match["game"]), int(match["seat"]))

    async def press(self, bot: BotContext, interaction: discord.Interaction) -> Result | None:
        if len(self.item.values) != 1:
            raise NotValid(f"{len(self.item.values)} members picked for one seat")
        [user] = self.item.values
        return await bot.service.replace_seat(
            self.game_id, caller_of(interaction), self.seat, user.id, user.display_name,
            interaction.id,
        )  # fmt: skip


ADMIN_ITEMS: tuple[Any, ...] = (AdminButton, AdminMenu, SeatOffer)


def admin_view(game_id: int, controls: AdminControls) -> discord.ui.View:
    """The components of a game's administration, for one who administers it."""
    view = discord.ui.View(timeout=None)
    if controls.running:
        view.add_item(AdminButton(game_id, "resume" if controls.paused else "pause"))
    if not controls.over:
        view.add_item(AdminButton(game_id, "abandon"))
        hours = [
            discord.SelectOption(label=label, value=str(value), default=value == controls.remind)
            for label, value in REMINDER_HOURS
        ]
        view.add_item(AdminMenu(game_id, "h", hours))
    if controls.actions and controls.running:
        steps = [
            discord.SelectOption(label=fit(f"{seq}. {text}", 100), value=str(seq))
            for seq, text in controls.actions[-25:]
        ]
        view.add_item(AdminMenu(game_id, "r", steps))
    if controls.seats and not controls.over:
        seats = [
            discord.SelectOption(label=fit(f"Seat {seat}: {name}", 100), value=str(seat))
            for seat, name in controls.seats
        ]
        view.add_item(AdminMenu(game_id, "s", seats))
        view.add_item(AdminMenu(game_id, "c", _computer_options(controls)))
    view.stop()
    return view


def _computer_options(controls: AdminControls) -> list[discord.SelectOption]:
    """Each seat handed to the computer (at the title's best level), or back to its holder when the computer
    plays it."""
    return [
        discord.SelectOption(
            label=fit(f"Seat {seat}: {name} · back from the computer", 100), value=f"{seat}:off"
        )
        if seat in controls.computers
        else discord.SelectOption(
            label=fit(f"Seat {seat}: {name} · to the computer", 100),
            value=f"{seat}:on",
        )
        for seat, name in controls.seats
    ]
