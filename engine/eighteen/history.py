"""An 18xx game's series for its charts: each player's worth (as the title's result counts it:
cash, certificates at market value, privates at face), each company's share price, sampled at
the end of every round, and each company's revenue in every operating round.

The game's log is replayed once (`Game.replayed`) and sampled whenever the round changes; a
round is named as players name it ("SR 2", "OR 3.1"). An action that ends several rounds at once
(rounds in which nobody could act) gives one point, named after the round it began in. A game
under way ends on the round under way: its revenue is that of the companies that ran so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.eighteen.operating import OperatingRound
from engine.eighteen.rounds import EighteenHost
from engine.eighteen.stock import StockRound
from engine.game import PlayerInfo
from engine.series import Chart, ChartSeries, Line, by_set

CHARTS = {
    "worth": "Each player's worth",
    "prices": "Share prices",
    "revenue": "Revenue per operating round",
}
RoundKey = tuple[str, int, int]  # "OR", "SR" or "Auction"; the set's number; the OR's number


def round_key(game: EighteenHost) -> RoundKey:
    r = game.round
    if isinstance(r, OperatingRound):
        return "OR", game.turn, r.round_num
    return ("SR" if isinstance(r, StockRound) else "Auction"), game.turn, 1


def round_label(key: RoundKey) -> str:
    """A round as players write it: "Auction", "SR 2", "OR 3.1"."""
    kind, turn, number = key
    if kind == "OR":
        return f"OR {turn}.{number}"
    return f"SR {turn}" if kind == "SR" else kind


@dataclass
class Samples:
    """The values taken along a replay, one column per point: `watch` sees the replayed game
    before its first action and after each, `end` after the last."""

    seats: list[PlayerInfo]
    points: list[str] = field(default_factory=list)
    worth: list[list[int]] = field(default_factory=list)  # per point, per seat
    prices: list[list[int | None]] = field(default_factory=list)  # per point, per company
    or_points: list[str] = field(default_factory=list)
    revenue: list[list[int | None]] = field(default_factory=list)  # per OR, per company
    key: RoundKey | None = None  # the round under way
    since: int = 0  # actions since the last point

    def watch(self, game: EighteenHost) -> None:
        now = round_key(game)
        if self.key is None:
            self.take(game, None)
        elif now != self.key:
            self.take(game, self.key)
            self.since = 0
        else:
            self.since += 1
        self.key = now

    def end(self, game: EighteenHost) -> None:
        if self.since:
            self.take(game, self.key)

    def take(self, game: EighteenHost, key: RoundKey | None) -> None:
        """The values now, as the point of round `key` (None: the start). The companies that
        ran in that round are found by its number, since the action that ended it may have
        played the next round's first turns too (a company without trains runs at once)."""
        self.points.append("start" if key is None else round_label(key))
        players = {p.id: p for p in game.player_list}
        self.worth.append([game.player_value(players[seat.id]) for seat in self.seats])
        self.prices.append(
            [
                c.share_price.price if c.share_price is not None and not c.closed else None
                for c in game.corporations
            ]
        )
        if key is None or key[0] != "OR":
            return
        self.or_points.append(round_label(key))
        self.revenue.append(
            [
                next((run[3] for run in c.operating_history if run[:2] == key[1:]), None)
                for c in game.corporations
            ]
        )

    def series(
        self,
        title: str,
        corporations: list[str],
        currency: str,
        finished: bool,
        ranking: tuple[tuple[str, int], ...],
    ) -> ChartSeries:
        points = tuple(self.points)
        axis = by_set(points, lambda p: p.startswith("SR "))
        worth = tuple(
            Line(seat.name, tuple(column[i] for column in self.worth), seat=i)
            for i, seat in enumerate(self.seats)
        )
        charts = [
            Chart("worth", CHARTS["worth"], points, axis, worth, currency=currency),
            Chart(
                "prices",
                CHARTS["prices"],
                points,
                axis,
                _company_lines(corporations, self.prices),
                currency=currency,
            ),
        ]
        if self.or_points:
            or_points = tuple(self.or_points)
            charts.append(
                Chart(
                    "revenue",
                    CHARTS["revenue"],
                    or_points,
                    by_set(or_points, lambda p: p.endswith(".1")),
                    _company_lines(corporations, self.revenue),
                    currency=currency,
                )
            )
        return ChartSeries(title, title, finished, tuple(charts), ranking)


def _company_lines(corps: list[str], columns: list[list[int | None]]) -> tuple[Line, ...]:
    """A line per company that has a value somewhere (the others never started)."""
    lines = (Line(sym, tuple(column[i] for column in columns)) for i, sym in enumerate(corps))
    return tuple(line for line in lines if line.last is not None)
