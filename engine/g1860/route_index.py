"""One train kind's routes, best first, as bit masks cut into chunks of CHUNK routes: for each
chain of track, the routes it keeps out (sharing track with it), and which routes stop at the
home station or pass no full station. The routes still free beside a chosen set of track are
then read chunk by chunk, best first, and a search stops reading as soon as the routes left are
worth too little: it never touches the thousands of lesser routes of a late-game network.

A chunk's masks are made when a search first reads it, so the lesser routes are never indexed
either. Inside a chunk the best route is the highest bit, so the best free one is
`bit_length() - 1`, and no mask is ever negated (negating a long integer costs far more than an
`or`)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence

CHUNK = 4096


_WORD = (1 << 64) - 1
# _BIT[j]: each byte written as "1" when its bit j is set, else "0"
_BIT = [bytes(49 if value >> j & 1 else 48 for value in range(256)) for j in range(8)]


def _bytes(rows: list[int], word: int, words: int) -> bytes:
    """Word `word` (bits 64 * word on) of each row of `words` words, one row after the other,
    each as 8 bytes, least significant first."""
    words_of = array("Q", rows if words == 1 else [row >> 64 * word & _WORD for row in rows])
    if sys.byteorder == "big":
        words_of.byteswap()
    return words_of.tobytes()


class RouteIndex:
    """Routes sorted best first, known by their `values`; `overlap[c]`: the chains sharing track
    with chain c (c included) as bits of their ids."""

    def __init__(
        self,
        values: list[int],
        overlap: dict[int, int],
        rows: Callable[[int, int], Iterable[int]],
        width: int,
        arm_links: Sequence[tuple[int, int]],
    ) -> None:
        """`rows(lo, hi)`: for each route from place lo to hi, whether it visits home (bit
        width + 1) and passes a full station (bit width), and its chains (bits of their ids;
        `width` is above every chain's id). A route is made of one or two arms, lines of track
        out of its station: `arm_links[arm]` is (the arm one chain shorter or -1, its last
        chain's id)."""
        self.values = values
        n = len(values)
        self.bounds = [(lo, min(lo + CHUNK, n)) for lo in range(0, n, CHUNK)]
        self.full = [(1 << (hi - lo)) - 1 for lo, hi in self.bounds]
        self.tops = [values[lo] for lo, _ in self.bounds] + [0]  # each chunk's best value
        self._rows = rows
        self._overlap = overlap
        self._width = width
        # per chain, per chunk made so far: the routes sharing track with it
        self.blocks: dict[int, list[int]] = {chain: [] for chain in overlap}
        self.home: list[int] = []
        self.not_full: list[int] = []
        self.arm_links = arm_links
        # masks over the best routes, the first `_depth` chunks (`_size` routes), the best the
        # highest bit: per chain, visiting home, passing no full station, all
        self._depth = self._size = self._all = 0
        self._prefix: dict[int, int] = dict.fromkeys(overlap, 0)
        self._prefix_home = self._prefix_not_full = 0
        self._arm_masks: dict[int, tuple[int, int]] = {}  # arm -> (depth, mask)
        # per (need_home, need_not_full): arm -> the best value clear of it (see `arms_bound`)
        self._arm_found: dict[tuple[bool, bool], dict[int, int]] = {
            (home, not_full): {} for home in (False, True) for not_full in (False, True)
        }

    def _read(self, j: int) -> None:
        """Make the masks of chunks up to j. The rows, 64 bits a word, are laid out as bytes by
        an array; byte k of every row, taken with one stride, written as '0' and '1' by bit
        with a table, is a column: a mask over the chunk's routes, the best one its highest
        bit."""
        words = (self._width + 2 + 63) // 64
        while len(self.home) <= j:
            lo, hi = self.bounds[len(self.home)]
            rows = list(self._rows(lo, hi))
            data = [_bytes(rows, word, words) for word in range(words)]

            def column(bit: int) -> int:
                start = bit % 64 // 8
                return int(data[bit // 64][start::8].translate(_BIT[bit % 8]) or b"0", 2)

            uses = {chain: column(chain) for chain in self._overlap}
            for chain, others in self._overlap.items():
                mask = 0
                rest = others
                while rest:
                    low = rest & -rest
                    mask |= uses.get(low.bit_length() - 1, 0)
                    rest ^= low
                self.blocks[chain].append(mask)
            self.home.append(column(self._width + 1))
            self.not_full.append(self.full[len(self.not_full)] ^ column(self._width))

    def free(
        self,
        used: int,
        start: int = 0,
        need_home: bool = False,
        need_not_full: bool = False,
        floor: int | None = None,
    ) -> Iterator[int]:
        """The routes from place `start` on sharing no track with the chains `used` (bits), best
        first; with `need_home` only those visiting the home station, with `need_not_full` only
        those passing no full station; with `floor`, the chunks worth no more are not read (the
        caller stops at the first route worth no more)."""
        chains = []
        rest = used
        while rest:
            low = rest & -rest
            masks = self.blocks.get(low.bit_length() - 1)
            if masks is not None:
                chains.append(masks)
            rest ^= low
        for j in range(start // CHUNK, len(self.bounds)):
            if floor is not None and self.tops[j] <= floor:
                return
            self._read(j)
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

    def _deepen(self, floor: int) -> None:
        """Read more chunks into the masks over the best routes (see `_prefix`): those whose best
        route is worth more than `floor`, but at most as many again as are read (one at least),
        since the route looked for is most often found near the top."""
        depth = self._depth + 1
        most = min(2 * self._depth, len(self.bounds))
        while depth < most and self.tops[depth] > floor:
            depth += 1
        self._read(depth - 1)
        size = self.bounds[depth - 1][1]
        grow = size - self._size

        def extended(mask: int, chunks: list[int]) -> int:
            mask <<= grow
            for k in range(self._depth, depth):
                mask |= chunks[k] << size - self.bounds[k][1]
            return mask

        self._prefix = {
            chain: extended(self._prefix[chain], self.blocks[chain]) for chain in self.blocks
        }
        self._prefix_home = extended(self._prefix_home, self.home)
        self._prefix_not_full = extended(self._prefix_not_full, self.not_full)
        self._depth, self._size = depth, size
        self._all = (1 << size) - 1

    def _arm_mask(self, arm: int) -> int:
        """The routes of the prefix sharing track with an arm (see `arm_links`), grown from its
        shorter arm's and remembered while the prefix is the same."""
        kept = self._arm_masks.get(arm)
        if kept is not None and kept[0] == self._depth:
            return kept[1]
        shorter, last = self.arm_links[arm]
        mask = self._prefix.get(last, 0)
        if shorter >= 0:
            mask |= self._arm_mask(shorter)
        self._arm_masks[arm] = (self._depth, mask)
        return mask

    def _best_clear(
        self, arms: Sequence[int], floor: int, need_home: bool = False, need_not_full: bool = False
    ) -> tuple[int, bool]:
        """(the value of the best route sharing no track with the arms, True) when it is above
        `floor`; else (a value no route of theirs beats, at most `floor`; False)."""
        while True:
            blocked = self._arm_mask(arms[0])  # (no `0 |` first: that copies a long mask)
            for arm in arms[1:]:
                blocked |= self._arm_mask(arm)
            free = self._all ^ blocked
            if need_home:
                free &= self._prefix_home
            if need_not_full:
                free &= self._prefix_not_full
            if free:
                return self.values[self._size - free.bit_length()], True
            if self.tops[self._depth] <= floor or self._depth == len(self.bounds):
                return self.tops[self._depth], False
            self._deepen(floor)

    def arms_bound(
        self, arms: Sequence[int], floor: int, need_home: bool = False, need_not_full: bool = False
    ) -> int:
        """At least the value of the best route sharing no track with any one of the `arms` (with
        `need_home` or `need_not_full`, among those visiting the home station or passing no full
        one): exact when above `floor`, else perhaps less than it (the routes worth no more than
        `floor` are not read)."""
        bound = self.tops[0]
        found = self._arm_found[need_home, need_not_full]
        for arm in arms:
            value = found.get(arm)
            if value is None:
                value = self._shorter_bound(found, arm, floor)
            if value is None:
                value, exact = self._best_clear((arm,), floor, need_home, need_not_full)
                if exact:
                    found[arm] = value
            if value < bound:
                bound = value
                if value <= floor:
                    break
        return bound

    def _shorter_bound(self, found: dict[int, int], arm: int, floor: int) -> int | None:
        """The value found for one of the arm's shorter arms when it is no more than `floor`
        (else None): an arm keeps out every route its shorter arms keep out, so no route clear of
        it is worth more."""
        shorter = self.arm_links[arm][0]
        while shorter >= 0:
            value = found.get(shorter)
            if value is not None and value <= floor:
                return value
            shorter = self.arm_links[shorter][0]
        return None

    def partner_bound(
        self, arms: Sequence[int], need_home: bool, need_not_full: bool, floor: int
    ) -> int:
        """At least the value of the best route sharing no track with the chosen routes' `arms`
        (with `need_home` or `need_not_full`, among those visiting the home station or passing no
        full one); exact when above `floor`: first from each arm alone, and only if that is above
        `floor`, from all together."""
        bound = self.arms_bound(arms, floor, need_home, need_not_full)
        if bound <= floor:
            return bound
        return min(bound, self._best_clear(arms, floor, need_home, need_not_full)[0])
