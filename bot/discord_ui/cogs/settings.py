"""What concerns a player across all their games, usable in a server and in a direct message
with the bot: `/turns` (every game they are seated in, in every server, their turns first,
with links) and the `/settings` group (direct messages, time zone, quiet hours, an absence).
Answers go to the caller alone; the service checks every setting."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.results import Result
from bot.core.turn_list import TurnList
from bot.discord_ui.context import BotContext
from bot.discord_ui.direct import entry_link
from bot.discord_ui.io import caller_of, reply
from bot.discord_ui.suggestions import LIMIT, within_budget

ON_OFF = [app_commands.Choice(name=n, value=n) for n in ("on", "off")]
TURN_DM = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
    app_commands.Choice(name="as my other games (with game)", value="default"),
]
MAX_PAGE = 10_000


class TurnsCog(commands.Cog):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot

    @app_commands.command(
        name="turns", description="Your games in every server, your turns first, with links"
    )
    @app_commands.describe(page="Which page of your games (8 a page)")
    async def turns(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, MAX_PAGE] | None = None,
    ) -> None:
        found = await self.bot.service.my_turns(interaction.user.id, page=page or 1)
        if isinstance(found, TurnList):
            await reply(interaction, found.text(entry_link))
        else:
            await reply(interaction, f"Refused: {found.error}")


class SettingsCog(
    commands.GroupCog,
    group_name="settings",
    group_description="Your direct messages, time zone, quiet hours and absences",
):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    @app_commands.command(name="show", description="Your settings")
    async def show(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, await self.service.show_settings(caller_of(interaction)))

    @app_commands.command(
        name="turn-dm", description="A direct message when it is your turn: all games or one"
    )
    @app_commands.describe(
        dm="on or off (in all your games, or in the game given)",
        game="One game (default: all your games)",
    )
    @app_commands.choices(dm=TURN_DM)
    async def turn_dm(
        self, interaction: discord.Interaction, dm: str, game: int | None = None
    ) -> None:
        result = await self.service.set_turn_dm(caller_of(interaction), dm, game)
        await _answer(interaction, result)

    @turn_dm.autocomplete("game")
    @within_budget
    async def _my_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        typed = current.strip().lstrip("#").casefold()
        entries = await self.service.my_games(interaction.user.id)
        return [
            app_commands.Choice(name=f"#{e.game_id} · {e.title}"[:100], value=e.game_id)
            for e in entries
            if typed in f"{e.game_id} {e.title}".casefold()
        ][:LIMIT]

    @app_commands.command(
        name="reminder-dm", description="Reminders after the first by direct message (on/off)"
    )
    @app_commands.describe(dm="on: by direct message; off: mentioned in the thread")
    @app_commands.choices(dm=ON_OFF)
    async def reminder_dm(self, interaction: discord.Interaction, dm: str) -> None:
        result = await self.service.set_reminder_dm(caller_of(interaction), dm == "on")
        await _answer(interaction, result)

    @app_commands.command(name="timezone", description="Your time zone (for quiet hours)")
    @app_commands.describe(zone="A name such as Europe/Paris: pick a suggestion")
    async def timezone(
        self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 100]
    ) -> None:
        await _answer(interaction, await self.service.set_time_zone(caller_of(interaction), zone))

    @timezone.autocomplete("zone")
    @within_budget
    async def _zones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=n, value=n) for n in self.service.time_zones(current, LIMIT)
        ]

    @app_commands.command(
        name="quiet-hours", description="No direct message and no reminder ping in these hours"
    )
    @app_commands.describe(hours="From-to in your time zone, such as 23-8 or 22:30-7:00; off")
    async def quiet_hours(
        self, interaction: discord.Interaction, hours: app_commands.Range[str, 1, 100]
    ) -> None:
        result = await self.service.set_quiet_hours(caller_of(interaction), hours)
        await _answer(interaction, result)

    @app_commands.command(
        name="away", description="Away until a day: others see it, your reminders wait"
    )
    @app_commands.describe(until="The day you are back, such as 2025-12-03 or 3 Dec; off")
    async def away(
        self, interaction: discord.Interaction, until: app_commands.Range[str, 1, 100]
    ) -> None:
        await _answer(interaction, await self.service.set_away(caller_of(interaction), until))


async def _answer(interaction: discord.Interaction, result: Result) -> None:
    await reply(interaction, result.text if result.ok else f"Refused: {result.error}")


async def setup(bot: commands.Bot) -> None:
    context = cast(BotContext, bot)
    await bot.add_cog(TurnsCog(context))
    await bot.add_cog(SettingsCog(context))
