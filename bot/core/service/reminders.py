"""Reminders of an idle turn, respecting the people reminded.

A running game idle for its period is reminded in its thread, pinging whoever must act; one
period later (and each period after) those who allow it get a direct message instead, the
others a ping again. At most one reminder per game per period (its time is stored, so a
restart neither repeats nor forgets one); none while the game is paused; none to a player
who is away (a game whose players to act are all away waits until the first is back); and one
that falls due inside the quiet hours of someone it reminds waits until those end. The time is
the caller's (`now`): the service never reads a clock for this.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.config import MAX_REMIND_HOURS, valid_remind_hours
from bot.core.service.base import store_time, stored_time
from bot.core.service.turns import DirectMessage, Turns, away_notes
from bot.core.store import GameRecord, ReminderClock, SeatRecord
from bot.core.turn_list import duration_label
from bot.core.user_settings import UserSettings, first_free

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reminder:
    """One game's reminder: a thread post (`text`, pinging `ping`) unless everyone it reminds
    takes it by direct message (`in_thread` False), and those messages."""

    game_id: int
    thread_id: int | None
    text: str
    ping: tuple[int, ...] = ()
    in_thread: bool = True
    messages: tuple[DirectMessage, ...] = ()


@dataclass(frozen=True)
class Sweep:
    """What is due now (reminders, held direct messages) and when to look again."""

    reminders: tuple[Reminder, ...]
    messages: tuple[DirectMessage, ...]
    next_due: datetime | None


class Reminders(Turns):
    async def sweep(self, now: datetime) -> Sweep:
        """Every reminder and held direct message due at `now` (stored as sent), and when the
        next one falls due (None: nothing waits)."""
        later: list[datetime] = []
        clocks = {c.id: c for c in await self.store.reminder_clocks(self.shards)}
        due_ids: list[int] = []
        for clock in clocks.values():
            at = self._due_at(clock)
            if at is not None and at <= now:
                due_ids.append(clock.id)
            elif at is not None:
                later.append(at)
        names = {f"remind:{g}": g for g in due_ids}
        async with self._leased(list(names)) as got:  # of several processes, one reminds
            mine = [g for name, g in names.items() if name in got]
            due = []
            for record in await self.store.games_by_id(mine) if mine else []:
                if record.reminded_at == clocks[record.id].reminded_at:
                    due.append(record)
                else:  # another process reminded it between the two reads
                    again = self._due_at(
                        ReminderClock(
                            record.id, record.remind_hours, record.turn_since, record.reminded_at
                        )
                    )
                    later += [again] if again is not None else []
            seats, settings = await self.store.seats_and_settings(mine) if due else ({}, {})
            reminders = []
            for record in due:
                reminder, wait = await self._remind(record, seats.get(record.id, []), settings, now)
                if reminder is not None:
                    reminders.append(reminder)
                if wait is not None:
                    later.append(wait)
            if reminders:
                await self.store.mark_reminded([r.game_id for r in reminders], store_time(now))
        messages, held = await self.due_messages(now)
        if held is not None:
            later.append(held)
        return Sweep(tuple(reminders), tuple(messages), min(later, default=None))

    async def _remind(
        self,
        record: GameRecord,
        seats: list[SeatRecord],
        settings: dict[int, UserSettings],
        now: datetime,
    ) -> tuple[Reminder | None, datetime | None]:
        """The game's reminder now, or when to try again (those it reminds are away, or in
        their quiet hours); after a reminder, when the next one falls due."""
        acting = record.acting if record.acting is not None else await self._acting_now(record)
        if acting is None:  # the game cannot be rebuilt: logged there; try again next period
            return None, None
        to_act = [s for s in seats if s.seat in acting]
        users = [settings[s.user_id] for s in to_act if s.user_id > 0]
        present = [u for u in users if not u.away_at(now)]
        if users and not present:  # everyone to remind is away: the first back is reminded
            return None, min(u.back_at() or now for u in users)
        free = first_free(present, now)
        if free is None:  # their quiet hours overlap all day: the first awake is reminded
            free = min((u.quiet_ends(now) for u in present), default=now)
        if free > now:
            return None, free
        awake = [u.user_id for u in present if not u.quiet_at(now)]
        again = record.reminded_at is not None
        by_dm = [u.user_id for u in present if again and u.reminder_dm and u.user_id in awake]
        ping = tuple(u for u in awake if u not in by_dm)
        idle = duration_label(now - stored_time(record.turn_since or ""))
        names = ", ".join(s.name for s in to_act) or "nobody"
        text = f"Reminder: game #{record.id} has waited {idle} for {names}."
        text += "".join(f" ({note}.)" for note in away_notes(to_act, settings, now))
        messages = tuple(
            DirectMessage(
                user,
                record.id,
                record.guild_id,
                record.thread_id,
                f"Reminder: game #{record.id} ({record.title}) has waited {idle} for your move",
                turn=True,
            )
            for user in by_dm
        )
        after = self._remind_after(record.id, record.remind_hours)
        in_thread = bool(ping) or not by_dm
        reminder = Reminder(record.id, record.thread_id, text, ping, in_thread, messages)
        return reminder, now + after if after is not None else None

    def _remind_after(self, game_id: int, stored: float | None) -> timedelta | None:
        """The game's reminder period; a stored value out of range (written by an older
        version or by hand) counts as the longest period, never as an error."""
        hours = self.remind_hours if stored is None else stored
        if not valid_remind_hours(hours):
            log.warning("game %s has reminder hours %r; using %g", game_id, hours, MAX_REMIND_HOURS)
            hours = MAX_REMIND_HOURS
        return timedelta(hours=hours) if hours > 0 else None

    def _due_at(self, clock: ReminderClock) -> datetime | None:
        """When the game's next reminder falls due (None: none); a stored time that cannot
        be read skips the game, so one bad row cannot stop the reminders of all games."""
        after = self._remind_after(clock.id, clock.remind_hours)
        if after is None or not clock.turn_since:
            return None
        try:
            stored_time(clock.turn_since)
            return stored_time(clock.reminded_at or clock.turn_since) + after
        except (ValueError, TypeError, OverflowError) as exc:
            log.warning("game %s has an unreadable reminder time: %s", clock.id, exc)
            return None
