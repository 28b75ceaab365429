"""One train kind's routes, best first, as bit masks cut into chunks of CHUNK routes: for each
chain of track, the routes it keeps out (sharing track with it), and which routes stop at the
home station or pass no full station. The routes still free beside a chosen set of track are
then read chunk by chunk, best first, and a search stops reading as soon as the routes left are
worth too little: it never touches the thousands of lesser routes of a late-game network.

Inside a chunk the best route is the highest bit, so the best free one is `bit_length() - 1`,
and no mask is ever negated (negating a long integer costs far more than an `or`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

CHUNK = 4096


class Route(Protocol):
    @property
    def chain_bits(self) -> int: ...  # the chains it runs along, as bits of their ids
    @property
    def node_bits(self) -> int: ...  # the stations it visits, as bits of their ids
    @property
    def passes_full(self) -> bool: ...
    @property
    def back_chains(self) -> Sequence[Any]: ...  # its two arms' chains, each from its station out
    @property
    def ahead_chains(self) -> Sequence[Any]: ...


R = TypeVar("R", bound=Route)


_FLIP = str.maketrans("01", "10")


class RouteIndex(Generic[R]):
    """`routes` sorted best first with their `values`; `overlap[c]`: the chains sharing track
    with chain c (c included) as bits of their ids."""

    def __init__(
        self, routes: Sequence[R], values: list[int], overlap: dict[int, int], home: int
    ) -> None:
        self.routes = routes
        self.values = values
        n = len(routes)
        self.bounds = [(lo, min(lo + CHUNK, n)) for lo in range(0, n, CHUNK)]
        # one row of bits a route: visits home, passes a full station, then its chains; a column
        # of these rows is a mask over the routes, the best one its highest bit
        width = max(overlap, default=0) + 1
        form = f"0{width + 2}b"
        rows = "".join(
            [
                format(
                    ((r.node_bits >> home & 1) << 1 | r.passes_full) << width | r.chain_bits, form
                )
                for r in routes
            ]
        )
        row = width + 2
        home_column, full_column = rows[0::row], rows[1::row]
        uses = {chain: int(rows[row - 1 - chain :: row] or "0", 2) for chain in overlap}
        self.whole_blocks: dict[int, int] = {}
        for chain, others in overlap.items():
            mask = 0
            rest = others
            while rest:
                low = rest & -rest
                mask |= uses.get(low.bit_length() - 1, 0)
                rest ^= low
            self.whole_blocks[chain] = mask
        self.blocks = {
            chain: self._chunks(format(mask, f"0{n}b")) for chain, mask in self.whole_blocks.items()
        }
        self.full = [(1 << (hi - lo)) - 1 for lo, hi in self.bounds]
        not_full_column = full_column.translate(_FLIP)
        self.home, self.not_full = self._chunks(home_column), self._chunks(not_full_column)
        self.whole_all = (1 << n) - 1
        self.whole_home, self.whole_not_full = (
            int(home_column or "0", 2),
            int(not_full_column or "0", 2),
        )
        self._arms: dict[int, int] = {}
        self._arm_values: dict[int, int] = {}
        self._arm_tuples: dict[int, tuple[int, int]] = {}

    def _chunks(self, row: str) -> list[int]:
        return [int(row[lo:hi], 2) for lo, hi in self.bounds]

    def free(
        self, used: int, start: int = 0, need_home: bool = False, need_not_full: bool = False
    ) -> Iterator[int]:
        """The routes from place `start` on sharing no track with the chains `used` (bits), best
        first; with `need_home` only those visiting the home station, with `need_not_full` only
        those passing no full station."""
        chains = []
        rest = used
        while rest:
            low = rest & -rest
            masks = self.blocks.get(low.bit_length() - 1)
            if masks is not None:
                chains.append(masks)
            rest ^= low
        for j in range(start // CHUNK, len(self.bounds)):
            lo, hi = self.bounds[j]
            blocked = 0
            for masks in chains:
                blocked |= masks[j]
            free = self.full[j] ^ blocked
            if start > lo:
                free &= (1 << (hi - start)) - 1
            if need_home:
                free &= self.home[j]
            if need_not_full:
                free &= self.not_full[j]
            top = hi - 1
            while free:
                bit = free.bit_length() - 1
                yield top - bit
                free ^= 1 << bit

    def best_free(self, used: int) -> int:
        """The value of the best route sharing no track with `used` (0 if none)."""
        return next((self.values[at] for at in self.free(used)), 0)

    def _arm(self, chains: Sequence[Any]) -> tuple[int, int]:
        """(chains as bits, routes sharing track with them) of one arm of a route, its chains
        in order from the station out; remembered per arm and grown from the arm one shorter."""
        answer = self._arm_tuples.get(id(chains))
        if answer is not None:
            return answer
        bits = mask = 0
        for chain in chains:
            bits |= 1 << chain.id
            found = self._arms.get(bits)
            if found is None:
                found = self._arms[bits] = mask | self.whole_blocks.get(chain.id, 0)
            mask = found
        answer = self._arm_tuples[id(chains)] = (bits, mask)
        return answer

    def partner_bound(
        self, chosen: Sequence[R], need_home: bool, need_not_full: bool, floor: int
    ) -> int:
        """At least the value of the best route sharing no track with the `chosen` routes (with
        `need_home` or `need_not_full`, among those visiting the home station or passing no full
        one): first from each arm of theirs alone; only if that is above `floor`, from all of
        their arms together."""
        masks = []
        bound = self.values[0] if self.values else 0
        for route in chosen:
            for arm in (route.back_chains, route.ahead_chains):
                bits, mask = self._arm(arm)
                value = self._arm_values.get(bits)
                if value is None:
                    value = self._arm_values[bits] = self._top(self.whole_all ^ mask)
                bound = min(bound, value)
                masks.append(mask)
        if bound <= floor:
            return bound
        blocked = 0
        for mask in masks:
            blocked |= mask
        free = self.whole_all ^ blocked
        if need_home:
            free &= self.whole_home
        if need_not_full:
            free &= self.whole_not_full
        return min(bound, self._top(free))

    def _top(self, free: int) -> int:
        return self.values[len(self.values) - free.bit_length()] if free else 0
