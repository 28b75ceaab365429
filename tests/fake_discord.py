"""A small Discord stand-in on loopback for the wire tests: the REST routes railchat uses and a
gateway websocket, so that discord.py's own HTTP client and gateway code run unchanged.

It records every request (multipart uploads parsed into their files), keeps the messages and
threads as Discord would (a post's attachments, edits that keep or replace them, threads
created in a channel and deleted), refuses commands and messages over Discord's limits (names,
descriptions, options; content, embeds, components) with 400 and uploads over 10 MiB with 413,
can answer the next requests of a route with 429 or 500 first, and can drop the gateway
connection (at once or when a given request arrives). Events carry sequence numbers; events
dispatched while the connection is down are sent when the bot resumes, as Discord does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 900
GUILD_ID = 1001
CHANNEL_ID = 1002
THREAD_ID = 1003
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes a message may upload without server boosts
BOT_USER = {
    "id": str(APP_ID),
    "username": "railchat",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
    "global_name": None,
}
MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")
WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)(?:/messages/(@original|\d+))?")


def user(uid: int, name: str) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name,
        "discriminator": "0",
        "avatar": None,
        "global_name": name,
    }


@dataclass
class Upload:
    """One file of a multipart request (`field`: files[N])."""

    field: str
    filename: str
    data: bytes


@dataclass
class Request:
    method: str
    path: str
    body: Any  # the JSON body, or a multipart request's payload_json
    files: list[Upload] = field(default_factory=list)


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes


@dataclass
class Posted:
    """A message as Discord holds it: `where` is a channel id, or the interaction token of a
    follow-up."""

    id: int
    where: int | str
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int = 0
    edits: int = 0


class Rejected(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass
class FakeDiscord:
    requests: list[Request] = field(default_factory=list)
    failures: dict[str, list[int]] = field(default_factory=dict)  # route pattern: statuses
    drop_at: list[str] = field(default_factory=list)  # route patterns that drop the gateway
    events: list[dict[str, Any]] = field(default_factory=list)  # dispatched, with "s"
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    messages: dict[int, Posted] = field(default_factory=dict)
    threads: dict[int, dict[str, Any]] = field(default_factory=lambda: {THREAD_ID: thread_data()})
    deleted: list[int] = field(default_factory=list)  # threads deleted
    identifies: int = 0
    resumes: int = 0
    ids: Any = field(default_factory=lambda: itertools.count(5000))
    port: int = 0
    live: web.WebSocketResponse | None = None  # the connection that identified or resumed
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> None:
        app = web.Application(client_max_size=4 * UPLOAD_LIMIT)
        app.router.add_get("/ws", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in self.sockets:
            await ws.close()
        await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def calls(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.fullmatch(pattern, r.path)]

    def posts(self, where: int | str) -> list[Posted]:
        """The messages of a channel (or of an interaction token), oldest first."""
        return [m for m in self.messages.values() if m.where == where]

    # -- REST ------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[Upload] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            body = {}
            async for part in await request.multipart():
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append(
                        Upload(part.name or "", part.filename or "", bytes(await part.read()))
                    )
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
                if status == 429:
                    return _json(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": 0.05,
                            "global": False,
                        },
                        status=429,
                        headers={"Via": "1.1 google", "Retry-After": "1"},
                    )
                return _json({"message": "500: Internal Server Error", "code": 0}, status=status)
        try:
            if sum(len(f.data) for f in files) > UPLOAD_LIMIT:
                raise Rejected(413, 40005, "Request entity too large")
            answer = await self._answer(request.method, path, body, files)
        except Rejected as exc:
            self.requests.append(Request(request.method, path + f" -> {exc.status}", body, files))
            return _json({"message": str(exc), "code": exc.code}, status=exc.status)
        self.requests.append(Request(request.method, path, body, files))
        return _json(answer)

    async def _answer(self, method: str, path: str, body: Any, files: list[Upload]) -> Any:
        if path in ("/gateway", "/gateway/bot"):
            return {
                "url": f"ws://127.0.0.1:{self.port}/ws",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        if path == "/users/@me":
            return BOT_USER
        if path == "/oauth2/applications/@me":
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
        if re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", path) and method == "PUT":
            check_commands(body)
            return [
                {
                    **c,
                    "id": str(next(self.ids)),
                    "application_id": str(APP_ID),
                    "version": "1",
                    "default_member_permissions": None,
                    "type": c.get("type", 1),
                }
                for c in body
            ]
        if path == f"/channels/{CHANNEL_ID}/threads" and method == "POST":
            return await self._create_thread(body)
        channel = re.fullmatch(r"/channels/(\d+)", path)
        if channel:
            return self._thread(int(channel.group(1)), delete=method == "DELETE")
        posted = MESSAGE.fullmatch(path)
        if posted:
            self._thread(int(posted.group(1)))
            return self._message(method, int(posted.group(1)), posted.group(2), body, files)
        hook = WEBHOOK.fullmatch(path)
        if hook:
            return self._message(method, hook.group(1), hook.group(2), body, files)
        callback = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path)
        if callback:  # what discord.py asks for with `with_response`
            flags = (body.get("data") or {}).get("flags", 0)
            if body["type"] == 8:  # autocomplete
                if len((body.get("data") or {}).get("choices", [])) > 25:
                    raise Rejected(400, 50035, "Invalid Form Body: more than 25 choices")
            resource: dict[str, Any] = {"type": body["type"]}
            if body["type"] == 4:  # an answer at once: the interaction's first message
                resource["message"] = self._message(
                    "POST", callback.group(2), None, body.get("data"), files
                )
            return {
                "interaction": {
                    "id": callback.group(1),
                    "type": 2,
                    "response_message_loading": body["type"] == 5,
                    "response_message_ephemeral": bool(flags & 64),
                },
                "resource": resource,
            }
        return {}  # thread membership and the like

    async def _create_thread(self, body: dict[str, Any]) -> dict[str, Any]:
        """A thread in the text channel; Discord also tells the gateway (THREAD_CREATE)."""
        if not 1 <= len(body.get("name") or "") <= 100:
            raise Rejected(400, 50035, "Invalid Form Body: name must be 1 to 100 characters")
        data = thread_data(
            next(self.ids),
            body["name"],
            body.get("type", 11),
            body.get("auto_archive_duration", 4320),
        )
        self.threads[int(data["id"])] = data
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return data

    def _thread(self, thread_id: int, *, delete: bool = False) -> dict[str, Any]:
        if thread_id not in self.threads or thread_id in self.deleted:
            raise Rejected(404, 10003, "Unknown Channel")
        if delete:
            self.deleted.append(thread_id)
        return self.threads[thread_id]

    def _message(
        self, method: str, where: int | str, message_id: str | None, body: Any, files: list[Upload]
    ) -> dict[str, Any]:
        """Post (POST) or edit (PATCH) a message; uploads become attachments, and an edit keeps
        exactly the earlier attachments its `attachments` list names."""
        body = body or {}
        check_limits(body)
        if method == "POST":
            message = Posted(next(self.ids), where, "", [], [], [], flags=body.get("flags", 0))
            self.messages[message.id] = message
        else:
            message = self._find(where, message_id)
            message.edits += 1
        if "attachments" in body or files:
            message.attachments = self._attachments(message, body, files)
        for key in ("content", "embeds", "components"):
            if key in body:
                setattr(
                    message,
                    key,
                    body[key] if body[key] is not None else ("" if key == "content" else []),
                )
        return message_data(message, self.base)

    def _find(self, where: int | str, message_id: str | None) -> Posted:
        if message_id not in (None, "@original") and int(message_id) in self.messages:
            found = self.messages[int(message_id)]
            if found.where == where:
                return found
        elif message_id == "@original" and self.posts(where):
            return self.posts(where)[0]
        raise Rejected(404, 10008, "Unknown Message")

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
                out.append(
                    Attachment(
                        next(self.ids), entry.get("filename") or upload.filename, upload.data
                    )
                )
            elif int(entry["id"]) in old:
                out.append(old[int(entry["id"])])
            else:
                raise Rejected(400, 50035, f"Invalid Form Body: unknown attachment {entry}")
        if uploads:
            raise Rejected(400, 50035, f"Invalid Form Body: files not listed: {list(uploads)}")
        return out

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
                self.identifies += 1
                self.events.clear()
                self.live = ws
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": BOT_USER,
                        "session_id": "s1",
                        "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/ws",
                        "application": {"id": str(APP_ID), "flags": 0},
                    },
                )
                await self.dispatch("GUILD_CREATE", guild_data(self.threads))
            elif data["op"] == 6:
                self.resumes += 1
                for event in [e for e in self.events if e["s"] > (data["d"]["seq"] or 0)]:
                    await ws.send_json(event)
                self.live = ws
                await ws.send_json({"op": 0, "t": "RESUMED", "s": len(self.events), "d": {}})
        return ws

    async def dispatch(self, kind: str, data: Any) -> None:
        """Send an event; while the connection is down it waits for the resume."""
        event = {"op": 0, "t": kind, "s": len(self.events) + 1, "d": data}
        self.events.append(event)
        if self.live is not None and not self.live.closed:
            await self.live.send_json(event)

    async def drop(self) -> None:
        """Close the gateway connection as a network failure would (resumable)."""
        ws, self.live = self.live, None
        if ws is not None:
            await ws.close(code=4000)


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Discord's rules for slash commands (400 when one is broken): lowercase names of 1-32
    characters, descriptions of 1-100, at most 25 options or subcommands and 25 choices at each
    level, required options before optional ones."""
    problems = []

    def walk(items: list[dict[str, Any]], where: str) -> None:
        if len(items) > 25:
            problems.append(f"{where}: more than 25 options")
        required = [bool(o.get("required")) for o in items if o.get("type", 1) > 2]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: a required option after an optional one")
        for item in items:
            name = f"{where} {item.get('name')}".strip()
            if not re.fullmatch(r"[-_a-z0-9]{1,32}", item.get("name") or ""):
                problems.append(f"{name}: bad name")
            if not 1 <= len(item.get("description") or "") <= 100:
                problems.append(f"{name}: description not 1 to 100 characters")
            if len(item.get("choices") or []) > 25:
                problems.append(f"{name}: more than 25 choices")
            walk(item.get("options") or [], name)

    walk(commands, "")
    if problems:
        raise Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems))


