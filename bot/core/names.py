"""Names that come from users (chat display names, a game file's players, an admin's word)
shown as plain text: short, on one line, and unable to mention anyone in a chat that reads
`<@id>`, `<#id>`, `<@&id>`, `@everyone` or `@here` as a mention."""

from __future__ import annotations

import re

from engine.shapes import bounded_name

ZERO_WIDTH = "\u200b"
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
_MENTION = re.compile(r"<(?=[@#:/a])|@(?=everyone|here)", re.IGNORECASE)


def plain_name(name: object) -> str:
    """The name as plain text (never empty), at most `engine.shapes.MAX_NAME` characters."""
    text = _CONTROL.sub(" ", str(name)).strip() or "?"
    text = _MENTION.sub(lambda m: m.group(0) + ZERO_WIDTH, text)
    return bounded_name(text)
