"""The company sheet: it fits a chat post, shows every company's colour, marks presidents and
the next train, and refuses a snapshot without the data it tabulates."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from test_render_fixtures import fixture_paths, fixture_snapshot

from render import palette as pal
from render import render_sheet
from render.board import board_for
from render.snapshot import SnapshotError


def _colours(png: bytes) -> set[tuple[int, int, int]]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _n, c in img.getcolors(maxcolors=1 << 20)}


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.mark.parametrize("path", fixture_paths("1830"), ids=lambda p: p.name)
def test_sheet_shows_companies_presidents_and_the_next_train(path):
    snap = fixture_snapshot(path, 300)
    png = render_sheet(snap)
    img = Image.open(io.BytesIO(png))
    assert img.width == 1440 and 600 < img.height < 1080 and len(png) < 10 * 1024 * 1024
    colours = _colours(png)
    order = list(board_for("1830").corporations)
    for sym, corp in snap["corporations"].items():
        colour = pal.company_colour("1830", sym, order)
        assert _rgb(colour) in colours, sym
        if corp["president"] is not None and not corp["closed"]:
            assert _rgb(pal.tint(colour)) in colours, sym
    assert (_rgb("#FFF6D6") in colours) == any(t["left"] for t in snap["trains"])


def test_final_state_sheet_renders_bankrupt_players():
    path = next(p for p in fixture_paths("1830") if p.name == "26855.json")
    snap = fixture_snapshot(path)
    assert any(p["bankrupt"] for p in snap["players"])
    assert render_sheet(snap).startswith(b"\x89PNG")


@pytest.mark.parametrize("key", ["players", "corporations", "companies", "trains"])
def test_sheet_needs_its_tables(key):
    snap = fixture_snapshot(fixture_paths("1830")[0])
    del snap[key]
    with pytest.raises(SnapshotError, match=f"snapshot has no '{key}'"):
        render_sheet(snap)


def test_a_malformed_entry_deep_in_the_snapshot_gets_a_clear_message():
    snap = fixture_snapshot(fixture_paths("1830")[0])
    del snap["players"][0]["id"]
    with pytest.raises(
        SnapshotError, match="malformed snapshot, cannot draw the company sheet: KeyError 'id'"
    ):
        render_sheet(snap)
