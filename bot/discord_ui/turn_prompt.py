"""The turn prompt of a thread post: an embed saying who acts, for which company, in which step,
with what cash and trains and what is compulsory; and the options of the menu of legal moves
(at most 25, grouped by the /play command that makes them; the menu is in `bot.discord_ui.buttons`).
At the end of a game the embed is the final ranking."""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.core.moves import MENU_LIMIT, choice_key, grouped_moves, quick_kind
from bot.core.results import Prompt
from bot.discord_ui.markup import as_written
from engine.game import Choice
from engine.series import ChartSeries

MENU_OPTIONS = MENU_LIMIT  # Discord's limit for a select menu
EMBED_COLOUR = 0x2D6A4F


def prompt_embed(prompt: Prompt) -> discord.Embed | None:
    """Who must act and on what, and the programmed moves everyone may be told of ("Bob
    automatically passes in this stock round until ..."); None when the title tells nothing
    about the turn."""
    turn, names, programmed = prompt.turn, prompt.player_names, prompt.programmed
    if not turn:
        return None
    first = turn[0]
    who = names.get(first.player, str(first.player)) if first.player is not None else "any player"
    title = as_written(f"{who} for {first.acting_for}" if first.acting_for else who)
    embed = discord.Embed(
        title=f"To act: {title}"[:256], colour=EMBED_COLOUR, description=first.step[:4096]
    )
    for info in turn:
        lines = [as_written(fact) for fact in info.facts]
        if info.compulsory:
            lines.append(f"**Must:** {as_written(info.compulsory)}")
        name = as_written(str(info.acting_for or names.get(info.player, str(info.player))))
        embed.add_field(name=name[:256], value=("\n".join(lines) or "-")[:1024], inline=False)
    if programmed:
        value = as_written("\n".join(programmed))[:1024]
        embed.add_field(name="Programmed", value=value, inline=False)
    return embed


def ranking_embed(series: ChartSeries) -> discord.Embed:
    """Each player's place (shared on a tie), name and score as the title counts it, and how
    far behind the winner."""
    value = series.charts[0].value_text
    scores = [score for _, score in series.ranking]
    lines = []
    for name, score in series.ranking:
        place = 1 + sum(other > score for other in scores)
        behind = max(scores) - score
        tail = f" ({value(behind)} behind)" if behind else ""
        lines.append(f"{place}. **{as_written(name)}** {value(score)}{tail}")
    return discord.Embed(
        title=f"Final ranking · {series.name}"[:256],
        colour=EMBED_COLOUR,
        description="\n".join(lines)[:4096],
    )


def menu_options(choices: Sequence[Choice]) -> list[discord.SelectOption]:
    """At most 25 moves, grouped by kind (each kind keeps a fair share when there are more;
    /game view moves lists them all), without those the buttons make: each a short label (a
    lay: "I17 · tile 7 · W NW") with the rest of what the engine says in its description."""
    buttons = {id(c) for c in choices if quick_kind(c.action) is not None}
    shown = [c for c in choices if id(c) not in buttons]
    out = []
    for _, members in grouped_moves(shown, MENU_OPTIONS):
        for choice in members:
            label, detail = menu_entry(choice)
            out.append(
                discord.SelectOption(
                    label=label[:100], value=choice_key(choice.action), description=detail[:100]
                )
            )
    return out[:MENU_OPTIONS]


_EXIT = re.compile(r"(?:^|,\s*)(?:track\s+)?([NSEW]{1,2})\b")


def menu_entry(choice: Choice) -> tuple[str, str]:
    """(label, description) of one move in the menu: what it is, then its details."""
    head, _, detail = choice.label.partition(": ")
    if choice.action.get("type") == "lay_tile" and detail:
        exits = " ".join(_EXIT.findall(detail.partition(";")[0]))
        tile, _, hex_id = head.removeprefix("Lay tile ").partition(" on ")
        if hex_id and exits:
            return f"{hex_id} · tile {tile} · {exits}", detail
    return head, detail
