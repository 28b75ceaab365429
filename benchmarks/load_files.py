"""The game files of the load benchmark (`benchmarks/load.py`): each recorded or fuzzed file
replayed once, with who made each move and the sentence it is told with, so the crowd can send
the moves as their players and recognise them in the threads."""

from __future__ import annotations

import hashlib
import pickle
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.service.base import ServiceBase
from engine.eighteen import io as game_files

FILE_FIELDS = ("id", "created_at", "user", "auto_actions")  # a file's, beside the move sent
ENGINE = Path(__file__).resolve().parent.parent / "engine"
CACHE_FORMAT = 2  # bump when Source changes: older cache files are then left alone


@dataclass
class Source:
    """One game file: its header, its moves in order (undone ones left out), the sentence
    each move is told with and the player who made it."""

    name: str
    data: dict[str, Any]
    moves: list[dict[str, Any]]  # as stored by an import
    sent: list[dict[str, Any]]  # as a user sends them (the file's, without its own fields)
    texts: list[str]
    actors: list[Any]
    title: str
    options: dict[str, Any]
    seed: int


def load_sources(paths: list[Path]) -> list[Source]:
    """Replay each file once, noting who made each move and its sentence (kept in a cache
    file beside the temporary files, for the next run on the same files and engine: the
    sentences change with the engine's wording)."""
    files = [(str(p), p.stat().st_mtime) for p in paths]
    stamp = hashlib.sha256(repr([files, FILE_FIELDS, CACHE_FORMAT]).encode())
    for source in sorted(ENGINE.rglob("*.py")):
        stamp.update(source.read_bytes())
    cache = Path(tempfile.gettempdir()) / f"railchat-load-{stamp.hexdigest()[:16]}.pickle"
    if cache.is_file():
        return pickle.loads(cache.read_bytes())  # noqa: S301  # this benchmark's own file
    out = replayed(paths)
    cache.write_bytes(pickle.dumps(out))
    return out


def replayed(paths: list[Path]) -> list[Source]:
    out = []
    for path in paths:
        data = game_files.read_file(path)
        players = [{**p, "name": f"P{n}"} for n, p in enumerate(data["players"], 1)]
        data = {**data, "players": players}
        effective = game_files.effective_actions(data["actions"])
        raw = [a for _, a in effective if a.get("type") != "message"]  # chat, not moves
        moves = [game_files.imported(a) for a in raw]
        game = game_files.new_game(data)
        texts, actors = [], []
        try:
            for action in moves:
                actors.append(_actor(game, action))
                game.process(action, atomic=False, story=True, replay_length=len(moves))
                texts.append(ServiceBase._describe(game, game.actions[-1]))
        except Exception as exc:  # a file our engine stops on: its moves up to there
            print(f"  {path.name}: replay stops at move {len(texts)}: {exc}", file=sys.stderr)
            moves = moves[: len(texts)]
            actors = actors[: len(texts)]
        header = {k: v for k, v in data.items() if k != "actions"}
        fresh = game_files.new_game(data)
        out.append(
            Source(
                path.name,
                header,
                moves,
                [{k: v for k, v in a.items() if k not in FILE_FIELDS} for a in raw[: len(moves)]],
                texts,
                actors,
                fresh.title,
                dict(fresh.options),
                fresh.seed,
            )
        )
    return out


def _actor(game: Any, action: dict[str, Any]) -> Any:
    active = game.active_players()
    if action.get("entity_type") == "player" and (
        action.get("entity") in active or game.any_time(action)
    ):
        return action["entity"]
    return active[0] if active else action.get("entity")


def fixture_files(root: Path) -> list[Path]:
    recorded = [p for p in (root / "1830").glob("*.json")] + list((root / "1860").glob("*.json"))
    fuzzed = sorted((root / "random").glob("*/*.json"))
    return sorted(recorded) + fuzzed
