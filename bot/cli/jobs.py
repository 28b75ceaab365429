"""Running a tool's games one after another or in worker processes (`--jobs`), and its
refusal of bad arguments."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def run_jobs(work: Callable[..., T], jobs: Sequence[tuple[Any, ...]], workers: int) -> list[T]:
    """`work(*job)` for each job, in order: here when `workers` is 1, else in that many worker
    processes (each job's arguments and result must pickle)."""
    if workers == 1:
        return [work(*job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(work, *zip(*jobs)))


def refuse(message: str) -> int:
    """Say why the command cannot run; its exit status (2, bad usage)."""
    print(f"railchat: {message}", file=sys.stderr)
    return 2


def bad_counts(games: int, workers: int) -> str | None:
    return "--games and --jobs must be at least 1" if games < 1 or workers < 1 else None
