"""Thread posts beside the turn post: a request others must answer (an undo vote, a deal), a
seat offered to a user and a reminder (the direct messages of those who asked for them are in
`direct`). Each mentions exactly the users it names by id, never anyone a text or a name
happens to spell."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.core.moves import quick_moves
from bot.core.results import Prompt
from bot.core.service.reminders import Reminder
from bot.discord_ui.buttons import offers_view, request_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.direct import direct_messages
from bot.discord_ui.io import fit, game_thread, packed
from bot.discord_ui.markup import as_written, names_list
from bot.discord_ui.post_state import Batch

log = logging.getLogger(__name__)

# Discord's answers to an edit that cannot be made: the message is gone (10008), the thread is
# archived (50083), the message is old and its edits ran out (30046), or the bot may not (50001,
# 50013). The turn goes on in a new post instead; posting to an archived thread reopens it.
EDIT_REFUSED = frozenset({10008, 50083, 30046, 50001, 50013})


def mentions(users: Iterable[int]) -> discord.AllowedMentions:
    """Only these users may be pinged by a post, whatever its text says."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users]
    )


def edit_refused(exc: discord.HTTPException) -> bool:
    return isinstance(exc, discord.NotFound) or exc.code in EDIT_REFUSED


async def strip_controls(message: object) -> None:
    """An older post loses its menu and buttons (best effort: it may be gone or archived)."""
    edit = getattr(message, "edit", None)
    if edit is None:
        return
    try:
        await edit(view=None)
    except discord.HTTPException as exc:
        log.info("could not take the buttons off an older post: %s", exc)


def chunks(lines: Sequence[str], room: int) -> tuple[list[str], list[str]]:
    """Lines cut into whole messages of older lines and the newest lines that fit `room`: a
    long turn keeps its newest lines with its prompt, the older ones go first."""
    newest: list[str] = []
    size = 0
    for line in reversed(lines):
        if newest and size + len(line) + 1 > room:
            break
        newest.insert(0, fit(line, room))
        size += len(newest[0]) + 1
    return packed(lines[: len(lines) - len(newest)]), newest


async def request_post(
    bot: BotContext,
    thread: discord.Thread,
    batch: Batch,
    prompt: Prompt,
    replacing: Any = None,
) -> Any:
    """A deal or undo request (the batch's `vote`): its own post, pinging who must answer,
    with its buttons (the turn's post stays the current one); the post. One asked again
    within the ping cooldown (nobody to ping) takes the post of the request it replaced
    (`replacing`), edited, so asking again and again adds nothing to the thread."""
    assert batch.vote is not None
    view = request_view(
        batch.vote_kind, batch.vote, prompt.game_id, prompt.version, quick_moves(prompt.choices)
    )
    asked = [u for u in batch.vote_ping if u not in batch.hushed]
    ping = list(asked)
    text = [*batch.lines, "To answer: " + " ".join(f"<@{u}>" for u in batch.vote_ping)]
    if prompt.notify and prompt.notify != prompt.mentioned:  # a new turn: mentioned once
        ping += [u for u in prompt.notify if u not in ping]
        text.append("To act: " + " ".join(f"<@{u}>" for u in prompt.notify))
        await bot.service.mark_mentioned(prompt.game_id, prompt.notify)
    elif prompt.names:
        text.append("To act: " + names_list(prompt.names))
    content = fit("\n".join(text))
    if replacing is not None and not ping:
        try:
            return await replacing.edit(content=content, view=view, allowed_mentions=mentions(()))
        except discord.HTTPException as exc:
            if not edit_refused(exc):
                raise
            log.info("the post of a replaced request cannot be edited (%s); posting again", exc)
    elif replacing is not None:
        await strip_controls(replacing)
    message = await thread.send(content, view=view, allowed_mentions=mentions(ping))
    await direct_messages(bot, prompt.game_id, ping, asked=asked, request_id=batch.vote)
    return message


async def offers_post(
    thread: discord.Thread, offers: Sequence[int], invited: Sequence[int], hushed: Sequence[int]
) -> None:
    """Seats offered to users: one post naming each of them once, with Take / Decline,
    pinging those not pinged about a seat offer from the same admin lately (`hushed`)."""
    who = " ".join(f"<@{u}>" for u in dict.fromkeys(invited))
    await thread.send(
        fit(
            f"{who}: a seat in this game is offered to you. Take it to play; until you do, "
            "you are not seated and nobody will ping you for it."
        ),
        view=offers_view(offers),
        allowed_mentions=mentions(u for u in invited if u not in hushed),
    )


async def post_reminder(bot: BotContext, reminder: Reminder) -> None:
    """A reminder in its game's thread, pinging only the users it lists."""
    if reminder.thread_id is None or not reminder.in_thread:
        return
    thread = await game_thread(bot, reminder.thread_id)
    if thread is None:
        return
    listed = " ".join(f"<@{u}>" for u in reminder.ping)
    await thread.send(
        fit(as_written(reminder.text) + (f"\n{listed}" if listed else "")),
        allowed_mentions=mentions(reminder.ping),
    )
