"""The phone-sized views: the focus crop of a move, tile choices drawn in place, runs in colour,
the auction's bids on the sheet; and the exits of a lay named in words."""

from __future__ import annotations

import io
import json
import re

from PIL import Image

from engine.eighteen import io as game_io
from engine.eighteen.describe import exits_text
from engine.eighteen.preview import lay_options
from render import focus
from render.board import board_for
from render.fonts import pil_font
from render.mapview import geometry, render_map
from render.runs import RUN_COLOURS
from render.sheet import render_sheet
from tests.reference_games import game_path


def _game(upto: int):
    path = game_path("1830", "29133")
    return game_io.load(json.loads(path.read_text()), upto=upto).game


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_exits_are_named_by_direction_and_the_place_beyond() -> None:
    game = _game(60)
    # 1830: Pittsburgh is H10, Altoona H12 to its east; tile 57 runs straight through its city.
    assert exits_text(game, "H10", "57", 1) == "W toward H8, E toward Altoona (H12)"
    assert exits_text(game, "H10", "57", 1, short=True) == "W to H8, E to Altoona"
    # a sharp curve on Burlington (B20): Montreal is A19, north-west of it
    assert "NW toward Montreal (A19)" in exits_text(game, "B20", "58", 2)


def test_lay_options_show_each_legal_lay_in_place_with_words() -> None:
    game = _game(218)  # NYNH to lay track; B20 (Burlington) is open to it
    pid = game.active_players()[0]
    options = lay_options(game, pid, "B20")
    legal = [
        c
        for c in game.legal_actions(pid)
        if c.action.get("type") == "lay_tile" and c.action["hex"] == "B20"
    ]
    # every legal lay, a symmetric tile turned half way (the same track, the same label) once
    assert {(o.tile, o.rotation) for o in options} <= {
        (c.action["tile"].split("-")[0], c.action["rotation"]) for c in legal
    }
    assert len(options) == len({c.label for c in legal}) >= 4
    for o in options:
        assert o.snapshot["tiles"]["B20"] == {"tile": o.tile, "rotation": o.rotation}
        assert "B20" not in game.snapshot()["tiles"]  # the game itself is untouched
        assert not re.search(r"\brotation\b|^\d$", o.words) and "toward" in o.words
    only_58 = lay_options(game, pid, "B20", tile="58")
    assert only_58 and all(o.tile == "58" for o in only_58)

    png = focus.render_lay_options(
        "B20", [(str(i + 1), o.snapshot, o.words) for i, o in enumerate(options[:4])]
    )
    image = _png(png)
    assert image.width == focus.CHOICE_WIDTH  # one panel under another, each full width
    panel_h = (image.height - 3 * 6) // 4
    # each panel: the numbered disc in the last-move magenta at its top left
    for x0, y0 in ((0, 0), (0, panel_h + 6)):
        r, g, b = image.getpixel((x0 + 16, y0 + 10 + int(focus.NUMBER_SIZE * 0.85)))
        assert r > 180 and g < 80, (r, g, b)
    # the laid tile is yellow on a hex that was plain: plenty of tile yellow in the first panel
    panel = image.crop((0, 0, focus.CHOICE_WIDTH, panel_h))
    yellow = sum(
        n for n, p in panel.getcolors(1 << 20) if p[0] > 220 and 200 < p[1] < 235 and p[2] < 110
    )
    assert yellow > 0.05 * panel.width * panel.height


