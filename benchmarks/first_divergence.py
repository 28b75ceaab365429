"""Replay 18xx.games fixtures and print the first action where our public state differs from
the reference line: `python -m benchmarks.first_divergence FILE.json [...]`."""
from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from engine.eighteen import io
from engine.eighteen.states import public_state
from tests.fixtures_1830 import reference_states

COMPARED = ("round", "turn", "round_num", "active", "phase", "bank", "players", "corporations",
            "companies", "tiles", "depot", "discarded", "finished")


def diff(ours: object, theirs: object, where: str = "") -> list[str]:
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out = []
        for k in sorted(set(ours) | set(theirs), key=str):
            out += diff(ours.get(k), theirs.get(k), f"{where}.{k}")
        return out
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs) and \
            all(isinstance(x, dict) for x in ours):
        return [d for i, (a, b) in enumerate(zip(ours, theirs)) for d in diff(a, b, f"{where}[{i}]")]
    return [] if ours == theirs else [f"{where}: ours {ours!r} ref {theirs!r}"]


def first_divergence(path: Path) -> tuple[int, str]:
    data = json.loads(path.read_text())
    ref = reference_states(path)
    seen = [public_state(io.new_game(data))]
    error = ""
    try:
        io.load(data, on_state=lambda idx, action, g: seen.append({"idx": idx, **public_state(g)}))
    except Exception as exc:  # report where the replay stopped
        error = f"replay stopped: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=-3)}"
    for n, (ours, theirs) in enumerate(zip(seen, ref)):
        keys = [k for k in COMPARED if ours.get(k) != theirs.get(k)]
        if keys:
            action = data["actions"][theirs["idx"]] if theirs["idx"] >= 0 else None
            lines = [d for k in keys for d in diff(ours.get(k), theirs.get(k), k)][:12]
            return n, f"line {n} idx {theirs['idx']} action {action}\n  " + "\n  ".join(lines)
    if len(seen) != len(ref):
        return min(len(seen), len(ref)), f"{len(seen)} states vs {len(ref)} reference lines. {error}"
    return len(ref), "OK"


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        n, text = first_divergence(Path(arg))
        print(f"{Path(arg).name}: {n} lines match; {text}")
