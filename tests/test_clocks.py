"""Game clocks: a deadline per turn or a bank with an increment, counted on the service's
clock (a fake one here: no test waits), stopped by quiet hours, vacation, pauses and the bot's
downtime; what happens at a deadline, once, whichever process sweeps. On SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime, timedelta

import pytest

from bot.cli.console import Console
from bot.core.clocks import ClockSpec, parse_clock, span
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.clocks import TIMED_OUT
from bot.core.store import ClockRecord
from tests.test_service import ANN, BOB, add

MONDAY = datetime(2030, 1, 7, 12, tzinfo=UTC)
HOUR = timedelta(hours=1)
SWEEP = timedelta(minutes=15)


class FakeClock:
    """The service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = MONDAY

    def __call__(self) -> datetime:
        return self.now

    def advance(self, by: timedelta) -> datetime:
        self.now += by
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(make_store, clock):
    return GameService(make_store(), new_seed=lambda: 4242, clock=clock)


async def clocked(
    service: GameService,
    spec: str,
    *callers: Caller,
    title: str = "tally",
    options: dict[str, bool] | None = None,
) -> int:
    """A started game with `callers` seated in order (the first creates it) and clock `spec`."""
    created = await service.create_game(
        callers[0], title, seats=len(callers), clock=parse_clock(spec), options=options
    )
    assert created.ok, created.error
    for c in callers[1:]:
        assert (await service.join(created.game_id, c)).ok
    assert (await service.start(created.game_id, callers[0])).ok
    return created.game_id


async def game_clock(service: GameService, game_id: int) -> ClockRecord:
    found = await service.store.game_clock(game_id)
    assert found is not None
    return found


async def due(service: GameService, game_id: int) -> datetime | None:
    at = (await game_clock(service, game_id)).deadline_at
    return None if at is None else datetime.fromisoformat(at)


async def left(service: GameService, game_id: int) -> str:
    record = await service.store.game(game_id)
    assert record is not None
    return await service.clock_left(record)


# -- the spec ------------------------------------------------------------------------------------
def test_a_clock_is_read_as_typed_and_written_back_the_same():
    assert parse_clock(None) is None and parse_clock("none") is None
    assert parse_clock("24h") == ClockSpec(86400)
    bank = parse_clock("bank:3d turn:8h timeout:pass vacation:7")
    assert bank == ClockSpec(8 * 3600, 3 * 86400, "pass", 7)
    assert parse_clock(bank.text()) == bank
    assert bank.text() == "bank:3d turn:8h timeout:pass vacation:7"
    assert bank.label() == (
        "a bank of 3 d and 8 h a turn; at the deadline a pass (else the computer); "
        "7 vacation days each"
    )
    for wrong in ("tomorrow", "bank:3d", "24h timeout:never", "0m", "90d", "24h vacation:99"):
        with pytest.raises(ValueError):
            parse_clock(wrong)
    assert span(2 * 86400 + 6 * 3600) == "2 d 6 h" and span(14 * 3600) == "14 h"


# -- counting ------------------------------------------------------------------------------------
async def test_a_deadline_per_turn_runs_for_whoever_must_act(service, clock):
    gid = await clocked(service, "24h", ANN, BOB)
    assert await due(service, gid) == MONDAY + 24 * HOUR
    assert (await game_clock(service, gid)).seat == 1
    clock.advance(10 * HOUR)
    assert await left(service, gid) == "14 h left"
    assert (await service.act(gid, ANN, add(1))).ok  # Bob's turn: his own 24 hours
    assert (await game_clock(service, gid)).seat == 2
    assert await due(service, gid) == clock.now + 24 * HOUR


async def test_a_bank_spends_the_increment_first_and_never_grows(service, clock):
    gid = await clocked(service, "bank:3d turn:8h", ANN, BOB)
    assert await due(service, gid) == MONDAY + 80 * HOUR
    clock.advance(20 * HOUR)  # 12 hours past the increment
    assert await left(service, gid) == "bank 2 d 12 h left"
    assert (await service.act(gid, ANN, add(1))).ok
    clock.advance(HOUR)  # Bob spends 1 hour of his increment: his bank is whole
    assert await left(service, gid) == "7 h left · bank 3 d"
    assert (await service.act(gid, BOB, add(2))).ok
    assert (await game_clock(service, gid)).banks == {1: 60 * 3600.0, 2: 72 * 3600.0}
    assert await left(service, gid) == "8 h left · bank 2 d 12 h"


