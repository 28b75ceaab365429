"""What the fake Discord holds and the rules it refuses by: the server (deleted, or the bot
removed from it), its text channel and threads (archived, locked, deleted), permissions per
channel, messages (deleted, or past the edit limit of old messages), direct-message channels
(closed) and the clock all of it goes by.

Pure state and rules, no I/O: `server.py` answers requests with it and sends the gateway
events it queues in `outbox` (THREAD_UPDATE when a thread archives or unarchives, ...).
"""

from __future__ import annotations

import copy
import enum
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.fake_discord.limits import check_limits
from tests.fake_discord.payloads import (
    BOT_PERMISSIONS,
    BOT_USER,
    CHANNEL_ID,
    FORUM,
    FORUM_ID,
    GUILD_ID,
    PUBLIC_THREAD,
    REQUIRE_TAG,
    TEXT,
    THREAD_ID,
    Attachment,
    Posted,
    Upload,
    channel_data,
    dm_channel_data,
    forum_data,
    guild_data,
    message_data,
    thread_data,
)
from tests.fake_discord.refusals import (
    ARCHIVED,
    CANNOT_DM,
    INVALID_FORM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    NON_TEXT,
    OLD_MESSAGE_EDITS,
    TAG_REQUIRED,
    THREAD_EXISTS,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    Rejected,
)


