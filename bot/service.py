"""The frontend-neutral game service: who may do what, in which order, and what to show.

Discord and the console both call these coroutines. The service checks permissions, serialises
the commands of one game with an asyncio lock, applies actions to a live engine game (kept in a
bounded LRU cache, rebuilt from the stored log when missing), persists each accepted change in
one transaction and answers with a `Result`. It knows no game rules: the engine decides.
"""
from __future__ import annotations

import asyncio
import copy
import json
import logging
import secrets
from collections import OrderedDict
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Awaitable, Callable, Mapping, Sequence, TypeVar

from bot.config import DEFAULT_REMIND_HOURS
from bot.results import Caller, Prompt, Refused, Result
from bot.store import (ACTIVE, DEAL, FINISHED, OPEN, UNDO, ActionRecord, DuplicateInteraction,
                       GameRecord, Request, SeatRecord, Store)
from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Action, Choice, Game, PlayerId, PlayerInfo
from engine.titles import create_game, find_title, title_names

log = logging.getLogger(__name__)

ALREADY_HANDLED = "That command was already handled."
HISTORY_LIMIT = 50
CHOICE_CACHE = 64
IMPORTED_BY = 0  # user id recorded for the actions of an imported game file

T = TypeVar("T")
# Draws one view (a name from Game.views()) of a game as PNG bytes; supplied by render/.
Renderer = Callable[[Game, str], bytes]
# Turns the caller's legal choices (and the live game, for typed routes) into one action.
MoveBuilder = Callable[[Game, list[Choice]], Action]


def random_seed() -> int:
    return secrets.randbelow(2**31)


