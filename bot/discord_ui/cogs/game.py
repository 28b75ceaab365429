"""The `/game` command group: open, join and start games; follow them as a spectator; undo;
administer them (pause, replace a player, rewind, import and export).

Each command is a thin translation between an interaction and one service call; rules and
permissions live in the service and the engine.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.help_text import help_text
from bot.core.moves import moves_text
from bot.core.parsing import parse_action, parse_game_file, parse_options, parse_seat_users
from bot.core.results import Result
from bot.core.routes_input import best_routes_text, route_companies
from bot.core.service.base import HISTORY_LIMIT
from bot.discord_ui.buttons import undo_confirm_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import (
    add_to_thread,
    caller_of,
    fit,
    fit_latest,
    follow_thread,
    game_or_refuse,
    reply,
    reply_files,
    resolve_game,
    split_message,
)
from bot.discord_ui.suggestions import within_budget

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: games move slowly
MAX_IMPORT = 10 * 1024 * 1024
GAME_HELP = "Game number (default: this thread's game, or your only game here)"


@app_commands.guild_only()
class GameCog(
    commands.GroupCog,
    group_name="game",
    group_description="Open, join, follow and administer railway games",
):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    # -- seating -------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a new game in a thread of this channel")
    @app_commands.describe(
        title="Game title, e.g. 1830",
        seats="Number of seats (default: the title's maximum)",
        options="Options, comma separated: name or name=value",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        title: str,
        seats: app_commands.Range[int, 1, 25] | None = None,
        options: str | None = None,
    ) -> None:
        try:
            parsed = parse_options(options)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        check = await self.service.check_new_game(caller_of(interaction), title, seats, parsed)
        if not check.ok:
            await reply(interaction, f"Refused: {check.error}")
            return
        caller = caller_of(interaction)
        thread = await self._new_thread(interaction, f"{title} · {caller.name}'s game")
        if thread is None:
            return
        result = await self.service.create_game(
            caller,
            title,
            seats=seats,
            options=parsed,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            thread_id=thread.id,
            interaction_id=interaction.id,
        )
        await self._opened(interaction, thread, result)

    @new.autocomplete("title")
    @within_budget
    async def _title_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._titles_matching(current)

    @app_commands.command(name="join", description="Take a seat in a game that has not started")
    @app_commands.describe(game=GAME_HELP)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.join(game_id, caller_of(interaction), interaction.id)
        if result.changed:
            await follow_thread(self.bot, result.thread_id, interaction.user)
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.leave(game_id, caller_of(interaction), interaction.id)
        )

    @app_commands.command(name="start", description="Start the game (creator or admin)")
    @app_commands.describe(game=GAME_HELP)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.start(game_id, caller_of(interaction), interaction.id)
        )

    # -- playing -------------------------------------------------------------------------------
    @app_commands.command(name="act", description="Make a move given as a JSON action")
    @app_commands.describe(
        action='The move, e.g. {"type": "pass"}; suggestions list your options', game=GAME_HELP
    )
    async def act(
        self, interaction: discord.Interaction, action: str, game: int | None = None
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
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
    async def _action_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        choices = []
        for choice in await self.service.legal_actions(
            game_id, interaction.user.id, guild_id=interaction.guild_id
        ):
            value = json.dumps(choice.action, separators=(",", ":"))
            if current.lower() in choice.label.lower() and len(value) <= 100:
                choices.append(app_commands.Choice(name=fit(choice.label, 100), value=value))
        return choices[:AUTOCOMPLETE_LIMIT]

    @app_commands.command(
        name="undo", description="Take back your last move (others may need to approve)"
    )
    @app_commands.describe(
        confirm="yes: an admin taking back another player's move confirms "
        "at once (otherwise a button asks)",
        game=GAME_HELP,
    )
    async def undo(
        self, interaction: discord.Interaction, confirm: bool = False, game: int | None = None
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
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
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.redo(game_id, caller_of(interaction), interaction.id)
        )

    @app_commands.command(
        name="approve", description="Accept a proposed deal, or approve an undo request"
    )
    @app_commands.describe(request="The deal or undo request number (suggestions: the open ones)")
    async def approve(self, interaction: discord.Interaction, request: int) -> None:
        await self._vote(interaction, request, True)

    @app_commands.command(
        name="reject",
        description="Decline (or withdraw) a proposed deal, or reject an undo request",
    )
    @app_commands.describe(request="The deal or undo request number (suggestions: the open ones)")
    async def reject(self, interaction: discord.Interaction, request: int) -> None:
        await self._vote(interaction, request, False)

    @approve.autocomplete("request")
    @reject.autocomplete("request")
    @within_budget
    async def _open_requests(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        game_id = (await resolve_game(self.bot, interaction, None)).game_id
        if game_id is None:
            return []
        return [
            app_commands.Choice(name=fit(label, 100), value=request_id)
            for request_id, label in await self.service.open_requests(
                game_id, guild_id=interaction.guild_id
            )
            if str(current).strip() in label
        ][:AUTOCOMPLETE_LIMIT]

    async def _vote(self, interaction: discord.Interaction, request: int, approve: bool) -> None:
        await self.bot.poster.publish(
            interaction,
            await self.service.vote(request, caller_of(interaction), approve, interaction.id),
        )

    @app_commands.command(
        name="moves", description="List every move you can make now (only to you)"
    )
    @app_commands.describe(game=GAME_HELP)
    async def moves(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        choices = await self.service.legal_actions(
            game_id, interaction.user.id, guild_id=interaction.guild_id
        )
        await reply(interaction, moves_text(choices))

    # -- reading (answered only to the caller) -------------------------------------------------
    @app_commands.command(name="status", description="Show where a game stands (only to you)")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await _answer(
            interaction, await self.service.status(game_id, guild_id=interaction.guild_id)
        )

    @app_commands.command(
        name="show", description="A current image of the game: map, market, sheet (only to you)"
    )
    @app_commands.describe(view="Which image (suggestions: the game's)", game=GAME_HELP)
    async def show(
        self, interaction: discord.Interaction, view: str = "map", game: int | None = None
    ) -> None:
        await self._image(interaction, game, view.strip().casefold())

    @show.autocomplete("view")
    @within_budget
    async def _show_views(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        views = (
            await self.service.peek(game_id, lambda g: g.views(), guild_id=interaction.guild_id)
            if game_id
            else None
        ) or ()
        return [
            app_commands.Choice(name=v, value=v) for v in views if current.strip().casefold() in v
        ][:AUTOCOMPLETE_LIMIT]

    @app_commands.command(
        name="info",
        description="Reference: privates and their powers, phases, certificates, market colours",
    )
    @app_commands.describe(
        topic="One topic, e.g. privates, phases, certificates, market (default: all)",
        game=GAME_HELP,
    )
    async def info(
        self, interaction: discord.Interaction, topic: str | None = None, game: int | None = None
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.reference(game_id, topic, guild_id=interaction.guild_id)
        if not result.ok:
            await reply(interaction, f"Refused: {result.error}")
            return
        for part in split_message(result.text):  # one topic per message when it is long
            await interaction.followup.send(part, ephemeral=True)

    @app_commands.command(name="history", description="The last actions, numbered (only to you)")
    @app_commands.describe(last=f"How many actions (1-{HISTORY_LIMIT}, default 10)", game=GAME_HELP)
    async def history(
        self,
        interaction: discord.Interaction,
        last: app_commands.Range[int, 1, HISTORY_LIMIT] = 10,
        game: int | None = None,
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.history(game_id, last, guild_id=interaction.guild_id)
        await _answer(interaction, replace(result, text=fit_latest(result.text)))

    @app_commands.command(name="routes", description="A company's best routes now (only to you)")
    @app_commands.describe(company="The company, e.g. PRR", game=GAME_HELP)
    async def routes(
        self, interaction: discord.Interaction, company: str, game: int | None = None
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await _answer(
            interaction,
            await self.service.inspect(
                game_id, lambda g: best_routes_text(g, company), guild_id=interaction.guild_id
            ),
        )

    @routes.autocomplete("company")
    @within_budget
    async def _route_companies(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        found = (
            await self.service.peek(game_id, route_companies, guild_id=interaction.guild_id) or []
        )
        return [
            app_commands.Choice(name=label, value=sym)
            for sym, label in found
            if current.strip().casefold() in label.casefold()
        ][:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="list", description="List this server's open and running games")
    async def list_games(self, interaction: discord.Interaction) -> None:
        await reply(
            interaction, (await self.service.list_games(guild_id=interaction.guild_id)).text
        )

    @app_commands.command(name="help", description="Explain the commands, or a title's moves")
    @app_commands.describe(title="A title, e.g. 1830, for its moves with examples")
    async def help(self, interaction: discord.Interaction, title: str | None = None) -> None:
        await reply(interaction, help_text(title))

    @help.autocomplete("title")
    @within_budget
    async def _help_titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._titles_matching(current)

    def _titles_matching(self, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=t, value=t)
            for t in self.service.titles()
            if current.lower() in t.lower()
        ][:AUTOCOMPLETE_LIMIT]

    # -- administration ------------------------------------------------------------------------
    @app_commands.command(
        name="pause", description="Admin: pause the game (no moves, no reminders)"
    )
    @app_commands.describe(game=GAME_HELP)
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.pause(game_id, caller_of(interaction), True, interaction.id),
        )

    @app_commands.command(name="resume", description="Admin: let a paused game go on")
    @app_commands.describe(game=GAME_HELP)
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.pause(game_id, caller_of(interaction), False, interaction.id),
        )

    @app_commands.command(name="abandon", description="Admin: end the game without a result")
    @app_commands.describe(game=GAME_HELP)
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.abandon(game_id, caller_of(interaction), interaction.id)
        )

    @app_commands.command(name="replace", description="Admin: give a seat to another player")
    @app_commands.describe(
        seat="Seat number (see /game status)", user="The new player", game=GAME_HELP
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 25],
        user: discord.User,
        game: int | None = None,
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.replace_seat(
            game_id, caller_of(interaction), seat, user.id, user.display_name, interaction.id
        )
        if result.changed and user.id == interaction.user.id:  # seated at once
            await follow_thread(self.bot, result.thread_id, user)
        await self.bot.poster.publish(interaction, result)

    @app_commands.command(
        name="rewind", description="Admin: take the game back to just after an action"
    )
    @app_commands.describe(action="Action number from /game history (0: the start)", game=GAME_HELP)
    async def rewind(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[int, 0],
        game: int | None = None,
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.rewind(game_id, caller_of(interaction), action, interaction.id),
        )

    @app_commands.command(
        name="remind", description="Admin: hours without a move before a reminder (0: none)"
    )
    @app_commands.describe(
        hours="Idle hours before the thread is reminded (default 24)", game=GAME_HELP
    )
    async def remind(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0, 8760],
        game: int | None = None,
    ) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction,
            await self.service.set_reminders(
                game_id, caller_of(interaction), hours, interaction.id
            ),
        )

    @app_commands.command(name="import", description="Open a game from an 18xx.games JSON file")
    @app_commands.describe(
        file="An 18xx.games game export (.json)",
        players="Who takes each seat, in the file's order: @mentions, - leaves a seat unclaimed",
    )
    async def import_file(
        self, interaction: discord.Interaction, file: discord.Attachment, players: str | None = None
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
        if interaction.id is not None and await self.service.store.seen_interaction(interaction.id):
            await reply(interaction, "That command was already handled.")
            return
        prepared = await self.service.prepare_import(caller, data, users)
        if isinstance(prepared, Result):  # refused before any thread is made
            await self.bot.poster.publish(interaction, prepared)
            return
        thread = await self._new_thread(
            interaction, f"{prepared.loaded.game.title} · imported by {caller.name}"
        )
        if thread is None:
            return
        result = await self.service.store_import(
            prepared,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            thread_id=thread.id,
            interaction_id=interaction.id,
        )
        await self._opened(interaction, thread, result)

    @app_commands.command(name="export", description="The game as an 18xx.games JSON file")
    @app_commands.describe(game=GAME_HELP)
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await _answer(
            interaction, await self.service.export(game_id, guild_id=interaction.guild_id)
        )

    # -- shared --------------------------------------------------------------------------------
    async def _game_id(self, interaction: discord.Interaction, game: int | None) -> int | None:
        return await game_or_refuse(self.bot, interaction, game)

    async def _image(self, interaction: discord.Interaction, game: int | None, view: str) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await _answer(
            interaction,
            await self.service.view(
                game_id, view, self.bot.renderer, guild_id=interaction.guild_id
            ),
        )

    async def _new_thread(
        self, interaction: discord.Interaction, name: str
    ) -> discord.Thread | None:
        """A public thread for a new game in this text channel (the answer is deferred)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(
                interaction,
                "Refused: open games from a server text channel; the game "
                "gets its own thread there",
            )
            return None
        try:
            return await channel.create_thread(
                name=name[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.Forbidden:
            await reply(
                interaction,
                "Refused: I may not create public threads in this channel; "
                "ask an admin for the Create Public Threads permission",
            )
            return None

    async def _opened(
        self, interaction: discord.Interaction, thread: discord.Thread, result: Result
    ) -> None:
        """After creating or importing: keep the thread only if the game exists."""
        if not result.ok or result.duplicate:
            await _discard(thread)
            await self.bot.poster.publish(interaction, result)
            return
        await add_to_thread(thread, interaction.user)
        self.bot.poster.queue(result)
        await reply(interaction, f"Game #{result.game_id} is open in {thread.mention}.")


async def _answer(interaction: discord.Interaction, result: Result) -> None:
    """A read-only answer, only to the caller (with its files, if any)."""
    if not result.ok:
        await reply(interaction, f"Refused: {result.error}")
    elif result.files:
        await reply_files(interaction, result.text, result.files)
    else:
        await reply(interaction, result.text)


async def _discard(thread: discord.Thread) -> None:
    """Remove the thread of a game that was not created after all (needs Manage Threads)."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.warning("could not delete unused thread %s: %s", thread.id, exc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(cast(BotContext, bot)))
