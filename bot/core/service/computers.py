"""Seats the computer plays: opened for it (`create_game(computers=...)`), handed to it by a
game admin, or left to it by a player while away (`computer_seat`). Who holds the seat and
what its player owns stay as they are; only who decides its moves changes.

A computer seat never holds the game up and is never pinged: its move is made by the service
as soon as it is due, stored and told like any move. Right after each stored change a few of
them are made in the same call (`MOVES_PER_CALL`, `SECONDS_PER_CALL`: a game of computers is
never played to its end inside one command); a game with more due is listed by
`due_computer_games` (and `computers_waiting` is set) for a front end's worker to finish with
`play_computers` (a game whose computer move failed is listed too, for the worker's next
round, without waking it). Never in a paused, abandoned or finished game, nor once the front
end closes (`hold_computers`: the move under way is finished, none other starts). The
computer chooses from the engine's legal moves and sees the game as any seated player does
(`bot.computer`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace

from bot.computer.levels import Computer, best_level, check_level, ever_volunteers
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import ComputerTurns, player_of
from bot.core.service.playing import Playing
from bot.core.store import ACTIVE, OPEN, GameRecord, SeatRecord
from engine.game import Action, Choice, Game

log = logging.getLogger(__name__)

MOVES_PER_CALL = 8  # computer moves made inside one command, after the change it stored
SECONDS_PER_CALL = 2.0  # ... and no more once this much time went on them
MARK = " (computer)"  # ends the line of each move the computer made


@dataclass(frozen=True)
class _Mover:
    seat: SeatRecord
    computer: Computer
    choices: list[Choice]


class ComputerSeats(Playing):
    async def computer_seat(
        self,
        game_id: int,
        caller: Caller,
        seat: int | None,
        on: bool,
        level: str | None = None,
        interaction_id: int | None = None,
    ) -> Result:
        """Let the computer play a seat (`on`; at `level`, by default the title's best) or its
        holder play it again. `seat` None is the caller's own seat (away until they come
        back); any other seat is a game admin's to hand over."""

        async def body(record: GameRecord) -> Result:
            if record.status == OPEN:
                raise Refused(
                    f"game #{record.id} has not started; computer seats of a new game are "
                    "opened with /game new ... computers:N"
                )
            if record.status != ACTIVE or record.abandoned:
                raise Refused(f"game #{record.id} is over")
            seats = await self._seats(record.id)
            target = _target(seats, caller, seat, record.id)
            own = target.user_id == caller.user_id
            if not own:
                self._require_admin(record, caller, "hand another player's seat to the computer")
            chosen = checked_level(record.title, level) if on else None
            if target.computer == chosen or (not on and target.computer is None):
                state = f"the computer ({chosen})" if chosen else "its holder"
                raise Refused(f"seat {target.seat} ({target.name}) is already played by {state}")
            await self.store.set_computer(record.id, target.seat, chosen, interaction_id)
            self._seats_changed(record.id)
            text = _handed_text(caller, target, chosen, own)
            fresh = await self._fresh(record)
            return await self._changed(fresh, text, await self._live(fresh))

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def due_computer_games(self, *, stored: bool = False) -> list[int]:
        """The games whose computer seats still have moves due, taken off the list (`stored`:
        also every stored game in play with a computer seat in the servers this process
        serves, as after a restart)."""
        if stored:
            self._computers_due.update(await self.store.games_with_computers(self.shards))
        self.computers_waiting.clear()
        due = sorted(self._computers_due)
        self._computers_due.clear()
        return due

    def hold_computers(self) -> None:
        """Start no computer move from now on (the front end is closing): one under way is
        finished, those due stay in the store for the next process (`due_computer_games(
        stored=True)`). The worker is woken to see it."""
        self.computers_held = True
        self.computers_waiting.set()

    async def play_computers(self, game_id: int) -> Result | None:
        """The computer seats' moves due in the game (a bounded number; the game is listed as
        due again when more remain), as a change to post; None when none was made."""
        if self.computers_held:
            return None
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            if record is None or not _running(record):
                return None
            game = await self._live(record)
            changed = await self._changed(record, "", game)
        if changed.version in (None, record.version):
            return None
        return replace(changed, only_computers=True)

    async def _computer_turns(self, record: GameRecord, game: Game) -> ComputerTurns:
        """Make the computer seats' moves due after a change (at most `MOVES_PER_CALL`, within
        `SECONDS_PER_CALL`), each stored and told; the lines, the map places they changed and
        the moves. A failure stops them (logged; the worker tries again) but never undoes the
        change."""
        if game.finished or not any(s.computer for s in await self._seats(record.id)):
            return "", (), ()
        record = await self._fresh(record)  # the version now, and whether it is paused
        lines: list[str] = []
        places: list[str] = []
        moves: list[Action] = []
        deadline = time.monotonic() + SECONDS_PER_CALL
        try:
            while (mover := await self._computer_mover(record, game)) is not None:
                if self.computers_held:  # left due for the next process (`stored`)
                    self._computers_due.add(record.id)
                    break
                if len(lines) >= MOVES_PER_CALL or time.monotonic() > deadline:
                    self._computers_due.add(record.id)
                    self.computers_waiting.set()
                    break
                action = await asyncio.to_thread(mover.computer, game, mover.choices)
                seat = mover.seat
                stored = await self._store_move(
                    record, game, seat.user_id, action, by=player_of(seat), computer=seat.computer
                )
                lines.append(stored.text + MARK)
                moves.append(stored.action)
                places += [p for p in game.changed_places() if p not in places]
                record = replace(record, version=record.version + 1)
        except Exception:  # the change before them stands; the worker's next round retries
            log.exception("a computer move in game %s failed", record.id)
            self._forget(record.id)
            self._computers_due.add(record.id)  # not woken for it: no retry in a tight loop
        return "\n".join(lines), tuple(places), tuple(moves)

    async def _computer_mover(self, record: GameRecord, game: Game) -> _Mover | None:
        """The computer seat to move now: the one the game waits for, else one that makes an
        optional move out of turn (String Railway's rerolls); None when a person must act."""
        if game.finished or not _running(record):
            return None
        seats = {s.player_id: s for s in await self._seats(record.id) if s.computer}
        active = game.active_players()
        for n, player in enumerate(active):
            seat = seats.get(player)
            if seat is None or seat.computer is None:
                continue
            computer = Computer(seat.computer, player, seed=record.id)
            if n and not ever_volunteers(record.title, seat.computer):
                continue
            choices = await self._legal(record, game, player)
            if not choices:
                continue
            if n == 0 or await asyncio.to_thread(computer.volunteers, game, choices):
                return _Mover(seat, computer, choices)
        return None