class GameService:
    def __init__(self, store: Store, *, cache_size: int = 16,
                 new_seed: Callable[[], int] = random_seed,
                 remind_hours: float = DEFAULT_REMIND_HOURS) -> None:
        self.store = store
        self.cache_size = cache_size
        self.remind_hours = remind_hours
        self._new_seed = new_seed
        self._cache: OrderedDict[int, Game] = OrderedDict()
        self._choices: OrderedDict[tuple[int, int, str], list[Choice]] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def titles() -> list[str]:
        return title_names()

    def game_for_thread(self, thread_id: int) -> int | None:
        record = self.store.game_by_thread(thread_id)
        return record.id if record else None

    def default_game(self, user_id: int, *, guild_id: int | None = None) -> Result:
        """The game a command without a game number means outside a game thread: the only
        open or running game (of the server, when one is given), else the only one of those
        the user is seated in. Otherwise `error` names the candidates."""
        records = self.store.games(guild_id=guild_id, statuses=(OPEN, ACTIVE), limit=10**6)
        mine = [r for r in records if _seat_of(self.store.seats(r.id), user_id) is not None]
        for found in (records, mine):
            if len(found) == 1:
                return Result(game_id=found[0].id, thread_id=found[0].thread_id)
        if not records:
            return Result(error="which game? no game is open or in play here; start one with "
                                "/game new")
        listing = ", ".join(f"#{r.id} ({r.title})" for r in (mine or records)[:10])
        where = "you play in several games" if mine else "several games are open or in play"
        return Result(error=f"which game? {where} here: {listing}; give game:<number>")

    async def peek(self, game_id: int, question: Callable[[Game], T]) -> T | None:
        """A quick read-only look at the live game for suggestions (None before it starts)."""
        async with self._lock(game_id):
            record = self.store.game(game_id)
            if record is None or record.status == OPEN:
                return None
            try:
                return question(await self._live(record))
            except (Refused, GameError):
                return None

    def list_games(self, *, guild_id: int | None = None,
                   include_finished: bool = False) -> Result:
        statuses = (OPEN, ACTIVE, FINISHED) if include_finished else (OPEN, ACTIVE)
        records = self.store.games(guild_id=guild_id, statuses=statuses)
        if not records:
            return Result(text="No games here yet. Start one with /game new.")
        lines = []
        for r in records:
            names = ", ".join(s.name for s in self.store.seats(r.id)) or "nobody seated"
            lines.append(f"#{r.id} · {r.title} · {_status_word(r)} · {names}")
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
            self._require_turn(record, game, seat)
            if (isinstance(action, dict) and action.get("entity_type") == "player"
                    and action.get("entity") != seat.player_id):
                raise Refused("you can only act for your own seat")
            return await self._submit(record, game, seat, caller, action, interaction_id)
        return await self._run(game_id, interaction_id, body)

    async def play(self, game_id: int, caller: Caller, build: MoveBuilder, *,
                   version: int | None = None, interaction_id: int | None = None) -> Result:
        """Apply the move `build` picks from the caller's legal choices. A `version` (from a
        button) must still be the game's: a button from an older turn is refused."""
        async def body(record: GameRecord) -> Result:
            if version is not None and version != record.version:
                raise Refused(f"this button is from an earlier turn of game #{record.id}; the "
                              "game has moved on. Use the newest post's buttons or /play")
            seat = self._playing_seat(record, caller)
            game = await self._live(record)
            self._require_turn(record, game, seat)
            choices = await self._legal(record, game, seat.player_id)
            action = await asyncio.to_thread(build, game, choices)
            return await self._submit(record, game, seat, caller, action, interaction_id)
        return await self._run(game_id, interaction_id, body)

    async def _submit(self, record: GameRecord, game: Game, seat: SeatRecord, caller: Caller,
                      action: Action, interaction_id: int | None) -> Result:
        """Apply the caller's move, unless it takes another player's property at a negotiated
        price: then that player is asked first (see `vote`)."""
        other = _counterparty(game, action)
        if other is None or other == seat.player_id:
            return await self._apply(record, game, caller, action, interaction_id)
        seller = next((s for s in self.store.seats(record.id) if s.player_id == other), None)
        if seller is None or seller.user_id <= 0:
            raise Refused(f"this deal takes {game.player_name(other)}'s property and nobody "
                          "holds that seat to agree to it; a game admin can give the seat with "
                          "/game replace")
        # the engine judges the move on a copy, so nobody is asked to agree to an illegal one
        sentence = await asyncio.to_thread(_sentence_on_copy, game, action)
        request, replaced = self.store.open_deal(record.id, record.version, caller.user_id,
                                                 action, sentence, interaction_id)
        lines = [f"{seat.name} proposes deal #{request.id} to {seller.name}: {sentence}",
                 f"{seller.name}, do you agree? Until you answer nothing changes; the deal "
                 "lapses if the game moves on first."]
        if replaced:
            lines.append(f"(It replaces {seat.name}'s deal "
                         f"{', '.join(f'#{r.id}' for r in replaced)}.)")
        return Result(text="\n".join(lines), game_id=record.id, thread_id=record.thread_id,
                      changed=True, notify=(seller.user_id,), vote=request.id, vote_kind=DEAL)

    async def _apply(self, record: GameRecord, game: Game, caller: Caller, action: Action,
                     interaction_id: int | None, *, answers: int | None = None,
                     head: str = "") -> Result:
        """Process and store one action for the caller (`answers`: the deal it carries out);
        the requests still open lapse, and the result says so."""
        lapsing = [r for r in self.store.open_requests(record.id) if r.id != answers]
        recorded = await asyncio.to_thread(game.process, action)
        text = self._describe(game, recorded)
        try:
            self.store.append_action(record.id, len(game.actions), caller.user_id, recorded,
                                     finished=game.finished, interaction_id=interaction_id,
                                     text=text, answers=answers)
        except BaseException:
            self._forget(record.id)  # the live game is ahead of the log: rebuild next time
            raise
        return self._changed(record, head + text + self._lapsed(record, lapsing), game)

    async def undo(self, game_id: int, caller: Caller,
                   interaction_id: int | None = None) -> Result:
        """Take back the caller's last action. At once when nobody acted since (or for an
        admin: the game's last action); otherwise the players whose later actions would be
        taken back too are asked to approve (see `vote`)."""
        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            actions = self.store.actions(record.id)
            if not actions:
                raise Refused(f"game #{record.id} has no action to undo")
            last = actions[-1]
            admin = self._is_admin(record, caller)
            if record.abandoned and not admin:
                raise Refused(f"game #{record.id} was abandoned")
            if last.user_id == caller.user_id or admin:
                return await self._rewind(record, len(actions) - 1, caller,
                                          f"{caller.name} undid action {last.seq}: ",
                                          interaction_id)
            mine = [a for a in actions if a.user_id == caller.user_id]
            if not mine:
                raise Refused("only the player who made the last action, or a game admin, "
                              "can undo it")
            later = actions[mine[-1].seq - 1:]
            if any(a.user_id == IMPORTED_BY for a in later):
                raise Refused("actions imported from a game file can only be undone by a game "
                              "admin")
            affected = _affected(later, caller.user_id)
            request = self.store.open_undo_request(record.id, mine[-1].seq - 1, record.version,
                                                   caller.user_id, interaction_id)
            game = await self._live(record)
            names = ", ".join(self._seat_name(record, u) for u in affected)
            return Result(
                text=(f"{caller.name} asks to take back actions {mine[-1].seq}-{last.seq}, "
                      f"from their own: {self._sentence(game, mine[-1])} "
                      f"{names} must approve; a game admin can decide alone."),
                game_id=record.id, thread_id=record.thread_id, changed=True,
                notify=tuple(u for u in affected if u > 0), vote=request.id, vote_kind=UNDO)
        return await self._run(game_id, interaction_id, body)

    async def vote(self, request_id: int, caller: Caller, approve: bool,
                   interaction_id: int | None = None) -> Result:
        """One player's answer to a request: an undo vote or a proposed deal. Any change to
        the game first makes an open request lapse."""
        found = self.store.request(request_id)
        if found is None:
            return Result(error=f"there is no undo request or deal #{request_id}")

        async def body(record: GameRecord) -> Result:
            request = self.store.request(request_id)
            assert request is not None
            if request.status == "open" and record.version != request.version:
                self.store.close_request(request.id, "void")  # a request from before m004
                request = replace(request, status="void")
            if request.status != "open":
                raise Refused(_CLOSED[request.kind, request.status])
            if request.kind == DEAL:
                return await self._answer_deal(record, request, caller, approve, interaction_id)
            return await self._vote_undo(record, request, caller, approve, interaction_id)
        return await self._run(found.game_id, interaction_id, body)

    async def _vote_undo(self, record: GameRecord, request: Request, caller: Caller,
                         approve: bool, interaction_id: int | None) -> Result:
        """The last approval of the affected players (or any game admin's) applies the undo;
        one rejection ends it."""
        assert request.keep is not None
        actions = self.store.actions(record.id)
        affected = _affected(actions[request.keep:], request.requested_by)
        admin = self._is_admin(record, caller)
        if caller.user_id not in affected and not admin:
            names = ", ".join(self._seat_name(record, u) for u in affected)
            raise Refused(f"only the players whose actions would be undone ({names}) or a "
                          "game admin vote on this undo")
        if not approve:
            self.store.close_request(request.id, "rejected")
            return self._changed(record, f"{caller.name} rejected the undo; the game goes on.")
        votes = self.store.vote(request.id, caller.user_id, True, interaction_id)
        waiting = [u for u in affected if not votes.get(u)]
        if waiting and not admin:
            names = ", ".join(self._seat_name(record, u) for u in waiting)
            return self._changed(record, f"{caller.name} approved the undo; waiting for "
                                         f"{names}.")
        self.store.close_request(request.id, "done")
        return await self._rewind(record, request.keep, caller,
                                  f"{caller.name} approved: the game is back to action "
                                  f"{request.keep}, before ", None)

    async def _answer_deal(self, record: GameRecord, request: Request, caller: Caller,
                           accept: bool, interaction_id: int | None) -> Result:
        """The other owner accepts (the move is applied for its proposer, as if just
        submitted) or declines; the proposer may withdraw it and a game admin decline it."""
        assert request.action is not None
        game = await self._live(record)
        seats = self.store.seats(record.id)
        proposer = _seat_of(seats, request.requested_by)
        other = _counterparty(game, request.action)
        seller = next((s for s in seats if other is not None and s.player_id == other), None)
        if proposer is None or seller is None:
            self.store.close_request(request.id, "void")
            raise Refused(f"deal #{request.id} no longer stands: the seats changed since it was "
                          "proposed")
        if not accept:
            if caller.user_id not in (seller.user_id, proposer.user_id) \
                    and not self._is_admin(record, caller):
                raise Refused(f"only {seller.name} (whose property deal #{request.id} takes), "
                              f"{proposer.name} (who proposed it) or a game admin can decline "
                              "it")
            self.store.close_request(request.id, "rejected")
            who = next((s.name for s in (seller, proposer) if s.user_id == caller.user_id),
                       caller.name)
            verb = "withdrew" if caller.user_id == proposer.user_id else "declined"
            return self._changed(record, f"{who} {verb} deal #{request.id} "
                                         f"({request.text}); nothing changed.")
        if caller.user_id != seller.user_id:
            raise Refused(f"only {seller.name} can accept deal #{request.id}: it takes their "
                          "property")
        actor = Caller(proposer.user_id, proposer.name)
        self._playing_seat(record, actor)
        self._require_turn(record, game, proposer)
        try:
            return await self._apply(record, game, actor, request.action, interaction_id,
                                     answers=request.id,
                                     head=f"{seller.name} accepted deal #{request.id}: ")
        except GameError as exc:
            self.store.close_request(request.id, "void")
            raise Refused(f"deal #{request.id} cannot be made any more: {exc}") from None

    async def rewind(self, game_id: int, caller: Caller, keep: int,
                     interaction_id: int | None = None) -> Result:
        """An admin takes the game back to just after action `keep` (0: the start)."""
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "rewind it")
            self._require_started(record)
            count = self.store.action_count(record.id)
            if not 0 <= keep < count:
                raise Refused(f"game #{record.id} has {count} actions; rewind to a number from "
                              f"0 to {count - 1} (see /game history)" if count else
                              f"game #{record.id} has no action to take back")
            return await self._rewind(record, keep, caller,
                                      f"{caller.name} rewound game #{record.id} to action "
                                      f"{keep}, taking back from ", interaction_id)
        return await self._run(game_id, interaction_id, body)

    async def _rewind(self, record: GameRecord, keep: int, caller: Caller, head: str,
                      interaction_id: int | None) -> Result:
        game = await self._live(record)
        what = self._sentence(game, self.store.actions(record.id)[keep])
        lapsing = self.store.open_requests(record.id)
        undone = self.store.rewind(record.id, keep, caller.user_id, interaction_id)
        self._forget(record.id)
        game = await self._live(record)
        more = f" ({len(undone)} actions)" if len(undone) > 1 else ""
        return self._changed(self.store.game(record.id) or record,
                             f"{head}{what}{more}{self._lapsed(record, lapsing)}", game)

    async def status(self, game_id: int) -> Result:
        async def body(record: GameRecord) -> Result:
            seats = self.store.seats(record.id)
            head = f"Game #{record.id} · {record.title} · {_status_word(record)}"
            if record.status == OPEN:
                names = ", ".join(f"{s.seat}. {s.name}" for s in seats) or "nobody"
                cls = find_title(record.title)
                return Result(text=f"{head} ({len(seats)}/{record.seat_limit} seated: {names}). "
                                   f"Needs {cls.min_players} to start.",
                              game_id=record.id, thread_id=record.thread_id)
            game = await self._live(record)
            lines = [head, game.status_text()]  # the title's summary says who acts
            lines += [f"Awaiting an answer: {label}" for _, label in
                      self.open_requests(record.id)]
            if game.finished:
                scores = sorted(game.result().items(), key=lambda kv: -kv[1])
                lines.append("Result: " + ", ".join(f"{game.player_name(p)} {v}"
                                                    for p, v in scores))
            return Result(text="\n".join(lines), game_id=record.id, thread_id=record.thread_id,
                          notify=self._to_notify(record, game))
        return await self._run(game_id, None, body)

    async def legal_actions(self, game_id: int, user_id: int) -> list[Choice]:
        """What this user may do now in the game (empty for spectators, paused and closed
        games); cached per game version, so autocomplete asks the engine once per turn."""
        async with self._lock(game_id):
            record = self.store.game(game_id)
            if record is None or record.status != ACTIVE or record.paused:
                return []
            seat = _seat_of(self.store.seats(game_id), user_id)
            if seat is None:
                return []
            try:
                game = await self._live(record)
            except Refused:
                return []
            return await self._legal(record, game, seat.player_id)

    async def prompt(self, game_id: int, *, choices: bool = True) -> Prompt:
        """Who must act now and (unless `choices` is False) the first of them's legal choices,
        for the turn buttons."""
        async with self._lock(game_id):
            record = self._record(game_id)
            if record.status != ACTIVE:
                return Prompt(record.id, record.thread_id, record.version)
            game = await self._live(record)
            prompt = Prompt(record.id, record.thread_id, record.version,
                            notify=self._to_notify(record, game), mentioned=record.mentioned,
                            names=tuple(game.player_name(p) for p in game.active_players()))
            if record.paused or not game.active_players() or not choices:
                return prompt
            legal = await self._legal(record, game, game.active_players()[0])
            return replace(prompt, choices=tuple(legal))

    def open_requests(self, game_id: int) -> list[tuple[int, str]]:
        """(id, label) of the game's requests awaiting answers (for /game approve, /game
        reject and the status)."""
        record = self._record(game_id)
        out = []
        for r in self.store.open_requests(game_id):
            who = self._seat_name(record, r.requested_by)
            out.append((r.id, f"deal #{r.id} from {who}: {r.text}" if r.kind == DEAL else
                        f"undo request #{r.id} from {who}"))
        return out

    def mark_mentioned(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Remember who was just @mentioned as having to act (see `Prompt.mentioned`)."""
        self.store.set_mentioned(game_id, user_ids)

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

    async def view(self, game_id: int, view: str, renderer: Renderer | None) -> Result:
        """One image of the game for a spectator (`files` holds it as `<view>.png`)."""
        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            if view not in game.views():
                shown = ", ".join(game.views()) or "none"
                raise Refused(f"{record.title} has no {view} image (it has: {shown})")
            if renderer is None:
                raise Refused("images are not available here (no renderer installed)")
            png = await asyncio.to_thread(renderer, game, view)
            return Result(text=f"Game #{record.id} · {view}", game_id=record.id,
                          thread_id=record.thread_id, files=((f"{view}.png", png),))
        return await self._run(game_id, None, body)

    async def history(self, game_id: int, last: int = 10) -> Result:
        """The last `last` actions, numbered as /game rewind takes them."""
        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            if not 1 <= last <= HISTORY_LIMIT:
                raise Refused(f"history shows 1 to {HISTORY_LIMIT} actions, not {last}")
            actions = self.store.actions(record.id)
            if not actions:
                return Result(text=f"Game #{record.id} has no actions yet.", game_id=record.id)
            game = await self._live(record)
            lines = [f"{a.seq}. {self._sentence(game, a)}" for a in actions[-last:]]
            head = f"Game #{record.id}: actions {actions[-last:][0].seq}-{actions[-1].seq} " \
                   f"of {len(actions)}"
            return Result(text="\n".join([head, *lines]), game_id=record.id,
                          thread_id=record.thread_id)
        return await self._run(game_id, None, body)

    async def inspect(self, game_id: int, question: Callable[[Game], str]) -> Result:
        """Answer a read-only question about the live game (e.g. a company's best routes)."""
        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            text = await asyncio.to_thread(question, game)
            return Result(text=text, game_id=record.id, thread_id=record.thread_id)
        return await self._run(game_id, None, body)

    # -- administration ------------------------------------------------------------------------
    async def pause(self, game_id: int, caller: Caller, paused: bool,
                    interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "pause or resume it")
            if record.status != ACTIVE:
                raise Refused(f"game #{record.id} is not in play")
            if record.paused == paused:
                raise Refused(f"game #{record.id} is already {'paused' if paused else 'running'}")
            self.store.set_paused(record.id, paused, interaction_id)
            if paused:
                return self._changed(record, f"{caller.name} paused game #{record.id}; moves "
                                             "wait until an admin uses /game resume.")
            game = await self._live(record)
            return self._changed(record, f"{caller.name} resumed game #{record.id}.", game)
        return await self._run(game_id, interaction_id, body)

    async def abandon(self, game_id: int, caller: Caller,
                      interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "abandon it")
            if record.status == FINISHED:
                raise Refused(f"game #{record.id} is already over")
            lapsing = self.store.open_requests(record.id)
            self.store.abandon(record.id, interaction_id)
            self._forget(record.id)
            return self._changed(record, f"{caller.name} abandoned game #{record.id}; its log "
                                         f"is kept (/game export).{self._lapsed(record, lapsing)}")
        return await self._run(game_id, interaction_id, body)

    async def replace_seat(self, game_id: int, caller: Caller, seat: int, user_id: int,
                           name: str, interaction_id: int | None = None) -> Result:
        """Give a seat (with everything its player owns) to another user."""
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "replace a player")
            seats = self.store.seats(record.id)
            target = next((s for s in seats if s.seat == seat), None)
            if target is None:
                raise Refused(f"game #{record.id} has seats 1 to {len(seats)}, not {seat}")
            holder = _seat_of(seats, user_id)
            if holder is not None:
                raise Refused(f"{holder.name} already holds seat {holder.seat} of game "
                              f"#{record.id}")
            self.store.replace_seat(record.id, seat, user_id, name, interaction_id)
            self._forget(record.id)
            text = f"{caller.name} gave seat {seat} ({target.name}) of game #{record.id} to {name}."
            if record.status != ACTIVE:
                return self._changed(record, text)
            return self._changed(record, text, await self._live(record))
        return await self._run(game_id, interaction_id, body)

    async def set_reminders(self, game_id: int, caller: Caller, hours: float,
                            interaction_id: int | None = None) -> Result:
        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "change its reminders")
            if hours < 0:
                raise Refused("reminder hours cannot be negative (0 turns reminders off)")
            self.store.set_remind_hours(record.id, hours, interaction_id)
            text = (f"Game #{record.id} sends no reminders now." if hours == 0 else
                    f"Game #{record.id} reminds whoever must act after {hours:g} h without a "
                    "move.")
            return self._changed(record, text)
        return await self._run(game_id, interaction_id, body)

    def set_notify(self, caller: Caller, dm: bool) -> Result:
        self.store.set_dm(caller.user_id, dm)
        return Result(text="I will also send you a direct message when it is your turn."
                      if dm else "No more direct messages; you are still mentioned in the "
                                 "game's thread.")

    def wants_dm(self, user_id: int) -> bool:
        return self.store.wants_dm(user_id)

    # -- reminders -----------------------------------------------------------------------------
    def _remind_after(self, record: GameRecord) -> timedelta | None:
        hours = self.remind_hours if record.remind_hours is None else record.remind_hours
        return timedelta(hours=hours) if hours > 0 else None

    def _running(self) -> list[GameRecord]:
        return [r for r in self.store.games(statuses=[ACTIVE], limit=10**6) if not r.paused]

    def next_reminder(self) -> datetime | None:
        """When the next reminder falls due (None: no running game needs one)."""
        times = []
        for record in self._running():
            after = self._remind_after(record)
            if after is not None and record.turn_since:
                times.append(_since(record) + after)
        return min(times, default=None)

    async def due_reminders(self, now: datetime) -> list[Result]:
        """Reminders for every running game idle for its period, at most one per period (the
        time is stored, so a restart neither repeats nor forgets one)."""
        out = []
        for record in self._running():
            after = self._remind_after(record)
            if after is None or not record.turn_since or now < _since(record) + after:
                continue
            async with self._lock(record.id):
                try:
                    game = await self._live(record)
                except Refused:
                    continue
                notify = self._to_notify(record, game)
                names = ", ".join(game.player_name(p) for p in game.active_players())
                idle = now - datetime.fromisoformat(record.turn_since)
                self.store.mark_reminded(record.id, now.isoformat(timespec="seconds"))
            out.append(Result(text=f"Reminder: game #{record.id} has waited {_hours(idle)} for "
                                   f"{names or 'nobody'}.", game_id=record.id,
                              thread_id=record.thread_id, notify=notify))
        return out

    # -- game files ----------------------------------------------------------------------------
    async def import_game(self, caller: Caller, data: Any, users: Sequence[int | None] = (), *,
                          guild_id: int | None = None, channel_id: int | None = None,
                          thread_id: int | None = None,
                          interaction_id: int | None = None) -> Result:
        """A new game from an 18xx.games file: its players become the seats (engine player
        ids are the file's), `users[i]` takes seat i+1 (None: unclaimed until an admin gives
        it with replace_seat). The whole file must replay."""
        if interaction_id is not None and self.store.seen_interaction(interaction_id):
            return Result(duplicate=True, text=ALREADY_HANDLED)
        try:
            players, loaded, texts = await asyncio.to_thread(_load_file, data)
            if len(users) > len(players):
                raise Refused(f"the file has {len(players)} players but {len(users)} users "
                              "were given")
            given = [u for u in users if u is not None]
            if len(given) != len(set(given)):
                raise Refused("each user can take only one seat")
            seats = [(users[i] if i < len(users) and users[i] is not None else -(i + 1),
                      str(p.get("name", p["id"])), p["id"]) for i, p in enumerate(players)]
            game = loaded.game
            record = self.store.import_game(
                title=game.title, options=dict(game.options), seed=game.seed,
                creator_id=caller.user_id, seats=seats,
                actions=[game_files.imported(a) for a in _without_flags(game.actions)],
                texts=texts, finished=game.finished, guild_id=guild_id, channel_id=channel_id,
                thread_id=thread_id, interaction_id=interaction_id)
        except (Refused, GameError) as exc:
            return Result(error=str(exc))
        except DuplicateInteraction:
            return Result(duplicate=True, text=ALREADY_HANDLED)
        self._remember(record.id, game)
        listing = ", ".join(f"{n}. {name}" + ("" if uid > 0 else " (unclaimed)")
                            for n, (uid, name, _) in enumerate(seats, start=1))
        return self._changed(record, f"{caller.name} imported a {game.title} game as game "
                                     f"#{record.id} ({loaded.processed} actions). Seats: "
                                     f"{listing}.", game)

    async def export(self, game_id: int) -> Result:
        """The game as an 18xx.games-shaped JSON file (`files`)."""
        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            data = game_files.export(game, game_id=record.id,
                                     description=f"railchat game #{record.id}")
            payload = json.dumps(data, indent=1).encode()
            return Result(text=f"Game #{record.id}: {len(game.actions)} actions.",
                          game_id=record.id, thread_id=record.thread_id,
                          files=((f"railchat-{record.id}-{record.title}.json", payload),))
        return await self._run(game_id, None, body)

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

    def _require_started(self, record: GameRecord) -> None:
        if record.status == OPEN:
            raise Refused(f"game #{record.id} has not started yet; its creator starts it with "
                          "/game start")

    def _playing_seat(self, record: GameRecord, caller: Caller) -> SeatRecord:
        self._require_started(record)
        if record.abandoned:
            raise Refused(f"game #{record.id} was abandoned")
        if record.status == FINISHED:
            raise Refused(f"game #{record.id} is over")
        seat = _seat_of(self.store.seats(record.id), caller.user_id)
        if seat is None:
            raise Refused(f"you are not seated in game #{record.id}; spectators can only watch")
        if record.paused:
            raise Refused(f"game #{record.id} is paused; a game admin resumes it with "
                          "/game resume")
        return seat

    def _require_turn(self, record: GameRecord, game: Game, seat: SeatRecord) -> None:
        if seat.player_id not in game.active_players():
            raise Refused(f"it is not your turn in game #{record.id}; waiting for "
                          f"{_names(game, game.active_players())}")

    async def _legal(self, record: GameRecord, game: Game, player_id: Any) -> list[Choice]:
        """The engine's legal choices for one player, computed once per game version (the
        caller holds the game's lock, so the state cannot change meanwhile)."""
        key = (record.id, record.version, json.dumps(player_id))
        cached = self._choices.get(key)
        if cached is None:
            cached = await asyncio.to_thread(game.legal_actions, player_id)
            self._choices[key] = cached
            while len(self._choices) > CHOICE_CACHE:
                self._choices.popitem(last=False)
        self._choices.move_to_end(key)
        return cached

    def _lapsed(self, record: GameRecord, requests: list[Request]) -> str:
        """Lines saying which open requests the change just made lapse."""
        lines = []
        for r in requests:
            who = self._seat_name(record, r.requested_by)
            lines.append(f"Deal #{r.id} ({who}'s: {r.text}) lapsed: the game moved on before "
                         "it was accepted." if r.kind == DEAL else
                         f"{who}'s undo request #{r.id} lapsed: the game moved on.")
        return "".join("\n" + line for line in lines)

    def _seat_name(self, record: GameRecord, user_id: int) -> str:
        seat = _seat_of(self.store.seats(record.id), user_id)
        return seat.name if seat else f"user {user_id}"

    def _sentence(self, game: Game, record: ActionRecord) -> str:
        """The sentence stored with an action (rows from before sentences were stored are
        described again from the current position)."""
        return record.text if record.text is not None else self._describe(game, record.payload)

    @staticmethod
    def _describe(game: Game, action: Action) -> str:
        try:
            return game.describe(action)
        except Exception:  # an old action the current position cannot name still gets a line
            log.warning("cannot describe %s", action, exc_info=True)
            return f"{action.get('type', 'action')} by {action.get('entity', '?')}"

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
        """Users who must act (an unclaimed seat of an imported game has no user to ping)."""
        if game.finished:
            return ()
        active = game.active_players()
        return tuple(s.user_id for s in self.store.seats(record.id)
                     if s.player_id in active and s.user_id > 0)

    def _changed(self, record: GameRecord, text: str, game: Game | None = None) -> Result:
        if game is None:
            return Result(text=text, game_id=record.id, thread_id=record.thread_id, changed=True)
        if game.finished:
            text += "\nThe game is over. /game status shows the result."
        return Result(text=text, game_id=record.id, thread_id=record.thread_id, changed=True,
                      views=tuple(game.views()), notify=self._to_notify(record, game))


