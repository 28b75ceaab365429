"""Game clocks: the time each turn may take, kept by the service with its own clock (the
engine never reads one).

After every change (`_clock_after`) the turn under way is found from the game (the first player
who must act, the company they act for and the round: each company operated, each stock-round
turn and each auction decision is its own turn). A new turn closes the last one (a bank is
charged for the time past its increment; vacation spent is kept) and starts counting now; a
pause stops the clock (the time it would have counted is credited on resume) and so does the
bot's downtime (`clock_sweep` credits a gap in its heartbeat). The deadline is stored, so the
sweep finds those due by an indexed query. At a deadline the computer makes the turn's moves
(or passes where it may, else the computer), each stored as any move and told "(time ran out)";
or the creator and admins are told once and decide. A lease and the store's version check make
each timeout happen once, whichever process sweeps.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypeVar

from bot.computer.levels import Computer, best_level
from bot.core.clocks import ClockSpec, counted, deadline, nudge_times, parse_clock, span
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import player_of, store_time, stored_time
from bot.core.service.computers import ComputerSeats
from bot.core.service.reminders import Reminder
from bot.core.service.turns import Turns
from bot.core.store import ACTIVE, ClockRecord, GameRecord, SeatRecord
from bot.core.turn_list import TurnEntry
from bot.core.user_settings import UserSettings
from engine.game import Game

log = logging.getLogger(__name__)
T = TypeVar("T")

TIMED_OUT = " (time ran out)"  # ends the line of each move made at a deadline
TIMEOUT_MOVES = 40  # at most this many moves finish one timed-out turn (an operating turn)
BEAT_KEY = "clock_heartbeat"  # bot_state: when this process's clock sweep last ran
DAY = 86400.0
RETRY_SECONDS = 600.0  # a timeout that failed is tried again this much later


@dataclass(frozen=True)
class ClockSweep:
    """What the deadlines due made happen (to post like any change) and the next deadline;
    the nudges due and the next nudge's time."""

    results: tuple[Result, ...]
    next_due: datetime | None
    nudges: tuple[Reminder, ...] = ()  # before a deadline (see `nudges`)
    next_nudge: datetime | None = None