def check_limits(body: dict[str, Any]) -> None:
    """Discord's limits on a message (400 Invalid Form Body when one is passed)."""
    problems = []
    if len(body.get("content") or "") > 2000:
        problems.append("content over 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append("more than 10 embeds")
    for embed in embeds:
        fields = embed.get("fields") or []
        sizes = [len(embed.get("title") or ""), len(embed.get("description") or "")] + [
            len(f.get("name") or "") + len(f.get("value") or "") for f in fields
        ]
        if (
            len(embed.get("title") or "") > 256
            or len(embed.get("description") or "") > 4096
            or len(fields) > 25
            or sum(sizes) > 6000
            or any(len(f["name"]) > 256 or len(f["value"]) > 1024 for f in fields)
        ):
            problems.append("an embed over its limits")
    rows = body.get("components") or []
    if len(rows) > 5 or any(len(r.get("components", [])) > 5 for r in rows):
        problems.append("more than 5 rows of components or 5 items in a row")
    for item in (i for r in rows for i in r.get("components", [])):
        options = item.get("options") or []
        if (
            len(item.get("custom_id") or "") > 100
            or len(item.get("label") or "") > 80
            or len(options) > 25
            or any(
                len(o["label"]) > 100
                or len(o["value"]) > 100
                or len(o.get("description") or "") > 100
                for o in options
            )
        ):
            problems.append(f"a component over its limits: {item}")
    if problems:
        raise Rejected(400, 50035, "Invalid Form Body: " + "; ".join(problems))


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with the bare content type discord.py looks for (no charset parameter)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def thread_data(
    tid: int = THREAD_ID, name: str = "railchat game", kind: int = 11, archive: int = 10080
) -> dict[str, Any]:
    return {
        "id": str(tid),
        "type": kind,
        "guild_id": str(GUILD_ID),
        "parent_id": str(CHANNEL_ID),
        "name": name,
        "owner_id": str(APP_ID),
        "message_count": 0,
        "member_count": 1,
        "rate_limit_per_user": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": archive,
            "archive_timestamp": "2026-01-01T00:00:00+00:00",
            "locked": False,
        },
    }