class Clock:
    """Real (monotonic) time that a test may move forward: the answer window of an interaction
    runs in real time while the bot works; `advance` jumps past the 15 minutes of an
    interaction token or a thread's auto-archive duration."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Op(enum.Enum):
    """What a request does to the channel it names (the rules differ)."""

    READ = "read"  # the channel itself
    FETCH = "fetch"  # one of its messages
    SEND = "send"  # post a message
    EDIT = "edit"  # edit a message
    REMOVE = "remove"  # delete a message
    JOIN = "join"  # add or remove a thread member
    CREATE_THREAD = "create thread"
    DELETE = "delete"  # delete the channel


class Guild(enum.Enum):
    PRESENT = "present"
    REMOVED = "removed"  # the bot was kicked: the server goes on without it
    DELETED = "deleted"  # the server is gone, with its channels


@dataclass
class World:
    clock: Clock = field(default_factory=Clock)
    base: str = ""  # the fake's URL, for attachment links
    messages: dict[int, Posted] = field(default_factory=dict)
    channels: dict[int, dict[str, Any]] = field(
        default_factory=lambda: {CHANNEL_ID: channel_data(), FORUM_ID: forum_data()}
    )
    threads: dict[int, dict[str, Any]] = field(default_factory=lambda: {THREAD_ID: thread_data()})
    deleted: list[int] = field(default_factory=list)  # channels and threads deleted
    deleted_messages: list[int] = field(default_factory=list)
    permissions: set[str] = field(default_factory=lambda: set(BOT_PERMISSIONS))  # the bot's
    denied: dict[int, set[str]] = field(default_factory=dict)  # channel: permissions taken away
    guilds: dict[int, Guild] = field(default_factory=lambda: {GUILD_ID: Guild.PRESENT})
    users: dict[int, dict[str, Any]] = field(
        default_factory=lambda: {int(BOT_USER["id"]): BOT_USER}
    )
    dm_channels: dict[int, int] = field(default_factory=dict)  # DM channel id: its user
    closed_dms: set[int] = field(default_factory=set)  # users who do not take DMs from the bot
    attachments: dict[int, Attachment] = field(default_factory=dict)  # every one, for download
    activity: dict[int, float] = field(default_factory=dict)  # thread: last message or unarchive
    members: dict[int, set[int]] = field(default_factory=dict)  # thread: users added to it
    outbox: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # gateway events
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(5000))

    def new_id(self) -> int:
        return next(self.ids)

    def posts(self, where: int | str) -> list[Posted]:
        return [m for m in self.messages.values() if m.where == where]

    # -- the servers ---------------------------------------------------------------------------
    @property
    def guild(self) -> Guild:
        """The first server's state (the one most tests play in)."""
        return self.guilds[GUILD_ID]

    @guild.setter
    def guild(self, state: Guild) -> None:
        self.guilds[GUILD_ID] = state

    def add_guild(self, guild_id: int) -> dict[str, Any]:
        """Another server with the bot in it and one text channel, which is returned."""
        assert guild_id not in self.guilds, guild_id
        self.guilds[guild_id] = Guild.PRESENT
        channel = channel_data(self.new_id(), guild_id)
        self.channels[int(channel["id"])] = channel
        return channel

    def guilds_of_shard(self, shard: int, count: int) -> list[int]:
        """The servers with the bot whose events go to that shard (Discord's formula:
        `(guild_id >> 22) % num_shards`)."""
        return [
            g
            for g, state in self.guilds.items()
            if state is Guild.PRESENT and (g >> 22) % count == shard
        ]

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        return guild_data(
            [t for t in self.threads.values() if int(t["guild_id"]) == guild_id],
            guild_id,
            [c for c in self.channels.values() if int(c["guild_id"]) == guild_id],
        )

    def check_guild(self, guild_id: int) -> None:
        """A route naming a server: gone (10004) or no longer the bot's (50001)."""
        state = self.guilds.get(guild_id)
        if state is None or state is Guild.DELETED:
            raise Rejected(UNKNOWN_GUILD)
        if state is Guild.REMOVED:
            raise Rejected(MISSING_ACCESS)

    # -- channels and threads ------------------------------------------------------------------
    def channel(
        self,
        cid: int,
        op: Op,
        body: dict[str, Any] | None = None,
        files: list[Upload] | tuple[()] = (),
    ) -> dict[str, Any]:
        """The channel a route names, or Discord's refusal of `op` there (`body` and `files`:
        the message sent or edited, whose embeds and files need their own permissions)."""
        if cid in self.dm_channels:
            if op is Op.SEND and self.dm_channels[cid] in self.closed_dms:
                raise Rejected(CANNOT_DM)
            return dm_channel_data(cid, self.users[self.dm_channels[cid]])
        found = self.threads.get(cid) or self.channels.get(cid)
        state = self.guilds.get(int(found["guild_id"])) if found is not None else None
        if found is None or cid in self.deleted or state is Guild.DELETED:
            raise Rejected(UNKNOWN_CHANNEL)
        if state is Guild.REMOVED:
            raise Rejected(MISSING_ACCESS)
        allowed = self.allowed(cid)
        if "view_channel" not in allowed:
            raise Rejected(MISSING_ACCESS)
        forum = found.get("type") == FORUM
        if not _needs(op, cid in self.threads, forum, body or {}, files) <= allowed:
            raise Rejected(MISSING_PERMISSIONS)
        if forum and op is Op.SEND:
            raise Rejected(NON_TEXT)
        if cid in self.threads:
            self._thread_rules(found, op)
        return found

    def allowed(self, cid: int) -> set[str]:
        """The bot's permissions in a channel; threads have their parent channel's
        (threads.md, "Permissions")."""
        parent = int((self.threads.get(cid) or {}).get("parent_id") or 0)
        return self.permissions - self.denied.get(cid, set()) - self.denied.get(parent, set())

    def _thread_rules(self, thread: dict[str, Any], op: Op) -> None:
        """threads.md, "Active & Archived Threads": "Users cannot edit messages, add
        reactions, use application commands, or join archived threads. The only operation
        that should happen within an archived thread is messages being deleted. Sending a
        message will automatically unarchive the thread, unless the thread has been locked by
        a moderator." Threads archive after `auto_archive_duration` minutes without activity."""
        tid, meta = int(thread["id"]), thread["thread_metadata"]
        if not meta["archived"] and self.clock() - self.activity.setdefault(
            tid, self.clock()
        ) >= 60 * int(meta["auto_archive_duration"]):
            self.archive(tid)
        if meta["archived"] and op in (Op.EDIT, Op.JOIN):
            raise Rejected(ARCHIVED)
        if op is Op.SEND:
            if meta["archived"] and meta["locked"]:
                raise Rejected(ARCHIVED)
            if meta["archived"]:
                self.archive(tid, archived=False)
            self.activity[tid] = self.clock()

    def join(self, tid: int, user_id: int, *, leave: bool = False) -> None:
        """Add a member to a thread (or remove one): refused while it is archived."""
        self.channel(tid, Op.JOIN)
        members = self.members.setdefault(tid, set())
        (members.discard if leave else members.add)(user_id)

    def edit_thread(self, tid: int, body: dict[str, Any]) -> dict[str, Any]:
        """Modify Channel on a thread (channel.md): archiving or unarchiving it needs Manage
        Threads, except "when setting archived to false, when locked is also false, only the
        SEND_MESSAGES permission is required"."""
        found = self.channel(tid, Op.READ)
        if tid not in self.threads:
            raise Rejected(MISSING_PERMISSIONS)  # only threads are edited here
        meta = found["thread_metadata"]
        locked = bool(body.get("locked", meta["locked"]))
        opening = body.get("archived") is False and not locked
        if not ({"send_messages_in_threads"} if opening else {"manage_threads"}) <= self.allowed(
            tid
        ):
            raise Rejected(MISSING_PERMISSIONS)
        if "archived" in body or "locked" in body:
            self.archive(tid, archived=bool(body.get("archived", meta["archived"])), locked=locked)
        return copy.deepcopy(found)

    def check_thread_write(self, tid: int) -> None:
        """A message written into the thread other than by a post (an interaction's): refused
        once the thread is archived, as an edit is."""
        self._thread_rules(self.threads[tid], Op.EDIT)

    def archive(self, tid: int, *, archived: bool = True, locked: bool = False) -> None:
        """Archive (or unarchive) a thread; Discord tells the gateway (THREAD_UPDATE)."""
        meta = self.threads[tid]["thread_metadata"]
        meta.update(archived=archived, locked=locked and archived)
        self.activity[tid] = self.clock()
        self.outbox.append(("THREAD_UPDATE", copy.deepcopy(self.threads[tid])))

    def add_thread(
        self,
        name: str,
        kind: int = PUBLIC_THREAD,
        archive: int = 10080,
        parent: int = CHANNEL_ID,
        tid: int | None = None,
    ) -> dict[str, Any]:
        """A thread of channel `parent`, in that channel's server."""
        if not 1 <= len(name) <= 100:
            raise Rejected(INVALID_FORM, "name must be 1 to 100 characters")
        data = thread_data(tid or self.new_id(), name, kind, archive, self.channels.get(parent))
        self.threads[int(data["id"])] = data
        self.activity[int(data["id"])] = self.clock()
        self.outbox.append(("THREAD_CREATE", {**data, "newly_created": True}))
        return data

    def start_thread(self, cid: int, body: dict[str, Any], files: list[Upload]) -> dict[str, Any]:
        """POST /channels/{id}/threads. In a text channel, a thread without a message; in a
        forum, a post: a public thread made with its first message (channel.mdx, "Start
        Thread in Forum or Media Channel": `message` is required and needs at least one of
        content, embeds, sticker_ids, components or files; the thread is PUBLIC_THREAD; the
        first message has the thread's id and is in the thread)."""
        name, archive = body.get("name") or "", body.get("auto_archive_duration", 4320)
        if self.channels[cid]["type"] != FORUM:
            return self.add_thread(name, body.get("type", PUBLIC_THREAD), archive, cid)
        if self.channels[cid]["flags"] & REQUIRE_TAG and not body.get("applied_tags"):
            raise Rejected(TAG_REQUIRED)
        message = body.get("message")
        if not isinstance(message, dict) or not (
            files or any(message.get(k) for k in ("content", "embeds", "sticker_ids", "components"))
        ):
            raise Rejected(INVALID_FORM, "a forum post needs its first message")
        check_limits(message, len(files))
        tid = self.new_id()
        thread = self.add_thread(name, PUBLIC_THREAD, archive, cid, tid)
        first = Posted(tid, tid, channel=tid)
        self.messages[tid] = first
        self._fill(first, message, files)
        self.activity[tid] = self.clock()
        self.outbox.append(
            ("MESSAGE_CREATE", {**message_data(first, self.base), "guild_id": str(GUILD_ID)})
        )
        return {**thread, "message": message_data(first, self.base)}

    def thread_from_message(self, cid: int, mid: int, body: dict[str, Any]) -> dict[str, Any]:
        """POST /channels/{id}/messages/{id}/threads (channel.mdx, "Start Thread from
        Message"): in a text channel, a public thread with the message's id; one per message;
        not in a forum (whose posts are made with their message)."""
        if self.channels.get(cid, {}).get("type") != TEXT:
            raise Rejected(INVALID_FORM, "threads start from messages of text channels only")
        message = self.message(cid, mid)
        if message.thread is not None:
            raise Rejected(THREAD_EXISTS)
        thread = self.add_thread(
            body.get("name") or "", PUBLIC_THREAD, body.get("auto_archive_duration", 4320), cid, mid
        )
        message.thread = mid
        return thread

    def delete_channel(self, cid: int) -> dict[str, Any]:
        """Delete a channel or thread (what may do so is checked by the caller); a channel's
        threads (a forum's posts) go with it."""
        found = self.threads.get(cid) or self.channels[cid]
        self.deleted.append(cid)
        kind = "THREAD_DELETE" if cid in self.threads else "CHANNEL_DELETE"
        self.outbox.append((kind, found))
        if cid in self.channels:
            self.deleted += [t for t, data in self.threads.items() if data["parent_id"] == str(cid)]
        return found

    # -- users and direct messages -------------------------------------------------------------
    def user(self, uid: int) -> dict[str, Any]:
        if uid not in self.users:
            raise Rejected(UNKNOWN_USER)
        return self.users[uid]

    def open_dm(self, uid: int) -> dict[str, Any]:
        """The DM channel with a user (always opened: closed DMs refuse the message, 50007)."""
        recipient = self.user(uid)
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None)
        if cid is None:
            cid = self.new_id()
            self.dm_channels[cid] = uid
        return dm_channel_data(cid, recipient)

    # -- messages ------------------------------------------------------------------------------
    def message(self, where: int | str, message_id: int) -> Posted:
        found = self.messages.get(message_id)
        if found is None or found.where != where:
            raise Rejected(UNKNOWN_MESSAGE)
        return found

    def post(
        self, where: int | str, channel: int, body: dict[str, Any], files: list[Upload]
    ) -> Posted:
        check_limits(body, len(files))
        message = Posted(self.new_id(), where, channel=channel, flags=body.get("flags", 0))
        self.messages[message.id] = message
        self._fill(message, body, files)
        return message

    def edit(self, message: Posted, body: dict[str, Any], files: list[Upload]) -> Posted:
        """An edit keeps exactly the earlier attachments its `attachments` list names."""
        if self.clock() < message.edit_limited:
            raise Rejected(OLD_MESSAGE_EDITS, retry_after=0.05, **{"global": False})
        check_limits(body, len(files))
        if message.loading:  # a deferred answer given: not an edit to whoever sees it
            message.loading = False
        else:
            message.edits += 1
        self._fill(message, body, files)
        return message

    def _fill(self, message: Posted, body: dict[str, Any], files: list[Upload]) -> None:
        if "attachments" in body or files:
            message.attachments = self._attachments(message, body, files)
        for key in ("content", "embeds", "components"):
            if key in body:
                empty: Any = "" if key == "content" else []
                setattr(message, key, body[key] if body[key] is not None else empty)

    def _attachments(
        self, message: Posted, body: dict[str, Any], files: list[Upload]
    ) -> list[Attachment]:
        uploads = {f.field: f for f in files}
        old = {a.id: a for a in message.attachments}
        listed = body.get("attachments")
        if listed is None:  # files without an attachments list: all of them, in order
            listed = [{"id": n} for n in range(len(files))]
        out = []
        for entry in listed:
            upload = uploads.pop(f"files[{entry['id']}]", None)
            if upload is not None:
                out.append(self.attachment(entry.get("filename") or upload.filename, upload.data))
            elif int(entry["id"]) in old:
                out.append(old[int(entry["id"])])
            else:
                raise Rejected(INVALID_FORM, f"unknown attachment {entry}")
        if uploads:
            raise Rejected(INVALID_FORM, f"files not listed: {list(uploads)}")
        return out

    def attachment(self, filename: str, data: bytes) -> Attachment:
        """A file as Discord's CDN keeps it (downloadable at its URL)."""
        found = Attachment(self.new_id(), filename, data)
        self.attachments[found.id] = found
        return found


