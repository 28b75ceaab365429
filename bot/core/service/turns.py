"""A player's turns across every server: the list of their games (`/turns`), and the direct
messages of a turn or a request, held back while the player's quiet hours last.

Who must act in each game is stored with every change of its log, so listing a player's games
reads the store three times whatever their number and replays none; a game stored before that
(who must act not known) is replayed once, a few per call, and remembered.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.results import Refused, Result
from bot.core.service.base import (
    acting_seats,
    seat_players,
    storage_refusal,
    store_time,
    stored_time,
)
from bot.core.service.missed import Missed
from bot.core.store import ACTIVE, OPEN, GameRecord, PendingDM, SeatRecord, StoreBusy
from bot.core.turn_list import PAGE, TurnEntry, TurnList
from bot.core.user_settings import UserSettings
from engine.errors import GameError

log = logging.getLogger(__name__)

LIVE_LOOKUPS = 8  # games of unknown turn replayed per listing; the others on later calls


@dataclass(frozen=True)
class DirectMessage:
    """A direct message to send now: `text` (the front end adds the game's link) and, for a
    turn, the player's other turns to sum up."""

    user_id: int
    game_id: int
    guild_id: int | None
    thread_id: int | None
    text: str
    others: tuple[TurnEntry, ...] = ()
    turn: bool = False  # about the user's move: the front end shows the turn's prompt with it
    missed: str | None = None  # for a turn: what the user missed since their last move


class Turns(Missed):
    async def my_turns(
        self, user_id: int, *, page: int = 1, now: datetime | None = None
    ) -> TurnList | Result:
        """Page `page` of the user's open and running games in every server, those where it
        is their turn first (longest waiting first); a `Result` says why there is no such
        page."""
        try:
            entries = await self.my_games(user_id, now or self.clock())
        except StoreBusy as exc:
            return Result(error=storage_refusal(exc, None))
        pages = max(1, -(-len(entries) // PAGE))
        if not 1 <= page <= pages:
            return Result(
                error=f"there is no page {page}: your games fill {pages} "
                f"page{'s' if pages > 1 else ''}"
            )
        return TurnList(
            tuple(entries[(page - 1) * PAGE : page * PAGE]),
            len(entries),
            sum(e.yours for e in entries),
            page,
            pages,
        )

    async def my_games(self, user_id: int, now: datetime | None = None) -> list[TurnEntry]:
        """Every open and running game the user is seated in, as `my_turns` orders them."""
        now = now or self.clock()
        games, seats, settings = await self.store.seated_games(user_id)
        unknown = [g for g in games if g.status == ACTIVE and g.acting is None]
        acting = {g.id: g.acting or () for g in games}
        for record in unknown[:LIVE_LOOKUPS]:
            acting[record.id] = await self._acting_now(record) or ()
        entries = [
            _entry(g, seats.get(g.id, []), acting[g.id], user_id, settings, now) for g in games
        ]
        return sorted(entries, key=_order)

    async def _acting_now(self, record: GameRecord) -> tuple[int, ...] | None:
        """Who must act in a game stored before that was kept, from the live game (stored for
        next time); None when it cannot be rebuilt."""
        async with self._holding(record.id):
            try:
                game = await self._live(record)
            except (Refused, GameError):
                return None
            seats = acting_seats(game, seat_players(await self._seats(record.id)))
            await self.store.set_acting(record.id, record.version, seats)
            return seats

    async def _your_other_turns(
        self, user_id: int, game_id: int, now: datetime
    ) -> tuple[TurnEntry, ...]:
        return tuple(
            e for e in await self.my_games(user_id, now) if e.yours and e.game_id != game_id
        )

    # -- direct messages -----------------------------------------------------------------------
    async def direct_messages(
        self,
        game_id: int,
        users: Sequence[int],
        *,
        request_id: int | None = None,
        asked: Sequence[int] = (),
        now: datetime | None = None,
    ) -> list[DirectMessage]:
        """The direct messages to send now to those of `users` who want them for this game:
        their move, or (`asked`) request `request_id` to answer. One in the user's quiet
        hours is held until they end (`due_messages` hands it out then)."""
        now = now or self.clock()
        record = await self.store.game(game_id)
        if record is None or not users:
            return []
        settings, chosen = await self.store.dm_choices(list(users), game_id)
        out = []
        for user in dict.fromkeys(users):
            mine = settings[user]
            if not wants_dm(mine, chosen):
                continue
            request = request_id if user in asked else None
            if mine.quiet_at(now):
                await self.store.hold_dm(user, game_id, store_time(mine.quiet_ends(now)), request)
                continue
            out.append(await self._message(record, user, request, now))
        return out

    async def _message(
        self, record: GameRecord, user_id: int, request_id: int | None, now: datetime
    ) -> DirectMessage:
        if request_id is not None:
            text = f"A request awaits your answer in game #{record.id}"
            return DirectMessage(user_id, record.id, record.guild_id, record.thread_id, text)
        text = f"Your move in game #{record.id} ({record.title})"
        others = await self._your_other_turns(user_id, record.id, now)
        return DirectMessage(
            user_id,
            record.id,
            record.guild_id,
            record.thread_id,
            text,
            others,
            turn=True,
            missed=await self.missed_text(record.id, user_id),
        )

    async def due_messages(self, now: datetime) -> tuple[list[DirectMessage], datetime | None]:
        """The held direct messages due by `now` that still wait for their user (their move,
        or a request still open), and when the next held one falls due."""
        held = await self.store.held_dms(self.shards)
        later = [stored_time(h.due_at) for h in held if stored_time(h.due_at) > now]
        names = {f"dm:{h.user_id}:{h.game_id}": h for h in held if stored_time(h.due_at) <= now}
        async with self._leased(list(names)) as got:  # of several processes, one sends each
            mine = [h for name, h in names.items() if name in got]
            still = set(await self.store.held_dms(self.shards)) if mine else set()
            return await self._send_held([h for h in mine if h in still], later, now)

    async def _send_held(
        self, due: list[PendingDM], later: list[datetime], now: datetime
    ) -> tuple[list[DirectMessage], datetime | None]:
        """The messages of these held ones that still wait (all dropped from the store)."""
        out = []
        for h in due:
            record = await self.store.game(h.game_id)
            if record is None or not await self._still_waiting(record, h.user_id, h.request_id):
                continue
            found, chosen = await self.store.dm_choices([h.user_id], h.game_id)
            settings = found[h.user_id]
            if not wants_dm(settings, chosen):  # they no longer want it
                continue
            if settings.quiet_at(now):  # their quiet hours changed meanwhile
                until = settings.quiet_ends(now)
                await self.store.hold_dm(h.user_id, h.game_id, store_time(until), h.request_id)
                later.append(until)
                continue
            out.append(await self._message(record, h.user_id, h.request_id, now))
        if due:
            await self.store.drop_dms(due)
        return out, min(later, default=None)

    async def _still_waiting(self, record: GameRecord, user_id: int, request: int | None) -> bool:
        if record.status != ACTIVE or record.paused:
            return False
        if request is not None:
            found = await self.store.request(request)
            return found is not None and found.status == "open"
        mine = [s.seat for s in await self.store.seats(record.id) if s.user_id == user_id]
        acting = record.acting if record.acting is not None else await self._acting_now(record)
        return any(seat in (acting or ()) for seat in mine)


def _entry(
    record: GameRecord,
    seats: list[SeatRecord],
    acting: tuple[int, ...],
    user_id: int,
    settings: dict[int, UserSettings],
    now: datetime,
) -> TurnEntry:
    started = record.status != OPEN
    to_act = [s for s in seats if s.seat in acting] if started else []
    return TurnEntry(
        record.id,
        record.title,
        record.guild_id,
        record.thread_id,
        yours=started and not record.paused and any(s.user_id == user_id for s in to_act),
        to_act=tuple(s.name if s.user_id > 0 else f"{s.name} (unclaimed)" for s in to_act),
        away=away_notes(to_act, settings, now),
        waited=_waited(record, now) if started else None,
        paused=record.paused,
        started=started,
        seated=len(seats),
        seat_limit=record.seat_limit,
    )


def wants_dm(settings: UserSettings, chosen: Mapping[int, bool]) -> bool:
    """The user's choice for this game (`chosen`), else for all their games."""
    return chosen.get(settings.user_id, settings.turn_dm)


def away_notes(
    seats: Iterable[SeatRecord], settings: Mapping[int, UserSettings], now: datetime
) -> tuple[str, ...]:
    """What others read of those seated who are away ("Ann is away until 3 Dec")."""
    return tuple(
        note
        for s in seats
        if s.user_id in settings and (note := settings[s.user_id].away_note(s.name, now))
    )


def _waited(record: GameRecord, now: datetime) -> timedelta | None:
    """The time since the last move; None when the stored time cannot be read."""
    try:
        return now - stored_time(record.turn_since or "")
    except (ValueError, TypeError, OverflowError):
        return None


def _order(entry: TurnEntry) -> tuple[int, float]:
    """Your turns, then games in play, paused ones, open ones; the longest waiting first."""
    if entry.yours or (entry.started and not entry.paused):
        rank = 0 if entry.yours else 1
    else:
        rank = 2 if entry.paused else 3
    return rank, -(entry.waited.total_seconds() if entry.waited is not None else 0)