async def test_quiet_hours_crossing_midnight_stop_the_clock_in_the_players_zone(service, clock):
    assert (await service.set_time_zone(BOB, "Asia/Tokyo")).ok  # UTC+9: noon UTC is 21:00
    assert (await service.set_quiet_hours(BOB, "23-7")).ok  # 14:00-22:00 UTC
    gid = await clocked(service, "6h", BOB, ANN)
    # 2 hours count before 23:00 in Tokyo, then 8 quiet hours, then the other 4
    assert await due(service, gid) == MONDAY + 14 * HOUR
    clock.advance(5 * HOUR)  # 02:00 in Tokyo: asleep, and the clock with them
    assert await left(service, gid) == "4 h left"


async def test_vacation_days_stop_the_clock_while_away_and_are_spent(service, clock):
    assert (await service.set_away(ANN, "2030-01-20")).ok
    gid = await clocked(service, "24h vacation:2", ANN, BOB)
    assert await due(service, gid) == MONDAY + 72 * HOUR  # two days away, then a day
    clock.advance(50 * HOUR)
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await game_clock(service, gid)).vacation == {1: 48 * 3600.0}
    assert (await service.act(gid, BOB, add(2))).ok  # Ann still away, her days spent
    assert await due(service, gid) == clock.now + 24 * HOUR


async def test_a_pause_stops_every_clock_and_resuming_credits_it(service, clock):
    gid = await clocked(service, "24h", ANN, BOB)
    clock.advance(4 * HOUR)
    assert (await service.pause(gid, ANN, True)).ok
    assert await due(service, gid) is None and await left(service, gid) == "20 h left (paused)"
    clock.advance(30 * HOUR)
    assert (await service.pause(gid, ANN, False)).ok
    assert await due(service, gid) == MONDAY + 54 * HOUR
    assert await left(service, gid) == "20 h left"


async def test_the_bots_downtime_is_credited_to_every_running_clock(service, clock):
    gid = await clocked(service, "24h", ANN, BOB)
    assert not (await service.clock_sweep(clock.now, SWEEP)).results  # the heartbeat
    clock.advance(SWEEP)
    await service.clock_sweep(clock.now, SWEEP)  # a sweep on time: nothing credited
    assert await due(service, gid) == MONDAY + 24 * HOUR
    clock.advance(10 * HOUR)  # down for ten hours
    await service.clock_sweep(clock.now, SWEEP)
    assert await due(service, gid) == MONDAY + 34 * HOUR


# -- at the deadline -----------------------------------------------------------------------------
async def test_at_the_deadline_the_computer_moves_once_and_hands_the_seat_back(service, clock):
    gid = await clocked(service, "1h", ANN, BOB)
    clock.advance(59 * timedelta(minutes=1))
    assert not (await service.clock_sweep(clock.now)).results
    clock.advance(HOUR)
    swept = await service.clock_sweep(clock.now)
    [result] = swept.results
    assert result.ok and result.text.endswith(TIMED_OUT) and "Ann" in result.text
    assert result.notify == (BOB.user_id,)
    assert len(await service.store.actions(gid)) == 1
    assert swept.next_due == clock.now + HOUR  # Bob's turn
    assert not (await service.clock_sweep(clock.now)).results  # never twice
    assert (await game_clock(service, gid)).seat == 2
    assert (await service.act(gid, BOB, add(2))).ok  # Ann plays her seat again
    assert (await service.act(gid, ANN, add(1))).ok


async def test_a_timeout_that_fails_is_tried_again_later_not_at_every_sweep(
    service, clock, monkeypatch
):
    gid = await clocked(service, "1h", ANN, BOB)
    clock.advance(2 * HOUR)
    tries = []

    async def broken(game_id: int, now: datetime) -> None:
        tries.append(game_id)
        raise RuntimeError("the engine failed")

    monkeypatch.setattr(service, "_time_out", broken)
    swept = await service.clock_sweep(clock.now)
    assert tries == [gid] and not swept.results
    assert swept.next_due == clock.now + 10 * timedelta(minutes=1)  # not "now" again
    assert not (await service.clock_sweep(clock.now)).results and tries == [gid]
    monkeypatch.undo()
    clock.advance(10 * timedelta(minutes=1))
    assert len((await service.clock_sweep(clock.now)).results) == 1  # the timeout, late