def _needs(op: Op, thread: bool, forum: bool, body: dict[str, Any], files: Any) -> set[str]:
    """The permissions `op` needs (docs/resources/channel.md and message.md, route by route):
    a post needs Send Messages (in a thread, Send Messages in Threads: "The SEND_MESSAGES
    permission has no effect in threads", threads.md); an edit of the bot's own message needs
    nothing more ("Send Messages permission restricts the ability to send new messages, but does
    not prevent existing messages from being updated or deleted", discord-api-docs#3096), but
    files need Attach Files and embeds Embed Links in either; reading a message needs Read
    Message History; adding a thread member needs to be able to send in the thread; a public
    thread needs Create Public Threads (a forum post Send Messages: "CREATE_PUBLIC_THREADS is
    ignored", channel.mdx) and deleting one Manage Threads."""
    needs = {
        Op.SEND: {"send_messages_in_threads" if thread else "send_messages"},
        Op.FETCH: {"read_message_history"},
        Op.JOIN: {"send_messages_in_threads"},
        Op.CREATE_THREAD: {"send_messages" if forum else "create_public_threads"},
        Op.DELETE: {"manage_threads" if thread else "manage_channels"},
    }.get(op, set())
    if op in (Op.SEND, Op.EDIT) or (op is Op.CREATE_THREAD and forum):
        needs |= {"attach_files"} if files else set()
        needs |= (
            {"embed_links"}
            if body.get("embeds") or (body.get("message") or {}).get("embeds")
            else set()
        )
    return needs
