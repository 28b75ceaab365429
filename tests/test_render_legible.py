"""The images a game posts by default read on a phone: shown 400 px wide, no text is under 9 px,
so no glyph is set smaller than 2.25% of the image's width.

Every text Pillow sets is recorded with the width of the image it is set on. Text set on an
image at least as wide as the final one counts against that image (drawn large and scaled
down, as the String Railway board is); text set on a narrower one (a panel) is pasted unscaled
and counts against the final width; a glyph mask (condensed text) is pasted into the widest
image drawn on, and counts against that. Positions: the close-up of each operating
turn and the compact market along recorded 18xx.games games, and String Railway's board along
the test games.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.core.rendering import runs_of
from engine.eighteen import io as game_io
from render import svg
from render.focus import render_focus, render_lay_options
from render.market_compact import render_market_compact
from render.strings import render_string_board
from tests.drawn_text import drawn_text
from tests.reference_games import game_path

SMALLEST = 0.0225  # 9 px of 400
GAMES = [("1830", "26855"), ("1860", "19354"), ("1860", "1860_game_end_bank")]
EVERY = 3  # of the operating turns, every third is drawn (the suite's time)


def _smallest(draw: Callable[[], bytes | None]) -> tuple[float, str] | None:
    """The smallest text of the image `draw` makes, as a share of the image's width."""
    with drawn_text() as seen:
        png = draw()
    if png is None:
        return None
    width = Image.open(io.BytesIO(png)).width
    assert seen, "no text was set: the instrument sees nothing"
    widest = max([width] + [canvas for _, canvas, mask, _ in seen if not mask])
    return min(
        (size / (widest if mask else max(canvas, width)), text) for size, canvas, mask, text in seen
    )


def _turns(title: str, stem: str) -> list[dict[str, Any]]:
    """Each company's operating turn of a recorded game: the places it changed, its runs and
    the snapshot after it (what a turn's post shows)."""
    data = game_io.read_file(game_path(title, stem))
    turns: list[dict[str, Any]] = []

    def after(_idx: int, action: dict[str, Any], game: Any) -> None:
        entity = action.get("entity")
        if not turns or turns[-1]["entity"] != entity:
            turns.append({"entity": entity, "places": [], "runs": []})
        turn = turns[-1]
        turn["places"] += [p for p in game.changed_places() if p not in turn["places"]]
        turn["runs"] += runs_of(action)
        if turn["places"] or turn["runs"]:
            turn["snapshot"] = game.snapshot()
            turn["options"] = sorted(k for k, v in game.options.items() if v)

    game_io.load(data, on_state=after)
    return [t for t in turns if t["places"] or t["runs"]]


@pytest.mark.parametrize(("title", "stem"), GAMES, ids=[s for _, s in GAMES])
def test_close_ups_and_compact_markets_read_on_a_phone(title: str, stem: str) -> None:
    turns = _turns(title, stem)[::EVERY]
    assert len(turns) > 10
    worst = []
    for turn in turns:
        shown = [
            _smallest(
                lambda: render_focus(
                    turn["snapshot"], turn["places"], turn["options"], turn["runs"]
                )
            ),
            _smallest(lambda: render_market_compact(turn["snapshot"], turn["options"])),
        ]
        worst += [(share, text, turn["entity"]) for share, text in filter(None, shown)]
    too_small = [w for w in worst if w[0] < SMALLEST]
    assert not too_small, f"{len(too_small)} texts too small, e.g. {sorted(too_small)[:5]}"


def test_the_string_railway_board_reads_on_a_phone() -> None:
    from tests.test_string_game_three import GAME as THREE
    from tests.test_string_game_two import GAME as TWO

    worst = []
    for data in (TWO, THREE):
        states: list[dict[str, Any]] = []
        game_io.load(data, on_state=lambda _i, _a, game: states.append(game.snapshot()))
        worst += [_smallest(lambda: render_string_board(s)) for s in states[::4] + states[-1:]]
    share, text = min(w for w in worst if w)
    assert share >= SMALLEST, (share, text)


def test_the_instrument_sees_text_set_too_small() -> None:
    """A text the size the full market sets its prices in fails the rule (the test can fail)."""
    image = Image.new("RGB", (1636, 874))

    def draw() -> bytes:
        svg.draw_texts(image, [svg.Text(10, 20, "67", 13, "#000", True, "start", None)])
        out = io.BytesIO()
        image.save(out, "PNG")
        return out.getvalue()

    share, text = _smallest(draw) or (1.0, "")
    assert text == "67" and share < SMALLEST


@pytest.mark.parametrize("count", [1, 2, 5])
def test_the_lays_of_a_hex_read_on_a_phone(count: int) -> None:
    """The picture `/play lay HEX` answers with: one or two columns of numbered, captioned
    lays around the hex, along an operating turn of a recorded game."""
    turn = next(t for t in _turns("1830", "26855") if t["places"])
    caption = "tile 57 · track W toward H8, E toward Altoona (H12)"
    choices = [(str(n), turn["snapshot"], caption) for n in range(1, count + 1)]
    hex_id = turn["places"][0]
    found = _smallest(lambda: render_lay_options(hex_id, choices, turn["options"]))
    assert found is not None
    share, text = found
    assert share >= SMALLEST, (share, text)
