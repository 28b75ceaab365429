"""The `/game-admin` command group: pause, resume, abandon, hand a seat over (to a member or to
the computer), rewind, reminders, and a move typed as JSON. Shown by Discord only to members who may manage threads; a game's
creator has the same powers through the controls under `/game status`, and the service checks
every one of them again.
"""

from __future__ import annotations

import json
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.config import MAX_REMIND_HOURS
from bot.core.parsing import parse_action
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import (
    add_to_thread,
    caller_of,
    fit,
    follow_thread,
    game_or_refuse,
    reply,
    resolve_game,
)
from bot.discord_ui.lobby_posts import drop_table, open_table
from bot.discord_ui.suggestions import COMPUTER_LEVELS, GAME_HELP, LIMIT, within_budget


@app_commands.guild_only()
@app_commands.default_permissions(manage_threads=True)
class AdminCog(
    commands.GroupCog,
    group_name="game-admin",
    group_description="Administer railway games (a game's creator: under /game status)",
):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    @app_commands.command(name="pause", description="Stop the game: no moves, no reminders")
    @app_commands.describe(game=GAME_HELP)
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._pause(interaction, game, True)

    @app_commands.command(name="resume", description="Let a paused game go on")
    @app_commands.describe(game=GAME_HELP)
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._pause(interaction, game, False)

    async def _pause(
        self, interaction: discord.Interaction, game: int | None, paused: bool
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.pause(game_id, caller_of(interaction), paused, interaction.id),
        )

    @app_commands.command(name="abandon", description="End the game without a result")
    @app_commands.describe(game=GAME_HELP)
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.abandon(game_id, caller_of(interaction), interaction.id)
        )

    @app_commands.command(name="replace", description="Offer a seat, with all it owns, to a member")
    @app_commands.describe(
        seat="Seat number (see /game status)",
        user="The member offered the seat (yourself: you take it at once)",
        game=GAME_HELP,
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 25],
        user: discord.User,
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.replace_seat(
            game_id, caller_of(interaction), seat, user.id, user.display_name, interaction.id
        )
        if result.changed and user.id == interaction.user.id:  # seated at once
            await follow_thread(self.bot, result.thread_id, user)
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(name="computer", description="Hand a seat to the computer, or back")
    @app_commands.describe(
        seat="Seat number (see /game status)",
        level="How the computer plays; off: the seat's holder plays it again",
        game=GAME_HELP,
    )
    @app_commands.choices(level=[*COMPUTER_LEVELS, app_commands.Choice(name="off", value="off")])
    async def computer(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 25],
        level: str,
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.computer_seat(
            game_id,
            caller_of(interaction),
            seat,
            level != "off",
            None if level == "off" else level,
            interaction.id,
        )
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(name="rewind", description="Take the game back to just after an action")
    @app_commands.describe(
        action="Action number from /game view history (0: the start)", game=GAME_HELP
    )
    async def rewind(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[int, 0, 100_000],
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.rewind(game_id, caller_of(interaction), action, interaction.id),
        )

    @app_commands.command(name="remind", description="Idle hours before a reminder (0: none)")
    @app_commands.describe(hours="0 for none, else 1 to 8760 (default 24)", game=GAME_HELP)
    async def remind(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.0, MAX_REMIND_HOURS],
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.set_reminders(
                game_id, caller_of(interaction), hours, interaction.id
            ),
        )

    @app_commands.command(
        name="thread", description="Give a game a new thread here (after its thread was deleted)"
    )
    @app_commands.describe(game=GAME_HELP)
    async def thread(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        record = await self.service.store.game(game_id)
        assert record is not None
        table = await open_table(
            interaction,
            f"{record.title} · game #{game_id}",
            f"Game #{game_id} of {record.title} goes on in a new thread…",
        )
        if table is None:
            return
        result = await self.service.move_thread(
            game_id, caller_of(interaction), table.thread.parent_id, table.thread.id, interaction.id
        )
        if not result.ok or result.duplicate:
            await drop_table(table)
            await self.bot.poster.publish(interaction, result)
            return
        for seat in await self.service.store.seats(game_id):
            if seat.user_id > 0:
                await add_to_thread(table.thread, discord.Object(seat.user_id))
        await self.bot.lobbies.place(game_id, table)
        self.bot.poster.moved(game_id)
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(name="extend", description="Give the turn under way more time")
    @app_commands.describe(hours="Hours added to the clock of the player to act", game=GAME_HELP)
    async def extend(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.1, 720.0],
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.extend_clock(game_id, caller_of(interaction), hours, interaction.id),
        )

    @app_commands.command(name="act", description="A move as JSON, for what no command makes")
    @app_commands.describe(action='The move, e.g. {"type": "pass"}', game=GAME_HELP)
    async def act(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[str, 2, 4000],
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        try:
            parsed = parse_action(action)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.act(game_id, caller_of(interaction), parsed, interaction.id),
        )

    @act.autocomplete("action")
    @within_budget
    async def _actions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        found = []
        for choice in await self.service.legal_actions(
            game_id, interaction.user.id, guild_id=interaction.guild_id
        ):
            value = json.dumps(choice.action, separators=(",", ":"))
            if current.lower() in choice.label.lower() and len(value) <= 100:
                found.append(app_commands.Choice(name=fit(choice.label, 100), value=value))
        return found[:LIMIT]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(cast(BotContext, bot)))
