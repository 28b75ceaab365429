"""Several bot processes on one database: a lease goes to one process at a time (on both
databases), a process's sweep takes up only the games of the servers its shards serve, and a
due reminder is sent once whichever processes look for it, even with overlapping shards."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.shards import ShardError, Shards, shard_of
from tests.test_service import ANN, BOB, started

HOUR = 3600.0
GUILDS = [(k << 22) + 7 for k in range(4)]  # shards 0, 1, 0, 1 of 2


async def test_a_lease_has_one_holder_until_it_lets_go_or_lapses(make_store):
    a, b = make_store(), make_store()  # two connections, as two processes have
    now = 1_000_000.0
    assert await a.claim_lease("remind:1", "A", 60, now)
    assert not await b.claim_lease("remind:1", "B", 60, now + 59)
    assert await b.lease_holder("remind:1", now + 59) == "A"
    assert await a.claim_lease("remind:1", "A", 60, now + 30)  # its holder extends it
    assert not await b.claim_lease("remind:1", "B", 60, now + 89)
    assert await b.claim_lease("remind:1", "B", 60, now + 90)  # lapsed: B takes it
    assert await a.lease_holder("remind:1", now + 90) == "B"
    assert not await a.release_lease("remind:1", "A")  # only its holder lets go
    assert await b.release_lease("remind:1", "B")
    assert await a.lease_holder("remind:1", now + 90) is None
    assert await a.claim_lease("remind:1", "A", 60, now + 91)
    assert await b.claim_lease("remind:2", "B", 60, now + 91)  # names are independent


async def test_of_many_processes_claiming_at_once_exactly_one_gets_it(make_store):
    stores = [make_store() for _ in range(4)]
    for round_ in range(5):
        got = await asyncio.gather(
            *(s.claim_lease(f"job:{round_}", f"P{n}", 60) for n, s in enumerate(stores))
        )
        assert sum(got) == 1, got


def test_shard_spans_are_read_and_bad_ones_refused():
    assert Shards.parse("0-1", 4) == Shards((0, 1), 4)
    assert Shards.parse("3", 4) == Shards((3,), 4)
    assert str(Shards.parse("2-3", 4)) == "shards 2-3 of 4"
    for span, count, why in [
        ("2-5", 4, "shard ids go from 0 to 3 with --shard-count 4"),
        ("3-1", 4, "the range must go upwards"),
        ("a-b", 4, "must be a shard id or a range A-B"),
        ("0", 0, "--shard-count must be 1 to 4096"),
    ]:
        with pytest.raises(ShardError, match=why):
            Shards.parse(span, count)
    # Discord's formula: the server id's timestamp bits, modulo the count
    assert [shard_of(g, 2) for g in GUILDS] == [0, 1, 0, 1]
    assert Shards((1,), 2).serves(GUILDS[1]) and not Shards((1,), 2).serves(GUILDS[0])
    assert not Shards((0,), 1).serves(None)  # a console game has no server


async def idle_games(service: GameService) -> dict[int, int]:
    """A started two-player game in each of GUILDS, by guild; their turns began now."""
    games = {}
    for n, guild in enumerate(GUILDS):
        ann, bob = Caller(10 + n, "Ann", guild_id=guild), Caller(20 + n, "Bob", guild_id=guild)
        created = await service.create_game(ann, "tally", seats=2, guild_id=guild, thread_id=n + 1)
        assert created.game_id is not None, created.error
        await service.join(created.game_id, bob)
        assert (await service.start(created.game_id, ann)).ok
        games[guild] = created.game_id
    return games


def later(hours: float) -> datetime:
    return datetime.now(UTC) + timedelta(hours=hours)


async def test_each_process_reminds_the_games_of_its_shards_only(make_store):
    games = await idle_games(GameService(make_store()))
    first = GameService(make_store(), shards=Shards((0,), 2))
    second = GameService(make_store(), shards=Shards((1,), 2))
    assert (await first.sweep(later(1))).next_due is not None
    sent_first = {r.game_id for r in (await first.sweep(later(25))).reminders}
    sent_second = {r.game_id for r in (await second.sweep(later(25))).reminders}
    assert sent_first == {games[GUILDS[0]], games[GUILDS[2]]}
    assert sent_second == {games[GUILDS[1]], games[GUILDS[3]]}
    assert (await first.sweep(later(26))).reminders == ()  # once per period


async def test_a_due_reminder_is_sent_once_by_processes_looking_at_once(make_store):
    """Three processes whose shards overlap (a restart beside the old process, say) all look
    for due reminders at the same moment: every game is reminded exactly once."""
    games = await idle_games(GameService(make_store()))
    services = [
        GameService(make_store(), shards=Shards((0, 1), 2)),
        GameService(make_store(), shards=Shards((0, 1), 2)),
        GameService(make_store()),
    ]
    for round_ in (25, 50):  # two periods: each game once in each
        sent = await asyncio.gather(*(s.sweep(later(round_)) for s in services))
        ids = sorted(r.game_id for found in sent for r in found.reminders)
        assert ids == sorted(games.values()), sent


async def test_a_lease_left_by_a_dead_process_delays_its_reminder_only_until_it_lapses(
    make_store,
):
    games = await idle_games(GameService(make_store()))
    gid = games[GUILDS[0]]
    store = make_store()
    service = GameService(store, shards=Shards((0,), 2))
    assert await store.claim_lease(f"remind:{gid}", "dead-process", 120)  # it died holding it
    sent = {r.game_id for r in (await service.sweep(later(25))).reminders}
    assert sent == {games[GUILDS[2]]}  # the other game of shard 0 only
    # the dead process's lease lapses (claimed again as if it were long ago)
    assert await store.release_lease(f"remind:{gid}", "dead-process")
    assert await store.claim_lease(f"remind:{gid}", "dead-process", 120, time.time() - HOUR)
    sent = {r.game_id for r in (await service.sweep(later(25))).reminders}
    assert sent == {gid}


async def test_a_held_direct_message_is_sent_once_by_processes_looking_at_once(make_store):
    """A turn message held through quiet hours falls due while two processes sweep: one
    of them sends it."""
    first, second = GameService(make_store()), GameService(make_store())
    gid = await started(first, ANN, BOB)
    assert (await first.set_turn_dm(ANN, "on")).ok
    assert (await first.set_quiet_hours(ANN, "10-14")).ok
    monday = datetime(2030, 1, 7, 12, tzinfo=UTC)
    assert await first.direct_messages(gid, [ANN.user_id], now=monday) == []  # held
    due = monday + timedelta(hours=2)
    sweeps = await asyncio.gather(first.sweep(due), second.sweep(due))
    assert [(m.user_id, m.game_id) for s in sweeps for m in s.messages] == [(ANN.user_id, gid)]
    assert await first.store.held_dms() == []
