"""Input built to cost the bot time or memory is refused, or answered, within bounds that do not
grow with the input: typed routes, title options, names, chat messages."""

from __future__ import annotations

import pytest

from bot.core.results import Refused
from bot.core.routes_input import MAX_CUTS, MAX_HEXES, _cuts, parse_routes


class CountingTrack(dict):
    """A track index that counts the lookups made in it."""

    lookups = 0

    def __contains__(self, key: object) -> bool:
        CountingTrack.lookups += 1
        return super().__contains__(key)


def _loop_track() -> CountingTrack:
    """Stop-to-stop track along H16-H14-H12-H10 and back, one and two hexes long, so that a
    route going back and forth along it can be cut in very many ways."""
    line = ["H16", "H14", "H12", "H10"]
    track = CountingTrack()
    for a, b in zip(line, line[1:]):
        track[(a, b)] = track[(b, a)] = object()
    for a, b, c in zip(line, line[1:], line[2:]):
        track[(a, b, c)] = track[(c, b, a)] = object()
    return track


@pytest.mark.parametrize("periods", [5, 20, 40])
def test_a_route_that_cannot_be_completed_costs_lookups_linear_in_its_length(periods):
    """The attack of the issue: the period repeated k times, then a hex no track reaches. The
    search used to try every way to cut the route (time doubling with k); now it looks each
    piece up a bounded number of times."""
    hexes = ["H16", "H14", "H12", "H10", "H12", "H14"] * periods + ["A1"]
    track = _loop_track()
    CountingTrack.lookups = 0
    assert _cuts(hexes, track) == []
    assert CountingTrack.lookups <= len(hexes) * 3


def _every_cut(hexes: list[str], track: dict) -> list[list[list[str]]]:
    """All cuts by brute force, shortest first piece first: the order the bot tries them."""
    if len(hexes) == 1:
        return [[]]
    out = []
    for end in range(1, len(hexes)):
        if tuple(hexes[: end + 1]) in track:
            out += [[hexes[: end + 1], *rest] for rest in _every_cut(hexes[end:], track)]
    return out


@pytest.mark.parametrize(
    "hexes",
    [
        ["H16", "H14", "H12", "H10", "H12", "H14", "H16"],
        ["H16", "H14", "H12", "H10", "H12", "H14", "H16", "H14", "H12"],
        ["H10", "H12", "H14", "H16", "H14", "H12", "H10", "H12", "H14", "H16", "H14", "H12"],
        ["H16", "H14", "H12", "A1"],
    ],
)
def test_routes_are_cut_as_every_way_would_be_tried_in_order(hexes):
    track = _loop_track()
    assert _cuts(hexes, track) == _every_cut(hexes, track)[:MAX_CUTS]


def test_typed_routes_are_bounded_before_any_search():
    long_route = "2: " + " ".join(["H16", "H14"] * 500) + " A1"
    with pytest.raises(Refused, match="at most 1,000 are read"):
        parse_routes(long_route)
    with pytest.raises(Refused, match=f"at most {MAX_HEXES} are read"):
        parse_routes("2: " + " ".join(["H16", "H14"] * 60))
    with pytest.raises(Refused, match="a company runs fewer trains"):
        parse_routes("; ".join(f"2: H{n} H{n + 2}" for n in range(2, 40, 2)))
