"""The recorded 18xx.games games the engine must replay, and their reference states.

Copies of the 1830 game records live under tests/data/fixtures so that the suite stands on its
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
        pytest.skip(f"no recorded games for {game_set}: neither tests/data/fixtures/{game_set} "
                    f"nor ../shared/fixtures/{game_set} exists")
    return files


def game_path(game_set: str, stem: str) -> Path:
    return {p.stem: p for p in require_games(game_set)}[stem]


def game_ids(game_set: str) -> list[str]:
    return [p.stem for p in game_files(game_set)] or ["absent"]


def reference_states(path: Path) -> list[dict[str, Any]]:
    ref = path.parent / "states" / (path.stem + ".jsonl.gz")
    with gzip.open(ref, "rt") as fh:
        return [json.loads(line) for line in fh]
