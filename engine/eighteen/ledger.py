"""The money story of one action, told from the position before and after it.

The rules move cash and shares without narrating; this module compares two ledgers (every
holder's cash, every share price, who holds which percent, who owns which train and private)
and names each movement an action caused, the way a player reconstructs it from the thread:
sale proceeds, price before → after, dividends per holder, private income, token and terrain
costs, the president's part of a train. A movement no clause explains is still listed, so the
story is complete even for rare cases (bankruptcy, closures).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.eighteen.entities import Company, Corporation, Player
from engine.money import format_money

IPO, MARKET = "the IPO", "the market"


@dataclass(frozen=True)
class Ledger:
    cash: dict[str, int]  # players by name, corporations by symbol
    prices: dict[str, int | None]
    pars: dict[str, int | None]
    floated: frozenset[str]
    holdings: dict[tuple[str, str], int]  # (holder, corporation) -> percent
    privates: dict[str, tuple[str | None, int]]  # open private -> (owner, revenue)
    round: tuple[str, int, int]  # round name, turn, round number
    runs: dict[str, tuple[int, int]]  # operating turns finished, and the last one's payout
    currency: str = "$"  # £ in 1860


def take(game: Any) -> Ledger:
    """The money and paper of the position, keyed by the names the thread uses."""
    cash = {p.name: p.cash for p in game.player_list}
    cash.update({c.sym: c.cash for c in game.corporations})
    holdings: dict[tuple[str, str], int] = {}
    holders = [
        *((p, p.name) for p in game.player_list),
        *((c, IPO) for c in game.corporations),
        (game.pool, MARKET),
    ]
    for holder, label in holders:  # each certificate once
        for s in holder.shares:
            if label == IPO and s.corp is not holder:
                continue
            key = (label, s.corp.sym)
            holdings[key] = holdings.get(key, 0) + s.percent
    privates = {co.sym: (_owner(co.owner), co.revenue) for co in game.companies if not co.closed}
    r = game.round
    return Ledger(
        cash=cash,
        prices={c.sym: c.share_price.price if c.share_price else None for c in game.corporations},
        pars={c.sym: c.par_price.price if c.par_price else None for c in game.corporations},
        floated=frozenset(c.sym for c in game.corporations if c.floated),
        holdings=holdings,
        privates=privates,
        round=(r.name, game.turn, r.round_num),
        runs={
            c.sym: (
                len(c.operating_history),
                c.operating_history[-1][2] if c.operating_history else 0,
            )
            for c in game.corporations
        },
        currency=game.CURRENCY,
    )


def _owner(entity: Any) -> str | None:
    if isinstance(entity, Player):
        return entity.name
    if isinstance(entity, (Corporation, Company)):
        return entity.sym
    return None


@dataclass
class Flows:
    """Cash changes between two ledgers; clauses `take` what they tell, the rest is listed."""

    before: Ledger
    after: Ledger
    told: dict[str, int] = field(default_factory=dict)

    def money(self, amount: int | None) -> str:
        return "–" if amount is None else format_money(self.after.currency, amount)

    def delta(self, name: str) -> int:
        return self.after.cash.get(name, 0) - self.before.cash.get(name, 0)

    def untold(self, name: str) -> int:
        return self.delta(name) - self.told.get(name, 0)

    def take(self, name: str, amount: int | None = None) -> int:
        """Mark `amount` (default: all that is still untold) of name's change as told."""
        amount = self.untold(name) if amount is None else amount
        self.told[name] = self.told.get(name, 0) + amount
        return amount

    def spent(self, name: str) -> int:
        """What `name` paid in this action (0 when its cash did not fall)."""
        return -self.take(name) if self.untold(name) < 0 else 0

    def gains(self, exclude: str | None = None) -> list[tuple[str, int]]:
        """Untold increases, in table order (players, then corporations)."""
        return [(n, self.untold(n)) for n in self.after.cash if n != exclude and self.untold(n) > 0]

    def moved_shares(self, corp: str) -> dict[str, int]:
        """Percent of `corp` each holder gained (negative: gave up)."""
        keys = {k for k in (*self.before.holdings, *self.after.holdings) if k[1] == corp}
        return {
            h: self.after.holdings.get((h, c), 0) - self.before.holdings.get((h, c), 0)
            for h, c in keys
            if self.after.holdings.get((h, c), 0) != self.before.holdings.get((h, c), 0)
        }

    # -- what every action may set off ---------------------------------------------------------
    def floats(self) -> None:
        for sym in self.after.floated - self.before.floated:
            par = self.after.pars.get(sym) or 0
            self.take(sym, min(self.untold(sym), par * 10))

    def privates_bought(self) -> None:
        """Privates bought from the bank (the auction's sentences name them and their price)."""
        for sym, (owner, _) in self.after.privates.items():
            was = self.before.privates.get(sym, (None, 0))[0]
            if owner is not None and was is None and self.untold(owner) < 0:
                self.take(owner)

    def idle(self, dividend_by: str | None) -> list[str]:
        """Corporations whose turn ended with no revenue (no train or no route), but the one
        whose dividend this is."""
        return [
            sym
            for sym, (n, paid) in self.after.runs.items()
            if n > self.before.runs.get(sym, (0, 0))[0] and not paid and sym != dividend_by
        ]

    def idle_runs(
        self, dividend_by: str | None, told: str = "", subsidy: bool = False
    ) -> str | None:
        """Corporations whose turn ended with no revenue: nothing paid (unless `told` already
        says they skipped their run); with `subsidy`, what such a company still gained is its
        halt subsidy, named."""
        parts = []
        for sym in self.idle(dividend_by):
            gained = self.take(sym) if subsidy and self.untold(sym) > 0 else 0
            if f"{sym} skips Run Routes" in told and not gained:
                continue
            kept = (
                f" but its {self.money(gained)} halt subsidy, kept in its treasury"
                if gained
                else ""
            )
            parts.append(f"{sym} has no revenue this turn{kept}.")
        return " ".join(parts) or None

    def income(self) -> str | None:
        """Private income, when a new operating round began (or the auction paid it)."""
        due: dict[str, list[tuple[str, int]]] = {}
        for sym, (owner, revenue) in self.after.privates.items():
            if owner is not None and revenue:
                due.setdefault(owner, []).append((sym, revenue))
        began_or = (
            self.after.round != self.before.round and self.after.round[0] == "Operating Round"
        )
        matches = bool(due) and all(
            self.untold(o) == sum(r for _, r in items) for o, items in due.items()
        )
        if not due or not (began_or or matches):
            return None
        parts = []
        for owner, items in due.items():
            total = self.take(owner, sum(r for _, r in items))
            which = ", ".join(f"{s} {self.money(r)}" for s, r in items)
            parts.append(
                f"{owner} {self.money(total)}"
                + (f" ({which})" if len(items) > 1 else f" from {items[0][0]}")
            )
        return "Private income: " + "; ".join(parts) + "."

    def price_moves(self, reasons: dict[str, str] | None = None) -> str | None:
        """Every share price that moved, before → after, with its cause where the action's own
        sentence does not tell it (`reasons`: a company that earned nothing this turn)."""
        why = reasons or {}
        moves = [
            f"{sym} {self.money(old)} → {self.money(new)}"
            + (f" ({why[sym]})" if sym in why else "")
            for sym, old in self.before.prices.items()
            if old is not None and (new := self.after.prices.get(sym)) is not None and new != old
        ]
        if not moves:
            return None
        return ("Share price: " if len(moves) == 1 else "Share prices: ") + ", ".join(moves) + "."

    def rest(self) -> str | None:
        """Every cash change no clause told, so the story adds up."""
        parts = [
            f"{name} {'+' if d > 0 else '-'}{self.money(abs(d))} (now {self.money(self.after.cash[name])})"
            for name in self.after.cash
            if (d := self.untold(name))
        ]
        return ("Cash also moved: " + ", ".join(parts) + ".") if parts else None
