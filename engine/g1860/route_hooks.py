"""1860's routes, as the game's rule hooks: whether a company can run at all (halts do not
count as stops), the route rules of its options and phase, checking the routes a player gives,
the leased train of an insolvent company, and the best routes (`router`). A mixin of
`Game1860`."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from engine.eighteen.board.graph import Goal
from engine.eighteen.board.routes import Run
from engine.eighteen.board.tiles import NodeKind
from engine.eighteen.entities import Corporation
from engine.g1860.host import Game1860Host
from engine.g1860.router import best_runs
from engine.g1860.routes import RouteRules, evaluate


class _RouteHost(Game1860Host, Protocol):
    """The game as these hooks use it: its options and its insolvency rule besides 1860's."""

    HALT_SUBSIDY: ClassVar[int]
    options: dict[str, Any]

    @property
    def insolvency_rule(self) -> str: ...
    def route_inputs(
        self, corp: Corporation
    ) -> tuple[dict[str, tuple[int, int, bool]], tuple[str, int] | None, set[str]]: ...


class RouteHooks1860:
    def can_run_route(self: Game1860Host, corp: Corporation) -> bool:
        """Its stations reach at least two cities, towns or Ryde Pier (halts do not count): a
        second station, or the first stop its walk finds besides its station (a whole reach of
        a dense late network costs seconds)."""
        network = self.board.network()
        stations = set(network.token_nodes(corp.sym))
        if len(stations) > 1:  # stations count among what they reach
            return True
        stops = frozenset(
            n
            for n, node in enumerate(network.nodes)
            if node.kind is not NodeKind.HALT and n not in stations
        )
        return self.board.reaches(corp.sym, Goal(nodes=stops))

    def route_rules(self: _RouteHost) -> RouteRules:
        return RouteRules(
            no_skip_towns=bool(
                self.options.get("no_skip_towns") or self.options.get("original_game")
            ),
            re_enter_hexes=bool(self.options.get("re_enter_hexes")),
            ignore_halts=self.sr_after_southern,
            nationalization=self.nationalization,
            halt_subsidy=self.HALT_SUBSIDY,
            insolvency=self.insolvency_rule,
        )

    def check_1860_routes(
        self: _RouteHost, corp: Corporation, routes: list[dict[str, Any]]
    ) -> tuple[int, int]:
        trains, home, flipped = self.route_inputs(corp)
        results = evaluate(
            self.board.network(),
            corp.sym,
            routes,
            trains,
            home,
            self.phases.current.offboard_color,
            self.route_rules(),
            flipped,
        )
        self.last_route_revenues = [r.revenue for r in results]
        return sum(r.revenue for r in results), sum(r.subsidy for r in results)

    def route_inputs(
        self: _RouteHost, corp: Corporation
    ) -> tuple[dict[str, tuple[int, int, bool]], tuple[str, int] | None, set[str]]:
        """Trains (id -> (big, small, leased)), home station and flipped companies for routes."""
        trains: dict[str, tuple[int, int, bool]] = {}
        if self.insolvent(corp):
            leased = min(self.depot.available(self.phases), key=lambda t: t.price)
            trains[leased.id] = (*leased.distance, True)  # type: ignore[misc]
        else:
            trains = {t.id: (*t.distance, False) for t in corp.trains}  # type: ignore[misc]
        home = next(
            ((corp.home, i) for i, _, c in self.board.tokens().get(corp.home, []) if c == corp.sym),
            None,
        )
        return trains, home, {c.sym for c in self.bankrupt_corps}

    def best_routes(self: _RouteHost, corp: Corporation) -> tuple[int, list[dict[str, Any]]]:
        """The exact best revenue and its routes in run_routes form (halts kept as subsidy)."""
        trains, home, flipped = self.route_inputs(corp)
        network = self.board.network()
        home_node = network.node_at.get(home) if home else None
        color = self.phases.current.offboard_color
        revenue, _, chosen = best_runs(
            network, corp.sym, trains, home_node, color, self.route_rules(), flipped
        )
        routes = []
        for train, c in chosen:
            route = Run(train, c.nodes, c.chains).to_dict(network, color)
            route["revenue"] = c.revenue
            route["subsidy"] = c.subsidy
            if c.halts is not None:
                route["halts"] = c.halts
            routes.append(route)
        return revenue, routes
