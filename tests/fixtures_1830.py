"""Where the shared 18xx.games fixtures live, and a skip when they are absent."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
FIXTURES = SHARED / "fixtures"


def fixture_files(title: str) -> list[Path]:
    folder = FIXTURES / title
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"))


def require_fixtures(title: str) -> list[Path]:
    files = fixture_files(title)
    if not files:
        pytest.skip(f"../shared/fixtures/{title} is absent: the 18xx.games acceptance games cannot run")
    return files


def reference_states(path: Path) -> list[dict[str, Any]]:
    ref = path.parent / "states" / (path.stem + ".jsonl.gz")
    with gzip.open(ref, "rt") as fh:
        return [json.loads(line) for line in fh]


def fixture_ids(title: str) -> list[str]:
    return [p.stem for p in fixture_files(title)] or ["absent"]
