"""What a pressed component carries, read with care: its custom id and a menu's picked value
come back from the user's client, so one that no component of the bot's carries (a number past
the store's integers, a value no menu offers) is refused with a sentence and changes nothing,
instead of failing in the store."""

from __future__ import annotations

import re

from bot.core.parsing import MAX_INTEGER

NOT_VALID = "Refused: this button or menu is no longer valid; nothing was changed."
NUMBER_FIELDS = ("game", "version", "request", "seat")  # the custom ids' numeric parts


class NotValid(Exception):
    """A custom id or picked value that none of the bot's components carries."""


def number(text: str) -> int:
    """A number a component carries (a game, a version, a request, a seat, an action): plain
    digits that fit the store's integers."""
    if not (text.isascii() and text.isdigit() and len(text) < 20 and int(text) < MAX_INTEGER):
        raise NotValid(f"not a number a component carries: {text[:40]!r}")
    return int(text)


def check_custom_id(template: re.Pattern[str], custom_id: str) -> None:
    """Every number in the custom id fits the store (its template matched it already)."""
    match = template.fullmatch(custom_id)
    if match is None:
        raise NotValid(f"not a custom id of mine: {custom_id[:100]!r}")
    for name, value in match.groupdict().items():
        if name in NUMBER_FIELDS and value is not None:
            number(value)
