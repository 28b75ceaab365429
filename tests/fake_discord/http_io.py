"""How the fake reads a request (JSON, or multipart with its files) and writes an answer (JSON,
with the headers Discord's answers carry)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.fake_discord.payloads import Upload


async def read_request(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body, or a multipart request's payload_json and files."""
    body: Any = None
    files: list[Upload] = []
    if request.content_type == "application/json":
        body = await request.json()
    elif request.content_type.startswith("multipart/"):
        body = {}
        async for part in await request.multipart():
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = bytes(await part.read())  # type: ignore[union-attr]
                files.append(Upload(part.name or "", part.filename or "", data))  # type: ignore[union-attr]
    return body, files


def json_answer(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with the bare content type discord.py looks for (no charset parameter); every
    answer comes through Discord's front (`Via`), which discord.py looks for on a 429; with
    the rate limit `headers` of its bucket."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", "Via": "1.1 google", **(headers or {})},
    )
