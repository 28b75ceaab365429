"""One fuzzed game, played to its end through the service layer exactly as the bot drives it:
a GameService on a Store in a temporary SQLite file, moves sent as typed actions or as picks
from the legal choices (buttons), deals proposed and answered, undo, undo votes and rewinds.

After every change the invariants are checked and the game's export, replayed move by move
(mirror.py), must show the same public state; now and then, and at the end, the exported file
is also imported into a second service through its import command. Between moves illegal and
malformed actions are sent; each must be refused with a message and change nothing. The first
failure stops the game and is written as a game file that reproduces it.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import tempfile
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.fuzz.illegal import Attempt, malformed, mutants
from bot.core.fuzz.invariants import Invariants, public_state
from bot.core.fuzz.mirror import ExportMirror
from bot.core.fuzz.picking import PASS_KINDS, SHARE_KINDS, pick_move
from bot.core.moves import choice_key
from bot.core.results import Caller, Result
from bot.core.service import GameService
from bot.core.store import Store
from engine.game import Choice, Game
from engine.titles import find_title

NEVER_IN_A_REFUSAL = ("Traceback", "internal error", "Something went wrong")
ADMIN_ID = 1000
START = datetime(2030, 1, 1, tzinfo=UTC)  # the fuzzed games' clock at their first move


@dataclass
class GameReport:
    title: str
    seed: int
    finished: bool = False
    actions: int = 0  # moves stored (undone ones included)
    illegal: int = 0  # illegal or malformed moves sent, each refused
    deals: int = 0
    undos: int = 0
    rewinds: int = 0
    replays: int = 0  # export → import comparisons
    failure: str | None = None
    file: str | None = None  # the failure's game file, or the game's with save_dir
    refusals: dict[str, int] = field(default_factory=dict)
    programs: dict[str, int] = field(default_factory=dict)  # see `program_counts`


class Failure(Exception):
    """An invariant broken or a promise of the service not kept; the message says which."""


class FuzzGame:
    def __init__(
        self,
        title: str,
        players: int,
        seed: int,
        *,
        max_actions: int,
        replay_every: int,
        illegal_rate: float,
        out_dir: Path,
        db_dir: Path,
        save_dir: Path | None = None,
        options: Sequence[str] = (),
        program_rate: float = 0.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.program_rate = program_rate
        self.report = GameReport(title, seed)
        self.players, self.max_actions = players, max_actions
        self.replay_every, self.illegal_rate = replay_every, illegal_rate
        self.out_dir, self.save_dir = out_dir, save_dir
        engine_seed = self.rng.randrange(2**31)
        # half the games are played by careful sellers (long games, late phases), half not
        # (early bankruptcies); each option named is on in half the games it is made for
        self.careful = self.rng.random() < 0.5
        made_for = find_title(title).seats_by_option
        self.options = {
            name: True
            for name in options
            if self.rng.random() < 0.5 and players <= made_for.get(name, players)
        }
        self.store = fresh_store(db_dir / "fuzz.db")
        # an hour passes with every move stored, so that programs end at their dates
        self.service = GameService(self.store, new_seed=lambda: engine_seed, clock=self._clock)
        self.scratch = GameService(fresh_store(db_dir / "replay.db"))
        self.callers = [Caller(ADMIN_ID + i, f"P{i + 1}") for i in range(players)]
        self.spectator = Caller(999, "Spectator")
        self.game_id = 0
        self.last_action: Any = None
        self.pass_bias = 1.0
        self.share_moves = 0  # moves offered share dealing since the last move that was not
        self.service_game: Game | None = None  # the live game of the move being picked
        self.mirror = ExportMirror()
        self.listed_at: int | None = None  # the stored version `listed` was asked at
        self.listed: dict[int, list[Choice]] = {}

    # -- the game -------------------------------------------------------------------------------
    async def run(self) -> GameReport:
        try:
            await self._setup()
            self.invariants = Invariants(await self._game())
            await self._check("the start")
            while not (await self._game()).finished and self.report.actions < self.max_actions:
                if self.rng.random() < self.illegal_rate:
                    await self._illegal()
                await self._step()
            self.report.finished = (await self._game()).finished
            self.report.programs = program_counts((await self._game()).actions)
            if self.report.finished:
                await self._replay_matches()
            if self.save_dir is not None:
                self.report.file = await self._write_file(self.save_dir, {})
        except Exception as exc:  # noqa: BLE001 - an exception from the service is a finding
            failure = str(exc) if isinstance(exc, Failure) else _exception(exc)
            self.report.failure = failure
            self.report.file = await self._write_file(
                self.out_dir, {"failure": failure, "last_move": self.last_action}
            )
        finally:
            self.store.close()
            self.scratch.store.close()
        return self.report

    async def _setup(self) -> None:
        created = await self.service.create_game(
            self.callers[0], self.report.title, seats=self.players, options=self.options
        )
        _ok(created, "create the game")
        self.game_id = created.game_id or 0
        for caller in self.callers[1:]:
            _ok(await self.service.join(self.game_id, caller), "join")
        _ok(await self.service.start(self.game_id, self.callers[0]), "start")
        self.seats = await self.store.seats(self.game_id)  # fixed from now on

    async def _game(self) -> Game:
        game = await self.service.peek(self.game_id, lambda g: g)
        if game is None:
            raise Failure("the started game cannot be loaded")
        return game

    async def _legal(self, user_id: int) -> list[Choice]:
        """The service's legal moves for a user, asked once per stored version: the checks
        after a move, the refusals and the next move all look at the same position."""
        version = await self.store.version(self.game_id)
        if self.listed_at != version:
            self.listed_at, self.listed = version, {}
        if user_id not in self.listed:
            self.listed[user_id] = await self.service.legal_actions(self.game_id, user_id)
        return self.listed[user_id]

    def _caller(self, player_id: Any) -> Caller:
        seat = next(s for s in self.seats if s.player_id == player_id)
        return self.callers[seat.seat - 1]

    def _interaction(self) -> int:
        return self.rng.getrandbits(62)

    def _clock(self) -> datetime:
        return START + timedelta(hours=self.report.actions)

    # -- one move --------------------------------------------------------------------------------
    async def _step(self) -> None:
        if self.program_rate and self.rng.random() < self.program_rate:  # seeds' games kept
            await self._program()
        roll = self.rng.random()
        if roll < 0.015 and self.report.actions:
            return await self._undo()
        if roll < 0.02 and self.report.actions > 3:
            return await self._rewind()
        game = await self._game()
        actor = self._caller(self.rng.choice(game.active_players()))
        legal = await self._legal(actor.user_id)
        if not legal:
            raise Failure(f"{actor.name} must act but has no legal action")
        self.service_game = game
        choice = self._pick(legal)
        self.last_action = choice.action
        if self.rng.random() < 0.5:
            result = await self.service.act(self.game_id, actor, choice.action, self._interaction())
        else:
            result = await self.service.play(
                self.game_id, actor, lambda g, c: choice.action, interaction_id=self._interaction()
            )
        if result.error:
            raise Failure(
                f"the legal move {choice.label!r} {choice.action} was refused: {result.error}"
            )
        if result.vote is not None and result.vote_kind == "deal":
            await self._answer_deal(result, game, choice)
        else:
            self.report.actions += 1
        if choice.action.get("type") not in PASS_KINDS:
            self.pass_bias = 1.0
        await self._check(f"{choice.label!r} {choice.action}")

    async def _program(self) -> None:
        """A player, whether or not it is their turn, sets a programmed move of their own (a
        kind the title offers, drawn evenly among the kinds; an away one sometimes with an end
        date) or cancels one of theirs."""
        caller = self.rng.choice(self.callers)
        player = self._player_of(caller)
        game = await self._game()
        mine = game.standing_orders(player)
        if mine and self.rng.random() < 0.3:
            order = self.rng.choice(mine)
            what = f"cancel {order.text!r}"
            done = await self.service.cancel_order(self.game_id, caller, choice_key(order.cancel))
        else:
            kinds: dict[str, list[Choice]] = {}
            for offer in game.order_choices(player):
                kinds.setdefault(program_kind(offer.action), []).append(offer)
            if not kinds:
                return
            choice = self.rng.choice(self.rng.choice(list(kinds.values())))
            until = None
            if "until" in choice.action and self.rng.random() < 0.5:
                until = (self._clock() + timedelta(hours=self.rng.randint(1, 60))).isoformat()
            what = f"set {choice.label!r} until {until}"
            done = await self.service.set_order(
                self.game_id, caller, choice_key(choice.action), until=until
            )
        if done.error:
            raise Failure(f"{caller.name}'s programmed move ({what}) was refused: {done.error}")
        self.report.actions += 1
        await self._check(f"{caller.name}'s programmed move: {what}")

    def _pick(self, legal: list[Choice]) -> Choice:
        dealing = any(c.action.get("type") in SHARE_KINDS for c in legal)
        self.share_moves = self.share_moves + 1 if dealing else 0
        share = min(0.85, 0.01 + 0.025 * self.share_moves) if dealing else None
        game = self.service_game
        choice = pick_move(
            self.rng,
            legal,
            self.pass_bias,
            pass_share=share,
            careful=self.careful,
            deal=lambda a: game is not None and game.counterparty(a) is not None,
        )
        self.pass_bias = min(self.pass_bias * 1.15, 50.0)  # the longer a turn, the likelier Pass
        return choice

    async def _answer_deal(self, proposed: Result, game: Game, choice: Choice) -> None:
        self.report.deals += 1
        seller = self._caller(game.counterparty(choice.action))
        proposer_id = game.acting_player(choice.action)
        roll = self.rng.random()
        if roll < 0.6:
            answer = await self.service.vote(proposed.vote or 0, seller, True, self._interaction())
            if answer.ok:
                self.report.actions += 1
        elif roll < 0.8:
            answer = await self.service.vote(proposed.vote or 0, seller, False)
        else:
            answer = await self.service.vote(proposed.vote or 0, self._caller(proposer_id), False)
        if answer.error:
            raise Failure(
                f"answering deal #{proposed.vote} ({choice.action}) was refused: {answer.error}"
            )

    async def _undo(self) -> None:
        actions = await self.store.actions(self.game_id)
        caller = self.rng.choice(self.callers)
        before = len(actions)
        result = await self.service.undo(self.game_id, caller, self._interaction())
        if result.error:
            if actions and actions[-1].user_id == caller.user_id:
                raise Failure(
                    f"{caller.name}'s undo of their own last move was refused: {result.error}"
                )
            return
        self.report.undos += 1
        self.mirror.forget()
        if result.vote is not None:  # the others whose moves go back vote, one by one
            for voter in self.callers:
                if voter is caller:
                    continue
                vote = await self.service.vote(result.vote, voter, self.rng.random() < 0.7)
                if vote.error or "approved:" in vote.text or "rejected" in vote.text:
                    break
        await self._check(f"undo by {caller.name} ({before} actions before)")

    async def _rewind(self) -> None:
        count = await self.store.action_count(self.game_id)
        keep = max(0, count - self.rng.randint(1, 6))
        result = await self.service.rewind(self.game_id, self.callers[0], keep, self._interaction())
        if result.error:
            raise Failure(f"the admin's rewind to {keep} of {count} was refused: {result.error}")
        self.report.rewinds += 1
        self.mirror.forget()
        after = await self.store.actions(self.game_id)
        game = await self._game()  # other players' programs set since are set again after it
        if len(after) < keep or any(game.order_text(a.payload) is None for a in after[keep:]):
            raise Failure(f"rewind to {keep} left {len(after)} actions")
        await self._check(f"rewind to {keep}")

    # -- refusals ------------------------------------------------------------------------------
    async def _illegal(self) -> None:
        game = await self._game()
        active = game.active_players()
        actor = self._caller(self.rng.choice(active))
        legal = await self._legal(actor.user_id)
        attempts = [malformed(self.rng, legal), *mutants(self.rng, game, legal, tries=2)]
        idle = [
            c
            for c in self.callers
            if c.user_id != actor.user_id and self._player_of(c) not in active
        ]
        # each refusal must leave the stored game as it was, and all of them the position: the
        # picture is compared once after them all (a change by any one of them shows there)
        version, picture = await self.store.version(self.game_id) or 0, public_state(game)
        sent = [(actor, a) for a in attempts] + self._wrong_senders(idle, legal)
        for sender, attempt in sent:
            await self._refused(sender, attempt, version)
        if public_state(await self._game()) != picture:
            tried = "; ".join(f"{a.kind} {a.action!r:.120} by {who.name}" for who, a in sent)
            raise Failure(f"one of these refused moves changed the position: {tried}")

    def _player_of(self, caller: Caller) -> Any:
        return next(s.player_id for s in self.seats if s.user_id == caller.user_id)

    def _wrong_senders(
        self, idle: list[Caller], legal: list[Choice]
    ) -> list[tuple[Caller, Attempt]]:
        if not legal:
            return []
        move = self.rng.choice(legal).action
        out = [(self.spectator, Attempt("not seated", move))]
        if idle:
            out.append((self.rng.choice(idle), Attempt("not their turn", move)))
        return out

    async def _refused(self, sender: Caller, attempt: Attempt, version: int) -> None:
        """`version`: the stored game's version, which the refusal must leave as it is."""
        result = await self.service.act(self.game_id, sender, attempt.action, self._interaction())
        self.report.illegal += 1
        what = f"{attempt.kind} move {attempt.action!r:.300} by {sender.name}"
        if result.ok:
            raise Failure(f"the {what} was accepted: {result.text}")
        error = result.error or ""
        if not error.strip() or any(w in error for w in NEVER_IN_A_REFUSAL):
            raise Failure(f"the {what} was refused without a proper message: {result.error!r}")
        self.report.refusals[attempt.kind] = self.report.refusals.get(attempt.kind, 0) + 1
        if await self.store.version(self.game_id) != version:
            raise Failure(f"the refused {what} changed the stored game")

    # -- checks ----------------------------------------------------------------------------------
    async def _check(self, after: str) -> None:
        game = await self._game()
        legal = {p: await self._legal(self._caller(p).user_id) for p in game.active_players()}
        problems = self.invariants.problems(game, legal)
        problems += self.mirror.problems(game, public_state(game))
        stored = await self.store.action_count(self.game_id)
        if stored != len(game.actions):
            problems.append(f"{stored} actions stored but the game has {len(game.actions)}")
        if problems:
            raise Failure(f"after {after}: " + "; ".join(problems))
        if self.replay_every and self.report.actions % self.replay_every == 0:
            await self._replay_matches()

    async def _replay_matches(self) -> None:
        """Export the game, import the file into a second service: the same public state.
        What the players' export leaves out until the end (a deck's seed) is put back from
        the game, as its host would, and nothing else."""
        exported = await self.service.export(self.game_id)
        if exported.error or not exported.files:
            raise Failure(f"export failed: {exported.error}")
        data = json.loads(exported.files[0][1])
        game = await self._game()
        hidden = {k: v for k, v in game.file_settings().items() if k in game.hidden_settings}
        if not game.finished and set(hidden) & set(data["settings"]):
            raise Failure(f"the export shows what is hidden until the end: {sorted(hidden)}")
        data["settings"].update(hidden)
        imported = await self.scratch.import_game(self.callers[0], data)
        if imported.error:
            raise Failure(f"the exported game does not import: {imported.error}")
        copy = await self.scratch.peek(imported.game_id or 0, lambda g: g)
        self.report.replays += 1
        if copy is None or public_state(copy) != public_state(game):
            raise Failure("the exported game replays to a different public state")

    async def _write_file(self, folder: Path, about: dict[str, Any]) -> str:
        """The game file (18xx.games shape) as it stands, with the run's seed and `about`
        (for a failure: what failed and the move sent last) under `railchat_fuzz`."""
        try:
            exported = await self.service.export(self.game_id)
            data = json.loads(exported.files[0][1]) if exported.files else {}
        except Exception as exc:  # noqa: BLE001 - the failure itself may break the export
            data = {"export_error": repr(exc)}
        data.setdefault("actions", [a.payload for a in await self.store.actions(self.game_id)])
        data["railchat_fuzz"] = {
            "title": self.report.title,
            "seed": self.report.seed,
            "players": self.players,
            "careful": self.careful,
            "options": self.options,
            **about,
        }
        path = folder / f"fuzz-{self.report.title}-{self.report.seed}.json"
        await asyncio.to_thread(_save, path, json.dumps(data, indent=1, default=str))
        return str(path)


