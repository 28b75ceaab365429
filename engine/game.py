"""The title-neutral game contract that the service layer, the console and the bot rely on.

A game is derived from (title, players, options, seed, actions). `process` applies one action
whole or raises a GameError and leaves the game exactly as it was: titles mutate freely in
`_apply`, and on failure the base class puts back the state it saved (engine/checkpoint.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

from engine import checkpoint
from engine.errors import GameError, GameOver, IllegalAction, InvalidAction
from engine.shapes import MOVE, check_bounded, check_ids

if TYPE_CHECKING:
    from engine.series import ChartSeries

T = TypeVar("T")

Action = dict[str, Any]
PlayerId = int | str
COMMON_FIELDS = frozenset({"type", "entity", "entity_type"})  # every move may name who acts


class _Unchanged:
    """How many times the game has changed, and a state saved after some of them: valid while
    the count holds."""

    __slots__ = ("changes", "saved_at", "saved")

    def __init__(self) -> None:
        self.changes = 0
        self.saved_at = 0
        self.saved: checkpoint.Saved | None = None


@dataclass(frozen=True)
class PlayerInfo:
    id: PlayerId
    name: str


@dataclass(frozen=True)
class Choice:
    """One legal option for autocomplete and buttons: `action` can be processed as it is."""

    label: str
    action: Action = field(hash=False, compare=False)


@dataclass(frozen=True)
class TurnInfo:
    """Who must act and on what, for a turn prompt: the player (None: any player, for a company
    without a director), the company they act for (None when for themselves), the step, the facts that matter now (cash, trains...) and what
    is compulsory (None when every move is optional)."""

    player: PlayerId | None
    acting_for: str | None
    step: str
    facts: tuple[str, ...] = ()
    compulsory: str | None = None


@dataclass(frozen=True)
class Standing:
    """A standing order of one player (a programmed move the game makes for them when it falls
    due): what it does in words, after "you"; the move that cancels it; and the date and time
    (ISO, UTC) at which a front end cancels it, if it has one."""

    text: str
    cancel: Action = field(hash=False, compare=False)
    until: str | None = None


class Game(ABC):
    title: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    # options made for fewer players than the title seats: the most each is made for
    seats_by_option: ClassVar[Mapping[str, int]] = {}
    option_names: ClassVar[tuple[str, ...]] = ()
    # the options that are only switched on or off
    flag_options: ClassVar[tuple[str, ...]] = ()
    # file settings that tell what players may not know while the game runs (a deck's order)
    hidden_settings: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def new_seed(cls, randbits: Callable[[int], int]) -> int:
        """A new game's seed from `randbits` (the service passes `secrets.randbits`: the engine
        draws nothing itself). 31 bits, as 18xx.games files carry; a title whose seed deals
        what players may not see needs one no one can search."""
        return randbits(31)

    def __init__(
        self, players: Sequence[PlayerInfo], options: Mapping[str, Any] | None = None, seed: int = 0
    ) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise InvalidAction(
                f"{self.title} needs {self.min_players} to {self.max_players} "
                f"players, not {len(players)}"
            )
        unknown = set(options or {}) - set(self.option_names)
        if unknown:
            raise InvalidAction(f"unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        self.players: list[PlayerInfo] = list(players)
        self.options: dict[str, Any] = dict(options or {})
        self.seed = seed
        self.actions: list[Action] = []
        # (number of actions, the state just after them): the start's and the latest few of
        # one every HISTORY_EVERY actions, which `rewind_to` restores instead of replaying all
        self._history: list[tuple[int, checkpoint.Packed]] = []
        self._unchanged = _Unchanged()
        self.setup()

    # -- what a title implements -------------------------------------------------------------
    @abstractmethod
    def setup(self) -> None:
        """Build the initial state from players, options and seed."""

    @abstractmethod
    def _apply(self, action: Action, *, story: bool = True) -> Action:
        """Apply one action (may mutate before failing); return the action as recorded.
        `story=False`: nobody will read this action's sentence (a replay or a probe), so the
        bookkeeping kept only to narrate it can be skipped."""

    @abstractmethod
    def active_players(self) -> list[PlayerId]:
        """Players who must act now (a company's president acts for it)."""

    @property
    @abstractmethod
    def finished(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[PlayerId, int]:
        """Final (or current) score per player id."""

    def score_text(self, score: int) -> str:
        """A score as players read it in a ranking (18xx: money, "$1,477")."""
        return str(score)

    @abstractmethod
    def describe(self, action: Action) -> str:
        """One sentence for the channel: what this (already applied) action did."""

    @abstractmethod
    def status_text(self) -> str:
        """A short plain-text summary of the position: round, who acts, key numbers."""

    def legal_actions(self, player: PlayerId, kinds: Collection[str] | None = None) -> list[Choice]:
        """Every complete action this player may take now (titles refine this); `kinds` limits
        the list to those action types, so that a frontend computes only what it shows."""
        return []

    def explain(self, action_type: str) -> str | None:
        """Why whoever must act now cannot take this kind of action (None: no specific reason)."""
        return None

    def explain_choice(self, action_type: str, text: str) -> str | None:
        """Why none of the legal moves of this type is the one the player named in `text`
        (e.g. a share over the holding limit, a train not yet for sale), stating the rule
        (None: no specific reason)."""
        return None

    def counterparty(self, action: Action) -> PlayerId | None:
        """Another player who must agree before this action is applied (a negotiated sale of
        their property), or None. Titles without such deals keep this default."""
        return None

    def revealed(self, seq: int) -> bool:
        """Whether the log's action `seq` (1-based) drew what no player could see until then
        (String Railway: the stations a turn's end draws): taken back at once, its player
        would replay knowing the draw. Titles that hide nothing keep False."""
        return False

    def views(self) -> tuple[str, ...]:
        """Names of the images the renderer can draw for this title."""
        return ()

    def typed_action(self, entity: PlayerId, action_type: str, typed: Mapping[str, str]) -> Action:
        """A complete action from what a player typed, for moves whose details are free-form
        rather than picked from `legal_actions` (String Railway: a station's x y, a rail's path).
        It is checked only when processed. Titles without such moves keep this refusal."""
        raise InvalidAction(
            f"{self.title} has no typed {action_type} moves; pick one of the suggestions"
        )

    def preview(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """What the action would do, without doing it: a sentence and a snapshot to draw with
        the move shown (None: the title shows no previews). Raises GameError if illegal."""
        return None

    def hints(self, player: PlayerId) -> list[Choice]:
        """Good moves for the player now, best first, as complete actions (none by default)."""
        return []

    def player_view(self) -> Game:
        """The game as any seated player sees it, for a computer player to judge moves on: a
        title that keeps something hidden (String Railway's undrawn stations) gives a copy
        without it. Titles without hidden information give the game itself, to be read (or
        tried on with `try_out`), never changed."""
        return self

    @classmethod
    def check_seats(cls, options: Mapping[str, Any], seats: int) -> None:
        """Refuse a new table of `seats` that its options are not made for (a recorded game
        is replayed as it was played, so only new tables are asked)."""
        for name, most in cls.seats_by_option.items():
            if options.get(name) and seats > most:
                raise InvalidAction(
                    f"{name} is made for {cls.min_players} to {most} players, not {seats}: "
                    f"open the game with seats:{most} or fewer"
                )

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Refuse, in one sentence, an option the title does not know or a value it cannot be
        played with, before any game is made (a chat front end asks before it opens a thread).
        Cheap whatever the values; a title with options of its own extends it."""
        unknown = sorted(set(options) - set(cls.option_names))
        if unknown:
            known = ", ".join(cls.option_names) or "none"
            raise InvalidAction(
                f"unknown option(s) for {cls.title}: {', '.join(unknown)} (known: {known})"
            )
        for name in cls.flag_options:
            if name in options and not is_flag(options[name]):
                raise InvalidAction(
                    f"option {name} is only on or off ({name} or {name}=false), "
                    f"not {str(options[name])[:40]!r}"
                )

    @classmethod
    def options_from_settings(cls, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A game file's `settings` as options (18xx.games files: its optional rules)."""
        return {name: True for name in settings.get("optional_rules") or []}

    def file_settings(self) -> dict[str, Any]:
        """The `settings` of this game's file, read back by `options_from_settings`."""
        return {
            "seed": self.seed,
            "optional_rules": sorted(k for k, v in self.options.items() if v),
        }

    def action_fields(self) -> Mapping[str, frozenset[str]] | None:
        """The fields (besides type, entity, entity_type) of each kind of move a user may type,
        or None when the title names none (then only the generic bounds apply)."""
        return None

    def acting_player(self, action: Action) -> PlayerId | None:
        """The player who controls the entity the action acts for (a company's president, a
        private's owner), or None when the action names no such entity."""
        return action.get("entity") if action.get("entity_type") == "player" else None

    # -- what a user may submit ----------------------------------------------------------------
    def check_submission(self, action: Action) -> None:
        """A move typed by a user rather than picked from `legal_actions`: bounded in size,
        a known type with only that type's fields, ids that are names or whole numbers, and no
        internal marks (`_`-prefixed keys, `auto_actions`, which only replayed game files
        carry). Raises InvalidAction."""
        check_bounded(action, MOVE, "the action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise InvalidAction("an action is a JSON object with a string 'type'")
        internal = sorted(k for k in action if k.startswith("_") or k == "auto_actions")
        if internal:
            raise InvalidAction(f"{', '.join(internal)} cannot be sent in a move")
        check_ids(action)  # before a deal is made of it (`counterparty`), not only when applied
        fields = self.action_fields()
        if fields is None:
            return
        kind = action["type"]
        if kind not in fields:
            raise InvalidAction(
                f"unknown action type {kind!r}; moves are: {', '.join(sorted(fields))}"
            )
        extra = sorted(set(action) - COMMON_FIELDS - fields[kind])
        if extra:
            allowed = ", ".join(sorted(fields[kind])) or "none besides entity"
            raise InvalidAction(f"a {kind} move has no {', '.join(extra)} (its fields: {allowed})")

    def any_time(self, action: Action) -> bool:
        """Whether a player may send this action whether or not it is their turn: a standing
        order (such as 18xx.games' programmed moves, which act for their own seat), or a move
        the rules allow between other players' turns (the title judges it when processed)."""
        return False

    # -- standing orders (programmed moves); a title without them keeps these defaults ------------
    def order_choices(self, player: PlayerId) -> list[Choice]:
        """The standing orders the player may set now, each a complete move labelled in words
        after "you" ("pass in this stock round until another player's move changes things")."""
        return []

    def standing_orders(self, player: PlayerId) -> list[Standing]:
        """The player's standing orders now. Only that player may be shown them."""
        return []

    def order_text(self, action: Action) -> str | None:
        """What a move that sets or cancels a standing order does, told to the player who sent
        it alone (None: the move is not one). Such a move changes no position."""
        return None

    def cancels_order(self, action: Action) -> bool:
        """Whether a standing-order move cancels one (rather than sets one)."""
        return False

    def orders_set(self, player: PlayerId) -> int:
        """How many standing orders the player has set by hand since the round began (each is
        an action in the log; a front end caps them so that no flood of them makes the log
        too long to import)."""
        return 0

    def public_orders(self) -> list[tuple[PlayerId, str]]:
        """The standing orders every player may be told of (no more than the title's game
        file shows everyone), each with its player, in words after the player's name ("passes
        in this stock round until another player's move changes things")."""
        return []

    def order_news(self) -> list[tuple[PlayerId, str]]:
        """What the last action did to standing orders, one sentence per player concerned, told
        to that player alone: an order set, replaced, or stopped and why."""
        return []

    def file_actions(self) -> list[Action]:
        """The log as a game file has it (a title may leave out what only railchat reads)."""
        return self.actions

    def turn_info(self) -> list[TurnInfo]:
        """One entry per entity that must act now (empty when the title tells nothing more)."""
        return []

    def reference_topics(self) -> tuple[str, ...]:
        """The topics `reference` answers one at a time (none: only the whole sheet)."""
        return ()

    def reference(self, topic: str | None = None) -> str:
        """Rules reference at hand (a title's privates, phases, limits...); ValueError for an
        unknown topic."""
        if topic is not None:
            raise ValueError(f"{self.title} has no reference topics")
        return f"{self.title} has no reference sheet."

    def round_name(self) -> str:
        """The round under way ("Operating Round 2.1"); a frontend shows the whole board when
        it changes. "" for titles without rounds."""
        return ""

    def changed_places(self) -> tuple[str, ...]:
        """Map places (hexes) the last action changed, for a close-up view; () when none."""
        return ()

    def chart_series(self) -> ChartSeries | None:
        """How the game went so far, as its charts draw it (engine/series.py); None: the title
        has no charts. It replays the whole log, so a frontend keeps it per game version."""
        return None

    def chart_names(self) -> tuple[tuple[str, str], ...]:
        """(key, title) of each chart `chart_series` draws, without computing any (a menu)."""
        return ()

    def ranking(self) -> tuple[tuple[str, int], ...]:
        """(name, score) of every player, best first, as the result counts them."""
        scores = sorted(self.result().items(), key=lambda kv: -kv[1])
        return tuple((self.player_name(pid), score) for pid, score in scores)

    # -- shared machinery ----------------------------------------------------------------------
    # Attributes a checkpoint keeps by reference: the log (only ever appended to, after success)
    # and the seats and options (fixed at creation).
    # `_unchanged` counts changes across restores (so is never put back).
    CHECKPOINT_SHARED: ClassVar[tuple[str, ...]] = (
        "actions",
        "players",
        "options",
        "_history",
        "_unchanged",
    )
    # Checkpoints of the history cost about 55 KiB each (an 1830 game late on), and every one
    # kept is visited by each full garbage collection (packed: one list each). One every 50
    # actions, the latest 4 kept (and the start's): taking back any of the last 200 or so
    # moves replays at most 49.
    HISTORY_EVERY: ClassVar[int] = 50
    HISTORY_KEPT: ClassVar[int] = 4

    def process(
        self,
        action: Action,
        by: PlayerId | None = None,
        *,
        atomic: bool = True,
        story: bool | None = None,
        replay_length: int | None = None,
    ) -> Action:
        """Apply one action; `by` is the player submitting it, who must control the entity
        it acts for (their own seat, a company they preside, a private they own). A refused
        action leaves the game exactly as it was (its state is saved first and put back).
        `atomic=False` skips the save, for replays that throw the game away on a refusal (and
        that describe no action as it happens, unless `story` says otherwise). A replay that
        knows how long the log will be (`replay_length`) takes only the history checkpoints
        still kept at its end."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise InvalidAction("an action is a JSON object with a string 'type'")
        check_ids(action)
        if self.finished and action["type"] != "message":
            raise GameOver("the game is over")
        if by is not None:
            self._check_actor(action, by)
        if not self._history:
            self._remember(0)
        saved = self.saved_state() if atomic else None
        try:
            recorded = self._apply(action, story=atomic if story is None else story)
        except GameError:
            if saved is not None:
                checkpoint.restore(saved)
            raise
        except Exception as exc:  # a bug must not leave a half-applied state behind
            if saved is not None:
                checkpoint.restore(saved)
            raise GameError(f"internal error while applying {action['type']}: {exc}") from exc
        self._unchanged.changes += 1
        self.actions.append(recorded)
        count = len(self.actions)
        if count % self.HISTORY_EVERY == 0 and (
            replay_length is None or count > replay_length - self.HISTORY_EVERY * self.HISTORY_KEPT
        ):
            self._remember(count)
        return recorded

    def saved_state(self) -> checkpoint.Saved:
        """The game's state, saved: the same save serves every refusal and probe until the game
        changes (each of them puts back exactly what it saved), so a position is walked once."""
        unchanged = self._unchanged
        if unchanged.saved is None or unchanged.saved_at != unchanged.changes:
            unchanged.saved, unchanged.saved_at = checkpoint.save(self), unchanged.changes
        return unchanged.saved

    def _remember(self, count: int) -> None:
        """Keep the state after `count` actions in the history (packed: kept for long)."""
        self._history.append((count, checkpoint.Packed(self.saved_state())))
        if len(self._history) > self.HISTORY_KEPT + 1:
            del self._history[1]  # the oldest but the start's

    def rewind_to(self, count: int) -> None:
        """Take the game back to just after its first `count` actions (an undo or a rewind):
        the latest kept checkpoint at or before them is put back and the actions after it are
        applied again, as a replay of the log would apply them."""
        if not 0 <= count <= len(self.actions):
            raise ValueError(f"cannot rewind {len(self.actions)} actions to {count}")
        if count == len(self.actions):
            return
        self._forget_history_after(count)
        at, saved = self._history[-1]
        again = self.actions[at:count]
        saved.restore()
        self._unchanged.changes += 1
        del self.actions[at:]
        for action in again:
            self.process(action, atomic=False, replay_length=count)

    def _forget_history_after(self, count: int) -> None:
        while self._history and self._history[-1][0] > count:
            self._history.pop()

    def try_out(self, action: Action, by: PlayerId | None, look: Callable[[Game, Action], T]) -> T:
        """What `look` sees of the game with the action applied; then the game is put back as
        it was (a refusal raises, as `process` would). Telling what a move would do, e.g. to
        the other side of a deal, costs no copy of the game."""
        saved = self.saved_state()
        count, changes = len(self.actions), self._unchanged.changes
        try:
            return look(self, self.process(action, by, atomic=False, story=True))
        finally:
            checkpoint.restore(saved)
            del self.actions[count:]
            self._forget_history_after(count)
            self._unchanged.changes = changes  # the game is as it was

    def looking_back(self, count: int, watch: Callable[[Self, Action | None], None]) -> None:
        """Show `watch` the game as it was after its first `count` actions (with None), then
        after each later action (with it, told as it happened), and put the game back as it
        is: what changed since a point of the game costs a rewind (`rewind_to`) and the
        actions after it, not a replay of the whole log."""
        saved = self.saved_state()
        actions, changes = list(self.actions), self._unchanged.changes
        try:
            self.rewind_to(count)
            watch(self, None)
            for action in actions[count:]:
                watch(self, self.process(action, atomic=False, story=True))
        finally:
            checkpoint.restore(saved)
            self.actions[:] = actions
            unchanged = self._unchanged  # the save made before the walk is the state again
            unchanged.changes, unchanged.saved, unchanged.saved_at = changes, saved, changes

    def is_legal(self, action: Action) -> bool:
        """Would this action be accepted now? Tried on the game itself, then undone."""
        return self.legality_probe()(action)

    def legality_probe(self) -> Callable[[Action], bool]:
        """A test of actions against the position as it is now: each is tried on the game and
        undone. The state is saved once for all of them (see `saved_state`), which is what makes
        listing every legal move cheap."""

        def probe(action: Action) -> bool:
            if (
                not isinstance(action, dict)
                or not isinstance(action.get("type"), str)
                or self.finished
            ):
                return False
            saved = self.saved_state()
            try:
                self._apply(action, story=False)
            except GameError:
                return False
            finally:
                checkpoint.restore(saved)
            return True

        return probe

    def replayed(self, watch: Callable[[Self], None]) -> Self:
        """A fresh copy of this game (its seats, options and seed) with its log applied again,
        shown to `watch` before the first action and after each: how a title looks back over
        the whole game in one pass (its charts)."""
        copy = type(self)(self.players, self.options, self.seed)
        watch(copy)
        actions = list(self.actions)
        for action in actions:
            copy.process(action, atomic=False, replay_length=len(actions))
            watch(copy)
        return copy

    def _check_actor(self, action: Action, by: PlayerId) -> None:
        owner = self.acting_player(action)
        if owner is None or owner == by:
            return
        if action.get("entity_type") == "player":
            raise IllegalAction("you can only act for your own seat")
        raise IllegalAction(
            f"{action.get('entity')} is {self.player_name(owner)}'s: only the "
            "player who owns a private or presides a company acts for it"
        )

    def player_name(self, pid: PlayerId) -> str:
        for p in self.players:
            if p.id == pid:
                return p.name
        return str(pid)


def is_flag(value: Any) -> bool:
    """Whether a value is on or off as the titles read it (true, false, 1 or 0)."""
    return isinstance(value, bool) or (type(value) is int and value in (0, 1))
