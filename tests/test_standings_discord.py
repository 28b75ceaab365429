"""Standings through Discord, offline: `/stats` answers the caller alone, per server, and
refuses in a direct message; a game's final thread post names each player's time used and
median time to move, read from the action log's times (set here by a fake clock)."""

from __future__ import annotations

import json
from datetime import timedelta
from types import SimpleNamespace

import pytest

from bot.core.service.base import store_time
from bot.core.store import games as store_games
from bot.discord_ui.cogs.stats import DM_REFUSAL
from tests.discord_world import GUILD, World, make_world, posts
from tests.test_clocks import MONDAY, FakeClock

START = MONDAY
MINUTE = timedelta(minutes=1)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    """The service's clock, which the store's stamp on each action follows too (the store
    stamps with the wall clock of its own: both are the wall clock in the bot)."""
    fake = FakeClock()
    monkeypatch.setattr(store_games, "now", lambda: store_time(fake()))
    return fake


@pytest.fixture
async def world(db_path, clock):
    made = await make_world(db_path)
    made.bot.service.clock = clock
    return made


async def two_player_game(world: World) -> tuple[int, object]:
    """A started tally game to 30 of user1 and user2 in the server (their scores start at 5
    and 2, by the seed); its id and thread."""
    await world.run("new", world.interaction(1), title="tally", seats=2, options="target=30")
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    game_id = await world.bot.service.game_for_thread(thread.id, guild_id=GUILD)
    return game_id, thread


async def move(world: World, thread, user: int, amount: int) -> None:
    act = json.dumps({"type": "add", "amount": amount})
    sent = await world.run("act", world.interaction(user, where=thread.id), game=None, action=act)
    assert not sent[-1].text.startswith("Refused"), sent[-1].text


async def play_out(world: World, thread, waits: list[int], clock: FakeClock) -> None:
    """user1 adds 9 and user2 adds 1 in turn, each after waiting `waits[n]` minutes: the
    total (7 at the start) reaches 30 at the fifth move, the last."""
    for n, wait in enumerate(waits):
        clock.now += wait * MINUTE
        await move(world, thread, 1 if n % 2 == 0 else 2, 9 if n % 2 == 0 else 1)
    game_id = await world.bot.service.game_for_thread(thread.id, guild_id=GUILD)
    assert (await world.bot.service.store.game(game_id)).status == "finished"


async def test_stats_answers_the_caller_alone_per_server_and_refuses_in_a_dm(world, clock):
    game_id, thread = await two_player_game(world)
    await play_out(world, thread, [0, 5, 25, 120, 7], clock)
    thread.send.reset_mock()
    before = len(world.channel.messages)

    sent = await world.run("stats", world.interaction(2), player=None, title=None)
    assert [s.ephemeral for s in sent] == [True]
    lines = sent[-1].text.splitlines()
    assert lines[0] == "user2's standing here (rating: openskill's ordinal, from 0):"
    assert (
        lines[1].startswith("tally: rating ") and "· 1 game, 0 wins · average place 2.0" in lines[1]
    )
    # the time to move: user2 waited 5 min and 2 h, a median of 62.5 min
    assert lines[1].endswith("· 1h 02m a move (median)")
    about_one = await world.run(
        "stats", world.interaction(2), player=SimpleNamespace(id=1), title="tally"
    )
    assert about_one[-1].ephemeral and about_one[-1].text.startswith("user1's standing here")
    assert "1 game, 1 win · average place 1.0 · 16m a move (median)" in about_one[-1].text
    assert not thread.send.called and len(world.channel.messages) == before  # nothing public

    elsewhere = await world.run("stats", world.interaction(2, guild=GUILD + 1), player=None)
    assert elsewhere[-1].ephemeral
    assert elsewhere[-1].text == "user2 has no finished game here yet."

    in_dm = await world.run("stats", world.interaction(2, guild=None), player=None, title=None)
    assert [(s.text, s.ephemeral) for s in in_dm] == [(DM_REFUSAL, True)]
    assert DM_REFUSAL.startswith("Refused: /stats works in a server")


async def test_the_final_post_names_each_players_time_used_and_median_time_to_move(world, clock):
    game_id, thread = await two_player_game(world)
    waits = [3, 5, 25, 120, 7]  # minutes before each move: user1, user2, user1, user2, user1
    await play_out(world, thread, waits, clock)
    log = await world.bot.service.store.actions(game_id)
    stamps = [START + sum(waits[: n + 1]) * MINUTE for n in range(len(waits))]
    assert [a.created_at for a in log] == [store_time(t) for t in stamps]
    # user1: 25 + 7 min (the first move waited on nobody's); user2: 5 min + 2 h
    told = (
        "Time to move: user1 32m used, 16m a move (median); "
        "user2 2h 05m used, 1h 02m a move (median)."
    )
    final = posts(thread)[-1]
    assert told in final.text.splitlines()
    assert [p for p in posts(thread) if told in p.text] == [final]  # once, at the end
