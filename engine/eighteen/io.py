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
from engine.game import Action, Game, PlayerInfo
from engine.shapes import MAX_NAME, Limits, check_bounded
from engine.titles import find_title

MAX_FILE_BYTES = 10 * 1024 * 1024  # Discord's upload limit; 1830 files are ~0.5 MB
MAX_ACTIONS = 20_000  # a long 1830 game has about 1,500
FILE = Limits(depth=12, string=10_000, items=MAX_ACTIONS, integer=2**63 - 1)
# a seed may be longer than the file's other numbers: String Railway's has 128 secret bits
MAX_SEED = 2**192


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
                        raise InvalidAction(
                            f"undo at action {a.get('id')} names unknown action {target}"
                        )
                    start = idx + 1
            else:
                start = next(
                    (
                        j
                        for j in range(i - 1, -1, -1)
                        if (done := kept[j]) is not None and done.get("type") != "message"
                    ),
                    0,
                )
            group = []
            for j in range(start, i):
                done = kept[j]
                if done is not None and done.get("type") != "message":
                    group.append((j, done))
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
    """A game file from disk, checked by `parse` (InvalidAction says what is wrong)."""
    size = Path(path).stat().st_size
    if size > MAX_FILE_BYTES:
        raise InvalidAction(
            f"{path} is {size:,} bytes; game files of at most {MAX_FILE_BYTES:,} bytes are read"
        )
    try:
        return parse(Path(path).read_bytes())
    except InvalidAction as exc:
        raise InvalidAction(f"{path}: {exc}") from None


def parse(raw: bytes | str) -> dict[str, Any]:
    """The JSON text of a game file, checked whole before anything is replayed."""
    if len(raw) > MAX_FILE_BYTES:
        raise InvalidAction(
            f"the file is {len(raw):,} bytes; game files of at most "
            f"{MAX_FILE_BYTES:,} bytes are read"
        )
    try:
        data = json.loads(raw)
    except RecursionError:
        raise InvalidAction(f"the file is nested more than {FILE.depth} levels deep") from None
    except ValueError as exc:  # malformed JSON, undecodable bytes, an endless number
        raise InvalidAction(f"the file is not valid JSON: {exc}") from None
    check_file(data)
    return data


