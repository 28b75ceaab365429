"""What Discord's refusal of a post in a game's thread means for the game: a permission the
bot lacks there, no access, the thread locked or deleted. Such refusals are stored per game
(see `bot.core.service.posting`) and told to players, never only logged; and `/game new`
checks the bot's permissions first, so no game is opened where it could not be played."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.service.posting import unposted_reason
from bot.discord_ui.io import THREAD_ARCHIVED, fit  # a post there is refused once it is locked

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013

# The permissions a game's thread needs, by Discord's names: to see it, post the turns (with
# the prompt's embed), add the seated players and find the turn post again after a restart
# (Read Message History); Attach Files is wanted for the pictures (without it the turns go
# out without them).
THREAD_NEEDS = {
    "view_channel": "View Channel",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}
# Where the game is opened: the lobby message and the thread started from it (a forum post
# needs Send Messages alone: Discord ignores Create Public Threads there).
TEXT_CHANNEL_NEEDS = {
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
}
FORUM_NEEDS = {"send_messages": "Send Messages"}
TELL_WITHIN = 60.0  # seconds a command's caller is told of a refused post, at most
REFUSED_LOG = {  # what a refusal says of the thread, for the log
    "permission": "refuses the bot a permission: {detail}",
    "access": "is out of the bot's access",
    "locked": "is locked",
    "gone": "is gone",
}


@dataclass(frozen=True)
class Blocked:
    """A post the game's thread did not get, and why (`kind`: see `unposted_reason`)."""

    kind: str
    code: int | None
    detail: str | None = None


def blocked(exc: discord.HTTPException, thread: Any = None) -> Blocked | None:
    """What a refusal of a post in the game's thread means (None: nothing lasting, such as a
    server error)."""
    if exc.code == MISSING_ACCESS:
        return Blocked("access", exc.code)
    if exc.code == MISSING_PERMISSIONS:
        return Blocked("permission", exc.code, names(lacking(thread)) or None)
    if exc.code == THREAD_ARCHIVED:
        return Blocked("locked", exc.code)
    if exc.code == UNKNOWN_CHANNEL or (isinstance(exc, discord.NotFound) and thread is None):
        return Blocked("gone", exc.code)  # the thread itself not found
    return None


def lacking(channel: Any) -> list[str]:
    """The permissions a game's thread needs that the bot lacks in `channel`, as far as its
    cache tells (empty when it cannot tell)."""
    me = getattr(getattr(channel, "guild", None), "me", None)
    return [] if me is None else missing(channel.permissions_for(me), THREAD_NEEDS)


def missing(have: discord.Permissions, needs: dict[str, str]) -> list[str]:
    """The names of `needs` (attribute: Discord's name) that `have` lacks."""
    return [name for attr, name in needs.items() if not getattr(have, attr)]


def names(missing: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return " and ".join(filter(None, [", ".join(missing[:-1]), *missing[-1:]]))


def missing_to_open(interaction: discord.Interaction, forum: bool) -> list[str]:
    """The permissions the bot lacks where `/game new` is used (its `app_permissions` there)
    to open a game and play it in its thread."""
    needs = {**(FORUM_NEEDS if forum else TEXT_CHANNEL_NEEDS), **THREAD_NEEDS}
    return missing(interaction.app_permissions, needs)


def log_refusal(game_id: int, thread_id: int | None, why: Blocked) -> None:
    """A refusal that lasts until someone mends it: a warning saying what it is."""
    log.warning(
        "game %s: thread %s %s (Discord code %s); its post waits",
        game_id,
        thread_id,
        REFUSED_LOG.get(why.kind, why.kind).format(detail=why.detail or "unknown"),
        why.code,
    )


async def tell_unposted(
    interaction: discord.Interaction, watcher: asyncio.Future[Blocked | None]
) -> None:
    """Tell a command's caller, after "Done", that the game's thread did not get its post."""
    try:
        why = await asyncio.wait_for(watcher, TELL_WITHIN)
    except TimeoutError:
        return
    if why is None:
        return
    reason = unposted_reason(why.kind, why.detail)
    try:
        await interaction.followup.send(
            fit(f"But I could not post it in the game's thread: {reason}."), ephemeral=True
        )
    except discord.HTTPException as exc:  # the interaction's token expired meanwhile
        log.info("could not tell user %s of a refused post: %s", interaction.user.id, exc)