_STATUS_WORDS = {OPEN: "waiting for players", ACTIVE: "in play", FINISHED: "finished"}
_CLOSED = {  # why a request can no longer be answered, by kind and status
    (UNDO, "done"): "this undo request is already done",
    (UNDO, "rejected"): "this undo request was rejected",
    (UNDO, "void"): "the game has moved on since this undo was asked; ask again with /game undo",
    (DEAL, "done"): "this deal was already accepted and made",
    (DEAL, "rejected"): "this deal was declined or withdrawn",
    (DEAL, "void"): "this deal lapsed: the game moved on (or the seats changed) since it was "
                    "proposed; propose it again with /play",
}


def _status_word(record: GameRecord) -> str:
    if record.abandoned:
        return "abandoned"
    if record.paused:
        return "paused"
    return _STATUS_WORDS[record.status]


def _affected(actions: list[ActionRecord], requester: int) -> list[int]:
    """Users (other than the requester) whose actions an undo would take back, in order."""
    out: list[int] = []
    for a in actions:
        if a.user_id != requester and a.user_id not in out:
            out.append(a.user_id)
    return out


def _since(record: GameRecord) -> datetime:
    """The start of the reminder period: the turn's start or the last reminder."""
    assert record.turn_since is not None
    return datetime.fromisoformat(record.reminded_at or record.turn_since)


