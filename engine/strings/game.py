"""String Railway as a railchat title: seats and companies, the turn (draw, place, lay), setup
choices, the contract's listings and the snapshot the renderer draws."""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction, InvalidAction, NotYourTurn
from engine.game import Action, Choice, Game, PlayerId
from engine.series import ChartSeries
from engine.strings import history, notation
from engine.strings import options as opts
from engine.strings import snapshot as table
from engine.strings.board import RAIL_KINDS, Board, Company, RailPlan
from engine.strings.choices import choices, free_spots, placement_hints
from engine.strings.geometry import Point, fmt
from engine.strings.hint import best_rails
from engine.strings.host import StringRailwayHost
from engine.strings.setup import (
    SECRET_SEEDS,
    base_square,
    chaotic_area,
    check_area,
    check_mountain,
    check_order,
    check_river,
    deck,
    deck_roll,
    generate_mountain,
    generate_river,
    map_roll,
    regular_area,
)
from engine.strings.stations import TYPES

SETUP_TYPES = ("reroll", "set_shape")
SHAPES = ("river", "mountain")


class StringRailway(Game):
    """Companies are seats; a two-person game seats each person twice (seats 1+3 and 2+4)."""

    title = "string_railway"
    full_name = "String Railway"
    min_players = 2
    max_players = 5
    option_names = opts.OPTION_NAMES
    # the undrawn stations, and the seed that shuffles them and rolls river and mountain
    hidden_settings = ("seed", "station_order")
    # fixed once the game is set up (a checkpoint keeps them as they are)
    CHECKPOINT_SHARED = Game.CHECKPOINT_SHARED + ("order", "area_points", "squares")
    board: Board  # built by _shape_table, again when the river or mountain is rolled anew

    @classmethod
    def new_seed(cls, randbits: Callable[[int], int]) -> int:
        """128 secret bits: the seed deals the deck, so it must be beyond any search."""
        return SECRET_SEEDS + randbits(128)

    # -- setup ---------------------------------------------------------------------------------
    def setup(self) -> None:
        o = self.options
        self.sizes = opts.sizes(o)
        self.expert = opts.expert(o)
        seats = list(self.players) * 2 if len(self.players) == 2 else list(self.players)
        self.persons = 2 if len(self.players) == 2 or opts.flag(o, "two_players") else len(seats)
        if opts.flag(o, "two_players") and len(seats) != 4:
            raise InvalidAction(
                "two_players means four seats: seats 1 and 3 are one person's, 2 and 4 the other's"
            )
        n = len(seats)
        given = opts.points("area", o.get("area"))
        if given is None:
            given = (
                chaotic_area(map_roll(self.seed, "area"), n)
                if opts.flag(o, "chaotic")
                else regular_area(3 if n == 3 else 5 if n == 5 else 4)
            )
        area = check_area(given)
        if len(given) < n:
            raise InvalidAction(
                f"the play area has {len(given)} corners; {n} companies need "
                f"one each for their bases"
            )
        self.area_points = given
        self.river_given = opts.points("river", o.get("river"))
        self.mountain_given = opts.points("mountain", o.get("mountain"))
        self.rolls = {"river": 0, "mountain": 0}
        self.max_rolls = int(opts.number(o, "rerolls", 3))
        order = opts.station_order(o.get("station_order"))
        self.order = check_order(order) if order is not None else deck(deck_roll(self.seed))
        self.squares = [base_square(area, given[i], self.sizes.station) for i in range(n)]
        self._shape_table()
        rails = {"short": 3 if n == 5 else 4, "long": 1}
        self.companies = []
        for i, seat in enumerate(seats):
            name = seat.name if len(self.players) != 2 else f"{seat.name} (B{i + 1})"
            self.companies.append(
                Company(i, seat.id, name, f"B{i + 1}", 3, dict(rails), {f"B{i + 1}"})
            )
        self.turns_each = sum(rails.values())
        self.turn = 0
        self.deck_pos = 0
        self.pending: list[str] = []
        self.started = False  # the first station is placed: setup choices are closed
        self.sentences: list[str] = []
        self.draws: list[int] = []  # the stations each action of the log drew
        self.last_plan: RailPlan | None = None
        self._begin_turn()

    def _shape_table(self, keep_river: bool = False) -> None:
        """(Re)build the board's river and mountain from what was given or rolled;
        `keep_river`: only the mountain changed (the river would come out the same)."""
        area = check_area(self.area_points)
        river: list[Point] | None
        if keep_river:
            river, river_line = self.board.river, self.board.river_line
        else:
            river = self.river_given
            if river is None:
                river = generate_river(
                    map_roll(self.seed, f"river:{self.rolls['river']}"),
                    area,
                    self.squares,
                    self.sizes,
                )
            river_line = check_river(river, area, self.sizes)
        mountain = self.mountain_given
        if mountain is None:
            mountain = generate_mountain(
                map_roll(self.seed, f"mountain:{self.rolls['mountain']}"),
                area,
                self.squares,
                river_line,
                self.sizes,
            )
        check_mountain(mountain, area, self.sizes)
        self.board = Board(self.area_points, river, mountain, self.sizes, self.expert)
        for i, sq in enumerate(self.squares):  # a new river or mountain keeps the bases
            self.board.add_base(f"B{i + 1}", sq, i)

    def setup_seat(self, what: str) -> int:
        """The company index whose seat lays the river or the mountain (as the rules assign)."""
        n = len(self.companies)
        if n == 3:
            return 1
        if n == 5:
            return 3 if what == "river" else 4
        return 2 if what == "river" else 3

    # -- turn flow -----------------------------------------------------------------------------
    @property
    def current(self) -> Company:
        return self.companies[self.turn % len(self.companies)]

    @property
    def finished(self) -> bool:
        return self.turn >= self.turns_each * len(self.companies)

    def _draw(self) -> str | None:
        if self.deck_pos >= len(self.order):
            return None
        self.deck_pos += 1
        return self.order[self.deck_pos - 1]

    def _begin_turn(self) -> None:
        """Take stations: one (the first player's first turn two), one more if a Village came."""
        if self.finished:
            return
        first = 2 if self.turn == 0 else 1
        drawn = [s for s in (self._draw() for _ in range(first)) if s is not None]
        if "village" in drawn:
            extra = self._draw()
            if extra is not None:
                drawn.append(extra)
        self.pending = drawn

    def _end_turn(self) -> None:
        self.turn += 1
        self._begin_turn()

    def active_players(self) -> list[PlayerId]:
        if self.finished:
            return []
        out = [self.current.player]
        if not self.started:  # a seat with a reroll left may still change its shape
            for what in ("river", "mountain"):
                pid = self.companies[self.setup_seat(what)].player
                if pid not in out and self.rolls[what] < self.max_rolls:
                    out.append(pid)
        return out

    # -- actions -------------------------------------------------------------------------------
    def _apply(self, action: Action, *, story: bool = True) -> Action:
        before = self.deck_pos
        recorded = self._handle(action)
        self.draws.append(self.deck_pos - before)
        return recorded

    def revealed(self, seq: int) -> bool:
        """A rail laid or forfeited ends the turn and draws the next company's stations."""
        return 0 < seq <= len(self.draws) and self.draws[seq - 1] > 0

    def _handle(self, action: Action) -> Action:
        kind = action["type"]
        if kind == "message":
            self.sentences.append(f"{action.get('entity')}: {action.get('message', '')}")
            return dict(action)
        handler = {
            "place_station": self._place,
            "set_aside_station": self._set_aside,
            "lay_rail": self._lay,
            "forfeit_rail": self._forfeit,
            "reroll": self._reroll,
            "set_shape": self._set_shape,
        }.get(kind)
        if handler is None:
            raise InvalidAction(
                f"unknown action {kind!r}; String Railway knows place_station, "
                "lay_rail, forfeit_rail, reroll, set_shape"
            )
        recorded, sentence = handler(action)
        self.sentences.append(sentence)
        return recorded

    def _entity(self, action: Action) -> PlayerId:
        if "entity" not in action:
            raise InvalidAction("the action needs an 'entity' (the acting player's id)")
        pid = action["entity"]
        for c in self.companies:
            if c.player == pid or str(c.player) == str(pid):
                return c.player
        raise InvalidAction(f"no player {pid!r} in this game")

    def _turn_of(self, action: Action) -> Company:
        pid = self._entity(action)
        if pid != self.current.player:
            raise NotYourTurn(f"it is {self.current.name}'s turn")
        return self.current

    def _place(self, action: Action) -> tuple[Action, str]:
        company = self._turn_of(action)
        if not self.pending:
            raise IllegalAction(
                f"{company.name} has no station to place; lay a rail (or forfeit one)"
            )
        kind = self.pending[0]
        x, y = action.get("x"), action.get("y")
        square = self.board.check_station(kind, x, y)  # type: ignore[arg-type]
        st = self.board.add_station(kind, square, company.index)
        self.pending.pop(0)
        self.started = True
        owned = f", owned by {company.name}" if st.owner is not None else ""
        return (
            {"type": "place_station", "entity": action["entity"], "x": x, "y": y},
            f"{company.name} placed {st.name} at {fmt(st.centre)}{owned}.",
        )

    def _set_aside(self, action: Action) -> tuple[Action, str]:
        """A drawn station that fits nowhere leaves the game unplaced (README: String Railway)."""
        company = self._turn_of(action)
        if not self.pending:
            raise IllegalAction(f"{company.name} has no drawn station to set aside")
        name = TYPES[self.pending[0]].display
        if not self.board.room().is_empty:
            raise IllegalAction(
                f"the {name} station still fits in the play area (e.g. centred "
                f"at {fmt(self.spot())}); place it"
            )
        self.pending.pop(0)
        return (
            {"type": "set_aside_station", "entity": action["entity"]},
            f"{company.name} set the drawn {name} station aside: it fits nowhere in the play area.",
        )

    def spot(self) -> tuple[float, float]:
        """One centre where the next drawn station fits (the roundest one found)."""
        return free_spots(self)[0]

    def plan(self, player: PlayerId, rail: str, path: list[Any]) -> RailPlan:
        """Check a rail the player's company would lay now and score it; changes nothing."""
        company = self._turn_of({"entity": player})
        if self.pending:
            raise IllegalAction(
                f"{company.name} must first place the drawn "
                f"{TYPES[self.pending[0]].display} station"
            )
        return self.board.plan_rail(self.companies, company.index, rail, path)

    def _lay(self, action: Action) -> tuple[Action, str]:
        path = action.get("path")
        plan = self.plan(action.get("entity"), action.get("rail"), path)  # type: ignore[arg-type]
        self.board.lay(self.companies, plan)
        self.last_plan = plan
        sentence = f"{self.current.name} laid {self.plan_text(plan)}"
        self._end_turn()
        return (
            {"type": "lay_rail", "entity": action["entity"], "rail": plan.kind, "path": plan.stops},
            sentence,
        )

    def _forfeit(self, action: Action) -> tuple[Action, str]:
        company = self._turn_of(action)
        rail = action.get("rail")
        if rail not in RAIL_KINDS:
            raise InvalidAction(f"a rail is 'short' or 'long', not {rail!r}")
        if self.pending:
            raise IllegalAction(
                f"{company.name} must first place the drawn "
                f"{TYPES[self.pending[0]].display} station"
            )
        if company.rails[rail] <= 0:
            raise IllegalAction(f"{company.name} has no {rail} rail left")
        company.rails[rail] -= 1
        self.last_plan = None
        self._end_turn()
        return (
            {"type": "forfeit_rail", "entity": action["entity"], "rail": rail},
            f"{company.name} gave up a {rail} rail.",
        )

    def _setup_words(self, what: str) -> str:
        """What the seat laying the river or mountain may still do with it."""
        left = self.max_rolls - self.rolls[what]
        again = f"roll the {what} again ({left} left) or " if left > 0 else ""
        return f"{self.companies[self.setup_seat(what)].name} may {again}lay the {what} by hand"

    def _setup_check(self, action: Action) -> str:
        what = action.get("what")
        if what not in ("river", "mountain"):
            raise InvalidAction("'what' is 'river' or 'mountain'")
        pid = self._entity(action)
        seat = self.companies[self.setup_seat(what)]
        if pid != seat.player:
            raise NotYourTurn(f"{seat.name} lays the {what}")
        if self.started:
            raise IllegalAction(f"the {what} can only change before the first station is placed")
        return what

    def _reroll(self, action: Action) -> tuple[Action, str]:
        what = self._setup_check(action)
        if self.rolls[what] >= self.max_rolls:
            raise IllegalAction(f"the {what} was already rolled again {self.max_rolls} times")
        self.rolls[what] += 1
        if what == "river":
            self.river_given = None
        else:
            self.mountain_given = None
        self._shape_table(keep_river=what == "mountain")
        return (
            {"type": "reroll", "entity": action["entity"], "what": what},
            f"{self.player_name(self._entity(action))} rolled a new {what} "
            f"({self.max_rolls - self.rolls[what]} more allowed).",
        )

    def _set_shape(self, action: Action) -> tuple[Action, str]:
        what = self._setup_check(action)
        pts = opts.points(what, action.get("points"))
        if not pts:
            raise InvalidAction("'points' lists the vertices")
        if what == "river":
            self.river_given = pts
        else:
            self.mountain_given = pts
        self._shape_table(keep_river=what == "mountain")
        return (
            {
                "type": "set_shape",
                "entity": action["entity"],
                "what": what,
                "points": [list(p) for p in pts],
            },
            f"{self.player_name(self._entity(action))} laid the {what} by hand.",
        )

    # -- what frontends read -------------------------------------------------------------------
    def plan_text(self, plan: RailPlan) -> str:
        """A rail and its score breakdown in one paragraph."""
        stops = "–".join(s if isinstance(s, str) else fmt(tuple(s)) for s in plan.stops)
        head = (
            f"a {plan.kind} rail {stops} ({plan.length:.1f} of "
            f"{self.sizes.long if plan.kind == 'long' else self.sizes.short:g})"
        )
        own = [c for c in plan.changes if c.company == plan.company]
        others = [c for c in plan.changes if c.company != plan.company]
        parts = [f"{c.vp:+d} {c.why}" for c in own] or ["no VP"]
        text = f"{head}: {', '.join(parts)}; {plan.gain(plan.company):+d} VP"
        for c in others:
            text += f"; {self.companies[c.company].name} {c.vp:+d} ({c.why})"
        if plan.free_crossings:
            text += f"; {len(plan.free_crossings)} crossing(s) on stations free"
        return text + "."

    def describe(self, action: Action) -> str:
        for i in range(len(self.actions) - 1, -1, -1):
            if self.actions[i] is action or self.actions[i] == action:
                return self.sentences[i]
        return f"{action.get('type')} by {action.get('entity')}"

    def status_text(self) -> str:
        scores = ", ".join(f"{c.name} {c.vp} VP" for c in self.companies)
        if self.finished:
            return f"String Railway is over. {scores}. {self.winner_text()}"
        c = self.current
        left = f"{c.rails['short']} short + {c.rails['long']} long rails left"
        if self.pending:
            todo = "places " + ", then ".join(TYPES[k].display for k in self.pending)
        else:
            todo = "lays a rail"
        head = (
            f"Turn {self.turn // len(self.companies) + 1} of {self.turns_each}: "
            f"{c.name} {todo} ({left})."
        )
        if not self.started:
            head += " Before the first station: " + "; ".join(map(self._setup_words, SHAPES)) + "."
        return f"{head} {scores}."

    def result(self) -> dict[PlayerId, int]:
        if len(self.players) == 2:  # one person, two companies: the best one counts
            return {
                p.id: max(c.vp for c in self.companies if c.player == p.id) for p in self.players
            }
        return {c.player: c.vp for c in self.companies}

    def score_text(self, score: int) -> str:
        return f"{score} VP"

    def winners(self) -> list[str]:
        """Names of the winners (ties share the win); two persons compare best, then other."""
        if self.persons == 2:
            by = {}
            for i in (0, 1):
                mine = sorted((self.companies[i].vp, self.companies[i + 2].vp), reverse=True)
                by[i] = tuple(mine)
            best = max(by.values())
            return [self.player_name(self.companies[i].player) for i in (0, 1) if by[i] == best]
        top = max(c.vp for c in self.companies)
        return [c.name for c in self.companies if c.vp == top]

    def winner_text(self) -> str:
        names = self.winners()
        if len(names) == 1:
            return f"{names[0]} wins."
        return f"Shared win: {' and '.join(names)}." if self.persons != 2 else "A draw."

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        opts.check(dict(options))

    @classmethod
    def options_from_settings(cls, settings: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(settings) - set(opts.OPTION_NAMES) - {"seed"})
        if unknown:
            raise InvalidAction(
                f"unknown String Railway setting(s): {', '.join(unknown)}; known: "
                f"{', '.join(opts.OPTION_NAMES)}"
            )
        return {k: v for k, v in settings.items() if k != "seed" and v is not None}

    def file_settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in self.options.items()}
        for key in ("river", "mountain"):  # given shapes as [x, y] lists, as files hold them
            given = opts.points(key, self.options.get(key))
            if given is not None:
                out[key] = [list(p) for p in given]
        out.update(
            {
                "seed": self.seed,
                "area": [list(p) for p in self.area_points],
                "station_order": list(self.order),
                "variant": "expert" if self.expert else None,
            }
        )
        return out

    def views(self) -> tuple[str, ...]:
        return ("map",)

    def typed_action(self, entity: PlayerId, action_type: str, typed: Mapping[str, str]) -> Action:
        return notation.typed_action(self, entity, action_type, typed)

    def preview(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """A rail's check and score breakdown, and the board with it drawn in."""
        if action.get("type") != "lay_rail":
            return None
        plan = self.plan(action.get("entity"), action.get("rail"), action.get("path"))  # type: ignore[arg-type]
        return f"{self.current.name} would lay {self.plan_text(plan)}", table.snapshot(self, plan)

    def hints(self, player: PlayerId) -> list[Choice]:
        if self.finished or self.current.player != player:
            return []
        if self.pending:  # a drawn station first: where the company's next rail reaches it
            return placement_hints(self, player)
        out = []
        for plan in best_rails(self):
            stops = " ".join(
                s if isinstance(s, str) else f"({s[0]:g} {s[1]:g})" for s in plan.stops
            )
            out.append(
                Choice(
                    f"{plan.kind} rail {stops}: {plan.gain(plan.company):+d} VP",
                    {
                        "type": "lay_rail",
                        "entity": player,
                        "rail": plan.kind,
                        "path": list(plan.stops),
                    },
                )
            )
        return out

    def player_view(self) -> StringRailway:
        """A copy without what no player sees: the stations not drawn yet (the deck keeps only
        those drawn), the seed (which deals the deck and the rerolled river and mountain, so a
        reroll on the copy shows some shape, not the one to come) and a `station_order` given
        at creation. The history is left out too: its saved states hold the seed."""
        hidden = {k: v for k, v in self.options.items() if k != "station_order"}
        unchanged = type(self._unchanged)()
        memo: dict[int, Any] = {
            id(self.order): self.order[: self.deck_pos],
            id(self.options): hidden,
            id(self._history): [],
            id(self._unchanged): unchanged,
        }
        view = copy.deepcopy(self, memo)
        view.seed = 0
        return view

    def legal_actions(self, player: PlayerId, kinds: Collection[str] | None = None) -> list[Choice]:
        found = choices(self, player, kinds)
        return found if kinds is None else [c for c in found if c.action["type"] in kinds]

    def action_fields(self) -> Mapping[str, frozenset[str]] | None:
        return {
            "place_station": frozenset({"x", "y"}),
            "set_aside_station": frozenset(),
            "lay_rail": frozenset({"rail", "path"}),
            "forfeit_rail": frozenset({"rail"}),
            "reroll": frozenset({"what"}),
            "set_shape": frozenset({"what", "points"}),
            "message": frozenset({"message"}),
        }

    def acting_player(self, action: Action) -> PlayerId | None:
        """Every String Railway move names the acting player's id as its entity."""
        return self._entity(action) if "entity" in action else None

    def explain(self, action_type: str) -> str | None:
        if self.finished:
            return "the game is over"
        if action_type in ("place_station", "set_aside_station") and not self.pending:
            return "every drawn station is placed; lay (or forfeit) a rail"
        if action_type in ("lay_rail", "forfeit_rail") and self.pending:
            return f"first place the drawn {TYPES[self.pending[0]].display} station"
        if action_type in SETUP_TYPES and self.started:
            return "river and mountain are fixed once the first station is placed"
        return None

    def snapshot(self) -> dict[str, Any]:
        return table.snapshot(self)

    def chart_names(self) -> tuple[tuple[str, str], ...]:
        return tuple(history.CHARTS.items())

    def chart_series(self) -> ChartSeries:
        samples = history.Samples()
        samples.end(self.replayed(samples.watch))
        names = [c.name for c in self.companies]
        return samples.series(self.title, self.full_name, names, self.finished, self.ranking())


if TYPE_CHECKING:  # mypy checks here that the game is what its helpers are given as their game
    _meets_host: type[StringRailwayHost] = StringRailway
