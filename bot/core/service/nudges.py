"""Nudges before a clocked turn's deadline, so that a player is warned before the computer (or
a pass, or the admins) takes their turn.

At each of `bot.core.clocks.NUDGES` (fractions of the turn's time left, counted on the
player's own time) the player to act is nudged: the first time in the game's thread, the
next ones by direct message if they take turn DMs (`/settings turn-dm`), else in the thread
again. None goes in their quiet hours or while they are away: it waits until they are back
if that is still before the deadline, else it is skipped. A seat the computer plays has no
clock, so no nudge. The next nudge's time is stored with the clock (found by an indexed query)
and the nudges handled are counted per turn, written under a lease and only if nobody wrote
them meanwhile, so a restart or two processes sweeping never repeat one. A change of a
player's quiet hours, time zone or absence moves the deadlines of the turns they must play
at once (`Clocks._settings_changed`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.core.service.base import store_time, stored_time
from bot.core.service.clocks import Clocks, ClockSweep, left_text, spec_of, turn_nudges
from bot.core.service.reminders import Reminder
from bot.core.service.turns import DirectMessage, wants_dm


class Nudges(Clocks):
    async def clock_sweep(self, now: datetime, period: timedelta | None = None) -> ClockSweep:
        """The deadlines due (see `Clocks`), then the nudges due at `now`."""
        swept = await super().clock_sweep(now, period)
        due = await self.store.due_nudges(self.shards, store_time(now))
        nudges = await self._each_leased(
            "nudge", due, lambda g: self._nudge(g, now), self.store.delay_nudge, now
        )
        upcoming = await self.store.due_nudges(self.shards, None, limit=1)
        later = next((stored_time(c.nudge_at) for c in upcoming if c.nudge_at), None)
        return replace(swept, nudges=tuple(nudges), next_nudge=later)

    async def _nudge(self, game_id: int, now: datetime) -> Reminder | None:
        """The nudge of the game's turn due at `now` (the latest of those passed), or None
        when none goes now: the player cannot be reached yet (held), another process sent it,
        or the turn moved on."""
        async with self._holding(game_id):
            if (running := await self._running(game_id)) is None:
                return None
            record, clock = running
            if clock.nudge_at is None or clock.deadline_at is None:
                return None
            seat = await self._clock_seat(record, clock)
            user = await self._clock_user(record, clock)
            if seat is None or user is None:  # nobody to nudge
                await self.store.mark_nudged(clock, clock.nudged, None)
                return None
            times = turn_nudges(user, clock)
            passed = [i for i, at in enumerate(times) if i >= clock.nudged and at <= now]
            if not passed:  # the nudge moved later (their settings changed): wait for it
                await self.store.save_clock(await self._with_deadline(record, clock))
                return None
            stage = passed[-1]
            after = [store_time(at) for at in times[stage + 1 :]]
            free = user.reachable(now)
            if free > now:  # in quiet hours or away: held, or skipped if too late
                if free < stored_time(clock.deadline_at):
                    await self.store.mark_nudged(clock, clock.nudged, store_time(free))
                else:
                    await self.store.mark_nudged(clock, stage + 1, after[0] if after else None)
                return None
            if not await self.store.mark_nudged(clock, stage + 1, after[0] if after else None):
                return None  # another process handled it
            left = left_text(spec_of(clock), clock, user, now)
            then = spec_of(clock).at_deadline()
            if stage > 0:
                found, chosen = await self.store.dm_choices([user.user_id], game_id)
                if wants_dm(found[user.user_id], chosen):
                    text = (
                        f"Clock: {left} for your move in game #{game_id} ({record.title}), "
                        f"then {then}"
                    )
                    dm = DirectMessage(
                        user.user_id, game_id, record.guild_id, record.thread_id, text, turn=True
                    )
                    return Reminder(game_id, record.thread_id, "", in_thread=False, messages=(dm,))
            text = f"Clock: {left} for {seat.name}'s move in game #{game_id}, then {then}."
            return Reminder(game_id, record.thread_id, text, ping=(user.user_id,))