_TEMPLATES: dict[str, Any] = {}  # this process's migrated empty database (a TemporaryDirectory)


def fresh_store(path: Path) -> Store:
    """A new empty database at `path`, copied from one migrated once per process: creating
    and migrating each game's two databases cost more than playing the game. Commits are not
    flushed to disk (`durable=False`): the fuzzer checks rules and replays, not power cuts
    (benchmarks/crash_test.py does)."""
    if "dir" not in _TEMPLATES:
        _TEMPLATES["dir"] = tempfile.TemporaryDirectory(prefix="railchat-fuzz-template-")
        Store(Path(_TEMPLATES["dir"].name) / "empty.db").close()
    shutil.copyfile(Path(_TEMPLATES["dir"].name) / "empty.db", path)
    return Store(path, durable=False)


def program_kind(action: dict[str, Any]) -> str:
    """A programmed move's kind, as the fuzzer draws them: its type, and for railchat's own
    its program and whether it names a company or a limit."""
    kind = str(action.get("type"))
    if "program" in action:
        kind += ":" + str(action["program"])
    for named in ("company", "limit"):
        if action.get(named) is not None:
            kind += f"+{named}"
    return kind


def program_counts(actions: list[dict[str, Any]]) -> dict[str, int]:
    """How many programs of each kind a game's log set and cancelled, how many moves they
    made, and how many stopped by themselves (each with its reason's kind)."""
    counts: dict[str, int] = {}

    def add(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for action in actions:
        if str(action.get("type")).startswith(("program_", "railchat_program")):
            add(program_kind(action))
        for auto in action.get("auto_actions") or []:
            if auto.get("reason") not in (None, "user"):
                add(f"stopped:{program_kind(auto)}")
            elif not str(auto.get("type")).startswith(("program_", "railchat_program")):
                add(f"made:{auto.get('_house', '18xx.games')}")
    return counts


def _exception(exc: Exception) -> str:
    """An exception that escaped the service, with where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (
        f"exception {type(exc).__name__}: {exc} at {where.filename}:{where.lineno} ({where.name})"
    )


def _ok(result: Result, what: str) -> None:
    if result.error:
        raise Failure(f"could not {what}: {result.error}")


async def fuzz_game(
    title: str,
    players: int,
    seed: int,
    *,
    max_actions: int = 4000,
    replay_every: int = 0,
    illegal_rate: float = 0.2,
    out_dir: Path = Path("fuzz-failures"),
    save_dir: Path | None = None,
    options: Sequence[str] = (),
    program_rate: float = 0.0,
) -> GameReport:
    """Play one seeded game through a fresh service on a temporary database; `save_dir`
    keeps every game's file (for replaying them elsewhere, e.g. on 18xx.games);
    `program_rate`: the chance, before each move, that a player sets or cancels a programmed
    move."""
    with tempfile.TemporaryDirectory(prefix="railchat-fuzz-") as tmp:
        return await FuzzGame(
            title,
            players,
            seed,
            max_actions=max_actions,
            replay_every=replay_every,
            illegal_rate=illegal_rate,
            out_dir=out_dir,
            db_dir=Path(tmp),
            save_dir=save_dir,
            options=options,
            program_rate=program_rate,
        ).run()


def _save(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
