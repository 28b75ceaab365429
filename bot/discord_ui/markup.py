"""Names, chat and the service's words shown in Discord as written, never as markup: a player
named `# [click](https://…)` makes no heading and no masked link, and a chat line no code
block. The console prints the same words as plain text and needs none of this; the bot's own
markup (bold labels) is added after."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

import discord

from bot.core.lobby import Lobby

# a heading or quote marker after spaces at a line's start, which escape_markdown leaves
_INDENTED_MARKER = re.compile(r"^(\s+)(?=#|>)", re.MULTILINE)


def as_written(text: str) -> str:
    """`text` with every markdown sign escaped (a backslash of its own too, so that it cannot
    escape the bot's markup after it)."""
    escaped = discord.utils.escape_markdown(text.replace("\\", "\\\\"))
    return _INDENTED_MARKER.sub(lambda m: m.group(1) + "\\", escaped)


def names_list(names: Iterable[str]) -> str:
    """Names as a list in a sentence ("ann, bob")."""
    return ", ".join(as_written(name) for name in names)


def lobby_as_written(lobby: Lobby) -> Lobby:
    """The lobby with its players' names escaped, for `bot.core.lobby.lobby_text` to format."""
    return replace(
        lobby,
        seats=tuple(as_written(n) for n in lobby.seats),
        creator=as_written(lobby.creator),
        to_act=tuple(as_written(n) for n in lobby.to_act),
        ranking=tuple((as_written(n), s) for n, s in lobby.ranking),
    )
