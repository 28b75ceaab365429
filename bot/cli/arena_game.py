"""One arena game: computer seats play a whole game through the service, the path Discord's
moves take (`GameService.play` with the computer as the move builder), on a throwaway SQLite
store. What it measures: the result and rank of each seat, how the game ended, the CPU time of
each move (the whole `play` call: legal moves, decision, processing, storing) and the decisions
that fell back to a random move after a strategy error."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.computer.levels import Computer, ever_volunteers
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.game import Game

log = logging.getLogger(__name__)

USER_BASE = 5000  # fake user ids of the seats: USER_BASE + seat


@dataclass
class SeatReport:
    level: str
    seat: int  # 1-based, in join (= engine player) order
    score: int = 0
    rank: int = 0  # 1 = best; tied seats share the better rank
    win: float = 0.0  # 1 for a sole winner, 1/k for each of k tied winners
    bankrupt: bool = False
    move_cpu: list[float] = field(default_factory=list)  # seconds per move
    slowest: tuple[float, int, str] = (0.0, 0, "")  # its CPU seconds, the move's number, kind
    fallbacks: int = 0


@dataclass
class GameReport:
    title: str
    seed: int
    seats: list[SeatReport]
    end: str = ""  # the game's end reason, or "stuck" / "error: ..."
    moves: int = 0
    file: str | None = None


class _FallbackCounter(logging.Handler):
    """Counts the strategy errors the computers logged (each made a random move instead)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def play_game(
    title: str,
    levels: list[str],
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    max_moves: int = 20000,
    save_dir: Path | None = None,
    db_dir: Path,
) -> GameReport:
    """Play one game to its end (or `max_moves`) with one computer per level, seat i + 1
    playing `levels[i]`."""
    rng = random.Random(seed)
    engine_seed = rng.randrange(2**31)
    store = Store(db_dir / "arena.db", durable=False)
    service = GameService(store, new_seed=lambda: engine_seed)
    callers = [Caller(USER_BASE + i + 1, f"{lv}-{i + 1}") for i, lv in enumerate(levels)]
    computers = {i + 1: Computer(lv, i + 1, rng.randrange(2**31)) for i, lv in enumerate(levels)}
    report = GameReport(title, seed, [SeatReport(lv, i + 1) for i, lv in enumerate(levels)])
    counter = _FallbackCounter()
    logging.getLogger("bot.computer").addHandler(counter)
    try:
        game_id = await _seat_everyone(service, callers, title, options)
        while True:
            state = await service.peek(game_id, lambda g: (g.finished, g.active_players()))
            if state is None:
                report.end = "error: the game cannot be loaded"
                break
            finished, active = state
            if finished:
                break
            if report.moves >= max_moves:
                report.end = "stuck"
                break
            player = await _next_mover(service, game_id, active, computers, callers, title)
            seat = report.seats[player - 1]
            before_errors = counter.count
            started = time.process_time()
            result = await service.play(game_id, callers[player - 1], computers[player])
            spent = time.process_time() - started
            seat.move_cpu.append(spent)
            if spent > seat.slowest[0]:
                kind = str((result.action or {}).get("type", "?"))
                seat.slowest = (spent, report.moves + 1, kind)
            seat.fallbacks += counter.count - before_errors
            if result.error or result.vote is not None:
                report.end = f"error: seat {player} ({seat.level}): {result.error or result.text}"
                log.error("arena game %s: %s", seed, report.end)
                break
            report.moves += 1
        await service.peek(game_id, lambda g: _score(g, report))
        if save_dir is not None:
            report.file = await _save(service, game_id, save_dir / f"arena-{title}-{seed}.json")
    finally:
        logging.getLogger("bot.computer").removeHandler(counter)
        store.close()
    return report


async def _seat_everyone(
    service: GameService, callers: list[Caller], title: str, options: dict[str, Any] | None
) -> int:
    created = await service.create_game(callers[0], title, seats=len(callers), options=options)
    if created.error or created.game_id is None:
        raise ValueError(f"cannot create the game: {created.error}")
    for caller in callers[1:]:
        joined = await service.join(created.game_id, caller)
        if joined.error:
            raise ValueError(f"cannot seat {caller.name}: {joined.error}")
    started = await service.start(created.game_id, callers[0])
    if started.error:
        raise ValueError(f"cannot start the game: {started.error}")
    return created.game_id


async def _next_mover(
    service: GameService,
    game_id: int,
    active: list[Any],
    computers: dict[Any, Computer],
    callers: list[Caller],
    title: str,
) -> Any:
    """The player the game waits for (the first active one), unless another active player
    volunteers an optional move first (String Railway's rerolls before the first station)."""
    for player in active[1:]:
        if not ever_volunteers(title, computers[player].level):
            continue
        choices = await service.legal_actions(game_id, callers[player - 1].user_id)
        computer = computers[player]
        wants = await service.peek(game_id, lambda g: computer.volunteers(g, choices))
        if wants:
            return player
    return active[0]


def _score(game: Game, report: GameReport) -> None:
    scores = game.result()
    best = max(scores.values())
    winners = [p for p, s in scores.items() if s == best]
    bankrupt = {p.id for p in getattr(game, "player_list", []) if getattr(p, "bankrupt", False)}
    for seat in report.seats:
        seat.score = scores[seat.seat]
        seat.rank = 1 + sum(1 for s in scores.values() if s > seat.score)
        seat.win = 1 / len(winners) if seat.seat in winners else 0.0
        seat.bankrupt = seat.seat in bankrupt
    if not report.end:
        reason = getattr(game, "game_end_reason", None) or "end"  # String Railway: all rails laid
        report.end = reason if game.finished else "unfinished"


async def _save(service: GameService, game_id: int, path: Path) -> str:
    """The game file: 18xx.games JSON for 18xx titles, railchat's own shape for String Railway
    (both are what `railchat export` writes)."""
    exported = await service.export(game_id)
    if exported.error or not exported.files:
        raise ValueError(f"cannot export the game: {exported.error}")
    data = json.loads(exported.files[0][1])
    await asyncio.to_thread(_write, path, json.dumps(data, indent=1))
    return str(path)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def run_game(
    title: str,
    levels: list[str],
    seed: int,
    options: dict[str, Any] | None,
    max_moves: int,
    save_dir: str | None,
) -> GameReport:
    """One game in this process, on a database in a temporary folder (a worker's entry)."""
    with tempfile.TemporaryDirectory(prefix="railchat-arena-") as tmp:
        return asyncio.run(
            play_game(
                title,
                levels,
                seed,
                options=options,
                max_moves=max_moves,
                save_dir=Path(save_dir) if save_dir else None,
                db_dir=Path(tmp),
            )
        )
