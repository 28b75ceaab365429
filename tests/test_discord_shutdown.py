"""`docker stop` sends SIGTERM: the bot closes cleanly within 10 s, the commands under way finish,
and the moves still waiting for their thread post (gathered for a few seconds before posting) are posted first. The bot runs
in a child process as `railchat run` would run it, against the fake Discord."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from bot.core.service import GameService
from bot.core.store import Store
from tests.fake_discord import THREAD_ID
from tests.wire_bot import ANN, open_game, started_fake, thread_posts, until

ROOT = Path(__file__).resolve().parents[1]
CHILD = textwrap.dedent(
    """
    import asyncio, sys
    import discord, yarl
    from bot.core.service import GameService
    from bot.core.store import Store
    from bot.discord_ui.app import RailchatBot, _serve
    from tests.titles_for_tests import register

    base, port, db = sys.argv[1], sys.argv[2], sys.argv[3]
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/ws")
    register()
    store = Store(db)
    bot = RailchatBot(GameService(store), post_delay=30.0)  # posts wait long: SIGTERM flushes
    bot._connection.guild_ready_timeout = 0.05
    asyncio.run(_serve(bot, "not-a-real-token"))
    store.close()
    print("closed", flush=True)
    """
)


async def test_sigterm_posts_what_waits_and_closes_within_10_seconds(db_path, monkeypatch):
    fake = await started_fake(monkeypatch)
    store = Store(db_path)
    await open_game(GameService(store), THREAD_ID)
    store.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, fake.base, str(fake.port), str(db_path)],
        cwd=ROOT,  # this checkout's bot and tests, whatever railchat is installed
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        await until(lambda: fake.identifies >= 1, "the bot to connect", 30)
        await asyncio.sleep(0.5)  # its commands are synced and it is ready
        action = {"type": "add", "amount": 4}
        await fake.command(7801, ANN, "game-admin", "act", action=json.dumps(action))
        # SIGTERM as soon as the move is acknowledged, likely while it is still being made:
        # the stop lets it finish, answer its caller and queue its post
        await until(lambda: fake.posts("tok7801"), "the bot to acknowledge the move")
        assert thread_posts(fake) == []  # the post waits out its 30 s gathering delay
        child.send_signal(signal.SIGTERM)
        loop = asyncio.get_running_loop()
        code = await asyncio.wait_for(loop.run_in_executor(None, child.wait), 10)
    finally:
        if child.poll() is None:
            child.kill()
        await fake.stop()
    out, err = child.communicate()
    assert code == 0, err
    assert out.strip() == "closed"
    [post] = thread_posts(fake)
    assert post.startswith("ann added 4.")
    assert any(m.content.startswith("Done") for m in fake.posts("tok7801"))
