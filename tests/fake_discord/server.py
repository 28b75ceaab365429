"""The fake Discord on loopback: the REST routes railchat uses and a gateway websocket, so that
discord.py's own HTTP client and gateway code run unchanged.

It records every request (multipart uploads parsed into their files) with the status and code it
was answered with, answers from `World` (channels, threads, messages, permissions) and `Desk`
(interactions), refuses what Discord refuses (`refusals.py`), can answer the next requests of a
route with 429 or 500 first, and can drop the gateway connection (at once or when a given
request arrives). Events carry sequence numbers; events dispatched while the connection is down
are sent when the bot resumes, as Discord does. The methods after `stop` are what a test does
to Discord: a user pressing a button, a moderator archiving a thread, the bot kicked...
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.events import (
    BUTTON,
    command_interaction,
    component_interaction,
    find_component,
)
from tests.fake_discord.http_io import json_answer, read_request
from tests.fake_discord.interactions import WINDOW, Desk, Interaction
from tests.fake_discord.limits import check_commands
from tests.fake_discord.payloads import (
    APP_ID,
    BOT_USER,
    FORUM_ID,
    GUILD_ID,
    REQUIRE_TAG,
    UPLOAD_LIMIT,
    Posted,
    Upload,
    application_data,
    attachment_data,
    gateway_data,
    message_data,
    permission_bits,
)
from tests.fake_discord.rate_limits import Limited, RateLimits, bucket_of
from tests.fake_discord.refusals import NO_ROUTE, TOO_LARGE, Rejected
from tests.fake_discord.world import Clock, Guild, Op, World

GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 15  # gateway intents

# (method, path) patterns and the FakeDiscord method that answers them
ROUTES = [
    ("GET", r"/gateway(?:/bot)?", "_gateway_url"),
    ("GET", r"/users/@me", "_me"),
    ("GET", r"/users/(\d+)", "_user"),
    ("POST", r"/users/@me/channels", "_open_dm"),
    ("GET", r"/oauth2/applications/@me", "_application"),
    ("PUT", r"/applications/\d+/commands", "_sync"),
    ("PUT", r"/applications/\d+/guilds/(\d+)/commands", "_sync"),
    ("GET", r"/applications/\d+/commands", "_synced"),
    ("GET", r"/applications/\d+/guilds/(\d+)/commands", "_synced"),
    ("GET|PATCH", r"/guilds/(\d+)(?:/.*)?", "_guild"),
    ("POST", r"/channels/(\d+)/threads", "_create_thread"),
    ("POST", r"/channels/(\d+)/messages/(\d+)/threads", "_thread_from_message"),
    ("GET|PATCH|DELETE", r"/channels/(\d+)", "_channel"),
    ("PUT|DELETE", r"/channels/(\d+)/thread-members/(@me|\d+)", "_thread_member"),
    ("POST", r"/channels/(\d+)/messages", "_post"),
    ("GET|PATCH|DELETE", r"/channels/(\d+)/messages/(\d+)", "_message"),
    ("POST", r"/interactions/(\d+)/([^/]+)/callback", "_callback"),
    ("GET|POST|PATCH|DELETE", r"/webhooks/\d+/([^/]+)(?:/messages/(@original|\d+))?", "_webhook"),
]


@dataclass
class Request:
    method: str
    path: str  # with " -> status" when refused
    body: Any  # the JSON body, or a multipart request's payload_json
    files: list[Upload] = field(default_factory=list)
    code: int | None = None  # the JSON error code of a refusal


@dataclass
class Session:
    """One shard's gateway session: its events in order (a resume gets those it missed) and
    its connection while up."""

    id: str
    shard: int
    count: int
    intents: int | None
    events: list[dict[str, Any]] = field(default_factory=list)  # sent, with "s"
    live: web.WebSocketResponse | None = None

    async def send(self, kind: str, data: Any) -> None:
        event = {"op": 0, "t": kind, "s": len(self.events) + 1, "d": data}
        self.events.append(event)
        if self.live is not None and not self.live.closed:
            await self.live.send_json(event)


@dataclass
class FakeDiscord:
    window: float = WINDOW  # seconds an interaction has to be answered
    download_delay: float = 0.0  # seconds the CDN takes to send an attachment
    requests: list[Request] = field(default_factory=list)
    failures: dict[str, list[int]] = field(default_factory=dict)  # route pattern: statuses
    drop_at: list[str] = field(default_factory=list)  # route patterns that drop the gateway
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    world: World = field(default_factory=World)
    commands: dict[str | None, list[Any]] = field(default_factory=dict)  # uploaded
    identifies: int = 0
    resumes: int = 0
    port: int = 0
    recommended_shards: int = 1  # what GET /gateway/bot advises
    sessions: dict[str, Session] = field(default_factory=dict)  # the newest of each shard
    last: Session | None = None  # the session that last identified or resumed
    undelivered: list[dict[str, Any]] = field(default_factory=list)  # no session for them
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.desk = Desk(self.world, self.window)
        self.limits = RateLimits(self.world.clock)  # tests may set shorter quotas

    @property
    def events(self) -> list[dict[str, Any]]:
        """The last session's events, with their sequence numbers "s"."""
        return self.last.events if self.last is not None else []

    @property
    def live(self) -> web.WebSocketResponse | None:
        """The last session's connection (None while it is down)."""
        return self.last.live if self.last is not None else None

    @property
    def intents(self) -> int | None:
        """What the last IDENTIFY subscribed to."""
        return self.last.intents if self.last is not None else None

    async def start(self) -> None:
        app = web.Application(client_max_size=4 * UPLOAD_LIMIT)
        app.router.add_get("/ws", self._gateway)
        app.router.add_get("/attachments/{id}/{name}", self._download)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.world.base = self.base

    async def stop(self) -> None:
        for ws in self.sockets:
            await ws.close()
        await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def clock(self) -> Clock:
        return self.world.clock

    @property
    def messages(self) -> dict[int, Posted]:
        return self.world.messages

    @property
    def threads(self) -> dict[int, dict[str, Any]]:
        return self.world.threads

    @property
    def deleted(self) -> list[int]:
        return self.world.deleted

    @property
    def deleted_messages(self) -> list[int]:
        return self.world.deleted_messages

    def calls(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.fullmatch(pattern, r.path)]

    def refused(self, code: int) -> list[Request]:
        return [r for r in self.requests if r.code == code]

    def posts(self, where: int | str) -> list[Posted]:
        """The messages of a channel (or of an interaction token), oldest first."""
        return self.world.posts(where)

    def interaction(self, iid: int) -> Interaction:
        return self.desk.interactions[iid]

    # -- REST ------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await read_request(request)
        route = f"{request.method} {path}"
        for pattern in [p for p in self.drop_at if re.fullmatch(p, route)]:
            self.drop_at.remove(pattern)
            task = asyncio.create_task(self.drop())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        for pattern, statuses in self.failures.items():
            if statuses and re.fullmatch(pattern, route):
                status = statuses.pop(0)
                self.requests.append(Request(request.method, path + f" -> {status}", body, files))
                self.limits.answered(status, {})
                if status == 429:
                    limited = {"message": "You are being rate limited.", "retry_after": 0.05}
                    return json_answer(limited | {"global": False}, status=429)
                return json_answer(
                    {"message": "500: Internal Server Error", "code": 0}, status=status
                )
        try:
            headers = self.limits.take(*bucket_of(request.method, path))
        except Limited as exc:
            self.requests.append(Request(request.method, path + " -> 429", body, files))
            self.limits.answered(429, exc.headers)
            if isinstance(exc.body, str):  # banned: Cloudflare answers, not the API
                return web.Response(text=exc.body, status=429, headers=exc.headers)
            return json_answer(exc.body, status=429, headers=exc.headers)
        try:
            if sum(len(f.data) for f in files) > UPLOAD_LIMIT:
                raise Rejected(TOO_LARGE)
            answer = self._answer(request.method, path, body, files)
        except Rejected as exc:
            self.requests.append(
                Request(request.method, path + f" -> {exc.status}", body, files, exc.code)
            )
            self.limits.answered(exc.status, {})
            await self._flush()
            return json_answer(exc.body(), status=exc.status, headers=headers)
        self.requests.append(Request(request.method, path, body, files))
        await self._flush()
        if answer is None:
            return web.Response(status=204, headers=headers)
        return json_answer(answer, headers=headers)

    def _answer(self, method: str, path: str, body: Any, files: list[Upload]) -> Any:
        for verbs, pattern, name in ROUTES:
            found = re.fullmatch(pattern, path)
            if found and re.fullmatch(verbs, method):
                return getattr(self, name)(method, body, files, *found.groups())
        raise Rejected(NO_ROUTE)

    def _gateway_url(self, *_: Any) -> dict[str, Any]:
        return gateway_data(self.port, self.recommended_shards)

    def _me(self, *_: Any) -> dict[str, Any]:
        return BOT_USER

    def _user(self, method: str, body: Any, files: Any, uid: str) -> dict[str, Any]:
        return self.world.user(int(uid))

    def _open_dm(self, method: str, body: Any, *_: Any) -> dict[str, Any]:
        self.limits.open_dm()
        return self.world.open_dm(int(body["recipient_id"]))

    def _application(self, *_: Any) -> dict[str, Any]:
        return application_data()

    def _sync(self, method: str, body: Any, files: Any, guild: str | None = None) -> list[Any]:
        if guild is not None:
            self.world.check_guild(int(guild))
        check_commands(body)
        self.commands[guild] = [
            {
                **c,
                "id": str(self.world.new_id()),
                "application_id": str(APP_ID),
                "version": "1",
                "default_member_permissions": c.get("default_member_permissions"),
                "type": c.get("type", 1),
            }
            for c in body
        ]
        return self.commands[guild]

    def _synced(self, method: str, body: Any, files: Any, guild: str | None = None) -> list[Any]:
        """The commands last uploaded (Discord keeps them between the bot's runs)."""
        if guild is not None:
            self.world.check_guild(int(guild))
        return self.commands.get(guild, [])

    def _guild(self, method: str, body: Any, files: Any, guild: str) -> dict[str, Any]:
        self.world.check_guild(int(guild))
        raise Rejected(NO_ROUTE)  # railchat asks nothing of its servers

    def _create_thread(
        self, method: str, body: Any, files: list[Upload], cid: str
    ) -> dict[str, Any]:
        """A thread in the text channel, or a post (with its first message) in the forum;
        Discord also tells the gateway (THREAD_CREATE, and MESSAGE_CREATE for a post)."""
        self.world.channel(int(cid), Op.CREATE_THREAD, body, files)
        return self.world.start_thread(int(cid), body or {}, files)

    def _thread_from_message(
        self, method: str, body: Any, files: Any, cid: str, mid: str
    ) -> dict[str, Any]:
        self.world.channel(int(cid), Op.CREATE_THREAD)
        return self.world.thread_from_message(int(cid), int(mid), body or {})

    def _channel(self, method: str, body: Any, files: Any, cid: str) -> dict[str, Any]:
        if method == "PATCH":
            return self.world.edit_thread(int(cid), body or {})
        found = self.world.channel(int(cid), Op.DELETE if method == "DELETE" else Op.READ)
        return self.world.delete_channel(int(cid)) if method == "DELETE" else found

    def _thread_member(self, method: str, body: Any, files: Any, cid: str, who: str) -> None:
        user_id = int(BOT_USER["id"]) if who == "@me" else int(who)
        self.world.join(int(cid), user_id, leave=method == "DELETE")

    def _post(self, method: str, body: Any, files: list[Upload], cid: str) -> dict[str, Any]:
        self.world.channel(int(cid), Op.SEND, body, files)
        return message_data(self.world.post(int(cid), int(cid), body or {}, files), self.base)

    def _message(
        self, method: str, body: Any, files: list[Upload], cid: str, mid: str
    ) -> dict[str, Any] | None:
        op = {"GET": Op.FETCH, "PATCH": Op.EDIT, "DELETE": Op.REMOVE}[method]
        self.world.channel(int(cid), op, body, files)
        message = self.world.message(int(cid), int(mid))
        if method == "DELETE":
            del self.messages[message.id]
            self.world.deleted_messages.append(message.id)
            self.world.outbox.append(("MESSAGE_DELETE", self._deletion(message)))
            return None
        if method == "PATCH":
            message = self.world.edit(message, body or {}, files)
        return message_data(message, self.base)

    def _callback(
        self, method: str, body: Any, files: list[Upload], iid: str, token: str
    ) -> dict[str, Any]:
        return self.desk.callback(int(iid), token, body, files)

    def _webhook(
        self, method: str, body: Any, files: list[Upload], token: str, target: str | None
    ) -> dict[str, Any] | None:
        return self.desk.webhook(method, token, target, body, files)

    async def _download(self, request: web.Request) -> web.Response:
        """An attachment from Discord's CDN (a file given to `/game import`)."""
        await asyncio.sleep(self.download_delay)
        found = self.world.attachments.get(int(request.match_info["id"]))
        if found is None:
            return web.Response(status=404)
        return web.Response(body=found.data, content_type="application/octet-stream")

    # -- gateway -------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 40000}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_json({"op": 11})
            elif data["op"] == 2:
                await self._identify(ws, data["d"])
            elif data["op"] == 6:
                self.resumes += 1
                session = self.sessions.get(data["d"]["session_id"]) or self.last
                assert session is not None, "a resume before any identify"
                for event in [e for e in session.events if e["s"] > (data["d"]["seq"] or 0)]:
                    await ws.send_json(event)
                session.live, self.last = ws, session
                await ws.send_json({"op": 0, "t": "RESUMED", "s": len(session.events), "d": {}})
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        """A new session for the shard IDENTIFY names (`[shard_id, num_shards]`, default
        `[0, 1]`): READY lists that shard's servers (unavailable until their GUILD_CREATE),
        then a GUILD_CREATE for each. An older session of the same shard ends."""
        self.identifies += 1
        shard, count = d.get("shard") or (0, 1)
        session = Session(f"s{self.identifies}", shard, count, d.get("intents"), live=ws)
        for old in [k for k, v in self.sessions.items() if (v.shard, v.count) == (shard, count)]:
            del self.sessions[old]
        self.sessions[session.id] = self.last = session
        guilds = self.world.guilds_of_shard(shard, count)
        ready = {
            "v": 10,
            "user": BOT_USER,
            "session_id": session.id,
            "shard": [shard, count],
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/ws",
            "application": {"id": str(APP_ID), "flags": 0},
        }
        await session.send("READY", ready)
        for guild in guilds:
            await session.send("GUILD_CREATE", self.world.guild_payload(guild))

    async def dispatch(self, kind: str, data: Any) -> None:
        """Send an event to the session of the shard serving its server (message events only
        to a bot subscribed to GUILD_MESSAGES); while that connection is down it waits for
        the resume. The window of an INTERACTION_CREATE starts now, as the user acted now."""
        if kind == "INTERACTION_CREATE":
            self.desk.register(data)
        guild = int(data.get("guild_id") or (data["id"] if kind.startswith("GUILD_") else 0))
        found = [s for s in self.sessions.values() if (guild >> 22) % s.count == s.shard]
        if not found:  # no process serves that shard now: Discord would not deliver it
            self.undelivered.append({"t": kind, "d": data})
        for session in found:
            if kind.startswith("MESSAGE_") and not (session.intents or 0) & GUILD_MESSAGES:
                continue
            await session.send(kind, data)

    async def _flush(self) -> None:
        """The gateway events the last change caused."""
        while self.world.outbox:
            await self.dispatch(*self.world.outbox.pop(0))

    async def drop(self) -> None:
        """Close the gateway connections as a network failure would (resumable)."""
        for session in self.sessions.values():
            ws, session.live = session.live, None
            if ws is not None:
                await ws.close(code=4000)

    # -- what users and moderators do ----------------------------------------------------------
    async def command(
        self,
        iid: int,
        who: dict[str, Any],
        group: str,
        sub: str | None,
        where: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        """A user types `/group sub option:value...` in `where` (default: the first thread)."""
        where = where or next(iter(self.threads.values()))
        payload = command_interaction(
            iid, who, group, sub, options, where, permissions=self._permissions(where)
        )
        await self.dispatch("INTERACTION_CREATE", payload)

    async def autocomplete(
        self,
        iid: int,
        who: dict[str, Any],
        group: str,
        sub: str | None,
        focused: str,
        where: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        """A user typing option `focused` (its text so far in `options`, with the others)."""
        where = where or next(iter(self.threads.values()))
        payload = command_interaction(
            iid,
            who,
            group,
            sub,
            options,
            where,
            focused=focused,
            permissions=self._permissions(where),
        )
        await self.dispatch("INTERACTION_CREATE", payload)

    async def say(self, who: dict[str, Any], text: str, where: int | None = None) -> Posted:
        """A user writes in a thread (default: the first). The bot hears of it only when it
        subscribed to GUILD_MESSAGES, and reads the words only with MESSAGE_CONTENT (or when
        they mention it), as Discord sends MESSAGE_CREATE."""
        tid = where if where is not None else next(iter(self.threads))
        message = Posted(self.world.new_id(), tid, text, channel=tid, author=who)
        self.messages[message.id] = message
        data = {**message_data(message, self.base), "guild_id": self._guild_of(tid)}
        if not (self.intents or 0) & MESSAGE_CONTENT and f"<@{APP_ID}>" not in text:
            data["content"] = ""
        await self.dispatch("MESSAGE_CREATE", data)
        return message

    async def press(
        self, iid: int, who: dict[str, Any], message_id: int, custom_id: str, *values: str
    ) -> None:
        """A user presses a button, or picks `values` from a menu, of a message they see."""
        message = self.messages.get(message_id)
        assert message is not None, f"message {message_id} is not there to be pressed"
        component = find_component(message.components, custom_id)
        assert component is not None, f"no component {custom_id} on message {message_id}"
        if component["type"] == BUTTON:
            assert not values, "a button has no values"
        else:
            allowed = {o["value"] for o in component.get("options", [])}
            assert set(values) <= allowed, f"{values} are not options of {custom_id}"
        channel = self.threads.get(message.channel) or self.world.channels[message.channel]
        payload = component_interaction(
            iid,
            who,
            message_data(message, self.base),
            custom_id,
            component["type"],
            list(values),
            channel,
            self._permissions(channel),
        )
        await self.dispatch("INTERACTION_CREATE", payload)

    def _guild_of(self, cid: int) -> str:
        found = self.threads.get(cid) or self.world.channels.get(cid) or {}
        return str(found.get("guild_id", GUILD_ID))

    def _deletion(self, message: Posted) -> dict[str, Any]:
        return {
            "id": str(message.id),
            "channel_id": str(message.channel),
            "guild_id": self._guild_of(message.channel),
        }

    def _permissions(self, where: dict[str, Any]) -> str:
        """The bot's permissions where an interaction happens (its `app_permissions`)."""
        return permission_bits(self.world.allowed(int(where["id"])))

    def put_message(self, channel: int, **fields: Any) -> Posted:
        """A message already in a channel (one with components, for a test to press)."""
        return self.world.post(channel, channel, fields, [])

    def upload(self, filename: str, data: bytes) -> dict[str, Any]:
        """A file a user attaches to a command option: its attachment object."""
        return attachment_data(self.world.attachment(filename, data), self.base)

    async def add_thread(self, name: str) -> dict[str, Any]:
        found = self.world.add_thread(name)
        await self._flush()
        return found

    async def forum_post(self, who: dict[str, Any], name: str, text: str) -> dict[str, Any]:
        """A user opens a post in the forum (its first message theirs): somewhere to type
        commands, which a forum itself has no box for."""
        body = {"name": name, "message": {"content": text}}
        thread = self.world.start_thread(FORUM_ID, body, [])
        self.messages[int(thread["id"])].author = who
        await self._flush()
        return thread

    def require_tags(self, cid: int) -> None:
        """A moderator turns on "Require tags to post" in a forum."""
        self.world.channels[cid]["flags"] |= REQUIRE_TAG

    async def archive(self, tid: int, *, locked: bool = False) -> None:
        """A thread archived (by a moderator, or after its auto-archive duration); `locked`:
        only moderators may unarchive it."""
        self.world.archive(tid, locked=locked)
        await self._flush()

    async def delete_channel(self, cid: int) -> None:
        self.world.delete_channel(cid)
        await self._flush()

    async def delete_message(self, mid: int) -> None:
        """A moderator deletes a message in the Discord client."""
        message = self.messages.pop(mid)
        self.world.deleted_messages.append(mid)
        await self.dispatch("MESSAGE_DELETE", self._deletion(message))

    def limit_old_edits(self, mid: int, seconds: float = float("inf")) -> None:
        """The message is over an hour old and Discord's limit of edits of those is reached:
        its edits are refused (429, 30046, "Try again later") for `seconds` of the clock."""
        self.messages[mid].edit_limited = self.clock() + seconds

    def deny(self, cid: int, *permissions: str) -> None:
        """Permissions taken away from the bot in a channel (and its threads): without
        "view_channel" every route there is Missing Access (50001); without another, what
        needs it is Missing Permissions (50013)."""
        self.world.denied.setdefault(cid, set()).update(permissions)

    def allow(self, cid: int) -> None:
        self.world.denied.pop(cid, None)

    def add_user(self, who: dict[str, Any]) -> None:
        """A user Discord knows (those who use a command are known from then on)."""
        self.world.users[int(who["id"])] = who

    def close_dms(self, uid: int) -> None:
        self.world.closed_dms.add(uid)

    async def remove_bot(self) -> None:
        """The bot is kicked from the server: GUILD_DELETE (not unavailable) on the gateway;
        the server's routes and channels answer Missing Access from then on."""
        self.world.guild = Guild.REMOVED
        await self.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})

    async def delete_guild(self) -> None:
        """The server is deleted: GUILD_DELETE; its routes answer Unknown Guild, its channels
        Unknown Channel."""
        self.world.guild = Guild.DELETED
        await self.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
