"""Colours. Company colours come from the Okabe-Ito palette, whose eight colours stay apart for
the common forms of colour blindness; every token also carries the company's abbreviation, so
colour is never the only cue."""

from __future__ import annotations

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

# Chosen to echo each company's traditional colour where the palette allows it.
COMPANY_COLOURS: dict[str, dict[str, str]] = {
    "1830": {
        "PRR": "bluish_green",
        "NYC": "black",
        "CPR": "vermillion",
        "B&O": "blue",
        "C&O": "sky_blue",
        "ERIE": "yellow",
        "NYNH": "orange",
        "B&M": "reddish_purple",
    },
    "1860": {
        "C&N": "vermillion",
        "IOW": "blue",
        "IWNJ": "black",
        "FYN": "bluish_green",
        "NGStL": "orange",
        "BHI&R": "reddish_purple",
        "S&C": "sky_blue",
        "VYSC": "yellow",
    },
}

# Players (and String Railway's companies, one per seat) in seat order, in the palette's
# colours that stay clear on the page.
SEAT_COLOURS = tuple(
    OKABE_ITO[k]
    for k in ("vermillion", "blue", "bluish_green", "orange", "reddish_purple", "sky_blue")
)

TILE = {
    "white": "#EEE6D2",
    "yellow": "#F6DD4A",
    "green": "#6DBB5A",
    "brown": "#C08A57",
    "gray": "#BDBDBD",
    "red": "#D9533F",
    "blue": "#7FB6E0",
}
TRACK = "#111111"
TRACK_CASING = "#FFFFFF"
HEX_EDGE = "#7A7466"
IMPASSABLE = "#B3001B"
WATER = "#2C7FB8"
MOUNTAIN = "#7B5A3A"
HIGHLIGHT = "#E8006F"  # last tile or token: a colour no company uses, drawn thick
PAGE = "#FBFAF6"
INK = "#1A1A1A"
MUTED = "#77736A"
PANEL = "#FFFFFF"
RULE = "#D8D3C6"

ZONES = {
    "white": "#FFFFFF",
    "yellow": "#FBEA8C",
    "orange": "#F6B26B",
    "brown": "#C9A27E",
    "par": "#CDEBC2",
    "close": "#B7A3C9",
    "ignore_one_sale": "#D9DBA8",
    "repar": "#D6D6D6",
    "endgame": "#F6B26B",
    "plain": "#FFFFFF",
}


def company_colour(title: str, sym: str, order: list[str]) -> str:
    """The fill colour of a company's tokens; titles without a table cycle through the palette."""
    named = COMPANY_COLOURS.get(title, {}).get(sym)
    if named:
        return OKABE_ITO[named]
    palette = list(OKABE_ITO.values())
    return palette[order.index(sym) % len(palette)] if sym in order else "#888888"


def tint(colour: str, strength: float = 0.3) -> str:
    """A pale version of a colour (strength 0 = white, 1 = the colour itself)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(round(255 - (255 - v) * strength) for v in (r, g, b)))


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#FFFFFF"


def zone_colour(zone: str) -> str:
    """Market cell fill for a zone name from the title data ('par (light green...)' -> par)."""
    key = zone.split(" ")[0]
    return ZONES.get(key, "#FFFFFF")
