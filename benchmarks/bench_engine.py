"""Engine speed in one command: replay time per recorded game (and the 18xx.games engine's on
the same files when its oracle is installed), legal-move listing at every position, the cost of
a refused move late in a game, and the start-up time of the command-line tools.

Run: python benchmarks/bench_engine.py [--title 1830] [--repeat 5] [--quick]
Times are wall-clock medians on an otherwise idle machine; `--quick` lists legal moves at every
10th position only. The 18xx.games times come from ../shared/oracle/replay.rb (strict mode,
start-up excluded) when `ruby` and its engine (ORACLE_SRC, default /tmp/18xx-src) are present.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.memory import freeze_loaded_code  # noqa: E402
from engine.eighteen import io  # noqa: E402
from engine.errors import GameError  # noqa: E402
from tests.reference_games import game_files  # noqa: E402

ORACLE = ROOT.parent / "shared" / "oracle"


def median_ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def ruby_seconds(path: Path, repeat: int) -> float | None:
    src = os.environ.get("ORACLE_SRC", "/tmp/18xx-src")
    if (
        not shutil.which("ruby")
        or not (Path(src) / "lib" / "engine.rb").exists()
        or not ORACLE.is_dir()
    ):
        return None
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            ["ruby", str(ORACLE / "replay.rb"), str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "ORACLE_SRC": src},
            cwd=ORACLE,
        )
        try:
            runs.append(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])
        except (ValueError, IndexError, KeyError):
            return None
    return statistics.median(runs)


def replays(files: list[Path], repeat: int, ruby_repeat: int) -> None:
    print("== replay (median ms; ratio to the 18xx.games engine where measured)")
    for path in files:
        data = json.loads(path.read_text())
        io.load(data)  # warm-up: imports and per-process caches
        ours = median_ms(lambda: io.load(data), repeat)
        actions = len(data["actions"])
        ruby = ruby_seconds(path, ruby_repeat) if ruby_repeat else None
        ratio = f", ruby {ruby * 1000:.0f} ms, ratio {ours / (ruby * 1000):.2f}" if ruby else ""
        print(
            f"{path.parent.name}/{path.stem}: {actions} actions, {ours:.0f} ms "
            f"({ours / actions * 1000:.0f} µs per action){ratio}",
            flush=True,
        )


def legal_moves(files: list[Path], every: int) -> None:
    """Each listing's time includes any garbage collection that falls in it. As in the bot,
    the code loaded at start-up is frozen out of the collector; each game is a process's game
    of its own, so the one before it is collected first (it is garbage, not the listing's)."""
    print(
        f"== legal moves of whoever must act, at every {'' if every == 1 else f'{every}th '}position"
    )
    freeze_loaded_code()
    pauses: list[float] = []
    started: list[float] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                started[:] = [time.perf_counter()]
            elif started:
                pauses.append((time.perf_counter() - started[0]) * 1000)

    times: list[float] = []
    worst = (0.0, "")
    gc.callbacks.append(watch)
    for path in files:
        data = json.loads(path.read_text())
        gc.collect()
        pauses.clear()
        game = io.new_game(data)
        for n, (_, action) in enumerate(io.effective_actions(data["actions"])):
            if n % every == 0 and not game.finished:
                for pid in game.active_players():
                    start = time.perf_counter()
                    game.legal_actions(pid)
                    took = (time.perf_counter() - start) * 1000
                    times.append(took)
                    if took > worst[0]:
                        worst = (took, f"{path.stem} before #{action.get('id')}")
            game.process(io.imported(action), atomic=False)
        full = f"{len(pauses)} full, worst {max(pauses):.0f} ms" if pauses else "none full"
        print(f"  {path.stem}: garbage collections during the game: {full}", flush=True)
    gc.callbacks.remove(watch)
    times.sort()
    print(
        f"{len(times)} listings: median {statistics.median(times):.1f} ms, p95 "
        f"{times[int(len(times) * 0.95)]:.1f} ms, worst {worst[0]:.1f} ms ({worst[1]})"
    )


def refusal(files: list[Path], repeat: int) -> None:
    path = max(files, key=lambda p: len(json.loads(p.read_text())["actions"]))
    data = json.loads(path.read_text())
    upto = min(800, len(data["actions"]) - 2)
    game = io.load(data, upto=upto).game
    bad = {
        "type": "par",
        "entity": game.players[0].id,
        "entity_type": "player",
        "corporation": "PRR",
        "share_price": "100,0,6",
    }

    def refuse() -> None:
        try:
            game.process(bad)
        except GameError:
            return
        raise AssertionError("the probe move was accepted")

    print(
        f"== a refused move after {len(game.actions)} actions ({path.stem}): "
        f"{median_ms(refuse, repeat * 20):.2f} ms"
    )


def startup(repeat: int) -> None:
    print("== command start-up (`python -m bot.cli X --help`; bare `python -c pass` for scale)")
    base = median_ms(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat)
    print(f"python -c pass: {base:.0f} ms")
    for command in ("replay", "states", "routes", "render", "export"):
        took = median_ms(
            lambda: subprocess.run(
                [sys.executable, "-m", "bot.cli", command, "--help"],
                cwd=ROOT,
                check=True,
                capture_output=True,
            ),
            repeat,
        )
        print(f"railchat {command} --help: {took:.0f} ms ({took - base:.0f} ms above bare python)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--title", default="1830")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ruby-repeat", type=int, default=3, help="0 skips the 18xx.games engine")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    files = game_files(args.title) + game_files(f"random/{args.title}")
    if not files:
        print(f"no recorded {args.title} games: nothing to measure")
        return 0
    replays(files, args.repeat, args.ruby_repeat)
    legal_moves(files, 10 if args.quick else 1)
    refusal(files, args.repeat)
    startup(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
