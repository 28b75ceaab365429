"""Text the frontends accept from users: game options and JSON actions (shared by Discord and
the console so both read input the same way)."""

from __future__ import annotations

import json
import re
from typing import Any

from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Action


def parse_options(text: str | None) -> dict[str, Any]:
    """`free_for_all, target=25` -> {"free_for_all": True, "target": 25}.

    A bare name switches an option on; a value is read as JSON when it parses, else as text.
    """
    options: dict[str, Any] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, raw = part.partition("=")
        name = name.strip()
        if not name or (sep and not raw.strip()):
            raise ValueError(
                f"cannot read option {part!r}; write name or name=value, separated by commas"
            )
        options[name] = _value(raw.strip()) if sep else True
    return options


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


MAX_ACTION_TEXT = 4000  # characters of one typed action
MAX_INTEGER = 2**63  # SQLite's integers (ids, numbers of games and seats) stay below this


def parse_action(text: str) -> Action:
    """A JSON object with a string "type", e.g. {"type": "pass"}."""
    if len(text) > MAX_ACTION_TEXT:
        raise ValueError(
            f"the action is {len(text):,} characters long; at most {MAX_ACTION_TEXT:,} are read"
        )
    try:
        action = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"the action is not valid JSON ({exc.msg} at column {exc.colno}); "
            'write it like {"type": "pass"}'
        ) from None
    except RecursionError:  # nesting past Python's stack
        raise ValueError("the action is nested too deeply to be a move") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ValueError('an action is a JSON object with a string "type", like {"type": "pass"}')
    return action


SEAT_USER = re.compile(r"<@!?(\d+)>|(\d+)|-")


def parse_seat_users(text: str | None) -> list[int | None]:
    """`<@11> - 13` -> [11, None, 13]: who takes each seat of an imported game, in the file's
    player order (a mention or a user id; `-` leaves the seat unclaimed)."""
    out: list[int | None] = []
    for token in (text or "").split():
        match = SEAT_USER.fullmatch(token)
        if match is None:
            raise ValueError(
                f"players lists @mentions (or user ids) or - for each seat, not {token!r}"
            )
        digits = match[1] or match[2]
        if digits and (len(digits) > 19 or not 0 < int(digits) < MAX_INTEGER):
            raise ValueError(f"{token} is not a user id")
        out.append(int(digits) if digits else None)
    return out


def parse_request(text: str) -> tuple[str, int]:
    """What `/play answer` names: ("i", n) a seat offered (`i:3`), ("r", n) a deal or undo
    vote (`r:3`, `#3` or `3`); ValueError when the text names neither."""
    kind, _, number = text.strip().lstrip("#").partition(":")
    if not number:
        kind, number = "r", kind
    if not number.isdigit() or len(number) > 18 or kind not in ("r", "i"):
        raise ValueError(f"{text!r} names no request: give its number (3) or pick a suggestion")
    return kind, int(number)


def parse_game_file(raw: bytes | str) -> dict[str, Any]:
    """An 18xx.games game file's text, checked whole (ValueError: one line saying what is
    wrong) before a thread or a game is made for it."""
    try:
        return game_files.parse(raw)
    except GameError as exc:
        raise ValueError(str(exc)) from None
