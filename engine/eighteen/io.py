"""18xx.games game files (the PGN of 18xx): read one into a game, write one back.

An 18xx.games log keeps undone actions; `undo` removes the previous effective actions (or back
to `action_id`), `redo` restores the last undone group, and any other action forgets the undo
history. `effective_actions` applies exactly those semantics.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import GameError, InvalidAction
from engine.game import Game, PlayerInfo
from engine.titles import find_title


def effective_actions(actions: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(index in the file, action) for every action that takes effect, in order."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undone: list[list[tuple[int, dict[str, Any]]]] = []
    for i, a in enumerate(actions):
        t = a.get("type")
        if t == "undo":
            target = a.get("action_id")
            if target is not None:
                if target == 0:
                    start = 0
                else:
                    idx = next((j for j, b in enumerate(actions) if b.get("id") == target), None)
                    if idx is None:
                        raise InvalidAction(f"undo at action {a.get('id')} names unknown action {target}")
                    start = idx + 1
            else:
                start = next((j for j in range(i - 1, -1, -1)
                              if kept[j] is not None and kept[j].get("type") != "message"), 0)
            group = []
            for j in range(start, i):
                if kept[j] is not None and kept[j].get("type") != "message":
                    group.append((j, kept[j]))
                    kept[j] = None
            undone.append(group)
        elif t == "redo":
            if undone:
                for j, b in undone.pop():
                    kept[j] = b
        elif t == "message":
            kept[i] = a
        else:
            undone.clear()
            kept[i] = a
    return [(i, a) for i, a in enumerate(kept) if a is not None]


@dataclass
class LoadedGame:
    game: Game
    source: dict[str, Any]
    processed: int = 0
    indices: list[int] = field(default_factory=list)


def read_file(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise InvalidAction(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or "players" not in data or "actions" not in data:
        raise InvalidAction(f"{path} is not an 18xx.games game file (needs 'players' and 'actions')")
    return data


def new_game(data: dict[str, Any]) -> Game:
    title = str(data.get("title", ""))
    cls = find_title(title)
    settings = data.get("settings") or {}
    options = cls.options_from_settings(settings)
    players = [PlayerInfo(p["id"], p.get("name", str(p["id"]))) for p in data["players"]]
    return cls(players, options, int(settings.get("seed") or 0))


def imported(action: dict[str, Any]) -> dict[str, Any]:
    return {**action, "_imported": True}


def load(data: dict[str, Any], upto: int | None = None, on_state: Any = None) -> LoadedGame:
    """Replay a game file; `upto` = last index (in the file's action list) to apply."""
    game = new_game(data)
    loaded = LoadedGame(game, data)
    for idx, action in effective_actions(data["actions"]):
        if upto is not None and idx > upto:
            break
        try:
            game.process(imported(action), atomic=False)
        except GameError as exc:
            raise ReplayError(idx, action, str(exc)) from exc
        loaded.processed += 1
        loaded.indices.append(idx)
        if on_state is not None:
            on_state(idx, action, game)
    return loaded


class ReplayError(GameError):
    def __init__(self, index: int, action: dict[str, Any], reason: str) -> None:
        super().__init__(f"action #{index} (id {action.get('id')}, {action.get('type')}) refused: {reason}")
        self.index = index
        self.action = action
        self.reason = reason


def export(game: Game, *, game_id: int | str = 0, description: str = "") -> dict[str, Any]:
    """An 18xx.games-shaped JSON document of a game (only effective actions; ids renumbered)."""
    actions = []
    for n, a in enumerate(game.actions, start=1):
        clean = {k: v for k, v in a.items() if not k.startswith("_")}
        clean["id"] = n
        actions.append(clean)
    out: dict[str, Any] = {
        "id": game_id,
        "description": description,
        "title": game.title,
        "players": [{"id": p.id, "name": p.name} for p in game.players],
        "settings": game.file_settings(),
        "actions": actions,
        "status": "finished" if game.finished else "active",
    }
    if game.finished:
        out["result"] = {str(k): v for k, v in game.result().items()}
        out["game_end_reason"] = getattr(game, "game_end_reason", None)
    return out
