"""What computer seats cost a game's commands, and the bot's event loop.

One person and three `standard` computer seats play whole games through the service as the bot
runs them: the person's move is a command (`GameService.play`, here decided by the `random`
level as a stand-in for a person), which also makes the computer moves due after it, at most
`MOVES_PER_CALL` of them; what remains is made by the worker's calls (`play_computers`), as the
bot's background task does. Measured: the wall time of each command and each worker call, how
many computer moves each made, and the longest stall of the event loop meanwhile (a ticker
sleeping 10 ms: the computers' decisions and the engine run off the loop, so it stays free).

Run: nice -n 19 python benchmarks/bench_computer_seats.py [--title 1830] [--games 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_loop_stall import ticker  # noqa: E402
from bot.computer.levels import Computer  # noqa: E402
from bot.core.results import Caller, Result  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.service.computers import MARK  # noqa: E402
from bot.core.store import Store  # noqa: E402

PERSON = Caller(10, "Ann")


def _computer_moves(result: Result | None) -> int:
    return 0 if result is None else result.text.count(MARK)


async def play(title: str, seed: int, calls: list[tuple[str, float, int]]) -> int:
    """One game to its end; (kind, seconds, computer moves) per call; the game's moves."""
    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(Store(Path(tmp) / "b.db", durable=False), new_seed=lambda: seed)
        made = await service.create_game(PERSON, title, seats=4, computers=3, level="standard")
        assert made.game_id is not None, made.error
        game_id = made.game_id
        started = time.perf_counter()
        result = await service.start(game_id, PERSON)
        calls.append(("command", time.perf_counter() - started, _computer_moves(result)))
        person = Computer("random", 1, seed)
        while True:
            for due in await service.due_computer_games():
                started = time.perf_counter()
                result = await service.play_computers(due)
                calls.append(("worker", time.perf_counter() - started, _computer_moves(result)))
            state = await service.peek(game_id, lambda g: (g.finished, g.active_players()))
            assert state is not None
            finished, active = state
            if finished:
                break
            if 1 not in active or await service.due_computer_games() != []:
                continue
            started = time.perf_counter()
            result = await service.play(game_id, PERSON, person)
            assert result.ok, result.error
            calls.append(("command", time.perf_counter() - started, _computer_moves(result)))
        moves = await service.store.action_count(game_id)
        service.store.close()
        return moves


async def main(title: str, games: int, seed: int) -> None:
    calls: list[tuple[str, float, int]] = []
    gaps: list[float] = []
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(stop, gaps))
    moves = 0
    began = time.perf_counter()
    for n in range(games):
        moves += await play(title, seed + n, calls)
    stop.set()
    await tick
    print(f"{title}: {games} games, {moves} moves, {time.perf_counter() - began:.0f} s")
    for kind in ("command", "worker"):
        times = sorted(t * 1000 for k, t, _ in calls if k == kind)
        made = [m for k, _, m in calls if k == kind]
        if not times:
            print(f"{kind}: none")
            continue
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{kind}: {len(times)} calls, ms median {statistics.median(times):.0f} "
            f"p99 {p99:.0f} max {times[-1]:.0f}; computer moves per call "
            f"mean {statistics.mean(made):.1f} max {max(made)}"
        )
    print(f"event loop: longest stall {max(gaps) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="1830")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.title, args.games, args.seed))
