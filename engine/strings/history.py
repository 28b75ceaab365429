"""A String Railway game's series for its charts: each company's score after every round (a
round: every company takes one turn), and what it scored in each round, rails of others that
cost or gave it points included.

The game's log is replayed once (`Game.replayed`) and sampled whenever a round ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.series import Chart, ChartSeries, Line, by_set
from engine.strings.host import StringRailwayHost

CHARTS = {"score": "Each company's score", "per-round": "Score gained in each round"}


def round_label(game: StringRailwayHost) -> str:
    """The round under way as the status line counts it: "turn 2" (of five or four)."""
    return f"turn {game.turn // len(game.companies) + 1}"


@dataclass
class Samples:
    """Every company's score at the start, after every round and, unless a round just ended,
    now: `watch` sees the replayed game before its first action and after each, `end` after
    the last."""

    points: list[str] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)  # per point, per company
    label: str = ""  # the round under way
    since: int = 0  # actions since the last point

    def watch(self, game: StringRailwayHost) -> None:
        now = round_label(game)
        if not self.points:
            self.take(game, "start")
        elif now != self.label:
            self.take(game, self.label)
            self.since = 0
        else:
            self.since += 1
        self.label = now

    def end(self, game: StringRailwayHost) -> None:
        if self.since and not game.finished:  # a finished game's last round just ended
            self.take(game, self.label)

    def take(self, game: StringRailwayHost, name: str) -> None:
        self.points.append(name)
        self.scores.append([c.vp for c in game.companies])

    def series(
        self,
        title: str,
        name: str,
        companies: list[str],
        finished: bool,
        ranking: tuple[tuple[str, int], ...],
    ) -> ChartSeries:
        everything = tuple(self.points)
        rounds = everything[1:]
        pairs = zip(self.scores[1:], self.scores)
        gains = [[now - before for now, before in zip(*pair)] for pair in pairs]
        score = Chart(
            "score",
            CHARTS["score"],
            everything,
            by_set(everything, lambda _: True),
            _lines(companies, self.scores),
            unit=" VP",
        )
        per_round = Chart(
            "per-round",
            CHARTS["per-round"],
            rounds,
            by_set(rounds, lambda _: True),
            _lines(companies, gains),
            unit=" VP",
        )
        charts = (score, per_round) if rounds else (score,)
        return ChartSeries(title, name, finished, charts, ranking)


def _lines(names: list[str], columns: list[list[int]]) -> tuple[Line, ...]:
    return tuple(
        Line(name, tuple(column[i] for column in columns), seat=i) for i, name in enumerate(names)
    )
