"""`/stats`: a player's standing in the caller's server, a line per title: games, wins,
average place, rating and its trend, and how long they take to move. Games are rated as they
end (`ServiceBase._rate`); the computer's seats are rated by level, apart from people."""

from __future__ import annotations

from statistics import median

from bot.core import ratings
from bot.core.results import Caller, Result
from bot.core.service.base import ServiceBase
from bot.core.store import RatedGame, Standing
from engine.errors import GameError
from engine.titles import find_title

TREND_GAMES = 5  # the trend is the rating's change over this many newest games
TIMED_GAMES = 20  # the median time to move is read from this many newest games


class Standings(ServiceBase):
    async def stats(
        self, caller: Caller, user_id: int | None = None, title: str | None = None
    ) -> Result:
        """The standing of `user_id` (default: the caller) in the caller's server, in every
        title they were rated in or in `title` alone."""
        who = caller.user_id if user_id is None else user_id
        if title is not None:
            try:
                title = find_title(title).title
            except GameError as exc:
                return Result(error=str(exc))
        found = [
            s
            for s in await self.store.standings(caller.guild_id, who)
            if title is None or s.title == title
        ]
        name = caller.name if who == caller.user_id else await self._rated_name(caller, who)
        where = "here" if caller.guild_id is not None else "in this database"
        if not found:
            what = f" of {title}" if title else ""
            return Result(text=f"{name} has no finished game{what} {where} yet.")
        lines = [f"{name}'s standing {where} (rating: openskill's ordinal, from 0):"]
        for standing in found:
            recent = await self.store.rated_games(
                caller.guild_id, who, standing.title, limit=max(TREND_GAMES, TIMED_GAMES)
            )
            lines.append(await self._stats_line(who, standing, recent))
        return Result(text="\n".join(lines))

    async def time_to_move(self, game_id: int) -> str:
        """'Time to move: Ann 2h 05m used, 3m a move (median); Bob ...' for the people seated
        in a game (for a game id the service itself answered with)."""
        moves = (await self.store.move_times([game_id]))[game_id]
        clocks = [
            f"{s.name} {ratings.clock_text(ratings.turn_times(moves, s.user_id))}"
            for s in await self.store.seats(game_id)
            if s.user_id > 0
        ]
        return "Time to move: " + "; ".join(clocks) + "." if clocks else ""

    async def _stats_line(self, user_id: int, standing: Standing, recent: list[RatedGame]) -> str:
        rating = ratings.ordinal((standing.mu, standing.sigma))
        trend = recent[:TREND_GAMES]
        change = rating - ratings.ordinal(trend[-1].before) if trend else 0.0
        games = [g.game_id for g in recent[:TIMED_GAMES]]
        moves = await self.store.move_times(games)
        times = [t for g in games for t in ratings.turn_times(moves[g], user_id)]
        pace = f"{ratings.duration(median(times))} a move (median)" if times else "no move timed"
        won = "1 win" if standing.wins == 1 else f"{standing.wins} wins"
        played = "1 game" if standing.games == 1 else f"{standing.games} games"
        return (
            f"{standing.title}: rating {round(rating)} ({round(change):+d} over the last "
            f"{len(trend)}) · {played}, {won} · average place {standing.average_place:.1f} · "
            f"{pace}"
        )

    async def _rated_name(self, caller: Caller, user_id: int) -> str:
        """A player's name as their seats give it (their newest game here)."""
        for standing in await self.store.standings(caller.guild_id, user_id):
            for game in await self.store.rated_games(
                caller.guild_id, user_id, standing.title, limit=1
            ):
                for seat in await self.store.seats(game.game_id):
                    if seat.seat == game.seat:
                        return seat.name
        return f"Player {user_id}" if caller.guild_id is None else f"<@{user_id}>"
