"""One bot process of the load benchmark (`benchmarks/load.py` starts it): the real
RailchatBot, as `railchat run --shards A-B --shard-count N` runs it, pointed at the fake
Discord on loopback instead of discord.com.

Run: python -m benchmarks.load_bot DB PORT --shards A-B --shard-count N [--renderer real|none]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord
import yarl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.rendering import render_view  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.shards import Shards  # noqa: E402
from bot.core.store import Store  # noqa: E402
from bot.discord_ui.app import RailchatBot, _serve  # noqa: E402

CAPS = (10_000, 10_000)  # the benchmark's servers hold more games than the default caps


async def no_wait(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 s between two IDENTIFYs (Discord's rate); the fake has none."""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("port", type=int)
    parser.add_argument("--shards", required=True)
    parser.add_argument("--shard-count", type=int, required=True)
    parser.add_argument("--renderer", choices=("real", "none"), default="real")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    base = f"http://127.0.0.1:{args.port}"
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/ws")
    discord.Client.before_identify_hook = no_wait  # type: ignore[method-assign]
    store = Store(args.db)
    try:
        shards = Shards.parse(args.shards, args.shard_count)
        service = GameService(store, shards=shards, game_caps=CAPS)
        renderer = render_view if args.renderer == "real" else None
        asyncio.run(_serve(RailchatBot(service, renderer=renderer), "not-a-real-token"))
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
