"""A small Discord stand-in on loopback for the wire tests: the REST routes railchat uses and a
gateway websocket, so that discord.py's own HTTP client and gateway code run unchanged.

It records every request, can answer the next requests of a route with 429 or 500 first, and
can drop the gateway connection; events sent after READY carry sequence numbers and a RESUME
replays those after the resumed sequence, as Discord does.
"""
from __future__ import annotations

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
BOT_USER = {"id": str(APP_ID), "username": "railchat", "discriminator": "0", "avatar": None,
            "bot": True, "global_name": None}


def user(uid: int, name: str) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "avatar": None,
            "global_name": name}


@dataclass
class Request:
    method: str
    path: str
    body: Any


@dataclass
class FakeDiscord:
    requests: list[Request] = field(default_factory=list)
    failures: dict[str, list[int]] = field(default_factory=dict)  # route pattern: statuses
    events: list[dict[str, Any]] = field(default_factory=list)  # dispatched, with "s"
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    identifies: int = 0
    resumes: int = 0
    ids: Any = field(default_factory=lambda: itertools.count(5000))
    port: int = 0

    async def start(self) -> None:
        app = web.Application()
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

    # -- REST ------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            body = {}
            async for part in await request.multipart():
                body[part.name] = (json.loads(await part.text()) if part.name == "payload_json"
                                   else await part.read())
        for pattern, statuses in self.failures.items():
            if statuses and re.fullmatch(pattern, f"{request.method} {path}"):
                status = statuses.pop(0)
                self.requests.append(Request(request.method, path + f" -> {status}", body))
                if status == 429:
                    return _json({"message": "You are being rate limited.",
                                              "retry_after": 0.05, "global": False},
                                             status=429, headers={"Via": "1.1 google",
                                                                  "Retry-After": "1"})
                return _json({"message": "500: Internal Server Error", "code": 0},
                                         status=status)
        self.requests.append(Request(request.method, path, body))
        return _json(self._answer(request.method, path, body))

    def _answer(self, method: str, path: str, body: Any) -> Any:
        if path in ("/gateway", "/gateway/bot"):
            return {"url": f"ws://127.0.0.1:{self.port}/ws", "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 1000,
                                            "reset_after": 0, "max_concurrency": 1}}
        if path == "/users/@me":
            return BOT_USER
        if path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "railchat", "icon": None, "description": "",
                    "bot_public": True, "bot_require_code_grant": False, "owner": BOT_USER,
                    "verify_key": "00", "flags": 0, "summary": ""}
        if re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", path) and method == "PUT":
            return [{**c, "id": str(next(self.ids)), "application_id": str(APP_ID),
                     "version": "1", "default_member_permissions": None, "type": c.get("type", 1)}
                    for c in body]
        if path == f"/channels/{THREAD_ID}":
            return thread_data()
        if re.fullmatch(r"/channels/\d+/messages(/\d+)?", path) or \
                re.fullmatch(r"/webhooks/\d+/[^/]+(/messages/@original)?", path):
            payload = body.get("payload_json", body) if isinstance(body, dict) else {}
            return message(next(self.ids), int(path.split("/")[2]) if "channels" in path
                           else THREAD_ID, payload.get("content") or "")
        callback = re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", path)
        if callback:  # what discord.py asks for with `with_response`
            flags = (body.get("data") or {}).get("flags", 0)
            return {"interaction": {"id": callback.group(1), "type": 2,
                                    "response_message_loading": body["type"] == 5,
                                    "response_message_ephemeral": bool(flags & 64)},
                    "resource": {"type": body["type"]}}
        return {}  # thread membership and the like

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
                await self._send(ws, "READY", {
                    "v": 10, "user": BOT_USER, "session_id": "s1", "guilds": [],
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/ws",
                    "application": {"id": str(APP_ID), "flags": 0}})
                await self._send(ws, "GUILD_CREATE", guild_data())
            elif data["op"] == 6:
                self.resumes += 1
                for event in [e for e in self.events if e["s"] > (data["d"]["seq"] or 0)]:
                    await ws.send_json(event)
                await ws.send_json({"op": 0, "t": "RESUMED", "s": len(self.events), "d": {}})
        return ws

    async def _send(self, ws: web.WebSocketResponse, kind: str, data: Any) -> None:
        event = {"op": 0, "t": kind, "s": len(self.events) + 1, "d": data}
        self.events.append(event)
        await ws.send_json(event)

    async def dispatch(self, kind: str, data: Any) -> None:
        await self._send(self.sockets[-1], kind, data)

    async def drop(self) -> None:
        """Close the gateway connection as a network failure would (resumable)."""
        await self.sockets[-1].close(code=4000)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with the bare content type discord.py looks for (no charset parameter)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def thread_data() -> dict[str, Any]:
    return {"id": str(THREAD_ID), "type": 11, "guild_id": str(GUILD_ID),
            "parent_id": str(CHANNEL_ID), "name": "railchat game", "owner_id": str(APP_ID),
            "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                "locked": False}}


def guild_data() -> dict[str, Any]:
    return {"id": str(GUILD_ID), "name": "test", "icon": None, "owner_id": "1",
            "member_count": 3, "large": False, "unavailable": False, "features": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": "274877975552",
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False}],
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "games", "position": 0,
                          "permission_overwrites": [], "guild_id": str(GUILD_ID)}],
            "threads": [thread_data()], "members": [], "voice_states": [], "presences": [],
            "emojis": [], "stickers": [], "stage_instances": [], "guild_scheduled_events": []}


def message(mid: int, channel: int, content: str) -> dict[str, Any]:
    return {"id": str(mid), "channel_id": str(channel), "author": BOT_USER, "content": content,
            "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 0, "components": []}


def command_interaction(iid: int, who: dict[str, Any], group: str, sub: str,
                        options: dict[str, Any]) -> dict[str, Any]:
    """INTERACTION_CREATE for `/group sub option:value...` typed in the game thread."""
    return {"id": str(iid), "application_id": str(APP_ID), "type": 2, "token": f"tok{iid}",
            "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(THREAD_ID),
            "channel": thread_data(), "app_permissions": "274877975552", "locale": "en-US",
            "guild_locale": "en-US", "entitlements": [], "attachment_size_limit": 10485760,
            "authorizing_integration_owners": {},
            "member": {"user": who, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                       "deaf": False, "mute": False, "flags": 0, "permissions": "274877975552"},
            "data": {"id": "1", "name": group, "type": 1, "options": [
                {"name": sub, "type": 1, "options": [
                    {"name": k, "type": 3 if isinstance(v, str) else 4, "value": v}
                    for k, v in options.items()]}]}}