def channel_data() -> dict[str, Any]:
    return {
        "id": str(CHANNEL_ID),
        "type": 0,
        "name": "games",
        "position": 0,
        "permission_overwrites": [],
        "guild_id": str(GUILD_ID),
    }


def guild_data(threads: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": str(GUILD_ID),
        "name": "test",
        "icon": None,
        "owner_id": "1",
        "member_count": 3,
        "large": False,
        "unavailable": False,
        "features": [],
        "roles": [
            {
                "id": str(GUILD_ID),
                "name": "@everyone",
                "permissions": "274877975552",
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "channels": [channel_data()],
        "threads": list(threads.values()),
        "members": [],
        "voice_states": [],
        "presences": [],
        "emojis": [],
        "stickers": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    }


def message_data(message: Posted, base: str) -> dict[str, Any]:
    channel = message.where if isinstance(message.where, int) else THREAD_ID
    return {
        "id": str(message.id),
        "channel_id": str(channel),
        "author": BOT_USER,
        "content": message.content,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": "2026-01-01T00:00:01+00:00" if message.edits else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [
            {
                "id": str(a.id),
                "filename": a.filename,
                "size": len(a.data),
                "url": f"{base}/attachments/{a.id}/{a.filename}",
                "proxy_url": f"{base}/attachments/{a.id}/{a.filename}",
            }
            for a in message.attachments
        ],
        "embeds": message.embeds,
        "pinned": False,
        "type": 0,
        "flags": message.flags,
        "components": message.components,
    }


def command_interaction(
    iid: int,
    who: dict[str, Any],
    group: str,
    sub: str,
    options: dict[str, Any],
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """INTERACTION_CREATE for `/group sub option:value...` typed in a channel or thread (`where`,
    as Discord describes it; default: the game thread)."""
    where = where or thread_data()
    return {
        "id": str(iid),
        "application_id": str(APP_ID),
        "type": 2,
        "token": f"tok{iid}",
        "version": 1,
        "guild_id": str(GUILD_ID),
        "channel_id": where["id"],
        "channel": where,
        "app_permissions": "274877975552",
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": UPLOAD_LIMIT,
        "authorizing_integration_owners": {},
        "member": {
            "user": who,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": "274877975552",
        },
        "data": {
            "id": "1",
            "name": group,
            "type": 1,
            "options": [
                {
                    "name": sub,
                    "type": 1,
                    "options": [
                        {"name": k, "type": 3 if isinstance(v, str) else 4, "value": v}
                        for k, v in options.items()
                    ],
                }
            ],
        },
    }
