"""Commands that make and manage tables: creating, seating, starting, pausing, abandoning,
replacing players, reminders' period, and game files in and out.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.core.clocks import ClockSpec
from bot.core.config import REMIND_RANGE, valid_remind_hours
from bot.core.names import plain_name
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import (
    ALREADY_HANDLED,
    ServiceBase,
    acting_seats,
    random_seed,
    seat_of,
    storage_refusal,
)
from bot.core.service.computers import checked_level, played_by_computer
from bot.core.service.seating import Seating
from bot.core.store import (
    ACTIVE,
    FINISHED,
    OPEN,
    SEAT,
    DuplicateInteraction,
    GameRecord,
    OverCap,
    StaleGame,
    StoreBusy,
    unclaimed,
)
from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Action, PlayerId, PlayerInfo
from engine.titles import create_game, find_title

# Moves an imported file may replay: past the longest games (about 1,400 moves) with room to
# spare, and a replay of this many stays well under a second of CPU.
MAX_IMPORT_MOVES = 2_000


class Tables(Seating):
    # -- creating and seating ------------------------------------------------------------------
    async def check_new_game(
        self,
        caller: Caller,
        title: str,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        computers: int = 0,
        level: str | None = None,
    ) -> Result:
        """Validate a new game without creating it (Discord makes the thread in between)."""
        try:
            cls, seat_limit = self._new_game_shape(title, seats, options)
            level = _check_computers(cls.title, computers, level, seat_limit)
            await self._require_room(caller)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except StoreBusy as exc:
            return Result(error=storage_refusal(exc, None))
        return Result()

    async def create_game(
        self,
        caller: Caller,
        title: str,
        *,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        interaction_id: int | None = None,
        computers: int = 0,
        level: str | None = None,
        clock: ClockSpec | None = None,
    ) -> Result:
        """Open a table with `seats` places (default: the title's maximum); the creator sits
        at seat 1, and `computers` seats after it are played by the computer at `level`;
        `clock`: the time its turns may take (see `clocks`)."""
        if interaction_id is not None and await self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        try:
            cls, seat_limit = self._new_game_shape(title, seats, options)
            level = _check_computers(cls.title, computers, level, seat_limit)
            record = await self.store.create_game(
                title=cls.title,
                options=dict(options or {}),
                seat_limit=seat_limit,
                creator_id=caller.user_id,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                first_seat=(caller.user_id, caller.name),
                computers=[(f"Computer {n}", level) for n in range(1, computers + 1)],
                interaction_id=interaction_id,
                game_caps=self.game_caps,
            )
            if clock is not None:
                await self.store.set_game_clock(record.id, clock.text())
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except OverCap as exc:
            return Result(error=self._over_cap(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        except (StaleGame, StoreBusy) as exc:
            return Result(error=storage_refusal(exc, None))
        return Result(
            text=(
                f"{caller.name} opened game #{record.id} of {record.title} for up to "
                f"{seat_limit} players{_computer_seats(computers, level)}. Join with /game "
                f"join; {caller.name} starts it with /game start once at least "
                f"{cls.min_players} are seated." + (f" Clock: {clock.label()}." if clock else "")
            ),
            game_id=record.id,
            thread_id=record.thread_id,
            changed=True,
        )

    async def join(self, game_id: int, caller: Caller, interaction_id: int | None = None) -> Result:
        """Take a free seat before the game starts, or accept the seat offered to the caller."""
        if await self._visible(game_id, caller.guild_id) is not None:
            offers = await self.store.open_invitations(game_id)
            mine = [i for i in offers if i.user_id == caller.user_id]
            if mine:
                return await self.answer_invitation(mine[-1].id, caller, True, interaction_id)

        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started; seats are fixed now")
            seats = await self._seats(record.id)
            mine = seat_of(seats, caller.user_id)
            if mine is not None:
                raise Refused(f"you are already seated in game #{record.id} (seat {mine.seat})")
            if len(seats) >= record.seat_limit:
                raise Refused(
                    f"game #{record.id} is full ({len(seats)}/{record.seat_limit} seats taken)"
                )
            seat = await self.store.add_seat(record.id, caller.user_id, caller.name, interaction_id)
            self._seats_changed(record.id)
            return await self._changed(
                record,
                f"{caller.name} joined game #{record.id} at seat {seat} "
                f"({len(seats) + 1}/{record.seat_limit} seated).",
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def leave(
        self, game_id: int, caller: Caller, interaction_id: int | None = None
    ) -> Result:
        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started; you cannot leave it now")
            if seat_of(await self._seats(record.id), caller.user_id) is None:
                raise Refused(f"you are not seated in game #{record.id}")
            await self.store.remove_seat(record.id, caller.user_id, interaction_id)
            self._seats_changed(record.id)
            return await self._changed(record, f"{caller.name} left game #{record.id}.")

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def start(
        self,
        game_id: int,
        caller: Caller,
        interaction_id: int | None = None,
        *,
        confirmed: bool = False,
    ) -> Result:
        """Fix the seat order (join order; seat n plays as engine player n) and deal the game;
        with seats still empty, only once the caller `confirmed` (a start cannot be undone and
        a seat cannot be added after it)."""

        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started")
            self._require_admin(record, caller, "start it")
            seats = await self._seats(record.id)
            cls = find_title(record.title)
            if len(seats) < cls.min_players:
                raise Refused(
                    f"{record.title} needs at least {cls.min_players} players; "
                    f"{len(seats)} seated so far"
                )
            cls.check_options(record.options)  # stored before options were checked
            if len(seats) < record.seat_limit and not confirmed:
                return Result(
                    error=f"only {len(seats)} of game #{record.id}'s {record.seat_limit} seats "
                    f"are taken; start with {len(seats)} players? (/game start confirm:yes, "
                    "or wait for more to join)",
                    game_id=record.id,
                    confirm_start=len(seats),
                )
            seed = self._new_seed() if self._new_seed is not None else random_seed(cls)
            players = [PlayerInfo(s.seat, s.name) for s in seats]
            game = await asyncio.to_thread(create_game, record.title, players, record.options, seed)
            await self.store.start_game(
                record.id,
                seed,
                [p.id for p in players],
                interaction_id,
                version=record.version,
                acting=acting_seats(game, [(s.seat, p.id) for s, p in zip(seats, players)]),
            )
            self._seats_changed(record.id)  # they now play as engine players
            await self._remember(record.id, game, record.version + 1)
            order = ", ".join(f"{s.seat}. {s.name}" for s in seats)
            text = f"Game #{record.id} of {record.title} has started. Seat order: {order}."
            computer = played_by_computer(seats)
            return await self._changed(record, f"{text} {computer}".strip(), game)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    # -- administration ------------------------------------------------------------------------
    async def pause(
        self, game_id: int, caller: Caller, paused: bool, interaction_id: int | None = None
    ) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "pause or resume it")
            if record.status != ACTIVE:
                raise Refused(f"game #{record.id} is not in play")
            if record.paused == paused:
                raise Refused(f"game #{record.id} is already {'paused' if paused else 'running'}")
            await self.store.set_paused(record.id, paused, interaction_id)
            if paused:
                return await self._changed(
                    record,
                    f"{caller.name} paused game #{record.id}; moves "
                    "wait until an admin resumes it (/game-admin resume, or /game status).",
                )
            game = await self._live(record)
            return await self._changed(record, f"{caller.name} resumed game #{record.id}.", game)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def abandon(
        self, game_id: int, caller: Caller, interaction_id: int | None = None
    ) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "abandon it")
            if record.status == FINISHED:
                raise Refused(f"game #{record.id} is already over")
            lapsing = await self.store.open_requests(record.id)
            await self.store.abandon(record.id, interaction_id, version=record.version)
            self._forget(record.id)
            return await self._changed(
                record,
                f"{caller.name} abandoned game #{record.id}; its log "
                f"is kept (/game export).{await self._lapsed(record, lapsing)}",
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def set_reminders(
        self, game_id: int, caller: Caller, hours: float, interaction_id: int | None = None
    ) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "change its reminders")
            if not valid_remind_hours(hours):
                raise Refused(f"reminder hours are {REMIND_RANGE}, not {hours:g}")
            await self.store.set_remind_hours(record.id, hours, interaction_id)
            text = (
                f"Game #{record.id} sends no reminders now."
                if hours == 0
                else f"Game #{record.id} reminds whoever must act after {hours:g} h without a move."
            )
            return await self._changed(record, text)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    # -- game files ----------------------------------------------------------------------------
    async def prepare_import(
        self, caller: Caller, data: Any, users: Sequence[int | None] = (), *, offer: bool = True
    ) -> PreparedImport | Result:
        """Check a game file whole before anything is made for it (a chat front end opens the
        game's thread only then): it replays, its options are sound, the users are distinct
        and the caps allow one more game. `users[i]` is offered seat i+1 (None: unclaimed);
        the caller's own seat is theirs at once, every other is theirs once they accept
        (`offer=False`: at once, the front end having their agreement, as at one keyboard)."""
        try:
            await self._require_room(caller)
            players, loaded, texts = await asyncio.to_thread(_load_file, data)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except StoreBusy as exc:
            return Result(error=storage_refusal(exc, None))
        if len(users) > len(players):
            return Result(
                error=f"the file has {len(players)} players but {len(users)} users were given"
            )
        given = [u for u in users if u is not None]
        if len(given) != len(set(given)):
            return Result(error="each user can take only one seat")
        return PreparedImport(caller, loaded, texts, players, tuple(users), offer)

    async def store_import(
        self,
        prepared: PreparedImport,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        interaction_id: int | None = None,
    ) -> Result:
        """Store a prepared import as a new game, with its seat offers."""
        caller, game = prepared.caller, prepared.loaded.game
        seats, offers = prepared.seats()
        try:
            record = await self.store.import_game(
                title=game.title,
                options=dict(game.options),
                seed=game.seed,
                creator_id=caller.user_id,
                seats=seats,
                actions=[game_files.imported(a) for a in _without_flags(game.actions)],
                texts=prepared.texts,
                finished=game.finished,
                offers=offers,
                acting=acting_seats(game, [(n, pid) for n, (_, _, pid) in enumerate(seats, 1)]),
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                interaction_id=interaction_id,
                game_caps=self.game_caps,
            )
        except OverCap as exc:
            return Result(error=self._over_cap(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        except (StaleGame, StoreBusy) as exc:
            return Result(error=storage_refusal(exc, None))
        await self._remember(record.id, game, record.version)
        listing = ", ".join(
            f"{n}. {name}" + ("" if uid > 0 else " (unclaimed)")
            for n, (uid, name, _) in enumerate(seats, start=1)
        )
        invited = await self.store.open_invitations(record.id)
        text = (
            f"{caller.name} imported a {game.title} game as game #{record.id} "
            f"({prepared.loaded.processed} actions). Seats: {listing}."
        )
        if not invited and any(uid <= 0 for uid, _, _ in seats):
            text += " An admin offers an unclaimed seat to a player with /game-admin replace (or under /game status)."
        changed = await self._changed(record, text, game)
        return replace(
            changed,
            invitations=tuple(i.id for i in invited),
            invited=tuple(i.user_id for i in invited),
            hushed=await self._hushed(SEAT, caller.user_id, (i.user_id for i in invited)),
        )

    async def import_game(
        self,
        caller: Caller,
        data: Any,
        users: Sequence[int | None] = (),
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        interaction_id: int | None = None,
        offer: bool = True,
    ) -> Result:
        """`prepare_import` then `store_import`, for a front end with no thread to open."""
        if interaction_id is not None and await self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        prepared = await self.prepare_import(caller, data, users, offer=offer)
        if isinstance(prepared, Result):
            return prepared
        return await self.store_import(
            prepared,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            interaction_id=interaction_id,
        )

    async def export(self, game_id: int, *, guild_id: int | None = None) -> Result:
        """The game as an 18xx.games-shaped JSON file (`files`)."""

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            data = game_files.export(
                game, game_id=record.id, description=f"railchat game #{record.id}", public=True
            )
            payload = json.dumps(data, indent=1).encode()
            hidden = [k for k in game.hidden_settings if k not in data["settings"]]
            note = f" ({', '.join(hidden)} left out until the game ends)" if hidden else ""
            return Result(
                text=f"Game #{record.id}: {len(game.actions)} actions{note}.",
                game_id=record.id,
                thread_id=record.thread_id,
                files=((f"railchat-{record.id}-{record.title}.json", payload),),
            )

        return await self._run(game_id, None, body, guild_id)


def _check_computers(title: str, computers: int, level: str | None, seat_limit: int) -> str:
    """Computer seats leave the creator theirs, and play a level the title has; the level."""
    if not 0 <= computers < seat_limit:
        raise Refused(
            f"a game of {seat_limit} seats has room for 0 to {seat_limit - 1} computers "
            f"(the first seat is yours), not {computers}"
        )
    return checked_level(title, level)


def _computer_seats(computers: int, level: str) -> str:
    if not computers:
        return ""
    return f", {computers} of them played by the computer ({level})"


def _load_file(data: Any) -> tuple[list[dict[str, Any]], game_files.LoadedGame, list[str]]:
    """Replay an 18xx.games file whole (Refused says what is wrong with it), with the sentence
    of each action as it was applied."""
    game_files.check_file(data)
    moves = sum(1 for _ in game_files.effective_actions(data["actions"]))
    if moves > MAX_IMPORT_MOVES:
        raise Refused(
            f"the file has {moves:,} moves; a game imported by chat has at most "
            f"{MAX_IMPORT_MOVES:,} (the longest games have about 1,400)"
        )
    players = [{**p, "name": plain_name(p.get("name", p["id"]))} for p in data["players"]]
    data = {**data, "players": players}  # the names every sentence is told with
    texts: list[str] = []
    try:
        loaded = game_files.load(
            data,
            on_state=lambda index, action, game: texts.append(
                ServiceBase._describe(game, game.actions[-1])
            ),
        )
    except game_files.ReplayError as exc:
        raise Refused(f"the file does not replay: {exc}") from None
    return players, loaded, texts


def _without_flags(actions: list[Action]) -> list[Action]:
    """Imported actions as the file had them (the engine's private marks removed)."""
    return [{k: v for k, v in a.items() if not k.startswith("_")} for a in actions]


@dataclass(frozen=True)
class PreparedImport:
    """A game file that replayed whole, waiting to be stored as a game."""

    caller: Caller
    loaded: game_files.LoadedGame
    texts: list[str]
    players: list[dict[str, Any]]
    users: tuple[int | None, ...]
    offer: bool = True  # False: every user named is seated at once

    def seats(self) -> tuple[list[tuple[int, str, PlayerId]], list[tuple[int, int]]]:
        """(user id, name, player id) per seat, every seat unclaimed but the importer's, and
        the (seat, user) offers for the users named."""
        seats, offers = [], []
        for n, player in enumerate(self.players, start=1):
            user = self.users[n - 1] if n <= len(self.users) else None
            now = user is not None and (user == self.caller.user_id or not self.offer)
            seats.append((user if now and user else unclaimed(n), player["name"], player["id"]))
            if user is not None and not now:
                offers.append((n, user))
        return seats, offers
