"""Posts and image bytes a whole game puts in its Discord thread.

Replays a recorded 18xx.games game move by move through the real service and thread poster
(Discord offline, as in the tests; real images from render/), each move as its player would
make it (`/game act`), with the thread posted after every move as in a game played over days.
Counts the messages sent, the edits of earlier messages, the images attached and their bytes.

    python benchmarks/bench_thread_posts.py [GAME.json] [--limit N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.rendering import render_view  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from engine.eighteen import io as game_files  # noqa: E402
from tests.discord_world import make_world  # noqa: E402
from tests.reference_games import game_path  # noqa: E402


async def replay(path: Path, limit: int | None) -> dict[str, float]:
    data = json.loads(path.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        world = await make_world(Path(tmp) / "bench.db", renderer=render_view)
        thread = await world._create_thread(name="bench")
        service = world.bot.service
        users = [n + 1 for n in range(len(data["players"]))]
        empty = {**data, "actions": []}
        opened = await service.import_game(
            Caller(1, "user1"), empty, users, thread_id=thread.id, offer=False
        )
        assert opened.ok, opened.error
        game_id = opened.game_id
        user_of = {p["id"]: users[i] for i, p in enumerate(data["players"])}
        moves = []  # programmed (auto) actions are made as the players' own moves
        for _, action in game_files.effective_actions(data["actions"]):
            done = (
                []
                if action["type"].startswith("program_")
                else [{k: v for k, v in action.items() if k != "auto_actions"}]
            )
            done += action.get("auto_actions") or []
            moves += [a for a in done if not a["type"].startswith("program_")]
        if limit is not None:
            moves = moves[:limit]
        started = time.perf_counter()
        for n, action in enumerate(moves):
            move = {k: v for k, v in action.items() if k not in ("id", "user", "created_at")}
            if move.get("entity_type") == "player":
                user = user_of[move["entity"]]
            else:
                user = (await service.prompt(game_id, choices=False)).notify[0]
            result = await service.act(game_id, Caller(user, f"user{user}"), move)
            if not result.ok:
                raise SystemExit(f"move {n} ({action.get('id')}) refused: {result.error}")
            world.bot.poster.queue(result)
            await world.bot.poster.drain()
        seconds = time.perf_counter() - started
        messages = thread.messages
        uploads = [size for m in messages for _, size in m.uploads]
        return {
            "moves": len(moves),
            "posts": len(messages),
            "edits": sum(m.edits for m in messages),
            "images": len(uploads),
            "image_bytes": sum(uploads),
            "seconds": round(seconds, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "game",
        nargs="?",
        default=None,
        help="an 18xx.games JSON file (default: the 816-action 1830 game)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N moves")
    args = parser.parse_args()
    path = Path(args.game) if args.game else game_path("1830", "1830_game_end_bank")
    stats = asyncio.run(replay(path, args.limit))
    mb = stats["image_bytes"] / 1e6
    print(
        f"{path.name}: {stats['moves']} moves -> {stats['posts']} posts, {stats['edits']} edits, "
        f"{stats['images']} images, {mb:.1f} MB of images ({stats['seconds']} s)"
    )


if __name__ == "__main__":
    main()
