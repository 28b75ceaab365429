"""The recorded 18xx.games games the engine must replay, and their reference states.

Copies of the 1830 and 1860 game records live under tests/data/fixtures so that the suite stands on its
own; ../shared/fixtures (when it is beside the checkout) may hold more, and its copy of a game
wins. A set is a folder name such as "1830" or "random/1830".
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
LOCAL_FIXTURES = ROOT / "tests" / "data" / "fixtures"


def game_files(game_set: str) -> list[Path]:
    found: dict[str, Path] = {}
    for base in (LOCAL_FIXTURES, SHARED_FIXTURES):
        folder = base / game_set
        if folder.is_dir():
            found.update({p.name: p for p in folder.glob("*.json")})
    return [found[name] for name in sorted(found)]


def require_games(game_set: str) -> list[Path]:
    files = game_files(game_set)
    if not files:
        pytest.skip(
            f"no recorded games for {game_set}: neither tests/data/fixtures/{game_set} "
            f"nor ../shared/fixtures/{game_set} exists"
        )
    return files


def game_path(game_set: str, stem: str) -> Path:
    return {p.stem: p for p in require_games(game_set)}[stem]


def game_ids(game_set: str) -> list[str]:
    return [p.stem for p in game_files(game_set)] or ["absent"]


def reference_states(path: Path) -> list[dict[str, Any]]:
    ref = path.parent / "states" / (path.stem + ".jsonl.gz")
    with gzip.open(ref, "rt") as fh:
        return [json.loads(line) for line in fh]


# Public-state fields compared with the reference engine's lines (../shared/fixtures/STATES.md).
COMPARED = (
    "round",
    "turn",
    "round_num",
    "active",
    "phase",
    "bank",
    "players",
    "corporations",
    "companies",
    "tiles",
    "depot",
    "discarded",
    "finished",
)


def state_differences(ours: Any, theirs: Any, where: str = "") -> list[str]:
    """Field paths where two public states differ, e.g. "corporations.PRR.cash: ours 0 ref 80"."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return [
            d
            for k in sorted(set(ours) | set(theirs), key=str)
            for d in state_differences(
                ours.get(k), theirs.get(k), f"{where}.{k}" if where else str(k)
            )
        ]
    if (
        isinstance(ours, list)
        and isinstance(theirs, list)
        and len(ours) == len(theirs)
        and all(isinstance(x, dict) for x in ours)
    ):
        return [
            d
            for i, (a, b) in enumerate(zip(ours, theirs))
            for d in state_differences(a, b, f"{where}[{i}]")
        ]
    return [] if ours == theirs else [f"{where}: ours {ours!r} ref {theirs!r}"]


def first_divergence(path: Path) -> tuple[int, str | None]:
    """Replay a fixture; (lines matching the reference, None) if all match, else (n, what differs
    first: the action and the fields, or why the replay stopped)."""
    from engine.eighteen import io
    from engine.eighteen.states import public_state

    data = json.loads(path.read_text())
    ref = reference_states(path)
    seen = [public_state(io.new_game(data))]
    stopped = None
    try:
        io.load(data, on_state=lambda idx, action, g: seen.append({"idx": idx, **public_state(g)}))
    except Exception as exc:  # noqa: BLE001 - reported, with where the replay stopped
        stopped = f"replay stopped: {type(exc).__name__}: {exc}"
    for n, (ours, theirs) in enumerate(zip(seen, ref)):
        diffs = [d for k in COMPARED for d in state_differences(ours.get(k), theirs.get(k), k)]
        if diffs:
            action = data["actions"][theirs["idx"]] if theirs["idx"] >= 0 else None
            return n, f"after action index {theirs['idx']} ({action}): " + "; ".join(diffs[:8])
    if len(seen) != len(ref):
        return min(
            len(seen), len(ref)
        ), stopped or f"{len(seen)} states, {len(ref)} reference lines"
    return len(ref), None
