"""Line charts of how a game went (engine/series.py): each player's worth, each company's share
price, each company's revenue per operating round; String Railway's scores.

One chart per image, sized for a phone: Discord shows it 400 px wide, where no text may be under
9 px, so no text here is under 2.25% of the width. Each line is drawn in its company's colour
(the market's) or its seat's, outlined so that pale colours stand on the page, and carries a
label at its end (its name in its colour, and its last value) in a column on the right; labels
are pushed apart so that none covers another, and a leader joins each to its line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.series import Chart, ChartSeries, Line
from render import palette as pal
from render.fonts import text_width
from render.svg import Svg, finish

WIDTH = 800
MARGIN = 24
TEXT = 19  # the smallest text: 2.4% of the width
TITLE = 24
PILL_H = 28
LABEL_GAP = 4  # between two labels of the right-hand column
LEADER = 18  # room between the plot's right edge and the labels
PLOT_TOP = 92
PLOT_MIN_H = 380
AXIS_H = 46  # the point names under the plot
NAME_CHARS = 12  # a longer name is cut in a label, so no name can squeeze the plot
TICKS = 5  # about this many values marked up the side
DOTS_UP_TO = 12  # points: fewer than this get a dot each
THICK, THIN = 3.0, 2.2  # line widths, the thinner beyond MANY_POINTS (long games cross a lot)
MANY_POINTS = 24
AXIS_GAP = 14  # least room between two point names under the plot


@dataclass(frozen=True)
class Label:
    """A line's label: its name and last value, and where the line ends."""

    name: str
    value: str
    colour: str
    end: tuple[float, float]
    at_last_point: bool  # the line runs to the chart's last point (else it stopped earlier)

    @property
    def pill_width(self) -> float:
        return text_width(self.name, TEXT, True) + 16


def render_chart(series: ChartSeries, key: str) -> bytes:
    """PNG of one chart of the series (`key` as `ChartSeries.chart` takes it)."""
    return finish(chart_svg(series, key))


def chart_svg(series: ChartSeries, key: str) -> Svg:
    """The chart's shapes and texts, before they are drawn (tests measure them)."""
    chart = series.chart(key)
    colours = _colours(series, chart)
    ticks = nice_ticks(chart)
    tick_texts = [chart.value_text(t) for t in ticks]
    left = MARGIN + max(text_width(t, TEXT) for t in tick_texts) + 12
    labels = {
        n: Label(_short(line.name), chart.value_text(last[1]), colours[line.name], (0, 0), False)
        for n, line in enumerate(chart.lines)
        if (last := line.last) is not None
    }
    pill = max((label.pill_width for label in labels.values()), default=0)
    column = pill + 8 + max((text_width(label.value, TEXT) for label in labels.values()), default=0)
    right = WIDTH - MARGIN - column - LEADER
    height = max(PLOT_MIN_H, len(labels) * (PILL_H + LABEL_GAP))
    plot = _Plot(left, PLOT_TOP, right - left, height, len(chart.points), ticks[0], ticks[-1])
    svg = Svg(WIDTH, math.ceil(PLOT_TOP + height + AXIS_H + 8))
    svg.rect(0, 0, svg.width, svg.height, pal.PAGE)
    svg.text(
        MARGIN, 38, f"{series.name} · {chart.title}", TITLE, pal.INK, bold=True, anchor="start"
    )
    status = "Game over" if series.finished else f"So far (to {chart.points[-1]})"
    svg.text(MARGIN, 68, status, TEXT, pal.MUTED, anchor="start")
    _grid(svg, plot, chart, ticks, tick_texts)
    ends = _lines(svg, plot, chart, colours)
    _labels(
        pill,
        svg,
        plot,
        [replace(label, end=ends[n][:2], at_last_point=ends[n][2]) for n, label in labels.items()],
    )
    return svg


@dataclass(frozen=True)
class _Plot:
    """The plotting area and its scales: point index -> x, value -> y."""

    left: float
    top: float
    width: float
    height: float
    points: int
    low: float
    high: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def x(self, index: int) -> float:
        if self.points < 2:
            return self.left + self.width / 2
        return self.left + index * self.width / (self.points - 1)

    def y(self, value: float) -> float:
        span = (self.high - self.low) or 1
        return self.bottom - (value - self.low) / span * self.height


def nice_ticks(chart: Chart) -> list[int]:
    """Round values from at most 0 to at least the highest, about `TICKS` of them, a step of
    1, 2, 2.5 or 5 times a power of ten apart."""
    values = [v for line in chart.lines for v in line.values if v is not None]
    low, high = min([0, *values]), max([1, *values])
    raw = (high - low) / TICKS
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    step = max(1, round(step))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + 1, step))


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _colours(series: ChartSeries, chart: Chart) -> dict[str, str]:
    """A seat's colour for a player's line, the market's company colour for a company's."""
    order = [line.name for line in chart.lines if line.seat is None]
    return {
        line.name: pal.SEAT_COLOURS[line.seat % len(pal.SEAT_COLOURS)]
        if line.seat is not None
        else pal.company_colour(series.title, line.name, order)
        for line in chart.lines
    }


def _grid(svg: Svg, plot: _Plot, chart: Chart, ticks: list[int], texts: list[str]) -> None:
    """Value lines across with their values on the left; a line up at each named point with
    its name under the plot (as many as fit side by side, the last always)."""
    for tick, text in zip(ticks, texts):
        y = plot.y(tick)
        colour = pal.MUTED if tick == 0 else pal.RULE
        svg.path(f"M{plot.left:.1f},{y:.1f}H{plot.right:.1f}", colour, 1.2 if tick == 0 else 1)
        svg.text(plot.left - 10, y + TEXT * 0.35, text, TEXT, pal.INK, anchor="end")
    for index, text in axis_names(plot, chart):
        x = plot.x(index)
        svg.path(f"M{x:.1f},{plot.top:.1f}V{plot.bottom:.1f}", pal.RULE, 1)
        svg.text(x, plot.bottom + 33, text, TEXT, pal.INK)
    svg.path(f"M{plot.left:.1f},{plot.top:.1f}V{plot.bottom:.1f}", pal.MUTED, 1.2)


