"""The frontend-neutral game service: who may do what, in which order, and what to show.

Discord and the console both call these coroutines. The service checks permissions, serialises
the commands of one game with an asyncio lock, applies actions to a live engine game (kept in a
bounded LRU cache, rebuilt from the stored log when missing), persists each accepted change in
one transaction and answers with a `Result`. It knows no game rules: the engine decides.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Mapping, Sequence

from bot.results import Caller, Refused, Result
from bot.store import (ACTIVE, FINISHED, OPEN, ActionRecord, DuplicateInteraction, GameRecord,
                       SeatRecord, Store)
from engine.errors import GameError
from engine.game import Action, Choice, Game, PlayerInfo
from engine.titles import create_game, find_title, title_names

log = logging.getLogger(__name__)

ALREADY_HANDLED = "That command was already handled."

# Draws one view (a name from Game.views()) of a game as PNG bytes; supplied by render/.
Renderer = Callable[[Game, str], bytes]


def random_seed() -> int:
    return secrets.randbelow(2**31)


class GameService:
    def __init__(self, store: Store, *, cache_size: int = 16,
                 new_seed: Callable[[], int] = random_seed) -> None:
        self.store = store
        self.cache_size = cache_size
        self._new_seed = new_seed
        self._cache: OrderedDict[int, Game] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def titles() -> list[str]:
        return title_names()

    def game_for_thread(self, thread_id: int) -> int | None:
        record = self.store.game_by_thread(thread_id)
        return record.id if record else None

    def list_games(self, *, guild_id: int | None = None,
                   include_finished: bool = False) -> Result:
        statuses = (OPEN, ACTIVE, FINISHED) if include_finished else (OPEN, ACTIVE)
        records = self.store.games(guild_id=guild_id, statuses=statuses)
        if not records:
            return Result(text="No games here yet. Start one with /game new.")
        lines = []
        for r in records:
            names = ", ".join(s.name for s in self.store.seats(r.id)) or "nobody seated"
            lines.append(f"#{r.id} · {r.title} · {_STATUS_WORDS[r.status]} · {names}")
        return Result(text="\n".join(lines))

    # -- creating and seating ------------------------------------------------------------------
    def check_new_game(self, title: str, seats: int | None = None,
                       options: Mapping[str, Any] | None = None) -> Result:
        """Validate a new game without creating it (Discord makes the thread in between)."""
        try:
            self._new_game_shape(title, seats, options)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        return Result()

    async def create_game(self, caller: Caller, title: str, *, seats: int | None = None,
                          options: Mapping[str, Any] | None = None, guild_id: int | None = None,
                          channel_id: int | None = None, thread_id: int | None = None,
                          interaction_id: int | None = None) -> Result:
        """Open a table with `seats` places (default: the title's maximum); the creator sits
        at seat 1."""
        if interaction_id is not None and self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        try:
            cls, seat_limit = self._new_game_shape(title, seats, options)
            record = self.store.create_game(
                title=cls.title, options=dict(options or {}), seat_limit=seat_limit,
                creator_id=caller.user_id, guild_id=guild_id, channel_id=channel_id,
                thread_id=thread_id, first_seat=(caller.user_id, caller.name),
                interaction_id=interaction_id)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        return Result(
            text=(f"{caller.name} opened game #{record.id} of {record.title} for up to "
                  f"{seat_limit} players. Join with /game join; {caller.name} starts it with "
                  f"/game start once at least {cls.min_players} are seated."),
            game_id=record.id, thread_id=record.thread_id, changed=True)

    async def join(self, game_id: int, caller: Caller, interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started; seats are fixed now")
            seats = self.store.seats(record.id)
            mine = _seat_of(seats, caller.user_id)
            if mine is not None:
                raise Refused(f"you are already seated in game #{record.id} (seat {mine.seat})")
            if len(seats) >= record.seat_limit:
                raise Refused(f"game #{record.id} is full ({len(seats)}/{record.seat_limit} "
                              "seats taken)")
            seat = self.store.add_seat(record.id, caller.user_id, caller.name, interaction_id)
            return self._changed(record, f"{caller.name} joined game #{record.id} at seat {seat} "
                                         f"({len(seats) + 1}/{record.seat_limit} seated).")
        return await self._run(game_id, interaction_id, body)

    async def leave(self, game_id: int, caller: Caller,
                    interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started; you cannot leave it now")
            if _seat_of(self.store.seats(record.id), caller.user_id) is None:
                raise Refused(f"you are not seated in game #{record.id}")
            self.store.remove_seat(record.id, caller.user_id, interaction_id)
            return self._changed(record, f"{caller.name} left game #{record.id}.")
        return await self._run(game_id, interaction_id, body)

    async def start(self, game_id: int, caller: Caller,
                    interaction_id: int | None = None) -> Result:
        """Fix the seat order (join order; seat n plays as engine player n) and deal the game."""
        async def body(record: GameRecord) -> Result:
            if record.status != OPEN:
                raise Refused(f"game #{record.id} has already started")
            self._require_admin(record, caller, "start it")
            seats = self.store.seats(record.id)
            cls = find_title(record.title)
            if len(seats) < cls.min_players:
                raise Refused(f"{record.title} needs at least {cls.min_players} players; "
                              f"{len(seats)} seated so far")
            seed = self._new_seed()
            players = [PlayerInfo(s.seat, s.name) for s in seats]
            game = await asyncio.to_thread(create_game, record.title, players, record.options,
                                           seed)
            self.store.start_game(record.id, seed, [p.id for p in players], interaction_id)
            self._remember(record.id, game)
            order = ", ".join(f"{s.seat}. {s.name}" for s in seats)
            return self._changed(record, f"Game #{record.id} of {record.title} has started. "
                                         f"Seat order: {order}.", game)
        return await self._run(game_id, interaction_id, body)

    # -- playing -------------------------------------------------------------------------------
    async def act(self, game_id: int, caller: Caller, action: Action,
                  interaction_id: int | None = None) -> Result:
        """Apply one action for the caller's seat; on any refusal nothing is stored."""
        async def body(record: GameRecord) -> Result:
            seat = self._playing_seat(record, caller)
            game = await self._live(record)
            if seat.player_id not in game.active_players():
                raise Refused(f"it is not your turn in game #{record.id}; waiting for "
                              f"{_names(game, game.active_players())}")
            if (isinstance(action, dict) and action.get("entity_type") == "player"
                    and action.get("entity") != seat.player_id):
                raise Refused("you can only act for your own seat")
            recorded = await asyncio.to_thread(game.process, action)
            try:
                self.store.append_action(record.id, len(game.actions), caller.user_id, recorded,
                                         finished=game.finished, interaction_id=interaction_id)
            except BaseException:
                self._forget(record.id)  # the live game is ahead of the log: rebuild next time
                raise
            return self._changed(record, game.describe(recorded), game)
        return await self._run(game_id, interaction_id, body)

    async def undo(self, game_id: int, caller: Caller,
                   interaction_id: int | None = None) -> Result:
        """Take back the last action: its author may while nobody acted since; admins always."""
        async def body(record: GameRecord) -> Result:
            if record.status == OPEN:
                raise Refused(f"game #{record.id} has not started yet")
            actions = self.store.actions(record.id)
            if not actions:
                raise Refused(f"game #{record.id} has no action to undo")
            last = actions[-1]
            if last.user_id != caller.user_id and not self._is_admin(record, caller):
                raise Refused("only the player who made the last action, or a game admin, "
                              "can undo it")
            game = await self._live(record)
            what = game.describe(last.payload)
            self.store.undo_last_action(record.id, caller.user_id, interaction_id)
            self._forget(record.id)
            game = await self._live(record)
            return self._changed(record, f"{caller.name} undid action {last.seq}: {what}", game)
        return await self._run(game_id, interaction_id, body)

    async def status(self, game_id: int) -> Result:
        async def body(record: GameRecord) -> Result:
            seats = self.store.seats(record.id)
            head = f"Game #{record.id} · {record.title} · {_STATUS_WORDS[record.status]}"
            if record.status == OPEN:
                names = ", ".join(f"{s.seat}. {s.name}" for s in seats) or "nobody"
                cls = find_title(record.title)
                return Result(text=f"{head} ({len(seats)}/{record.seat_limit} seated: {names}). "
                                   f"Needs {cls.min_players} to start.",
                              game_id=record.id, thread_id=record.thread_id)
            game = await self._live(record)
            lines = [head, game.status_text()]  # the title's summary says who acts
            if game.finished:
                scores = sorted(game.result().items(), key=lambda kv: -kv[1])
                lines.append("Result: " + ", ".join(f"{game.player_name(p)} {v}"
                                                    for p, v in scores))
            return Result(text="\n".join(lines), game_id=record.id, thread_id=record.thread_id,
                          notify=self._to_notify(record, game))
        return await self._run(game_id, None, body)

    async def legal_actions(self, game_id: int, user_id: int) -> list[Choice]:
        """What this user may do now in the game (empty for spectators and closed games)."""
        async with self._lock(game_id):
            record = self.store.game(game_id)
            if record is None or record.status != ACTIVE:
                return []
            seat = _seat_of(self.store.seats(game_id), user_id)
            if seat is None:
                return []
            try:
                game = await self._live(record)
            except Refused:
                return []
            return game.legal_actions(seat.player_id)

    async def draw(self, game_id: int, views: Sequence[str],
                   renderer: Renderer) -> dict[str, bytes]:
        """Images of the game's current state by view name (none before it starts); drawing
        runs off the event loop while the game's lock keeps the state still."""
        async with self._lock(game_id):
            record = self._record(game_id)
            if record.status == OPEN:
                return {}
            game = await self._live(record)
            return await asyncio.to_thread(lambda: {v: renderer(game, v) for v in views})

    # -- machinery -----------------------------------------------------------------------------
    async def _run(self, game_id: int, interaction_id: int | None,
                   body: Callable[[GameRecord], Awaitable[Result]]) -> Result:
        async with self._lock(game_id):
            if interaction_id is not None and self.store.seen_interaction(interaction_id):
                return Result(duplicate=True, game_id=game_id,
                              text=ALREADY_HANDLED)
            try:
                return await body(self._record(game_id))
            except (Refused, GameError) as exc:
                return Result(error=str(exc), game_id=game_id)
            except DuplicateInteraction:
                return Result(duplicate=True, game_id=game_id,
                              text=ALREADY_HANDLED)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _record(self, game_id: int) -> GameRecord:
        record = self.store.game(game_id)
        if record is None:
            raise Refused(f"there is no game #{game_id}")
        return record

    def _new_game_shape(self, title: str, seats: int | None,
                        options: Mapping[str, Any] | None) -> tuple[type[Game], int]:
        cls = find_title(title)
        unknown = sorted(set(options or {}) - set(cls.option_names))
        if unknown:
            known = ", ".join(cls.option_names) or "none"
            raise Refused(f"unknown option(s) for {cls.title}: {', '.join(unknown)} "
                          f"(known: {known})")
        seat_limit = cls.max_players if seats is None else seats
        if not cls.min_players <= seat_limit <= cls.max_players:
            raise Refused(f"{cls.title} is played by {cls.min_players} to {cls.max_players} "
                          f"players, not {seat_limit}")
        return cls, seat_limit

    def _is_admin(self, record: GameRecord, caller: Caller) -> bool:
        return caller.is_admin or caller.user_id == record.creator_id

    def _require_admin(self, record: GameRecord, caller: Caller, what: str) -> None:
        if not self._is_admin(record, caller):
            raise Refused(f"only the creator of game #{record.id} or a server admin can {what}")

    def _playing_seat(self, record: GameRecord, caller: Caller) -> SeatRecord:
        if record.status == OPEN:
            raise Refused(f"game #{record.id} has not started yet; its creator starts it with "
                          "/game start")
        if record.status == FINISHED:
            raise Refused(f"game #{record.id} is over")
        seat = _seat_of(self.store.seats(record.id), caller.user_id)
        if seat is None:
            raise Refused(f"you are not seated in game #{record.id}; spectators can only watch")
        return seat

    async def _live(self, record: GameRecord) -> Game:
        game = self._cache.get(record.id)
        if game is None:
            # sqlite stays on this thread; only the engine's replay runs in a worker
            seats, actions = self.store.seats(record.id), self.store.actions(record.id)
            game = await asyncio.to_thread(_replay, record, seats, actions)
        self._remember(record.id, game)
        return game

    def _remember(self, game_id: int, game: Game) -> None:
        self._cache[game_id] = game
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def _to_notify(self, record: GameRecord, game: Game) -> tuple[int, ...]:
        if game.finished:
            return ()
        active = game.active_players()
        return tuple(s.user_id for s in self.store.seats(record.id) if s.player_id in active)

    def _changed(self, record: GameRecord, text: str, game: Game | None = None) -> Result:
        if game is None:
            return Result(text=text, game_id=record.id, thread_id=record.thread_id, changed=True)
        if game.finished:
            text += "\nThe game is over. /game status shows the result."
        return Result(text=text, game_id=record.id, thread_id=record.thread_id, changed=True,
                      views=tuple(game.views()), notify=self._to_notify(record, game))


_STATUS_WORDS = {OPEN: "waiting for players", ACTIVE: "in play", FINISHED: "finished"}


def _replay(record: GameRecord, seats: list[SeatRecord], actions: list[ActionRecord]) -> Game:
    players = [PlayerInfo(s.player_id, s.name) for s in seats]
    try:
        game = create_game(record.title, players, record.options, record.seed or 0)
        for a in actions:
            game.process(a.payload)
    except GameError as exc:
        log.exception("game %s does not replay from its stored log", record.id)
        raise Refused(f"game #{record.id} cannot be rebuilt from its log: {exc}") from exc
    log.info("rebuilt game %s from %d actions", record.id, len(actions))
    return game


def _seat_of(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
    return next((s for s in seats if s.user_id == user_id), None)


def _names(game: Game, player_ids: list[Any]) -> str:
    return ", ".join(game.player_name(p) for p in player_ids) or "nobody"