def test_focus_crop_keeps_place_names_legible_at_phone_width(monkeypatch) -> None:
    """Every place name in the focus view is at least 11 px tall (ascender to descender, as
    Pillow sets it) once the image is shown 400 px wide."""
    game = _game(219)  # NYNH has just laid tile on B20 (Burlington)
    drawn = []
    original = focus.draw_texts
    monkeypatch.setattr(
        focus, "draw_texts", lambda image, texts: (drawn.extend(texts), original(image, texts))[1]
    )
    png = focus.render_focus(game.snapshot(), ["B20"])
    image = _png(png)
    names = set(game.hex_names().values())
    shown = [t for t in drawn if t.text in names or any(t.text in n for n in names if "&" in n)]
    assert {"Burlington", "Montreal"} <= {t.text for t in shown}
    scale = 400 / image.width
    for t in shown:
        left, top, right, bottom = pil_font(t.bold, t.size).getbbox(t.text, anchor="ls")
        assert (bottom - top) * scale >= 11, (t.text, (bottom - top) * scale)
    # the full map shows the same names far smaller at that width: the crop is what helps
    full = geometry(board_for("1830"))
    assert 0.145 * full.r * 400 / full.width < 4


def test_runs_are_drawn_in_one_colour_per_train() -> None:
    game = _game(127)  # NYNH's run of three trains (action 127 of game 29133)
    action = game.actions[-1]
    assert action["type"] == "run_routes"
    runs = [
        {"train": r["train"].split("-")[0], "connections": r["connections"]}
        for r in action["routes"]
    ]
    image = _png(render_map(game.snapshot(), runs=runs))
    g = geometry(board_for("1830"))
    for i, run in enumerate(runs):
        a, b = run["connections"][0][:2]
        (ax, ay), (bx, by) = g.centre(a), g.centre(b)
        shift = (i - (len(runs) - 1) / 2) * 0.16 * g.r
        x, y = (ax + bx) / 2 + shift * 0.6, (ay + by) / 2 + shift * 0.8
        want = tuple(int(RUN_COLOURS[i][k : k + 2], 16) for k in (1, 3, 5))
        got = image.getpixel((round(x), round(y)))
        assert sum(abs(p - q) for p, q in zip(got, want)) < 90, (run, got, want)
    crop = _png(focus.render_focus(game.snapshot(), [], runs=runs))
    assert crop.width < image.width and crop.height < image.height


def test_the_legend_names_each_run_in_the_crop_with_its_owner(monkeypatch) -> None:
    """A post of several companies' runs (computer seats one after another) names each run's
    company; a run outside the crop is not listed, and only the newest runs get a colour."""
    game = _game(127)
    named: list[list[tuple[str, str]]] = []
    drawn = focus._with_legend
    monkeypatch.setattr(
        focus,
        "_with_legend",
        lambda image, entries: named.append(list(entries)) or drawn(image, entries),
    )
    nynh = [
        {"train": r["train"].split("-")[0], "connections": r["connections"], "owner": "NYNH"}
        for r in game.actions[-1]["routes"]
    ]
    west = {"train": "2", "connections": [["F2", "F4"]], "owner": "PRR"}  # Chicago–Toledo
    focus.render_focus(game.snapshot(), [], runs=[*nynh, west])
    assert [text for _, text in named[-1]] == [f"NYNH {r['train']}" for r in nynh]
    assert [colour for colour, _ in named[-1]] == list(RUN_COLOURS[: len(nynh)])
    many = [{**nynh[0], "owner": f"C{i}"} for i in range(len(RUN_COLOURS) + 2)]
    focus.render_focus(game.snapshot(), [], runs=many)
    assert [text.split()[0] for _, text in named[-1]] == [f"C{i}" for i in range(2, len(many))]


def test_auction_bids_are_on_the_sheet_and_in_the_status() -> None:
    game = _game(9)  # four companies bid on, two contested
    status = game.status_text()
    assert "Bids: CA Player 2 $170, Player 1 $165" in status
    snap = game.snapshot()
    assert snap["bids"]["CS"] == [
        {"player": snap["players"][3]["id"], "price": 55},
        {"player": snap["players"][1]["id"], "price": 50},
    ]
    image = _png(render_sheet(snap))
    assert image.width > 1000


def test_png_images_are_paletted_and_small() -> None:
    game = _game(300)
    data = render_map(game.snapshot())
    assert Image.open(io.BytesIO(data)).mode == "P"
    assert len(data) < 150_000
