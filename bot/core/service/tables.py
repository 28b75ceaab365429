"""Commands that make and manage tables: creating, seating, starting, pausing, abandoning,
replacing players, reminders' period, and game files in and out.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.config import MAX_REMIND_HOURS
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import ALREADY_HANDLED, ServiceBase, seat_of, storage_refusal
from bot.core.store import (
    ACTIVE,
    FINISHED,
    OPEN,
    DuplicateInteraction,
    GameRecord,
    StaleGame,
    StoreBusy,
)
from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Action, PlayerInfo
from engine.shapes import bounded_name
from engine.titles import create_game, find_title


class Tables(ServiceBase):
    # -- creating and seating ------------------------------------------------------------------
    def check_new_game(
        self, title: str, seats: int | None = None, options: Mapping[str, Any] | None = None
    ) -> Result:
        """Validate a new game without creating it (Discord makes the thread in between)."""
        try:
            self._new_game_shape(title, seats, options)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
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
    ) -> Result:
        """Open a table with `seats` places (default: the title's maximum); the creator sits
        at seat 1."""
        if interaction_id is not None and await self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        try:
            cls, seat_limit = self._new_game_shape(title, seats, options)
            record = await self.store.create_game(
                title=cls.title,
                options=dict(options or {}),
                seat_limit=seat_limit,
                creator_id=caller.user_id,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                first_seat=(caller.user_id, caller.name),
                interaction_id=interaction_id,
            )
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        except (StaleGame, StoreBusy) as exc:
            return Result(error=storage_refusal(exc, None))
        return Result(
            text=(
                f"{caller.name} opened game #{record.id} of {record.title} for up to "
                f"{seat_limit} players. Join with /game join; {caller.name} starts it with "
                f"/game start once at least {cls.min_players} are seated."
            ),
            game_id=record.id,
            thread_id=record.thread_id,
            changed=True,
        )

    async def join(self, game_id: int, caller: Caller, interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started; seats are fixed now")
            seats = await self.store.seats(record.id)
            mine = seat_of(seats, caller.user_id)
            if mine is not None:
                raise Refused(f"you are already seated in game #{record.id} (seat {mine.seat})")
            if len(seats) >= record.seat_limit:
                raise Refused(
                    f"game #{record.id} is full ({len(seats)}/{record.seat_limit} seats taken)"
                )
            seat = await self.store.add_seat(record.id, caller.user_id, caller.name, interaction_id)
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
            if seat_of(await self.store.seats(record.id), caller.user_id) is None:
                raise Refused(f"you are not seated in game #{record.id}")
            await self.store.remove_seat(record.id, caller.user_id, interaction_id)
            return await self._changed(record, f"{caller.name} left game #{record.id}.")

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def start(
        self, game_id: int, caller: Caller, interaction_id: int | None = None
    ) -> Result:
        """Fix the seat order (join order; seat n plays as engine player n) and deal the game."""

        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started")
            self._require_admin(record, caller, "start it")
            seats = await self.store.seats(record.id)
            cls = find_title(record.title)
            if len(seats) < cls.min_players:
                raise Refused(
                    f"{record.title} needs at least {cls.min_players} players; "
                    f"{len(seats)} seated so far"
                )
            seed = self._new_seed()
            players = [PlayerInfo(s.seat, s.name) for s in seats]
            game = await asyncio.to_thread(create_game, record.title, players, record.options, seed)
            await self.store.start_game(
                record.id, seed, [p.id for p in players], interaction_id, version=record.version
            )
            await self._remember(record.id, game, record.version + 1)
            order = ", ".join(f"{s.seat}. {s.name}" for s in seats)
            return await self._changed(
                record,
                f"Game #{record.id} of {record.title} has started. Seat order: {order}.",
                game,
            )

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
                    "wait until an admin uses /game resume.",
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

    async def replace_seat(
        self,
        game_id: int,
        caller: Caller,
        seat: int,
        user_id: int,
        name: str,
        interaction_id: int | None = None,
    ) -> Result:
        """Give a seat (with everything its player owns) to another user."""
        name = bounded_name(name)

        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "replace a player")
            if not 0 < user_id < 2**63:
                raise Refused(f"{user_id} is not a user id")
            seats = await self.store.seats(record.id)
            target = next((s for s in seats if s.seat == seat), None)
            if target is None:
                raise Refused(f"game #{record.id} has seats 1 to {len(seats)}, not {seat}")
            holder = seat_of(seats, user_id)
            if holder is not None:
                raise Refused(
                    f"{holder.name} already holds seat {holder.seat} of game #{record.id}"
                )
            await self.store.replace_seat(record.id, seat, user_id, name, interaction_id)
            self._forget(record.id)
            text = f"{caller.name} gave seat {seat} ({target.name}) of game #{record.id} to {name}."
            if record.status != ACTIVE:
                return await self._changed(record, text)
            return await self._changed(record, text, await self._live(await self._fresh(record)))

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def set_reminders(
        self, game_id: int, caller: Caller, hours: float, interaction_id: int | None = None
    ) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "change its reminders")
            if not 0 <= hours <= MAX_REMIND_HOURS:  # also refuses nan
                raise Refused(
                    f"reminder hours run from 0 (no reminders) to "
                    f"{MAX_REMIND_HOURS:g} (a year), not {hours:g}"
                )
            await self.store.set_remind_hours(record.id, hours, interaction_id)
            text = (
                f"Game #{record.id} sends no reminders now."
                if hours == 0
                else f"Game #{record.id} reminds whoever must act after {hours:g} h without a move."
            )
            return await self._changed(record, text)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def set_notify(self, caller: Caller, dm: bool) -> Result:
        try:
            await self.store.set_dm(caller.user_id, dm)
        except StoreBusy as exc:
            return Result(error=storage_refusal(exc, None))
        return Result(
            text="I will also send you a direct message when it is your turn."
            if dm
            else "No more direct messages; you are still mentioned in the game's thread."
        )

    async def wants_dm(self, user_id: int) -> bool:
        return await self.store.wants_dm(user_id)

    # -- game files ----------------------------------------------------------------------------
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
    ) -> Result:
        """A new game from an 18xx.games file: its players become the seats (engine player
        ids are the file's), `users[i]` takes seat i+1 (None: unclaimed until an admin gives
        it with replace_seat). The whole file must replay."""
        if interaction_id is not None and await self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        try:
            players, loaded, texts = await asyncio.to_thread(_load_file, data)
            if len(users) > len(players):
                raise Refused(
                    f"the file has {len(players)} players but {len(users)} users were given"
                )
            given = [u for u in users if u is not None]
            if len(given) != len(set(given)):
                raise Refused("each user can take only one seat")
            seats = [
                (
                    users[i] if i < len(users) and users[i] is not None else -(i + 1),
                    str(p.get("name", p["id"])),
                    p["id"],
                )
                for i, p in enumerate(players)
            ]
            game = loaded.game
            record = await self.store.import_game(
                title=game.title,
                options=dict(game.options),
                seed=game.seed,
                creator_id=caller.user_id,
                seats=seats,
                actions=[game_files.imported(a) for a in _without_flags(game.actions)],
                texts=texts,
                finished=game.finished,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                interaction_id=interaction_id,
            )
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        except (StaleGame, StoreBusy) as exc:
            return Result(error=storage_refusal(exc, None))
        await self._remember(record.id, game, record.version)
        listing = ", ".join(
            f"{n}. {name}" + ("" if uid > 0 else " (unclaimed)")
            for n, (uid, name, _) in enumerate(seats, start=1)
        )
        return await self._changed(
            record,
            f"{caller.name} imported a {game.title} game as game "
            f"#{record.id} ({loaded.processed} actions). Seats: "
            f"{listing}.",
            game,
        )

    async def export(self, game_id: int, *, guild_id: int | None = None) -> Result:
        """The game as an 18xx.games-shaped JSON file (`files`)."""

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            data = game_files.export(
                game, game_id=record.id, description=f"railchat game #{record.id}"
            )
            payload = json.dumps(data, indent=1).encode()
            return Result(
                text=f"Game #{record.id}: {len(game.actions)} actions.",
                game_id=record.id,
                thread_id=record.thread_id,
                files=((f"railchat-{record.id}-{record.title}.json", payload),),
            )

        return await self._run(game_id, None, body, guild_id)


def _load_file(data: Any) -> tuple[list[dict[str, Any]], game_files.LoadedGame, list[str]]:
    """Replay an 18xx.games file whole (Refused says what is wrong with it), with the sentence
    of each action as it was applied."""
    game_files.check_file(data)
    players = data["players"]
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
