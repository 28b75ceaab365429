"""Direct messages and links to game threads: a turn or a request for those who want them, a
reminder for those who take reminders so, and a player's list of games (`/turns`) with a link
to each. A user whose direct messages are closed (Discord's 50007) is skipped and logged (and
not tried again for a day, `dm_gate.py`): the thread still mentions them."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.core.service.turns import DirectMessage
from bot.core.turn_list import TurnEntry, summary
from bot.discord_ui.context import BotContext
from bot.discord_ui.dm_gate import CANNOT_DM
from bot.discord_ui.io import fit
from bot.discord_ui.turn_prompt import prompt_embed

log = logging.getLogger(__name__)


def thread_link(guild_id: int | None, thread_id: int | None) -> str | None:
    """The link that opens a game's thread (None for a game outside a server)."""
    if guild_id is None or thread_id is None:
        return None
    return f"https://discord.com/channels/{guild_id}/{thread_id}"


def entry_link(entry: TurnEntry) -> str | None:
    return thread_link(entry.guild_id, entry.thread_id)


async def direct_messages(
    bot: BotContext,
    game_id: int,
    users: Sequence[int],
    *,
    asked: Sequence[int] = (),
    request_id: int | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """To those of `users` who want them for this game: their move (with the turn prompt's
    `embed`), or (`asked`) request `request_id` to answer; held back in quiet hours."""
    messages = await bot.service.direct_messages(game_id, users, asked=asked, request_id=request_id)
    await send_all(bot, messages, embed)


async def dm_notes(
    bot: BotContext, game_id: int | None, users: Sequence[int], guild_id: int | None
) -> None:
    """Notes told to one user alone (a programmed move of theirs stopped), by direct message
    to those who want direct messages for this game; the others, and those Discord refuses,
    read theirs with their next command."""
    for user_id in users:
        if game_id is None or not await bot.service.wants_dm(user_id, game_id):
            continue
        notes = await bot.service.waiting_notes(user_id, guild_id)
        if notes and await send_dm(bot, user_id, fit("\n".join(n.text for n in notes))):
            await bot.service.notes_delivered(notes)


async def send_all(
    bot: BotContext, messages: Sequence[DirectMessage], embed: discord.Embed | None = None
) -> int:
    """Send each message (with the link to its game's thread; about a move, with what the
    player missed since their last move, and `embed` or else the turn's prompt as it stands
    when sent: a held or reminding message goes out hours after the move); how many went
    out."""
    sent = 0
    for message in messages:
        link = thread_link(message.guild_id, message.thread_id)
        text = f"{message.text}: {link}" if link else f"{message.text}."
        if message.missed:
            text += "\n" + message.missed
        if message.others:
            text += "\n" + summary(message.others, entry_link)
        shown = embed
        if shown is None and message.turn:
            shown = await _turn_embed(bot, message.game_id)
        sent += await send_dm(bot, message.user_id, fit(text), shown)
    return sent


async def _turn_embed(bot: BotContext, game_id: int) -> discord.Embed | None:
    try:
        prompt = await bot.service.prompt(game_id)
    except Exception:  # the message goes out without it
        log.exception("the prompt of game %s for a direct message failed", game_id)
        return None
    return prompt_embed(prompt)


async def send_dm(
    bot: BotContext, user_id: int, text: str, embed: discord.Embed | None = None
) -> bool:
    """One direct message, in its turn; False when it was not sent: Discord refused it (DMs
    closed: 50007; opened too fast: 40003; the user is gone) or the gate holds it back after
    such a refusal, which is logged and changes nothing else."""
    why = bot.dms.shut(user_id)
    if why is None:
        await bot.dms.turn()
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await (user.send(text, embed=embed) if embed is not None else user.send(text))
        except discord.HTTPException as exc:
            bot.dms.refused(user_id, exc.code)
            why = "their direct messages are closed" if exc.code == CANNOT_DM else str(exc)
        else:
            bot.dms.sent()
            return True
    log.info("no DM to user %s: %s", user_id, why)
    return False
