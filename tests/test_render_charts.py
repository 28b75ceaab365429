"""The end-of-game charts read on a phone: measured on the charts of the recorded games and of
String Railway's test games. Discord shows an image 400 px wide on a phone, where no text may be
under 9 px (2.25% of the width); no text covers another; every line shows in its colour; the
labels at the right stand in the order their lines end, top to bottom.
"""

from __future__ import annotations

import io
import json
from functools import cache

import pytest
from PIL import Image

from engine.eighteen import io as game_io
from engine.series import Chart, ChartSeries, Line
from render import palette as pal
from render.charts import LEADER, chart_svg, nice_ticks, render_chart, spread
from render.fonts import text_width
from render.svg import Text
from tests.reference_games import game_files

SMALLEST = 0.0225  # 9 px of 400
GAMES = [p for s in ("1830", "1860") for p in game_files(s)]


@cache
def _series(name: str) -> ChartSeries:
    if name.startswith("string_railway"):
        from tests.test_string_game_three import GAME as THREE
        from tests.test_string_game_two import GAME as TWO

        return game_io.load(TWO if name.endswith("two") else THREE).game.chart_series()
    path = next(p for p in GAMES if p.stem == name)
    return game_io.load(json.loads(path.read_text())).game.chart_series()


NAMES = [p.stem for p in GAMES] + ["string_railway_two", "string_railway_three"]
CHARTS = [(n, k) for n in NAMES for k in ("worth", "prices", "revenue", "score", "per-round")]


def _charts() -> list[tuple[str, str]]:
    return [(n, k) for n, k in CHARTS if k in _series(n).keys()]


def _box(t: Text) -> tuple[float, float, float, float]:
    """Where a text's glyphs can reach: its advance width, from the ascender to the descender."""
    width = text_width(t.text, t.size, t.bold) * t.squeeze
    x0 = {"start": t.x, "middle": t.x - width / 2, "end": t.x - width}[t.anchor]
    return x0, t.y - 0.93 * t.size, x0 + width, t.y + 0.24 * t.size


@pytest.mark.parametrize(("name", "key"), _charts())
def test_text_is_large_enough_and_never_covers_other_text(name: str, key: str) -> None:
    svg = chart_svg(_series(name), key)
    smallest = min(svg.texts, key=lambda t: t.size)
    assert smallest.size / svg.width >= SMALLEST, smallest
    assert all(t.squeeze == 1.0 for t in svg.texts)  # nothing condensed to fit
    boxes = [(_box(t), t.text) for t in svg.texts]
    for n, (a, text_a) in enumerate(boxes):
        assert 0 <= a[0] and a[2] <= svg.width and 0 <= a[1] and a[3] <= svg.height, text_a
        for b, text_b in boxes[n + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{text_a!r} covers {text_b!r}"


@pytest.mark.parametrize(("name", "key"), _charts())
def test_every_line_shows_in_its_colour_and_its_label_stands_in_order(name: str, key: str) -> None:
    series = _series(name)
    chart = series.chart(key)
    png = render_chart(series, key)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width == 800 and image.height <= 1.1 * image.width  # a phone keeps it wide
    svg = chart_svg(series, key)
    names = {t.text: t for t in svg.texts if t.bold and t.text in {ln.name for ln in chart.lines}}
    pills = min(t.x - text_width(t.text, t.size, True) / 2 - 8 for t in names.values())
    plot = image.crop((0, 0, int(pills - LEADER - 1), image.height))  # the labels left out
    counts = {f"#{r:02X}{g:02X}{b:02X}": n for n, (r, g, b) in plot.getcolors(1 << 16) or []}
    order = [line.name for line in chart.lines if line.seat is None]
    for line in chart.lines:
        colour = (
            pal.SEAT_COLOURS[line.seat]
            if line.seat is not None
            else pal.company_colour(series.title, line.name, order)
        )
        shown = sum(v is not None for v in line.values)  # a value alone is a dot
        assert counts.get(colour.upper(), 0) >= min(150, 15 * shown), (line.name, colour)
    # the labels' values, top to bottom, are the lines' last values from the highest down
    drawn = sorted((t.y, name) for name, t in names.items())
    last = {line.name: line.last for line in chart.lines if line.last}
    values = [last[name][1] for _, name in drawn]
    assert values == sorted(values, reverse=True)
    assert len(drawn) == len(last)


def test_labels_are_spread_apart_and_kept_in_bounds() -> None:
    wanted = [100.0, 101.0, 102.0, 300.0, 395.0, 399.0]
    placed = spread(wanted, 30, 0, 400)
    assert all(b - a >= 30 for a, b in zip(placed, placed[1:]))
    assert placed[0] >= 15 and placed[-1] <= 385
    assert placed[0] == 100.0 and placed[3] == 300.0  # a label with room stays by its line
    assert spread([5.0], 30, 0, 400) == [15.0]


def test_the_value_scale_covers_every_value_in_round_steps() -> None:
    lines = (Line("a", (3, None, 1234)), Line("b", (-40, 7, 12)))
    chart = Chart("worth", "Worth", ("x", "y", "z"), (), lines, currency="$")
    ticks = nice_ticks(chart)
    assert ticks[0] <= -40 and ticks[-1] >= 1234 and 0 in ticks
    steps = {b - a for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and steps.pop() in (200, 250, 500)
    assert chart.value_text(-1500) == "-$1,500"


def test_a_chart_with_a_gap_draws_both_stretches() -> None:
    """A company bankrupt in between (1860) has a gap: its line stops and starts again."""
    lines = (Line("IOW", (100, 90, None, None, 70, 80)), Line("C&N", (60, 60, 60, 60, 60, 60)))
    chart = Chart("prices", "Share prices", tuple("abcdef"), ((0, "a"), (5, "f")), lines, "£")
    series = ChartSeries("1860", "1860", False, (chart,), ())
    svg = chart_svg(series, "prices")
    blue = pal.company_colour("1860", "IOW", ["IOW", "C&N"])
    strokes = [p for p in svg.parts if f'stroke="{blue}" stroke-width="3"' in p and "<path" in p]
    assert len(strokes) == 2  # two stretches, no segment across the gap
    assert any("So far (to f)" == t.text for t in svg.texts)
