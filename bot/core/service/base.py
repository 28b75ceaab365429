"""The service's shared machinery: the per-game lock, the live-game cache, permission checks
and the shape of a `Result`. The command mixins (tables, playing, views) build on it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from bot.core import ratings
from bot.core.config import DEFAULT_GAME_CAPS, DEFAULT_REMIND_HOURS
from bot.core.results import Caller, Refused, Result
from bot.core.service.images import ImageCache
from bot.core.shards import Shards
from bot.core.store import (
    ACTIVE,
    DEAL,
    FINISHED,
    OPEN,
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    OverCap,
    Request,
    SeatRecord,
    StaleGame,
    Store,
    StoreBusy,
    past_caps,
)
from bot.core.user_settings import UserSettings
from engine.errors import GameError
from engine.game import Action, Choice, Game, PlayerId, PlayerInfo
from engine.series import ChartSeries
from engine.titles import create_game, find_title

log = logging.getLogger(__name__)

ALREADY_HANDLED = "That command was already handled."
STALE = (
    "game #{} changed while your command was handled (another move was stored first); "
    "nothing of yours was stored: look at the game again and retry"
)
BUSY = "the game's database is busy; nothing was stored, try again in a moment"
HISTORY_LIMIT = 50
LEASE_SECONDS = 120.0  # how long a process that died holding a lease delays that work
CHOICE_CACHE = 64
IMPORTED_BY = 0  # user id recorded for the actions of an imported game file
# a user is pinged about requests of one kind from one requester at most once in this time
PING_COOLDOWN = timedelta(minutes=10)

T = TypeVar("T")
# Draws one view (a name from Game.views(), or "focus" with the places changed and the runs
# made) of a game as PNG bytes; supplied by render/. It reads only the game's title, options,
# actions, views() and snapshot(): a spectator's image is drawn from a `Still` copy of those.
Renderer = Callable[..., bytes]
# Turns the caller's legal choices (and the live game, for typed routes) into one action.
MoveBuilder = Callable[[Game, list[Choice]], Action]
# the computer seats' moves after a change: their lines, the map places and the moves
ComputerTurns = tuple[str, tuple[str, ...], tuple[Action, ...]]


class GameMoved(Exception):
    """The game's version moved on since a picture of it was asked for (the picture would
    show a change its text does not tell)."""


def random_seed(title: type[Game]) -> int:
    """A new game's seed, drawn from `secrets` as its title asks (String Railway's is secret)."""
    return title.new_seed(secrets.randbits)


def utc_now() -> datetime:
    return datetime.now(UTC)


def stored_time(text: str) -> datetime:
    """A time as stored (ISO 8601, UTC); one without a zone is taken as UTC."""
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def store_time(when: datetime) -> str:
    """A time as the store writes it (UTC, to the second)."""
    return when.astimezone(UTC).isoformat(timespec="seconds")


class ServiceBase:
    """State shared by the command mixins; see `bot.core.service.GameService`."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 16,
        new_seed: Callable[[], int] | None = None,
        remind_hours: float = DEFAULT_REMIND_HOURS,
        game_caps: tuple[int, int] = DEFAULT_GAME_CAPS,
        shards: Shards | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        """`new_seed`: one seed maker for every new game (tests, the arena); None: each title's
        own random seed. `game_caps`: how many games not yet over one server, and one user, may
        have opened; `shards`: the Discord shards this process serves (None: every server), whose games
        alone its sweeps (reminders) take up. `clock` is the front end's time (the engine
        never reads one), for what depends on it: reminders, absences, quiet hours, how long
        a turn has waited, standing orders' end dates."""
        self.store = store
        self.shards = shards
        self.clock = clock
        # this process, as it signs the leases it holds (see `_leased`)
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.game_caps = game_caps
        self.cache_size = cache_size
        self.remind_hours = remind_hours
        self._new_seed = new_seed
        # game id: (the version and seats it was built for, the game)
        self._cache: OrderedDict[int, tuple[tuple[int, str], Game]] = OrderedDict()
        # (game, version, player[, kinds]): the legal choices computed for them
        self._choices: OrderedDict[tuple[Any, ...], list[Choice]] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._seat_memo: dict[int, list[SeatRecord]] = {}
        # games whose computer seats have moves due past one command's share (`computers`)
        self._computers_due: set[int] = set()
        self.computers_waiting = asyncio.Event()  # set when a game joins that list
        self.computers_held = False  # set when the front end closes: no computer move starts
        # (game, version_key): the game's chart series (see service/charts.py)
        self._series: OrderedDict[tuple[int, tuple[int, str]], ChartSeries] = OrderedDict()
        self._images = ImageCache()  # what the public image buttons show (service/views.py)

    async def _run(
        self,
        game_id: int,
        interaction_id: int | None,
        body: Callable[[GameRecord], Awaitable[Result]],
        guild_id: int | None,
    ) -> Result:
        """Run one command on a game of the caller's server (`guild_id`), under its lock."""
        async with self._holding(game_id):
            if interaction_id is not None and await self.store.seen_interaction(interaction_id):
                return Result(duplicate=True, game_id=game_id, text=ALREADY_HANDLED)
            try:
                return await body(await self._record(game_id, guild_id))
            except (Refused, GameError) as exc:
                return Result(error=str(exc), game_id=game_id)
            except DuplicateInteraction:
                return Result(duplicate=True, game_id=game_id, text=ALREADY_HANDLED)
            except (StaleGame, StoreBusy) as exc:
                self._forget(game_id)
                return Result(error=storage_refusal(exc, game_id), game_id=game_id)

    @asynccontextmanager
    async def _leased(
        self, names: Sequence[str], seconds: float = LEASE_SECONDS
    ) -> AsyncIterator[set[str]]:
        """Those of `names` this process got (see `Store.claim_leases`), held while the block
        runs: work that every process's sweep may find is done by the one that got it."""
        got = await self.store.claim_leases(names, self.holder, seconds) if names else []
        try:
            yield set(got)
        finally:
            if got:
                await self.store.release_leases(got, self.holder)

    @asynccontextmanager
    async def _holding(self, game_id: int) -> AsyncIterator[None]:
        """The game's lock, for one command at a time; the seats read during the command are
        read once (nothing else changes them while the lock is held). A command cancelled
        (the bot closing) may leave the live game ahead of its stored log, or an engine
        thread still working on it: it is dropped, to be rebuilt from the log."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            self._seat_memo.pop(game_id, None)
            try:
                yield
            except asyncio.CancelledError:
                self._forget(game_id)
                raise
            finally:
                self._seat_memo.pop(game_id, None)

    async def _seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, read once per command (see `_holding`); `_seats_changed` after
        a command changes them."""
        seats = self._seat_memo.get(game_id)
        if seats is None:
            seats = self._seat_memo[game_id] = await self.store.seats(game_id)
        return seats

    def _seats_changed(self, game_id: int) -> None:
        self._seat_memo.pop(game_id, None)

    async def _record(self, game_id: int, guild_id: int | None) -> GameRecord:
        """The game, if it belongs to server `guild_id` (None: the console's games): a game
        of another server is not found, so nothing of it shows."""
        record = await self._visible(game_id, guild_id)
        if record is None:
            raise Refused(f"there is no game #{game_id}")
        return record

    async def _guild_of(self, game_id: int) -> int | None:
        record = await self.store.game(game_id)
        return record.guild_id if record else None

    async def _visible(self, game_id: int, guild_id: int | None) -> GameRecord | None:
        record = await self.store.game(game_id)
        return record if record is not None and record.guild_id == guild_id else None

    def _new_game_shape(
        self, title: str, seats: int | None, options: Mapping[str, Any] | None
    ) -> tuple[type[Game], int]:
        cls = find_title(title)
        cls.check_options(options or {})  # InvalidAction says which option and why
        seat_limit = cls.max_players if seats is None else seats
        if not cls.min_players <= seat_limit <= cls.max_players:
            raise Refused(
                f"{cls.title} is played by {cls.min_players} to {cls.max_players} "
                f"players, not {seat_limit}"
            )
        cls.check_seats(options or {}, seat_limit)
        return cls, seat_limit

    async def _require_room(self, caller: Caller) -> None:
        """Refuse a new game past the caps on games not yet over (per server, per user)
        before anything is made for it (a Discord thread); the store counts again when it
        makes the game (`OverCap`), where creators racing each other cannot pass together."""
        here, theirs = await self.store.open_game_counts(caller.guild_id, caller.user_id)
        if past_caps(self.game_caps, here, theirs):
            raise Refused(self._over_cap(OverCap(here, theirs)))

    def _over_cap(self, over: OverCap) -> str:
        """Why a new game is refused when a cap on games not yet over was reached."""
        server_cap, user_cap = self.game_caps
        if over.theirs >= user_cap:
            return (
                f"you have opened {over.theirs} games that are not over yet (at most "
                f"{user_cap}); finish or abandon one first"
            )
        return (
            f"this server has {over.here} games that are not over yet (at most {server_cap}); "
            "an admin can abandon old ones with /game-admin abandon"
        )

    def _is_admin(self, record: GameRecord, caller: Caller) -> bool:
        return caller.is_admin or caller.user_id == record.creator_id

    def _require_admin(self, record: GameRecord, caller: Caller, what: str) -> None:
        if not self._is_admin(record, caller):
            raise Refused(f"only the creator of game #{record.id} or a server admin can {what}")

    def _require_started(self, record: GameRecord) -> None:
        if record.status == OPEN:
            raise Refused(
                f"game #{record.id} has not started yet; its creator starts it with /game start"
            )

    def _require_playable(self, record: GameRecord) -> None:
        """Only reading while a game is paused or abandoned: no move, undo, redo or answer."""
        self._require_started(record)
        if record.abandoned:
            raise Refused(f"game #{record.id} was abandoned; it can only be read now")
        if record.paused:
            raise Refused(
                f"game #{record.id} is paused; nothing changes until a game admin resumes it "
                "with /game-admin resume (its creator: /game status)"
            )

    async def _playing_seat(self, record: GameRecord, caller: Caller) -> SeatRecord:
        self._require_playable(record)
        if record.status == FINISHED:
            raise Refused(f"game #{record.id} is over")
        seat = seat_of(await self._seats(record.id), caller.user_id)
        if seat is None:
            raise Refused(f"you are not seated in game #{record.id}; spectators can only watch")
        return seat

    def _require_turn(self, record: GameRecord, game: Game, seat: SeatRecord) -> None:
        if seat.player_id not in game.active_players():
            raise Refused(
                f"it is not your turn in game #{record.id}; waiting for "
                f"{player_names(game, game.active_players())}"
            )

    async def _legal(
        self, record: GameRecord, game: Game, player_id: Any, kinds: Collection[str] | None = None
    ) -> list[Choice]:
        """The engine's legal choices for one player (of `kinds` of action only, when given),
        computed once per game version (the caller holds the game's lock, so the state cannot
        change meanwhile). The whole list, once made, also answers for any kinds."""
        whole = (record.id, record.version, json.dumps(player_id))
        if kinds is not None and whole in self._choices:
            return [c for c in self._choices[whole] if c.action.get("type") in kinds]
        key = whole if kinds is None else (*whole, tuple(sorted(kinds)))
        cached = self._choices.get(key)
        if cached is None:
            cached = await asyncio.to_thread(game.legal_actions, player_id, kinds)
            self._choices[key] = cached
            while len(self._choices) > CHOICE_CACHE:
                self._choices.popitem(last=False)
        self._choices.move_to_end(key)
        return cached

    async def _offered(
        self, record: GameRecord, game: Game, player_id: Any, kinds: Collection[str] | None = None
    ) -> list[Choice]:
        """The legal choices a menu offers the player: those a deal would be refused for
        (another player's property, and nobody to agree) left out."""
        legal = await self._legal(record, game, player_id, kinds)
        seats = await self._seats(record.id)

        def refused(choice: Choice) -> bool:
            other = game.counterparty(choice.action)
            return other not in (None, player_id) and deal_refusal(game, seats, other) is not None

        return [c for c in legal if not refused(c)]

    async def _lapsed(self, record: GameRecord, requests: list[Request]) -> str:
        """Lines saying which open requests the change just made lapse."""
        lines = []
        for r in requests:
            who = await self._seat_name(record, r.requested_by)
            lines.append(
                f"Deal #{r.id} ({who}'s: {r.text}) lapsed: the game moved on before "
                "it was accepted."
                if r.kind == DEAL
                else f"{who}'s undo request #{r.id} lapsed: the game moved on."
            )
        return "".join("\n" + line for line in lines)

    async def _before_move(
        self, record: GameRecord, game: Game, move: Action | None, by: PlayerId | None
    ) -> GameRecord:
        """What is done to the game before the player `by`'s `move` is (standing orders whose
        end date has come are cancelled: see `Orders`), only once the move is known to be
        legal, so that a refused move changes nothing; the record as it is after."""
        return record

    async def _told(
        self, record: GameRecord, news: list[tuple[PlayerId, str]], asker: int
    ) -> tuple[str, list[tuple[int, str]]]:
        """What an action did to standing orders, told to each player concerned alone: the
        asker's sentences (one text), and a note (user, text) for each other seated user."""
        users = {s.player_id: s.user_id for s in await self._seats(record.id)}
        mine = [text for pid, text in news if users.get(pid) == asker]
        notes = [
            (users[pid], f"Game #{record.id}: {text}")
            for pid, text in news
            if users.get(pid, asker) != asker and users[pid] > 0
        ]
        return " ".join(mine), notes

    async def _hushed(self, kind: str, requested_by: int, users: Iterable[int]) -> tuple[int, ...]:
        """Those of `users` pinged about a `kind` request from `requested_by` within
        `PING_COOLDOWN`, who are not pinged again (the others' pings are recorded now): one
        mechanism for every kind of request, so asking again and again floods nobody."""
        asked = [u for u in dict.fromkeys(users) if u > 0]
        now = self.clock()
        due = await self.store.ping_due(
            kind, requested_by, asked, store_time(now), store_time(now - PING_COOLDOWN)
        )
        return tuple(u for u in asked if u not in due)

    async def _seat_name(self, record: GameRecord, user_id: int) -> str:
        seat = seat_of(await self._seats(record.id), user_id)
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
        """The game at the record's version: the cached copy unless the stored version or the
        seats moved (another process changed the game), else rebuilt from the stored log."""
        seats = await self._seats(record.id)
        cached = self._cache.get(record.id)
        if cached is not None and cached[0] == version_key(record.version, seats):
            game = cached[1]
        else:
            # sqlite stays on this thread; only the engine's replay runs in a worker
            actions = await self.store.actions(record.id)
            game = await asyncio.to_thread(_replay, record, seats, actions)
        await self._remember(record.id, game, record.version, seats)
        return game

    async def _fresh(self, record: GameRecord) -> GameRecord:
        """The record again, after this command changed it."""
        return await self.store.game(record.id) or record

    async def _remember(
        self, game_id: int, game: Game, version: int, seats: list[SeatRecord] | None = None
    ) -> None:
        if seats is None:
            seats = await self._seats(game_id)
        self._cache[game_id] = (version_key(version, seats), game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def _to_notify(self, record: GameRecord, game: Game) -> tuple[int, ...]:
        """Users who must act (an unclaimed seat has no user to ping; a seat the computer
        plays is never pinged: it moves at once)."""
        if game.finished:
            return ()
        active = game.active_players()
        return tuple(
            s.user_id for s in await self._seats(record.id) if s.player_id in active and s.human
        )

    async def _changed(self, record: GameRecord, text: str, game: Game | None = None) -> Result:
        if game is None:
            await self._clock_after(record, None)
            return Result(text=text, game_id=record.id, thread_id=record.thread_id, changed=True)
        played, places, moves = await self._computer_turns(record, game)
        await self._clock_after(record, game)
        text = "\n".join(t for t in (text, played) if t)
        cached = self._cache.get(record.id)  # the live game is remembered at its version
        if game.finished:
            text += "\nThe game is over. /game status shows the result."
            if cached is not None and cached[1] is game:
                await self._rate(record, game, cached[0][0])
        return Result(
            text=text,
            game_id=record.id,
            thread_id=record.thread_id,
            changed=True,
            views=tuple(game.views()),
            notify=await self._to_notify(record, game),
            version=cached[0][0] if cached is not None and cached[1] is game else None,
            places=places,
            computer_moves=moves,
        )

    async def _rate(self, record: GameRecord, game: Game, version: int) -> None:
        """Rate the game that just ended (at `version`); the store makes sure it counts once.
        A game that ranks fewer than two (an imported file's seats nobody claimed) rates
        nobody: one place alone says nothing of anyone's skill."""
        who = ratings.entrants(await self._seats(record.id), game.result())
        if len(who) >= 2:
            await self.store.rate_game(record.id, version, who, ratings.rate, ratings.FRESH)

    async def _computer_turns(self, record: GameRecord, game: Game) -> ComputerTurns:
        """The computer seats' moves made after a change: none here (see `computers`)."""
        return "", (), ()

    async def clock_left(self, record: GameRecord) -> str:
        """The game's clock as players read it ("" without one; see `clocks`)."""
        return ""

    async def _clock_after(self, record: GameRecord, game: Game | None) -> None:
        """The game's clock after a change (its turn, its deadline; `game` None: a change
        that moved nothing on the board, such as a pause): none here (see `clocks`)."""

    async def _settings_changed(self, user_id: int, before: UserSettings) -> None:
        """The user's quiet hours, time zone or absence changed from `before`: the deadlines of
        the turns they must play move with them (none here; see `clocks`)."""


_STATUS_WORDS = {OPEN: "waiting for players", ACTIVE: "in play", FINISHED: "finished"}


def status_word(record: GameRecord) -> str:
    if record.abandoned:
        return "abandoned"
    if record.paused:
        return "paused"
    return _STATUS_WORDS[record.status]


def _replay(record: GameRecord, seats: list[SeatRecord], actions: list[ActionRecord]) -> Game:
    players = [PlayerInfo(player_of(s), s.name) for s in seats]
    try:
        game = create_game(record.title, players, record.options, record.seed or 0)
        for a in actions:  # a refusal throws this copy away
            game.process(a.payload, atomic=False, replay_length=len(actions))
    except GameError as exc:
        log.exception("game %s does not replay from its stored log", record.id)
        raise Refused(f"game #{record.id} cannot be rebuilt from its log: {exc}") from exc
    log.info("rebuilt game %s from %d actions", record.id, len(actions))
    return game


def deal_refusal(game: Game, seats: list[SeatRecord], other: PlayerId) -> str | None:
    """Why a deal taking player `other`'s property cannot be asked of them (None: it can):
    the computer makes no deals, and an empty seat has nobody to agree."""
    seller = next((s for s in seats if s.player_id == other), None)
    if seller is not None and seller.computer is not None:
        return (
            f"this deal takes {seller.name}'s property, and the computer plays that seat: "
            "it makes no deals"
        )
    if seller is None or seller.user_id <= 0:
        return (
            f"this deal takes {game.player_name(other)}'s property and nobody holds that seat "
            "to agree to it; a game admin can give the seat with /game-admin replace"
        )
    return None


def acting_seats(game: Game, seats: Iterable[tuple[int, PlayerId | None]]) -> tuple[int, ...]:
    """The seats (number, engine player) whose players must act now; none once the game is
    over. Stored with each change of the log, so a player's turns in all their games are
    found without replaying them."""
    if game.finished:
        return ()
    active = game.active_players()
    return tuple(seat for seat, player in seats if player is not None and player in active)


def seat_players(seats: Iterable[SeatRecord]) -> list[tuple[int, PlayerId | None]]:
    return [(s.seat, s.player_id) for s in seats]


def player_of(seat: SeatRecord) -> PlayerId:
    """The engine player a seat plays as (fixed when the game starts)."""
    if seat.player_id is None:
        raise Refused(f"seat {seat.seat} of game #{seat.game_id} has no player yet")
    return seat.player_id


def seat_of(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
    return next((s for s in seats if s.user_id == user_id), None)


def player_names(game: Game, player_ids: list[Any]) -> str:
    return ", ".join(game.player_name(p) for p in player_ids) or "nobody"


def storage_refusal(exc: StaleGame | StoreBusy, game_id: int | None) -> str:
    """What a user reads when the database refused a change (nothing was stored): another
    process changed the game first, or held the write lock past the busy timeout."""
    if isinstance(exc, StoreBusy):
        log.warning("database busy for game %s: %s", game_id, exc)
        return BUSY
    log.warning("game %s changed meanwhile: %s", game_id, exc)
    return STALE.format(game_id)


def move_digest(action: Action) -> str:
    """A short name for a move as sent (see `Store.repeated`)."""
    return hashlib.sha256(json.dumps(action, sort_keys=True, default=str).encode()).hexdigest()[:32]


def version_key(version: int, seats: list[SeatRecord]) -> tuple[int, str]:
    """What a cached game was built for: the log's version and the seats' names (a seat
    handed over elsewhere renames a player without a new version)."""
    return version, json.dumps([(s.player_id, s.name) for s in seats], default=str)
