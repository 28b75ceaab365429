"""Every kind of clock through a whole game, as players meet it: in the console (whose clock the
test moves) and through the Discord front end offline (the bot's own sweep at the times the
test gives). People move now and then, the clock takes the other turns, and the game ends."""

from __future__ import annotations

import io
import json
from datetime import datetime

import pytest

from bot.cli.console import Console
from bot.core.service import GameService
from bot.core.service.clocks import TIMED_OUT
from bot.core.store import Store
from tests.discord_world import GUILD, make_world, posts
from tests.test_clocks import HOUR, FakeClock

CLOCKS = [
    ("24h", "computer", 25 * HOUR),  # a time per turn
    ("bank:1d turn:1h", "pass", 26 * HOUR),  # a bank spent after each turn's increment
]


def add(player: int, amount: int) -> str:
    return json.dumps({"type": "add", "amount": amount, "entity": player, "entity_type": "player"})


@pytest.mark.parametrize("spec, policy, wait", CLOCKS, ids=["deadline", "bank"])
async def test_a_whole_console_game_under_each_clock(tmp_path, spec, policy, wait) -> None:
    clock = FakeClock()
    service = GameService(Store(str(tmp_path / "c.db")), new_seed=lambda: 3, clock=clock)
    console = Console(service, io.StringIO())
    await console.run(
        [
            f"/game new tally seats:2 options:target=60 clock:{spec} deadline:{policy}",
            "as 2: /game join",
            "/game start",
        ]
    )
    for turn in range(40):
        if "is over" in console.out.getvalue() or "won" in console.out.getvalue():
            break
        if turn % 3 == 0:  # a person plays in time
            await console.run(["menu", "9"])
        else:  # nobody answers: the next line typed sweeps the clock
            clock.advance(wait)
            await console.run(["/game status"])
    said = console.out.getvalue()
    record = await service.store.game(1)
    assert record is not None and record.status == "finished", said[-600:]
    assert said.count(TIMED_OUT) >= 3
    assert "Refused" not in said and "Something went wrong" not in said


@pytest.mark.parametrize("spec, policy, wait", CLOCKS, ids=["deadline", "bank"])
async def test_a_whole_discord_game_under_each_clock(db_path, spec, policy, wait) -> None:
    world = await make_world(db_path)
    await world.run(
        "new",
        world.interaction(1),
        title="tally",
        seats=2,
        options="target=60",
        clock=spec,
        deadline=policy,
    )
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    store = world.bot.service.store
    now = datetime.fromisoformat((await store.game_clock(1)).started_at)  # type: ignore[union-attr]
    for turn in range(40):
        record = await store.game(1)
        assert record is not None
        if record.status == "finished":
            break
        if turn % 3 == 0:  # whoever must act plays in time
            [acting] = await world.bot.service.peek(
                1, lambda g: g.active_players(), guild_id=GUILD
            ) or [0]
            sent = await world.run(
                "act", world.interaction(acting, where=thread.id), game=None, action=add(acting, 9)
            )
            assert sent[-1].text.startswith("Done"), sent
        else:
            now += wait
            await world.bot.send_reminders(now)
        await world.bot.poster.drain(now=True)
    assert (await store.game(1)).status == "finished"  # type: ignore[union-attr]
    lines = [line for post in posts(thread) for line in post.text.splitlines()]
    assert sum(line.endswith(TIMED_OUT) for line in lines) >= 3
