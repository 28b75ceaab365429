"""Discord's JSON objects as the fake sends them: users, the server, its text channel and
threads, direct-message channels and messages (docs/resources/*.md of discord-api-docs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

APP_ID = 900
GUILD_ID = 1001
CHANNEL_ID = 1002
THREAD_ID = 1003
FORUM_ID = 1004  # a forum channel: its posts are threads, it holds no message itself
TEXT, FORUM, PUBLIC_THREAD = 0, 15, 11  # channel types (channel.mdx, "Channel Types")
REQUIRE_TAG = 1 << 4  # a forum's flag: its posts need a tag (channel.mdx, "Channel Flags")
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes a message may upload without server boosts
# Permission bits (docs/topics/permissions.md) of the permissions the fake checks.
PERMISSION_BITS = {
    "manage_channels": 4,
    "view_channel": 10,
    "send_messages": 11,
    "embed_links": 14,
    "attach_files": 15,
    "read_message_history": 16,
    "manage_threads": 34,
    "create_public_threads": 35,
    "send_messages_in_threads": 38,
}
# What the README asks the bot be invited with (Manage Threads is optional).
BOT_PERMISSIONS = frozenset(PERMISSION_BITS) - {"manage_channels", "manage_threads"}


def permission_bits(names: set[str] | frozenset[str]) -> str:
    return str(sum(1 << PERMISSION_BITS[name] for name in names))


PERMISSIONS = permission_bits(BOT_PERMISSIONS)
EPHEMERAL = 1 << 6  # message flag
TIMESTAMP = "2026-01-01T00:00:00+00:00"
BOT_USER = {
    "id": str(APP_ID),
    "username": "railchat",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
    "global_name": None,
}


def user(uid: int, name: str) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name,
        "discriminator": "0",
        "avatar": None,
        "global_name": name,
    }


def member(who: dict[str, Any]) -> dict[str, Any]:
    return {
        "user": who,
        "roles": [],
        "joined_at": TIMESTAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": PERMISSIONS,
    }


@dataclass
class Upload:
    """One file of a multipart request (`field`: files[N])."""

    field: str
    filename: str
    data: bytes


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes


@dataclass
class Posted:
    """A message as Discord holds it: `where` is its channel's id, or the interaction token of
    an interaction's answer or follow-up (shown in `channel`)."""

    id: int
    where: int | str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    edits: int = 0
    channel: int = THREAD_ID
    loading: bool = False  # a deferred answer not given yet ("railchat is thinking...")
    # over an hour old and past Discord's limit of edits of those: refused until this time of
    # the fake's clock
    edit_limited: float = float("-inf")
    author: dict[str, Any] | None = None  # a user's message (None: the bot's)
    thread: int | None = None  # the thread started from this message


def thread_data(
    tid: int = THREAD_ID,
    name: str = "railchat game",
    kind: int = PUBLIC_THREAD,
    archive: int = 10080,
    parent: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A thread of text channel `parent` (default: the first server's channel)."""
    parent = parent or channel_data()
    return {
        "id": str(tid),
        "type": kind,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "name": name,
        "owner_id": str(APP_ID),
        "message_count": 0,
        "member_count": 1,
        "rate_limit_per_user": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": archive,
            "archive_timestamp": TIMESTAMP,
            "locked": False,
        },
    }


def channel_data(cid: int = CHANNEL_ID, guild_id: int = GUILD_ID) -> dict[str, Any]:
    return {
        "id": str(cid),
        "type": TEXT,
        "name": "games",
        "position": 0,
        "permission_overwrites": [],
        "guild_id": str(guild_id),
    }


def forum_data() -> dict[str, Any]:
    """A forum channel (channel.mdx: "GUILD_FORUM 15, Channel that can only contain
    threads"), with no tags."""
    return {
        **channel_data(),
        "id": str(FORUM_ID),
        "type": FORUM,
        "name": "game-forum",
        "position": 1,
        "available_tags": [],
        "default_reaction_emoji": None,
        "default_sort_order": None,
        "default_forum_layout": 0,
        "flags": 0,
    }


def dm_channel_data(cid: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(cid), "type": 1, "recipients": [recipient], "last_message_id": None}


def guild_data(
    threads: list[dict[str, Any]],
    guild_id: int = GUILD_ID,
    channels: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """GUILD_CREATE: its `threads` are the active ones only (docs/topics/threads.md)."""
    return {
        "id": str(guild_id),
        "name": "test",
        "icon": None,
        "owner_id": "1",
        "member_count": 3,
        "large": False,
        "unavailable": False,
        "features": [],
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": PERMISSIONS,
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "channels": channels if channels is not None else [channel_data(), forum_data()],
        "threads": [t for t in threads if not t["thread_metadata"]["archived"]],
        "members": [],
        "voice_states": [],
        "presences": [],
        "emojis": [],
        "stickers": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    }


def attachment_data(a: Attachment, base: str) -> dict[str, Any]:
    url = f"{base}/attachments/{a.id}/{a.filename}"
    return {
        "id": str(a.id),
        "filename": a.filename,
        "size": len(a.data),
        "url": url,
        "proxy_url": url,
    }


def message_data(message: Posted, base: str) -> dict[str, Any]:
    return {
        "id": str(message.id),
        "channel_id": str(message.channel),
        "author": message.author or BOT_USER,
        "content": message.content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": "2026-01-01T00:00:01+00:00" if message.edits else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment_data(a, base) for a in message.attachments],
        "embeds": message.embeds,
        "pinned": False,
        "type": 0,
        "flags": message.flags | (1 << 7 if message.loading else 0),  # LOADING
        "components": message.components,
    }


def gateway_data(port: int, shards: int) -> dict[str, Any]:
    """GET /gateway/bot: the gateway's URL, the shards advised and the session start limit."""
    return {
        "url": f"ws://127.0.0.1:{port}/ws",
        "shards": shards,
        "session_start_limit": {
            "total": 1000,
            "remaining": 1000,
            "reset_after": 0,
            "max_concurrency": 1,
        },
    }


def application_data() -> dict[str, Any]:
    """GET /oauth2/applications/@me: the bot's application."""
    return {
        "id": str(APP_ID),
        "name": "railchat",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": BOT_USER,
        "verify_key": "00",
        "flags": 0,
        "summary": "",
    }
