"""`/game help` as embeds whose commands are clickable: Discord turns `</game new:ID>` into the
command, filled in when pressed. The ids are the ones Discord gave the commands when they were
uploaded (or read back at start); a command without one is shown as plain text."""

from __future__ import annotations

import re
from collections.abc import Mapping

import discord

from bot.core.help_text import DEALS, GAME_DEFAULT, SECTIONS, title_help
from bot.discord_ui.io import packed

COLOUR = 0x2D6A4F
MAX_FIELD = 1024  # characters of an embed field's value
COMMAND = re.compile(r"/(?:(game-admin|game|play|settings) ([\w-]+)|(turns))\b")


def clickable(text: str, ids: Mapping[str, int]) -> str:
    """Each `/group sub` (and `/turns`) of the text as a command mention, where its id is
    known."""

    def mention(match: re.Match[str]) -> str:
        group = match[1] or match[3]
        name = f"{group} {match[2]}" if match[1] else group
        return f"</{name}:{ids[group]}>" if group in ids else match[0]

    return COMMAND.sub(mention, text)


def help_embeds(title: str | None, ids: Mapping[str, int]) -> list[discord.Embed]:
    """The commands (no title), or a title's moves with its examples; ValueError for an
    unknown title."""
    if title is not None:
        name, _, body = title_help(title).partition("\n")
        return [
            discord.Embed(title=name[:256], colour=COLOUR, description=clickable(body, ids)[:4096])
        ]
    embed = discord.Embed(title="railchat: the commands", colour=COLOUR)
    for section, commands in SECTIONS:
        lines = [clickable(f"/{c.name}", ids) + f" {c.usage} — {c.what}" for c in commands]
        for n, value in enumerate(packed(lines, MAX_FIELD)):  # a field ends at a line's end
            embed.add_field(
                name=section if n == 0 else f"{section} (more)", value=value, inline=False
            )
    embed.set_footer(text=f"{GAME_DEFAULT} {DEALS} /game help title: its moves.")
    return [embed]
