"""The `/game` command group, every player's: open, join and start games, follow them (status,
views), take moves back and forth, move games in and out as files, and the help.

Each command is a thin translation between an interaction and one service call; rules and
permissions live in the service and the engine. Administration is `/game-admin` (cogs/admin.py).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.clocks import clock_chosen
from bot.core.moves import moves_text
from bot.core.parsing import parse_game_file, parse_options, parse_seat_users
from bot.core.rendering import draw_chart
from bot.core.results import Result
from bot.core.routes_input import best_routes_text, route_companies
from bot.core.service.base import HISTORY_LIMIT
from bot.discord_ui.admin_controls import admin_view
from bot.discord_ui.answers import answer
from bot.discord_ui.buttons import ask_before_a_short_start, undo_confirm_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.help_embed import help_embeds
from bot.discord_ui.io import (
    caller_of,
    fit,
    fit_latest,
    follow_thread,
    game_or_refuse,
    reply,
    resolve_game,
    split_message,
)
from bot.discord_ui.lobby_posts import open_table, opened
from bot.discord_ui.suggestions import (
    CLOCK_TIMEOUTS,
    COMPUTER_LEVELS,
    GAME_HELP,
    LIMIT,
    title_choices,
    within_budget,
)

log = logging.getLogger(__name__)

MAX_IMPORT = 10 * 1024 * 1024
IMAGES = ("map", "market", "sheet")
VIEWS = [
    app_commands.Choice(name=name, value=name)
    for name in (*IMAGES, "chart", "history", "since", "routes", "info", "moves")
]
DETAIL_HELP = (
    "history: how many actions; routes: the company; info: the topic; chart: worth, prices..."
)


@app_commands.guild_only()
class GameCog(
    commands.GroupCog,
    group_name="game",
    group_description="Open, join and follow railway games",
):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    # -- seating -------------------------------------------------------------------------------
    @app_commands.command(
        name="new", description="Open a new game: a lobby here and a thread (or a forum post)"
    )
    @app_commands.describe(
        title="Game title, e.g. 1830",
        seats="Number of seats (default: the title's maximum)",
        options="Options, comma separated: name or name=value",
        computers="Seats the computer plays (after yours)",
        level="How the computer plays (default: the best it can)",
        clock="Time per turn: none, 24h, or a bank and its increment: bank:3d turn:8h",
        deadline="At the deadline (with a clock): the computer moves, a pass, or admins decide",
        vacation="Days each player may be away without their clock running (with a clock)",
    )
    @app_commands.choices(level=COMPUTER_LEVELS, deadline=CLOCK_TIMEOUTS)
    async def new(
        self,
        interaction: discord.Interaction,
        title: str,
        seats: app_commands.Range[int, 1, 25] | None = None,
        options: app_commands.Range[str, 0, 2000] | None = None,
        computers: app_commands.Range[int, 0, 24] = 0,
        level: str | None = None,
        clock: app_commands.Range[str, 0, 100] | None = None,
        deadline: str | None = None,
        vacation: app_commands.Range[int, 0, 60] = 0,
    ) -> None:
        try:
            parsed = parse_options(options)
            chosen = clock_chosen(clock, deadline, vacation)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        caller = caller_of(interaction)
        check = await self.service.check_new_game(caller, title, seats, parsed, computers, level)
        if not check.ok:
            await reply(interaction, f"Refused: {check.error}")
            return
        table = await open_table(
            interaction,
            f"{title} · {caller.name}'s game",
            f"{caller.name} is opening a game of {title}…",
        )
        if table is None:
            return
        result = await self.service.create_game(
            caller,
            title,
            seats=seats,
            options=parsed,
            guild_id=interaction.guild_id,
            channel_id=table.thread.parent_id,
            thread_id=table.thread.id,
            interaction_id=interaction.id,
            computers=computers,
            level=level,
            clock=chosen,
        )
        await opened(self.bot, interaction, table, result)

    @new.autocomplete("title")
    @within_budget
    async def _new_titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._titles_matching(current)

    @app_commands.command(
        name="join", description="Take a seat before the start, or the seat offered to you"
    )
    @app_commands.describe(game=GAME_HELP)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.join(game_id, caller_of(interaction), interaction.id)
        if result.changed:
            await follow_thread(self.bot, result.thread_id, interaction.user)
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.leave(game_id, caller_of(interaction), interaction.id)
        )

    @app_commands.command(name="start", description="Start the game (its creator or an admin)")
    @app_commands.describe(
        confirm="yes: start even with seats still empty (asked first otherwise)", game=GAME_HELP
    )
    async def start(
        self, interaction: discord.Interaction, confirm: bool = False, game: int | None = None
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.start(
            game_id, caller_of(interaction), interaction.id, confirmed=confirm
        )
        if (shown := await ask_before_a_short_start(interaction, result)) is not None:
            await self.bot.poster.publish(interaction, shown)

    @app_commands.command(
        name="list", description="Your games here and the games open to join (only to you)"
    )
    @app_commands.describe(finished="Also your games that are over")
    async def list_games(self, interaction: discord.Interaction, finished: bool = False) -> None:
        listed = await self.service.list_games(
            guild_id=interaction.guild_id,
            user_id=interaction.user.id,
            include_finished=finished,
            link=lambda thread_id: f"<#{thread_id}>",
        )
        await reply(interaction, listed.text)

    # -- following (answered only to the caller) -----------------------------------------------
    @app_commands.command(name="status", description="Where a game stands (only to you)")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.status(
            game_id, guild_id=interaction.guild_id, viewer=interaction.user.id
        )
        controls = await self.service.admin_controls(game_id, caller_of(interaction))
        if not result.ok or controls is None:
            await answer(interaction, result)
            return
        await interaction.followup.send(
            fit(result.text), ephemeral=True, view=admin_view(game_id, controls)
        )

    @app_commands.command(
        name="view",
        description="An image, the history, what you missed, routes, rules or your moves (to you)",
    )
    @app_commands.describe(what="What to see", detail=DETAIL_HELP, game=GAME_HELP)
    @app_commands.choices(what=VIEWS)
    async def view(
        self,
        interaction: discord.Interaction,
        what: str = "map",
        detail: app_commands.Range[str, 0, 100] | None = None,
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        detail = (detail or "").strip()
        guild = interaction.guild_id
        if what in IMAGES:
            shown = await self.service.view(game_id, what, self.bot.renderer, guild_id=guild)
            await answer(interaction, shown)
        elif what == "chart":
            drawer = draw_chart if self.bot.renderer is not None else None
            await answer(
                interaction, await self.service.chart(game_id, detail, drawer, guild_id=guild)
            )
        elif what == "history":
            last = int(detail) if detail.isdigit() else 10
            result = await self.service.history(
                game_id, min(last, HISTORY_LIMIT), guild_id=guild, viewer=interaction.user.id
            )
            await answer(interaction, replace(result, text=fit_latest(result.text)))
        elif what == "since":  # what the caller missed since their last move
            await answer(
                interaction,
                await self.service.since(game_id, interaction.user.id, guild_id=guild),
            )
        elif what == "routes":
            if not detail:
                await reply(interaction, "Refused: name the company in `detail`, e.g. PRR")
                return
            await answer(
                interaction,
                await self.service.inspect(
                    game_id, lambda g: best_routes_text(g, detail), guild_id=guild
                ),
            )
        elif what == "info":
            result = await self.service.reference(game_id, detail or None, guild_id=guild)
            if not result.ok:
                await reply(interaction, f"Refused: {result.error}")
                return
            for part in split_message(result.text):  # one topic per message when it is long
                await interaction.followup.send(part, ephemeral=True)
        else:
            choices = await self.service.legal_actions(game_id, interaction.user.id, guild_id=guild)
            await reply(interaction, moves_text(choices))

    @view.autocomplete("detail")
    @within_budget
    async def _view_details(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        what = getattr(interaction.namespace, "what", None)
        if game_id is None or what not in ("routes", "info", "chart"):
            return []
        if what == "routes":
            found = await self.service.peek(game_id, route_companies, guild_id=interaction.guild_id)
            pairs = found or []
        elif what == "chart":
            named = await self.service.peek(
                game_id, lambda g: g.chart_names(), guild_id=interaction.guild_id
            )
            pairs = [(key, f"{key}: {title}") for key, title in named or ()]
            pairs += [("all", "all: every chart")] if pairs else []
        else:
            topics = await self.service.peek(
                game_id, lambda g: g.reference_topics(), guild_id=interaction.guild_id
            )
            pairs = [(t, t) for t in topics or ()]
        return [
            app_commands.Choice(name=label, value=value)
            for value, label in pairs
            if current.strip().casefold() in label.casefold()
        ][:LIMIT]

    # -- taking moves back ---------------------------------------------------------------------
    @app_commands.command(
        name="undo", description="Take back your last move (others may need to approve)"
    )
    @app_commands.describe(
        confirm="yes: an admin taking back another player's move confirms at once",
        game=GAME_HELP,
    )
    async def undo(
        self, interaction: discord.Interaction, confirm: bool = False, game: int | None = None
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.undo(game_id, caller_of(interaction), interaction.id)
        if result.confirm_undo is not None and confirm:
            result = await self.service.undo(
                game_id, caller_of(interaction), confirmed=result.confirm_undo
            )
        if result.confirm_undo is not None:  # an admin taking back another player's move
            await interaction.followup.send(
                fit(result.text),
                ephemeral=True,
                view=undo_confirm_view(game_id, result.confirm_undo),
            )
            return
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(
        name="redo",
        description="Put back the last undo; again for the undo before it, while nobody has moved",
    )
    @app_commands.describe(game=GAME_HELP)
    async def redo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.redo(game_id, caller_of(interaction), interaction.id)
        )

    # -- files ---------------------------------------------------------------------------------
    @app_commands.command(name="import", description="Open a game from an 18xx.games JSON file")
    @app_commands.describe(
        file="An 18xx.games game export (.json)",
        players="Who is offered each seat, in the file's order: @mentions, - leaves one open",
    )
    async def import_file(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        players: app_commands.Range[str, 0, 500] | None = None,
    ) -> None:
        if file.size > MAX_IMPORT:
            await reply(
                interaction,
                f"Refused: the file is {file.size} bytes; at most {MAX_IMPORT} are read",
            )
            return
        try:
            users = parse_seat_users(players)
            data = parse_game_file(await file.read())
        except ValueError as exc:
            await reply(interaction, f"Refused: {file.filename} is not usable: {exc}")
            return
        caller = caller_of(interaction)
        if await self.service.store.seen_interaction(interaction.id):
            await reply(interaction, "That command was already handled.")
            return
        prepared = await self.service.prepare_import(caller, data, users)
        if isinstance(prepared, Result):  # refused before any thread is made
            await self.bot.poster.publish(interaction, prepared)
            return
        table = await open_table(
            interaction,
            f"{prepared.loaded.game.title} · imported by {caller.name}",
            f"{caller.name} is importing a game of {prepared.loaded.game.title}…",
        )
        if table is None:
            return
        result = await self.service.store_import(
            prepared,
            guild_id=interaction.guild_id,
            channel_id=table.thread.parent_id,
            thread_id=table.thread.id,
            interaction_id=interaction.id,
        )
        await opened(self.bot, interaction, table, result)

    @app_commands.command(name="export", description="The game as an 18xx.games JSON file")
    @app_commands.describe(game=GAME_HELP)
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await answer(interaction, await self.service.export(game_id, guild_id=interaction.guild_id))

    # -- help ----------------------------------------------------------------------------------
    @app_commands.command(name="help", description="The commands, or a title's moves with examples")
    @app_commands.describe(title="A title, e.g. 1830, for its moves with examples")
    async def help(self, interaction: discord.Interaction, title: str | None = None) -> None:
        try:
            embeds = help_embeds(title, self.bot.command_ids)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        await interaction.followup.send(embeds=embeds, ephemeral=True)

    @help.autocomplete("title")
    @within_budget
    async def _help_titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._titles_matching(current)

    def _titles_matching(self, current: str) -> list[app_commands.Choice[str]]:
        return title_choices(self.service.titles(), current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(cast(BotContext, bot)))