def _hours(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.0f} h" if hours < 48 else f"{hours / 24:.0f} days"


def _load_file(data: Any) -> tuple[list[dict[str, Any]], game_files.LoadedGame, list[str]]:
    """Replay an 18xx.games file whole (Refused says what is wrong with it), with the sentence
    of each action as it was applied."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) \
            or not isinstance(data.get("actions"), list):
        raise Refused("that is not an 18xx.games game file (it needs 'players' and 'actions')")
    players = data["players"]
    if not players or not all(isinstance(p, dict) and "id" in p for p in players):
        raise Refused("the file's players need an 'id' each")
    texts: list[str] = []
    try:
        loaded = game_files.load(data, on_state=lambda index, action, game: texts.append(
            GameService._describe(game, game.actions[-1])))
    except game_files.ReplayError as exc:
        raise Refused(f"the file does not replay: {exc}") from None
    return players, loaded, texts


def _without_flags(actions: list[Action]) -> list[Action]:
    """Imported actions as the file had them (the engine's private marks removed)."""
    return [{k: v for k, v in a.items() if not k.startswith("_")} for a in actions]


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


def _counterparty(game: Game, action: Action) -> PlayerId | None:
    """The other player whose property the action takes at a negotiated price (18xx: privates
    and trains), who must agree first."""
    if not isinstance(action, dict):
        return None  # a malformed action is left to the engine to refuse
    return game.counterparty(action)


def _sentence_on_copy(game: Game, action: Action) -> str:
    """What the action would do, told by the engine after applying it to a copy of the game
    (an illegal action raises the engine's GameError; the live game is untouched)."""
    scratch = copy.deepcopy(game)
    return GameService._describe(scratch, scratch.process(action))


def _seat_of(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
    return next((s for s in seats if s.user_id == user_id), None)


def _names(game: Game, player_ids: list[Any]) -> str:
    return ", ".join(game.player_name(p) for p in player_ids) or "nobody"