def played_by_computer(seats: list[SeatRecord]) -> str:
    """The line telling which seats the computer plays (empty when none)."""
    played = [f"{s.name} ({s.computer})" for s in seats if s.computer]
    return f"Played by the computer: {', '.join(played)}." if played else ""


def checked_level(title: str, level: str | None) -> str:
    """The level named (refused when the title has no such level), else the title's best."""
    if level is None:
        return best_level(title)
    try:
        check_level(title, level)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    return level


def _running(record: GameRecord) -> bool:
    return record.status == ACTIVE and not record.paused and not record.abandoned


def _target(seats: list[SeatRecord], caller: Caller, seat: int | None, game_id: int) -> SeatRecord:
    if seat is None:
        mine = next((s for s in seats if s.user_id == caller.user_id), None)
        if mine is None:
            raise Refused(f"you are not seated in game #{game_id}; a game admin names a seat")
        return mine
    found = next((s for s in seats if s.seat == seat), None)
    if found is None:
        raise Refused(f"game #{game_id} has seats 1 to {len(seats)}, not {seat}")
    return found


def _handed_text(caller: Caller, seat: SeatRecord, level: str | None, own: bool) -> str:
    if own and level:
        return (
            f"{seat.name} is away: the computer ({level}) plays their seat until they come "
            "back (/play back). They are not pinged meanwhile."
        )
    if own:
        return f"{seat.name} is back and plays their seat again."
    if level:
        return (
            f"{caller.name} handed seat {seat.seat} ({seat.name}) to the computer ({level}); "
            "the seat keeps everything it owns and is not pinged while the computer plays it."
        )
    holder = (
        "its holder" if seat.user_id > 0 else "nobody (an admin offers it: /game-admin replace)"
    )
    return (
        f"{caller.name} took seat {seat.seat} ({seat.name}) back from the computer; "
        f"{holder} plays it now."
    )
