"""The `/game` command group: open, join, start and follow games; generic act and undo.

Each command is a thin translation between an interaction and one service call; rules and
permissions live in the service and the engine.
"""
from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_io import (NO_GAME_HERE, add_to_thread, caller_of, game_thread, post_text,
                            publish, reply, resolve_game)
from bot.parsing import parse_action, parse_options

if TYPE_CHECKING:
    from bot.discord_app import RailchatBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
THREAD_ARCHIVE_MINUTES = 10080  # a week: games move slowly


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game",
              group_description="Open, join and follow railway games"):
    def __init__(self, bot: RailchatBot) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    # -- seating -------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a new game in a thread of this channel")
    @app_commands.describe(title="Game title, e.g. 1830",
                           seats="Number of seats (default: the title's maximum)",
                           options="Options, comma separated: name or name=value")
    async def new(self, interaction: discord.Interaction, title: str,
                  seats: app_commands.Range[int, 1, 25] | None = None,
                  options: str | None = None) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(interaction, "Refused: open games from a server text channel; the game "
                                     "gets its own thread there")
            return
        try:
            parsed = parse_options(options)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        check = self.service.check_new_game(title, seats, parsed)
        if not check.ok:
            await reply(interaction, f"Refused: {check.error}")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        try:
            thread = await channel.create_thread(
                name=f"{title} · {caller.name}'s game"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.Forbidden:
            await reply(interaction, "Refused: I may not create public threads in this channel; "
                                     "ask an admin for the Create Public Threads permission")
            return
        result = await self.service.create_game(
            caller, title, seats=seats, options=parsed, guild_id=interaction.guild_id,
            channel_id=channel.id, thread_id=thread.id, interaction_id=interaction.id)
        if not result.ok or result.duplicate:
            await _discard(thread)
            await publish(self.bot, interaction, result)
            return
        await thread.send(post_text(result))
        await add_to_thread(thread, interaction.user)
        await reply(interaction, f"Game #{result.game_id} is open in {thread.mention}.")

    @new.autocomplete("title")
    async def _title_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=t, value=t) for t in self.service.titles()
                if current.lower() in t.lower()][:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="join", description="Take a seat in a game that has not started")
    @app_commands.describe(game="Game number (default: this thread's game)")
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.join(game_id, caller_of(interaction), interaction.id)
        if result.changed and result.thread_id is not None:
            thread = await game_thread(self.bot, result.thread_id)
            if thread is not None:
                await add_to_thread(thread, interaction.user)
        await publish(self.bot, interaction, result)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    @app_commands.describe(game="Game number (default: this thread's game)")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await publish(self.bot, interaction,
                      await self.service.leave(game_id, caller_of(interaction), interaction.id))

    @app_commands.command(name="start", description="Start the game (creator or admin)")
    @app_commands.describe(game="Game number (default: this thread's game)")
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await publish(self.bot, interaction,
                      await self.service.start(game_id, caller_of(interaction), interaction.id))

    # -- playing -------------------------------------------------------------------------------
    @app_commands.command(name="act", description="Make a move given as a JSON action")
    @app_commands.describe(action='The move, e.g. {"type": "pass"}; suggestions list your options',
                           game="Game number (default: this thread's game)")
    async def act(self, interaction: discord.Interaction, action: str,
                  game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        try:
            parsed = parse_action(action)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        await publish(self.bot, interaction, await self.service.act(
            game_id, caller_of(interaction), parsed, interaction.id))

    @act.autocomplete("action")
    async def _action_choices(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        game_id = resolve_game(self.bot, interaction, interaction.namespace.game)
        if game_id is None:
            return []
        choices = []
        for choice in await self.service.legal_actions(game_id, interaction.user.id):
            value = json.dumps(choice.action, separators=(",", ":"))
            if current.lower() in choice.label.lower() and len(value) <= 100:
                choices.append(app_commands.Choice(name=choice.label[:100], value=value))
        return choices[:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="undo", description="Take back the last action (its author or admin)")
    @app_commands.describe(game="Game number (default: this thread's game)")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        await publish(self.bot, interaction,
                      await self.service.undo(game_id, caller_of(interaction), interaction.id))

    # -- reading -------------------------------------------------------------------------------
    @app_commands.command(name="status", description="Show where a game stands (only to you)")
    @app_commands.describe(game="Game number (default: this thread's game)")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await self._game_id(interaction, game)) is None:
            return
        result = await self.service.status(game_id)
        await reply(interaction, result.text if result.ok else f"Refused: {result.error}")

    @app_commands.command(name="list", description="List this server's open and running games")
    async def list_games(self, interaction: discord.Interaction) -> None:
        await reply(interaction, self.service.list_games(guild_id=interaction.guild_id).text)

    @app_commands.command(name="help", description="Explain the game commands")
    async def help(self, interaction: discord.Interaction) -> None:
        lines = [f"/game {c.name} — {c.description}" for c in self.walk_app_commands()
                 if isinstance(c, app_commands.Command)]
        titles = ", ".join(self.service.titles()) or "none installed"
        await reply(interaction, "\n".join([*lines, f"Titles: {titles}.",
                                            "Players act in the game's thread; the bot pings "
                                            "whoever must act next."]))

    # -- shared --------------------------------------------------------------------------------
    async def _game_id(self, interaction: discord.Interaction, game: int | None) -> int | None:
        game_id = resolve_game(self.bot, interaction, game)
        if game_id is None:
            await reply(interaction, f"Refused: {NO_GAME_HERE}")
        return game_id

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Answer the user; the command tree logs the error with its traceback."""
        await reply(interaction, "Something went wrong on my side while handling that command; "
                                 "it has been logged. Check /game status before retrying.")


async def _discard(thread: discord.Thread) -> None:
    """Remove the thread of a game that was not created after all (needs Manage Threads)."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.warning("could not delete unused thread %s: %s", thread.id, exc)


async def setup(bot: RailchatBot) -> None:
    await bot.add_cog(GameCog(bot))
