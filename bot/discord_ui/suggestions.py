"""Autocomplete within Discord's time: suggestions cannot be deferred, and Discord drops them
after 3 s. Each suggestion callback gets a budget; past it the user gets no suggestion this
keystroke while the search goes on in the background (the service keeps what it found per game
version, so the next keystroke is answered from it)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord

log = logging.getLogger(__name__)

LIMIT = 25  # suggestions Discord shows at most
GAME_HELP = "Game number (default: this thread's game, or your only game here)"
BUDGET = 2.0  # seconds, of the 3 Discord allows, leaving room for the answer's round trip
T = TypeVar("T")
_searching: set[asyncio.Task[Any]] = set()  # searches past their budget, kept until they end


Suggest = Callable[[Any, discord.Interaction, str], Coroutine[Any, Any, list[T]]]


def within_budget(suggest: Suggest[T]) -> Suggest[T]:
    @functools.wraps(suggest)
    async def answer(cog: Any, interaction: discord.Interaction, current: str) -> list[T]:
        search = asyncio.ensure_future(suggest(cog, interaction, current))
        try:
            return await asyncio.wait_for(asyncio.shield(search), BUDGET)
        except TimeoutError:
            _searching.add(search)
            search.add_done_callback(_settled)
            log.info(
                "suggestions for %s passed %.1f s; the search goes on", suggest.__name__, BUDGET
            )
            return []

    return answer


def _settled(search: asyncio.Task[Any]) -> None:
    _searching.discard(search)
    if not search.cancelled() and search.exception() is not None:
        log.error("a suggestion search failed", exc_info=search.exception())