class Clocks(ComputerSeats, Turns):
    async def clock_sweep(self, now: datetime, period: timedelta | None = None) -> ClockSweep:
        """Handle every deadline due at `now`. `period`: the longest wait between two sweeps;
        a longer gap since the last one is the bot's downtime, credited to every running
        clock (None: never, as in the console, whose clocks run while it is closed)."""
        if period is not None:
            await self._credit_downtime(now, period)
        due = await self.store.due_clocks(self.shards, store_time(now))
        results = await self._each_leased(
            "clock", due, lambda g: self._time_out(g, now), self.store.delay_deadline, now
        )
        later = await self.store.next_deadline(self.shards)
        return ClockSweep(tuple(results), None if later is None else stored_time(later))

    async def _each_leased(
        self,
        kind: str,
        due: list[ClockRecord],
        handle: Callable[[int], Awaitable[T | None]],
        delay: Callable[[int, str], Awaitable[None]],
        now: datetime,
    ) -> list[T]:
        """`handle` of each game due whose lease (`kind:game`) this process got, so that of
        several processes sweeping one handles it; what it answered. One game's failure is
        logged, does not stop the others', and is tried again RETRY_SECONDS later (`delay`
        moves its time: a time past stays due, and the sweep would loop on it)."""
        names = {f"{kind}:{c.game_id}": c.game_id for c in due}
        out: list[T] = []
        async with self._leased(list(names)) as got:
            for name, game_id in names.items():
                if name not in got:
                    continue
                try:
                    answer = await handle(game_id)
                except Exception:
                    log.exception("the %s sweep of game %s failed", kind, game_id)
                    await delay(game_id, store_time(now + timedelta(seconds=RETRY_SECONDS)))
                    continue
                if answer is not None:
                    out.append(answer)
        return out

    async def extend_clock(
        self, game_id: int, caller: Caller, hours: float, interaction_id: int | None = None
    ) -> Result:
        """Give the turn under way `hours` more (a game admin's answer to a deadline)."""

        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "extend its clock")
            clock = await self.store.game_clock(record.id)
            if clock is None or clock.turn is None or record.status != ACTIVE:
                raise Refused(f"game #{record.id} has no clock running")
            if not 0 < hours <= 24 * 30:
                raise Refused("extend by more than 0 and at most 720 hours")
            clock = replace(clock, credit=clock.credit + hours * 3600, timed_out=None)
            clock = await self._with_deadline(record, clock)
            await self.store.save_clock(clock)
            seat = await self._clock_seat(record, clock)
            text = (
                f"{caller.name} gave {seat.name if seat else 'the turn'} {span(hours * 3600)} more"
            )
            return Result(
                text=f"{text}: {await self.clock_left(record)}.",
                game_id=record.id,
                thread_id=record.thread_id,
                changed=True,
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def clock_left(self, record: GameRecord) -> str:
        """The time left in the turn under way ("14 h left · bank 2 d 6 h"), or the clock in
        words before the start; "" for a game without a clock or none running."""
        clock = await self.store.game_clock(record.id)
        spec = parse_clock(clock.spec) if clock else None
        if clock is None or spec is None:
            return ""
        if clock.turn is None or clock.started_at is None or clock.seat is None:
            return spec.label() if record.status != ACTIVE else ""
        if clock.timed_out == clock.turn:
            return "time ran out: the game's admins decide"
        user = await self._clock_user(record, clock)
        return left_text(spec, clock, user, self.clock())

    async def my_games(self, user_id: int, now: datetime | None = None) -> list[TurnEntry]:
        """The user's games (see `Turns`), each with its clock; their turns soonest
        deadline first."""
        now = now or self.clock()
        entries = await super().my_games(user_id, now)
        clocks = await self.store.game_clocks([e.game_id for e in entries if e.yours])
        settings = (await self.store.user_settings([user_id]))[user_id]
        timed = []
        for entry in entries:
            clock = clocks.get(entry.game_id)
            spec = parse_clock(clock.spec) if clock else None
            if clock is None or spec is None or clock.turn is None or clock.timed_out:
                timed.append(entry)
                continue
            due = stored_time(clock.deadline_at) if clock.deadline_at else None
            timed.append(replace(entry, clock=left_text(spec, clock, settings, now), deadline=due))
        return sorted(timed, key=lambda e: (not e.yours, e.deadline is None, e.deadline or now))

    # -- a player's time rules changed ---------------------------------------------------------
    async def _settings_changed(self, user_id: int, before: UserSettings) -> None:
        """A change of the user's zone, quiet hours or absence counts from now on: each turn
        they must play keeps what it counted so far under the old rules (`before`), and its
        deadline and next nudge move with the new ones."""
        for found in await self.store.clocks_of(user_id):
            await self._rebase(found.game_id, user_id, before)

    async def _rebase(self, game_id: int, user_id: int, before: UserSettings) -> None:
        """The turn under way restarted now (or at its pause), with what it counted so far
        under the player's old rules carried as a negative credit."""
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            clock = await self.store.game_clock(game_id)
            if record is None or clock is None or clock.started_at is None or clock.seat is None:
                return
            seat = await self._clock_seat(record, clock)
            if seat is None or seat.user_id != user_id:
                return
            end = stored_time(clock.paused_at) if clock.paused_at else self.clock()
            left = _vacation_left(spec_of(clock), clock)
            walk = counted(before, stored_time(clock.started_at), end, left)
            vacation = {
                **clock.vacation,
                clock.seat: clock.vacation.get(clock.seat, 0.0) + walk.away,
            }
            clock = replace(
                clock,
                started_at=store_time(end),
                credit=clock.credit - walk.counted,
                vacation=vacation,
            )
            await self.store.save_clock(await self._with_deadline(record, clock))

    # -- after each change -------------------------------------------------------------------
    async def _clock_after(self, record: GameRecord, game: Game | None) -> None:
        clock = await self.store.game_clock(record.id)
        if clock is None:
            return
        record = await self._fresh(record)
        if game is None and record.status == ACTIVE and not record.abandoned:
            game = await self._live(record)
        updated = await self._clocked(record, game, clock)
        if updated != clock:
            await self.store.save_clock(updated)

    async def _clocked(
        self, record: GameRecord, game: Game | None, clock: ClockRecord
    ) -> ClockRecord:
        """The clock after a change: the same turn goes on (paused or resumed), or the last
        turn is closed and the new one starts now."""
        now = self.clock()
        running = game is not None and record.status == ACTIVE and not record.abandoned
        turn = _turn_of(game, await self._seats(record.id)) if running and game else None
        key, seat = turn if turn is not None else (None, None)
        if key is None or key != clock.turn:
            clock = await self._close_turn(record, clock, now)
            clock = replace(clock, turn=key, seat=seat, started_at=store_time(now), credit=0.0)
            clock = replace(clock, paused_at=None, timed_out=None, nudged=0)
        if record.paused and clock.paused_at is None:
            return replace(clock, paused_at=store_time(now), deadline_at=None)
        if not record.paused and clock.paused_at is not None:
            user = await self._clock_user(record, clock)
            spec = spec_of(clock)
            stopped = counted(user, stored_time(clock.paused_at), now, _vacation_left(spec, clock))
            clock = replace(clock, paused_at=None, credit=clock.credit + stopped.counted)
        return await self._with_deadline(record, clock)

    async def _close_turn(
        self, record: GameRecord, clock: ClockRecord, now: datetime
    ) -> ClockRecord:
        """The clock once the turn under way ends at `now`: its seat's bank charged for the
        time past the increment, the vacation it spent kept."""
        if clock.seat is None or clock.started_at is None:
            return clock
        spec = spec_of(clock)
        user = await self._clock_user(record, clock)
        end = stored_time(clock.paused_at) if clock.paused_at else now
        walk = counted(user, stored_time(clock.started_at), end, _vacation_left(spec, clock))
        used = max(walk.counted - clock.credit, 0.0)
        banks, vacation = dict(clock.banks), dict(clock.vacation)
        if spec.bank is not None:
            left = banks.get(clock.seat, spec.bank) - max(used - spec.turn, 0.0)
            banks[clock.seat] = max(left, 0.0)
        vacation[clock.seat] = vacation.get(clock.seat, 0.0) + walk.away
        return replace(clock, banks=banks, vacation=vacation, turn=None, seat=None)

    async def _with_deadline(self, record: GameRecord, clock: ClockRecord) -> ClockRecord:
        """The clock with the deadline of its turn and its next nudge (None while none runs,
        or paused)."""
        if clock.seat is None or clock.started_at is None or clock.paused_at is not None:
            return replace(clock, deadline_at=None, nudge_at=None)
        if clock.timed_out == clock.turn:  # the admins were told: they decide
            return replace(clock, deadline_at=None, nudge_at=None)
        user = await self._clock_user(record, clock)
        walk = deadline(user, stored_time(clock.started_at), *_budget(clock))
        nudges = turn_nudges(user, clock)[clock.nudged :] if user is not None else []
        nudge = store_time(nudges[0]) if nudges else None
        return replace(clock, deadline_at=store_time(walk.end), nudge_at=nudge)

    async def _clock_seat(self, record: GameRecord, clock: ClockRecord) -> SeatRecord | None:
        return next((s for s in await self._seats(record.id) if s.seat == clock.seat), None)

    async def _clock_user(self, record: GameRecord, clock: ClockRecord) -> UserSettings | None:
        """The settings of the player whose clock runs (None: a seat nobody holds)."""
        seat = await self._clock_seat(record, clock)
        if seat is None or seat.user_id <= 0:
            return None
        return (await self.store.user_settings([seat.user_id]))[seat.user_id]

    # -- the sweep ---------------------------------------------------------------------------
    async def _running(self, game_id: int) -> tuple[GameRecord, ClockRecord] | None:
        """The game and its clock as stored, if its clock runs (None: no deadline now)."""
        record = await self.store.game(game_id)
        clock = await self.store.game_clock(game_id)
        if record is None or clock is None or clock.deadline_at is None:
            return None
        if record.status != ACTIVE or record.paused or record.abandoned:
            return None
        return record, clock

    async def _time_out(self, game_id: int, now: datetime) -> Result | None:
        """The turn whose deadline is due, finished for its player (or the admins told);
        None when the game moved on meanwhile or the deadline moved later."""
        async with self._holding(game_id):
            if (running := await self._running(game_id)) is None:
                return None
            record, clock = running
            again = await self._with_deadline(record, clock)  # their settings may have changed
            if again.deadline_at is None or stored_time(again.deadline_at) > now:
                await self.store.save_clock(again)
                return None
            game = await self._live(record)
            seat = await self._clock_seat(record, clock)
            if seat is None or _turn_of(game, await self._seats(game_id)) != (
                clock.turn,
                seat.seat,
            ):
                await self._clock_after(record, game)  # the turn moved on: start the new one
                return None
            if spec_of(clock).timeout == "ask":
                await self.store.save_clock(replace(clock, timed_out=clock.turn, deadline_at=None))
                return Result(
                    text=f"Time ran out for {seat.name} in game #{record.id}. Its creator or an "
                    "admin decides: /game-admin replace, /game-admin computer, or /game-admin "
                    "extend.",
                    game_id=record.id,
                    thread_id=record.thread_id,
                    notify=(record.creator_id,),
                    changed=True,
                )
            lines = await self._timed_out_moves(record, game, clock, seat)
            if not lines:  # nothing legal to make: left to the admins, not swept again
                await self.store.save_clock(replace(clock, timed_out=clock.turn, deadline_at=None))
                return None
            fresh = await self._fresh(record)
            return await self._changed(fresh, "\n".join(lines), game)

    async def _timed_out_moves(
        self, record: GameRecord, game: Game, clock: ClockRecord, seat: SeatRecord
    ) -> list[str]:
        """The moves that finish the timed-out turn: a pass where one is legal (with
        `timeout:pass`), else the computer's; each stored and told like any move."""
        player = player_of(seat)
        level = best_level(record.title)
        computer = Computer(level, player, seed=record.id)
        passing = spec_of(clock).timeout == "pass"
        lines: list[str] = []
        while len(lines) < TIMEOUT_MOVES:
            if _turn_of(game, await self._seats(record.id)) != (clock.turn, seat.seat):
                break
            choices = await self._legal(record, game, player)
            if not choices:
                break
            passes = [c.action for c in choices if passing and c.action.get("type") == "pass"]
            action = passes[0] if passes else await asyncio.to_thread(computer, game, choices)
            stored = await self._store_move(
                record, game, seat.user_id, action, by=player, computer=None if passes else level
            )
            lines.append(stored.text + TIMED_OUT)
            record = replace(record, version=record.version + 1)
        return lines

    async def _credit_downtime(self, now: datetime, period: timedelta) -> None:
        """Credit every running clock with the time since the last sweep, when that gap is
        longer than twice the sweep's period (the bot was down); store this sweep's time."""
        key = (
            BEAT_KEY if self.shards is None else f"{BEAT_KEY}:{self.shards.count}:{self.shards.ids}"
        )
        async with self._leased([key]) as got:
            if key not in got:
                return
            last = await self.store.bot_value(key)
            await self.store.set_bot_value(key, store_time(now))
            if last is None or now - stored_time(last) <= period * 2:
                return
            for clock in await self.store.due_clocks(self.shards, None):
                await self._credit(clock.game_id, stored_time(last), now)

    async def _credit(self, game_id: int, since: datetime, now: datetime) -> None:
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            clock = await self.store.game_clock(game_id)
            if record is None or clock is None or clock.started_at is None:
                return
            since = max(since, stored_time(clock.started_at))
            user = await self._clock_user(record, clock)
            down = counted(user, since, now, _vacation_left(spec_of(clock), clock)).counted
            clock = replace(clock, credit=clock.credit + down)
            await self.store.save_clock(await self._with_deadline(record, clock))


def left_text(spec: ClockSpec, clock: ClockRecord, user: UserSettings | None, now: datetime) -> str:
    """The time left in the turn under way ("14 h left · bank 2 d 6 h")."""
    assert clock.started_at is not None and clock.seat is not None
    end = stored_time(clock.paused_at) if clock.paused_at else now
    walk = counted(user, stored_time(clock.started_at), end, _vacation_left(spec, clock))
    used = walk.counted - clock.credit  # below zero: credited past the turn's start
    paused = " (paused)" if clock.paused_at else ""
    if spec.bank is None:
        return f"{span(spec.turn - used)} left{paused}"
    bank = clock.banks.get(clock.seat, spec.bank) - max(used - spec.turn, 0.0)
    if used < spec.turn:
        return f"{span(spec.turn - used)} left · bank {span(bank)}{paused}"
    return f"bank {span(bank)} left{paused}"


def _turn_of(game: Game | None, seats: list[SeatRecord]) -> tuple[str, int] | None:
    """The turn under way (its key, and the seat whose clock runs): None when nobody's clock
    runs (the game is over, or the computer plays the seat that must act)."""
    if game is None or game.finished or not (active := game.active_players()):
        return None
    seat = next((s for s in seats if s.player_id == active[0]), None)
    if seat is None or seat.computer:
        return None
    acting_for = next((i.acting_for for i in game.turn_info() if i.player == active[0]), None)
    return json.dumps([seat.seat, acting_for, game.round_name()]), seat.seat


def _budget(clock: ClockRecord) -> tuple[float, float]:
    """The seconds of the player's time the turn under way may take (credit and bank
    included), and the vacation seconds they have left."""
    spec = spec_of(clock)
    budget = spec.turn + clock.credit
    if spec.bank is not None and clock.seat is not None:
        budget += clock.banks.get(clock.seat, spec.bank)
    return budget, _vacation_left(spec, clock)


def turn_nudges(user: UserSettings | None, clock: ClockRecord) -> list[datetime]:
    """When each nudge of the turn under way falls due (see `bot.core.clocks.NUDGES`)."""
    assert clock.started_at is not None
    return nudge_times(user, stored_time(clock.started_at), *_budget(clock))


def spec_of(clock: ClockRecord) -> ClockSpec:
    spec = parse_clock(clock.spec)
    assert spec is not None, f"game {clock.game_id} stored the clock {clock.spec!r}"
    return spec


def _vacation_left(spec: ClockSpec, clock: ClockRecord) -> float:
    return spec.vacation_days * DAY - clock.vacation.get(clock.seat or 0, 0.0)
