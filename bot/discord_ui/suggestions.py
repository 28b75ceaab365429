"""Autocomplete within Discord's time: suggestions cannot be deferred, and Discord drops them
after 3 s. Each suggestion callback gets a budget; past it the user gets no suggestion this
keystroke while the search goes on in the background (the service keeps what it found per game
version, so the next keystroke is answered from it). Every command's `game:` option suggests
the user's games and those open to join, read from the store alone (no game is rebuilt)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar, cast

import discord
from discord import app_commands

from bot.computer.levels import LEVELS
from bot.core.clocks import TIMEOUTS
from bot.discord_ui.context import BotContext

log = logging.getLogger(__name__)

LIMIT = 25  # suggestions Discord shows at most
GAME_HELP = "Game number (default: this thread's game, or your only game here)"
COMPUTER_LEVELS = [app_commands.Choice(name=level, value=level) for level in LEVELS]
CLOCK_TIMEOUTS = [app_commands.Choice(name=way, value=way) for way in TIMEOUTS]
BUDGET = 2.0  # seconds, of the 3 Discord allows, leaving room for the answer's round trip
T = TypeVar("T")
_searching: set[asyncio.Task[Any]] = set()  # searches past their budget, kept until they end


def title_choices(titles: Iterable[str], current: str) -> list[app_commands.Choice[str]]:
    """The titles that contain what was typed, as suggestions."""
    typed = current.casefold()
    return [app_commands.Choice(name=t, value=t) for t in titles if typed in t.casefold()][:LIMIT]


Suggest = Callable[[Any, discord.Interaction, str], Coroutine[Any, Any, list[T]]]


def within_budget(suggest: Suggest[T]) -> Suggest[T]:
    @functools.wraps(suggest)
    async def answer(cog: Any, interaction: discord.Interaction, current: str) -> list[T]:
        return await budgeted(suggest(cog, interaction, current), suggest.__name__)

    return answer


async def budgeted(search: Coroutine[Any, Any, list[T]], name: str) -> list[T]:
    """The suggestions `search` finds within BUDGET, else none (it goes on in the
    background)."""
    running = asyncio.ensure_future(search)
    try:
        return await asyncio.wait_for(asyncio.shield(running), BUDGET)
    except TimeoutError:
        _searching.add(running)
        running.add_done_callback(_settled)
        log.info("suggestions for %s passed %.1f s; the search goes on", name, BUDGET)
        return []


async def suggest_games(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The `game:` option of every command: the user's games here and those open to join,
    e.g. "#12 · 1830 · your turn"."""
    bot = cast(BotContext, interaction.client)
    found = await budgeted(
        bot.service.game_choices(interaction.user.id, current, guild_id=interaction.guild_id),
        "games",
    )
    return [app_commands.Choice(name=label, value=game_id) for game_id, label in found][:LIMIT]


def suggest_games_everywhere(tree: app_commands.CommandTree) -> None:
    """Every command's `game:` option suggests games (commands added later get none)."""
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and "game" in command._params:
            if command._params["game"].autocomplete is None:
                command.autocomplete("game")(suggest_games)


def _settled(search: asyncio.Task[Any]) -> None:
    _searching.discard(search)
    if not search.cancelled() and search.exception() is not None:
        log.error("a suggestion search failed", exc_info=search.exception())