def check_file(data: Any) -> None:
    """Raise InvalidAction with one line naming the first part of `data` that is not the
    shape of an 18xx.games game file or is beyond the limits (size, nesting, counts)."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("players"), list)
        or not isinstance(data.get("actions"), list)
    ):
        raise InvalidAction(
            "that is not an 18xx.games game file (it needs 'players' and 'actions')"
        )
    if len(data["actions"]) > MAX_ACTIONS:
        raise InvalidAction(
            f"the file has {len(data['actions']):,} actions; at most {MAX_ACTIONS:,} are read"
        )
    check_bounded(_long_seed_left_out(data), FILE, "the file")
    if not isinstance(data.get("title", ""), str):
        raise InvalidAction("the file's title is not a text")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise InvalidAction("the file's settings are not an object")
    seed = settings.get("seed") or 0
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidAction(f"the file's seed is {seed!r}, not a whole number from 0")
    rules = settings.get("optional_rules") or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise InvalidAction("the file's optional_rules are not a list of names")
    players = data["players"]
    if not players:
        raise InvalidAction("the file has no players")
    for n, p in enumerate(players, start=1):
        if (
            not isinstance(p, dict)
            or isinstance(p.get("id"), bool)
            or not isinstance(p.get("id"), (int, str))
        ):
            raise InvalidAction(f"player {n} of the file has no id (a number or a text)")
        if isinstance(p["id"], str) and len(p["id"]) > MAX_NAME:
            raise InvalidAction(f"player {n}'s id is longer than {MAX_NAME} characters")
        if not isinstance(p.get("name", ""), str) or len(p.get("name", "")) > MAX_NAME:
            raise InvalidAction(f"player {n}'s name is not a text of at most {MAX_NAME} characters")
    ids = [p["id"] for p in players]
    repeated = sorted({str(i) for i in ids if ids.count(i) > 1})
    if repeated:
        raise InvalidAction(f"the file seats player id {', '.join(repeated)} more than once")
    for n, a in enumerate(data["actions"]):
        if not isinstance(a, dict) or not isinstance(a.get("type"), str):
            raise InvalidAction(f"action #{n} of the file is not an object with a 'type'")
        autos = a.get("auto_actions") or []
        if not isinstance(autos, list) or not all(
            isinstance(b, dict) and isinstance(b.get("type"), str) for b in autos
        ):
            raise InvalidAction(f"action #{n}'s auto_actions are not objects with a 'type'")


def _long_seed_left_out(data: dict[str, Any]) -> dict[str, Any]:
    """`data` for the bounds check: a seed beyond the bound of numbers but below MAX_SEED is
    left out of it (`check_file` checks the seed on its own)."""
    settings = data.get("settings")
    if isinstance(settings, dict):
        seed = settings.get("seed")
        if type(seed) is int and FILE.integer < seed < MAX_SEED:
            return {**data, "settings": {**settings, "seed": 0}}
    return data


def new_game(data: dict[str, Any]) -> Game:
    check_file(data)
    title = str(data.get("title", ""))
    cls = find_title(title)
    settings = data.get("settings") or {}
    options = cls.options_from_settings(settings)
    cls.check_options(options)
    players = [PlayerInfo(p["id"], p.get("name", str(p["id"]))) for p in data["players"]]
    return cls(players, options, int(settings.get("seed") or 0))


def imported(action: dict[str, Any]) -> dict[str, Any]:
    return {**action, "_imported": True}


def load(data: dict[str, Any], upto: int | None = None, on_state: Any = None) -> LoadedGame:
    """Replay a game file; `upto` = last index (in the file's action list) to apply. `on_state`
    sees the game after each action, as it happens, so the game keeps what it needs to tell it."""
    game = new_game(data)
    loaded = LoadedGame(game, data)
    todo = [
        (idx, action)
        for idx, action in effective_actions(data["actions"])
        if upto is None or idx <= upto
    ]
    for idx, action in todo:
        try:
            game.process(
                imported(action), atomic=False, story=on_state is not None, replay_length=len(todo)
            )
        except GameError as exc:
            raise ReplayError(idx, action, str(exc)) from exc
        loaded.processed += 1
        loaded.indices.append(idx)
        if on_state is not None:
            on_state(idx, action, game)
    return loaded


class ReplayError(GameError):
    def __init__(self, index: int, action: dict[str, Any], reason: str) -> None:
        super().__init__(
            f"action #{index} (id {action.get('id')}, {action.get('type')}) refused: {reason}"
        )
        self.index = index
        self.action = action
        self.reason = reason


def exported_action(action: Action, number: int) -> dict[str, Any]:
    """The action as a file has it: the engine's private marks removed, id = its place."""
    clean = {k: v for k, v in action.items() if not k.startswith("_")}
    clean["id"] = number
    return clean


def export(
    game: Game, *, game_id: int | str = 0, description: str = "", public: bool = False
) -> dict[str, Any]:
    """An 18xx.games-shaped JSON document of a game (only effective actions; ids renumbered).
    `public`: for players while the game runs, so the settings that decide what is still
    hidden (a deck's order and the seed that shuffled it) are left out until it is over."""
    actions = [exported_action(a, n) for n, a in enumerate(game.file_actions(), start=1)]
    settings = game.file_settings()
    if public and not game.finished:
        settings = {k: v for k, v in settings.items() if k not in game.hidden_settings}
    out: dict[str, Any] = {
        "id": game_id,
        "description": description,
        "title": game.title,
        "players": [{"id": p.id, "name": p.name} for p in game.players],
        "settings": settings,
        "actions": actions,
        "status": "finished" if game.finished else "active",
    }
    if game.finished:
        out["result"] = {str(k): v for k, v in game.result().items()}
        out["game_end_reason"] = getattr(game, "game_end_reason", None)
    return out
