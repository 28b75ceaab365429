"""Nudges before a clocked turn's deadline: in the thread first, then by direct message to
those who take turn DMs, each once per turn whichever process sweeps and across restarts;
none in quiet hours (held until they end) nor while away; and deadlines that move at once
when a player's settings change. Time is the service's fake clock. On SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.core.service import GameService
from bot.core.service.clocks import ClockSweep
from bot.core.store import Store
from tests.discord_world import GUILD, make_world
from tests.test_clocks import HOUR, MONDAY, FakeClock, clocked, due, game_clock
from tests.test_service import ANN, BOB, add


def on_one_store(
    make_store: Callable[[], Store], count: int = 1
) -> tuple[FakeClock, list[GameService]]:
    """`count` services (processes) on one store, and the fake clock they share."""
    store, clock = make_store(), FakeClock()
    return clock, [GameService(store, new_seed=lambda: 4242, clock=clock) for _ in range(count)]


async def sweep_at(service: GameService, at: datetime) -> ClockSweep:
    return await service.clock_sweep(at)


async def test_a_thread_nudge_then_dm_nudges_each_once_across_sweeps_and_a_restart(
    make_store,
):
    clock, [service] = on_one_store(make_store)
    store = service.store
    assert (await service.set_turn_dm(ANN, "on")).ok
    gid = await clocked(service, "24h", ANN, BOB)
    first = await sweep_at(service, MONDAY + 12 * HOUR - timedelta(minutes=1))
    assert not first.nudges and first.next_nudge == MONDAY + 12 * HOUR
    [thread] = (await sweep_at(service, clock.advance(12 * HOUR))).nudges
    assert thread.in_thread and thread.ping == (ANN.user_id,) and not thread.messages
    assert (
        thread.text == f"Clock: 12 h left for Ann's move in game #{gid}, then the computer moves."
    )
    assert not (await sweep_at(service, clock.now)).nudges  # the second sweep: nothing again
    [dm] = (await sweep_at(service, clock.advance(6 * HOUR))).nudges
    assert not dm.in_thread and [m.user_id for m in dm.messages] == [ANN.user_id]
    assert dm.messages[0].text == (
        f"Clock: 6 h left for your move in game #{gid} (tally), then the computer moves"
    )
    restarted = GameService(store, new_seed=lambda: 4242, clock=clock)  # same store
    assert not (await sweep_at(restarted, clock.now)).nudges
    [last] = (await sweep_at(restarted, MONDAY + 24 * HOUR - 144 * timedelta(minutes=1))).nudges
    assert last.messages[0].text.startswith("Clock: 2 h 24 min left for your move")
    assert (await sweep_at(restarted, MONDAY + 23 * HOUR)).next_nudge is None  # three a turn
    clock.advance(3 * HOUR)
    assert (await restarted.act(gid, ANN, add(1))).ok  # Bob takes no turn DMs: the thread
    clock.advance(18 * HOUR)
    nudges = [n for _ in range(2) for n in (await sweep_at(restarted, clock.now)).nudges]
    assert [(n.in_thread, n.ping) for n in nudges] == [(True, (BOB.user_id,))]
    assert nudges[0].text.startswith("Clock: 6 h left for Bob's move")


async def test_no_nudge_in_quiet_hours_it_waits_until_they_end(make_store):
    clock, [service] = on_one_store(make_store)
    assert (await service.set_quiet_hours(ANN, "14-22")).ok  # UTC: she sets no time zone
    gid = await clocked(service, "4h", ANN, BOB)  # 2 h, 8 quiet hours, 2 h: midnight
    assert await due(service, gid) == MONDAY + 12 * HOUR
    held = await sweep_at(service, clock.advance(2 * HOUR))  # half her time left, at 14:00
    assert not held.nudges and held.next_nudge == MONDAY + 10 * HOUR
    assert not (await sweep_at(service, MONDAY + 10 * HOUR - timedelta(minutes=1))).nudges
    [nudge] = (await sweep_at(service, MONDAY + 10 * HOUR)).nudges
    assert nudge.ping == (ANN.user_id,) and "2 h left for Ann's move" in nudge.text
    assert (await game_clock(service, gid)).nudge_at == (MONDAY + 11 * HOUR).isoformat()


async def test_no_nudge_while_away_or_when_the_computer_plays_the_seat(make_store):
    clock, [service] = on_one_store(make_store)
    assert (await service.set_away(ANN, "2030-01-20")).ok  # no vacation days: her clock runs
    gid = await clocked(service, "24h", ANN, BOB)
    for hours in (12, 18, 22, 23):
        assert not (await sweep_at(service, MONDAY + hours * HOUR)).nudges
    assert (await game_clock(service, gid)).nudged == 3  # each skipped: back after the deadline
    assert (await service.set_away(ANN, "off")).ok
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.computer_seat(gid, BOB, None, True)).ok  # /play away
    await service.play_computers(gid)
    seat = (await game_clock(service, gid)).seat
    swept = [await sweep_at(service, clock.now + h * HOUR) for h in (12, 18, 22)]
    nudged = [n.ping for s in swept for n in s.nudges]
    assert seat == 1 and nudged == [(ANN.user_id,)] * 3  # hers only: Bob's seat has no clock


async def test_two_services_sweeping_at_once_nudge_once(make_store):
    clock, [one, two] = on_one_store(make_store, 2)
    gid = await clocked(one, "24h", ANN, BOB)
    clock.advance(12 * HOUR)
    stale = await game_clock(one, gid)  # read before the nudge, as by a move under way
    swept = await asyncio.gather(one.clock_sweep(clock.now), two.clock_sweep(clock.now))
    assert sum(len(s.nudges) for s in swept) == 1
    assert not (await two.clock_sweep(clock.now)).nudges
    await one.store.save_clock(stale)  # written after it, in the same turn: the nudge stays
    assert (await game_clock(one, gid)).nudged == 1
    assert not (await two.clock_sweep(clock.now)).nudges


async def test_a_settings_change_moves_the_deadline_earlier_and_the_sweep_fires_then(make_store):
    clock, [service] = on_one_store(make_store)
    assert (await service.set_quiet_hours(ANN, "14-22")).ok
    gid = await clocked(service, "24h", ANN, BOB)
    assert await due(service, gid) == MONDAY + 40 * HOUR  # two quiet spells of 8 hours
    clock.advance(HOUR)
    assert (await service.set_quiet_hours(ANN, "off")).ok
    assert await due(service, gid) == MONDAY + 24 * HOUR
    # the turn goes on from the change with the 23 hours it had left: nudged when half is left
    assert (await game_clock(service, gid)).nudge_at == (MONDAY + HOUR + 23 * HOUR / 2).isoformat()
    assert not (await sweep_at(service, MONDAY + 24 * HOUR - timedelta(minutes=1))).results
    [timed_out] = (await sweep_at(service, MONDAY + 24 * HOUR)).results
    assert "Ann" in timed_out.text and len(await service.store.actions(gid)) == 1


async def test_a_game_without_a_clock_gets_no_nudge(make_store):
    clock, [service] = on_one_store(make_store)
    gid = await clocked(service, "none", ANN, BOB)
    assert await service.store.game_clock(gid) is None
    swept = await sweep_at(service, clock.advance(30 * 24 * HOUR))
    assert not swept.nudges and swept.next_nudge is None and not swept.results


async def test_discord_posts_the_thread_nudge_then_sends_the_dm(db_path):
    world = await make_world(db_path)
    await world.run("new", world.interaction(1), title="tally", seats=2, options=None, clock="1h")
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    await world.run("turn-dm", world.interaction(1), group="settings", dm="on")
    found = await world.bot.service.store.game_clock(1)
    assert found is not None and found.started_at is not None
    started = datetime.fromisoformat(found.started_at)
    thread.send.reset_mock()
    await world.bot.send_reminders(started + timedelta(minutes=30))
    assert thread.send.call_args.args[0] == (
        "Clock: 30 min left for user1's move in game #1, then the computer moves.\n<@1>"
    )
    world.dms.clear()
    thread.send.reset_mock()
    await world.bot.send_reminders(started + timedelta(minutes=45))
    assert thread.send.call_count == 0
    link = f"https://discord.com/channels/{GUILD}/{thread.id}"
    assert world.dms == [
        (1, f"Clock: 15 min left for your move in game #1 (tally), then the computer moves: {link}")
    ]