async def test_two_processes_sweeping_at_once_time_a_turn_out_once(make_store, clock):
    store = make_store()
    one, two = (GameService(store, new_seed=lambda: 4242, clock=clock) for _ in range(2))
    gid = await clocked(one, "1h", ANN, BOB)
    clock.advance(2 * HOUR)
    swept = await asyncio.gather(one.clock_sweep(clock.now), two.clock_sweep(clock.now))
    assert sum(len(s.results) for s in swept) == 1
    assert len(await store.actions(gid)) == 1
    assert not (await two.clock_sweep(clock.now)).results


async def test_undo_across_a_timeout_gives_the_turn_back_with_a_fresh_clock(service, clock):
    gid = await clocked(service, "1h", ANN, BOB)
    clock.advance(2 * HOUR)
    assert (await service.clock_sweep(clock.now)).results
    assert (await service.undo(gid, ANN)).ok  # the move was made for her seat: hers to undo
    assert len(await service.store.actions(gid)) == 0
    assert (await game_clock(service, gid)).seat == 1
    assert await due(service, gid) == clock.now + HOUR


async def test_asking_the_admins_tells_them_once_and_they_may_extend(service, clock):
    gid = await clocked(service, "1h timeout:ask", ANN, BOB)
    clock.advance(2 * HOUR)
    [told] = (await service.clock_sweep(clock.now)).results
    assert told.text.startswith("Time ran out for Ann in game #") and told.notify == (ANN.user_id,)
    assert not await service.store.actions(gid) and await due(service, gid) is None
    assert not (await service.clock_sweep(clock.now + HOUR)).results
    assert (await service.extend_clock(gid, BOB, 3)).error
    extended = await service.extend_clock(gid, ANN, 3)
    assert extended.ok and extended.text == "Ann gave Ann 3 h more: 2 h left."
    assert await due(service, gid) == clock.now + 2 * HOUR


# -- what players read ---------------------------------------------------------------------------
async def test_the_lobby_status_prompt_and_turns_show_the_clock(service, clock):
    created = await service.create_game(ANN, "tally", seats=2, clock=parse_clock("bank:3d turn:8h"))
    assert created.text.endswith(
        "Clock: a bank of 3 d and 8 h a turn; at the deadline the computer moves."
    )
    gid = created.game_id
    lobby = await service.lobby(gid)
    assert lobby is not None and lobby.clock.startswith("a bank of 3 d")
    assert (await service.join(gid, BOB)).ok and (await service.start(gid, ANN)).ok
    clock.advance(2 * HOUR)
    assert (await service.lobby(gid)).clock == "6 h left · bank 3 d"
    assert "Clock: 6 h left · bank 3 d." in (await service.status(gid)).text.splitlines()
    assert (await service.prompt(gid)).clock == "6 h left · bank 3 d"
    other = await clocked(service, "1h", ANN, BOB)
    plain = await clocked(service, "none", ANN, BOB)
    turns = await service.my_turns(ANN.user_id)
    assert [e.game_id for e in turns.entries] == [other, gid, plain]
    assert turns.entries[0].line(None, markdown=False).endswith("· 1 h left")


async def test_the_console_opens_a_clocked_game_and_shows_its_clock(make_store, clock):
    console = Console(GameService(make_store(), new_seed=lambda: 3, clock=clock), io.StringIO())
    await console.run(
        [
            "/game new tally seats:2 clock:bank:3d turn:8h deadline:pass vacation:2",
            "as 2: /game join",
            "/game start",
        ]
    )
    said = console.out.getvalue()
    assert "Clock: a bank of 3 d and 8 h a turn; at the deadline a pass (else the computer)" in said
    await console.run(["/game status"])
    assert "Clock: 8 h left · bank 3 d." in console.out.getvalue()
    clock.advance(4 * 24 * HOUR)
    await console.run(["/game status"])  # the console sweeps after each line
    assert TIMED_OUT in console.out.getvalue()
