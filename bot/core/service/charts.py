"""Charts of how a game went: `/game view chart` at any time, and every chart for the post that
ends a game. The engine's series replays the whole log (0.1 to 0.8 s for a long 18xx game), so
it is computed off the event loop once per game version and seats, and kept for a few games;
the drawing runs off the event loop too, after the game's lock is let go (the series is
immutable).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from bot.core.results import Refused, Result
from bot.core.service.base import GameMoved, ServiceBase, version_key
from bot.core.store import GameRecord
from engine.game import Game
from engine.series import ChartSeries

# Draws one chart (by its key) of a game's series as PNG bytes; supplied by render/.
ChartDrawer = Callable[[ChartSeries, str], bytes]
ALL = "all"
SERIES_KEPT = 8  # games whose series are kept (a few kilobytes each)


class Charts(ServiceBase):
    async def chart(
        self,
        game_id: int,
        which: str | None,
        draw: ChartDrawer | None,
        *,
        guild_id: int | None = None,
    ) -> Result:
        """A chart of the game for the caller (`files` holds it as `chart-<key>.png`): the one
        named by `which` or by the start of its name, every one for "all", the title's first
        when none is named."""
        found: list[tuple[ChartSeries, list[str]]] = []

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            if draw is None:
                raise Refused("images are not available here (no renderer installed)")
            series = await self._series_of(record, await self._live(record))
            keys = _picked(series, (which or "").strip())
            found.append((series, keys))
            return Result(
                text=f"Game #{record.id} · {', '.join(keys)}",
                game_id=record.id,
                thread_id=record.thread_id,
            )

        result = await self._run(game_id, None, body, guild_id)
        if not result.ok or draw is None:
            return result
        series, keys = found[0]
        pngs = await asyncio.to_thread(lambda: [(f"chart-{k}.png", draw(series, k)) for k in keys])
        return replace(result, files=tuple(pngs))

    async def final_charts(
        self, game_id: int, draw: ChartDrawer | None, *, version: int | None = None
    ) -> tuple[ChartSeries | None, dict[str, bytes]]:
        """The series and every chart of the game as it stands at `version` (GameMoved when it
        moved on), for the thread's post at its end; no series when the title draws none, no
        charts without `draw`. For a game id the service itself answered with (no server
        check)."""
        async with self._holding(game_id):
            record = await self._record(game_id, await self._guild_of(game_id))
            if version is not None and record.version != version:
                raise GameMoved(f"game {record.id} is at version {record.version}, not {version}")
            try:
                series = await self._series_of(record, await self._live(record))
            except Refused:
                return None, {}
        if draw is None:
            return series, {}
        keys = _picked(series, ALL)
        pngs = await asyncio.to_thread(lambda: {f"chart-{k}.png": draw(series, k) for k in keys})
        return series, pngs

    async def _series_of(self, record: GameRecord, game: Game) -> ChartSeries:
        """The game's series, computed once per version and seats (the caller holds its lock)."""
        key = (record.id, version_key(record.version, await self._seats(record.id)))
        series = self._series.get(key)
        if series is None:
            series = await asyncio.to_thread(game.chart_series)
            if series is None:
                raise Refused(f"{record.title} games have no charts")
            self._series[key] = series
            while len(self._series) > SERIES_KEPT:
                self._series.popitem(last=False)
        self._series.move_to_end(key)
        return series


def _picked(series: ChartSeries, which: str) -> list[str]:
    """The keys of the charts asked for, of those with something to draw yet."""
    drawable = [c.key for c in series.charts if any(line.last for line in c.lines)]
    if not drawable:
        raise Refused("there is nothing to chart yet")
    if which.casefold() == ALL:
        return drawable
    if not which:
        return drawable[:1]
    try:
        key = series.chart(which).key
    except KeyError:
        raise Refused(
            f"{series.name} has no {which!r} chart; its charts: {', '.join(series.keys())} "
            f"(or {ALL})"
        ) from None
    if key not in drawable:
        raise Refused(f"the {key} chart has nothing to draw yet")
    return [key]
