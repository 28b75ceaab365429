"""What standings are made of: ratings by openskill's Plackett-Luce model (a game of four is
one ranking of four, not three duels; tied players share a place), who a seat's result counts
for, and how long players take to move, read from the times of the action log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from statistics import median

from openskill.models import PlackettLuce

from bot.core.store import Entrant, SeatRecord
from engine.game import PlayerId

MODEL = PlackettLuce()
Skill = tuple[float, float]
FRESH: Skill = (MODEL.mu, MODEL.sigma)  # a player's rating before their first game


def rate(before: list[Skill], places: list[int]) -> list[Skill]:
    """Each entrant's rating after one game, from their ratings before it and their places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]


def ordinal(skill: Skill) -> float:
    """The rating shown: openskill's ordinal (mu - 3 sigma), which a player's first games
    raise as the model grows sure of them, and which starts at 0."""
    mu, sigma = skill
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def places(result: Mapping[PlayerId, int]) -> dict[PlayerId, int]:
    """Each player's place from the final scores: 1 plus how many scored more (a tie shares
    a place)."""
    return {p: 1 + sum(other > score for other in result.values()) for p, score in result.items()}


def entrants(seats: Iterable[SeatRecord], result: Mapping[PlayerId, int]) -> list[Entrant]:
    """Whom each seat's place counts for: the person holding it (even if the computer played
    for them a while), or the computer level playing a seat nobody holds. A seat nobody holds
    or plays (an imported game's, not yet claimed) counts for nobody."""
    placed = places(result)
    found = []
    for s in seats:
        if s.player_id is None or s.player_id not in placed:
            continue
        if s.user_id > 0:
            found.append(Entrant(s.seat, s.user_id, "", placed[s.player_id]))
        elif s.computer is not None:
            found.append(Entrant(s.seat, 0, s.computer, placed[s.player_id]))
    return found


def turn_times(moves: Sequence[tuple[int, str]], user_id: int) -> list[float]:
    """Seconds the game waited on `user_id` at each of their turns: from the action before a
    run of their own actions (someone else's) to the run's last one. Approximate: the log
    keeps when actions were stored, not when a turn began."""
    times = []
    start: str | None = None
    for n, (who, when) in enumerate(moves):
        if who != user_id:
            continue
        if n > 0 and moves[n - 1][0] != user_id:
            start = moves[n - 1][1]
        ends_run = n + 1 == len(moves) or moves[n + 1][0] != user_id
        if ends_run and start is not None:
            times.append((_at(when) - _at(start)).total_seconds())
            start = None
    return times


def clock_text(times: Sequence[float]) -> str:
    """'2h 05m used, 3m a move (median)' for a player's turn times in one game."""
    if not times:
        return "no move timed"
    return f"{duration(sum(times))} used, {duration(median(times))} a move (median)"


def duration(seconds: float) -> str:
    """A span as players read it: '45s', '12m', '3h 05m', '2d 4h'."""
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600}h"


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)