def axis_names(plot: _Plot, chart: Chart) -> list[tuple[int, str]]:
    """The point names written under the plot: the chart's axis marks that fit without
    touching, the last first, then from the left."""
    if not chart.axis:
        return []

    def span(mark: tuple[int, str]) -> tuple[float, float]:
        half = text_width(mark[1], TEXT) / 2 + AXIS_GAP / 2
        return plot.x(mark[0]) - half, plot.x(mark[0]) + half

    kept = [chart.axis[-1]]
    for mark in chart.axis[:-1]:
        a, b = span(mark)
        if all(b <= span(k)[0] or a >= span(k)[1] for k in kept):
            kept.append(mark)
    return sorted(kept)


def _lines(
    svg: Svg, plot: _Plot, chart: Chart, colours: dict[str, str]
) -> dict[int, tuple[float, float, bool]]:
    """Each line, outlined, the shortest (a company started late) and then the highest at the
    end drawn last (on top); lines that share a
    value at a point are drawn side by side there, so that none hides another; a dot at each
    point of a short chart and at each line's end. Returns where each line (by its index)
    ends, and whether at the chart's last point."""
    ends: dict[int, tuple[float, float, bool]] = {}
    width = THICK if len(chart.points) <= MANY_POINTS else THIN
    shift = _side_by_side(chart, width + 2)
    order = sorted(enumerate(chart.lines), key=lambda nl: _drawing_order(nl[1]))
    for n, line in order:
        colour = colours[line.name]

        def at(i: int, v: int) -> tuple[float, float]:
            return plot.x(i), plot.y(v) + shift.get((n, i), 0.0)

        for run in _runs(line):
            d = "M" + "L".join("{:.1f},{:.1f}".format(*at(i, v)) for i, v in run)
            svg.path(d, pal.INK, width + 2, extra=' stroke-linejoin="round"')
            svg.path(d, colour, width, extra=' stroke-linejoin="round"')
            if len(chart.points) <= DOTS_UP_TO or len(run) == 1:
                for i, v in run:
                    svg.circle(*at(i, v), 4, colour, pal.INK, 1.2)
        last = line.last
        if last is not None:
            x, y = at(*last)
            svg.circle(x, y, 5.5, colour, pal.INK, 1.5)
            ends[n] = (x, y, last[0] == len(chart.points) - 1)
    return ends


def _drawing_order(line: Line) -> tuple[int, int]:
    return -sum(v is not None for v in line.values), (line.last or (0, 0))[1]


def _side_by_side(chart: Chart, step: float) -> dict[tuple[int, int], float]:
    """(line index, point) -> how far to draw it off its value, for lines sharing a value at a
    point: spread `step` apart around it, in the chart's order from the top."""
    out: dict[tuple[int, int], float] = {}
    for i in range(len(chart.points)):
        sharing: dict[int, list[int]] = {}
        for n, line in enumerate(chart.lines):
            value = line.values[i]
            if value is not None:
                sharing.setdefault(value, []).append(n)
        for group in sharing.values():
            for rank, n in enumerate(group):
                out[(n, i)] = (rank - (len(group) - 1) / 2) * step
    return out


def _runs(line: Line) -> list[list[tuple[int, int]]]:
    """The stretches of a line between its gaps (points without a value)."""
    runs: list[list[tuple[int, int]]] = [[]]
    for i, value in enumerate(line.values):
        if value is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((i, value))
    return [run for run in runs if run]


def spread(wanted: list[float], size: float, top: float, bottom: float) -> list[float]:
    """Centres for labels `size` tall, in the given order (by wanted centre), each as near its
    wanted centre as it can be while none overlaps the next and all stay within top..bottom."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, top + size / 2, placed[-1] + size if placed else -math.inf))
    limit = bottom - size / 2
    for i in range(len(placed) - 1, -1, -1):
        placed[i] = min(placed[i], limit)
        limit = placed[i] - size
    return placed


def _labels(pill: float, svg: Svg, plot: _Plot, labels: list[Label]) -> None:
    """The right-hand column: labels in the order their lines end, top to bottom, pushed apart,
    each joined to its line's end (dotted when the line stopped before the last point); the
    names on pills `pill` wide, so that the values line up."""
    ordered = sorted(labels, key=lambda label: label.end[1])
    centres = spread(
        [label.end[1] for label in ordered],
        PILL_H + LABEL_GAP,
        plot.top - PILL_H / 2,
        plot.bottom + PILL_H / 2,
    )
    x = plot.right + LEADER
    for label, y in zip(ordered, centres):
        ex, ey = label.end
        dash = "" if label.at_last_point else ' stroke-dasharray="2,5"'
        svg.path(
            f"M{ex:.1f},{ey:.1f}L{plot.right:.1f},{ey:.1f}L{x - 3:.1f},{y:.1f}",
            label.colour if label.at_last_point else pal.MUTED,
            2,
            extra=dash,
        )
        svg.rect(x, y - PILL_H / 2, pill, PILL_H, label.colour, pal.INK, 1.0, rx=PILL_H / 2)
        svg.text(x + pill / 2, y + TEXT * 0.36, label.name, TEXT, pal.text_on(label.colour), True)
        svg.text(x + pill + 8, y + TEXT * 0.36, label.value, TEXT, pal.INK, anchor="start")
