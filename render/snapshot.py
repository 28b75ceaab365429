"""Reading the snapshot dict (the engine's `game.snapshot()`) defensively: a malformed snapshot
gets one clear message naming what is wrong, never a half-drawn image."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from engine.money import format_money

CURRENCY = {"1860": "£"}


class SnapshotError(ValueError):
    """The snapshot handed to a renderer is missing something or holds a wrong type."""


@contextmanager
def reading(image: str) -> Iterator[None]:
    """Turn a lookup that fails deep inside a malformed snapshot into one clear message."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        # render.board (the 18xx board data) loads only here: String Railway never needs it
        from render.board import BoardDataError

        if isinstance(exc, (SnapshotError, BoardDataError)):
            raise
        raise SnapshotError(
            f"malformed snapshot, cannot draw the {image}: {type(exc).__name__} {exc}"
        ) from exc


def need(snapshot: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in snapshot:
        raise SnapshotError(f"snapshot has no {key!r}")
    value = snapshot[key]
    if not isinstance(value, kind):
        raise SnapshotError(
            f"snapshot {key!r} should be {_kind_name(kind)}, not {type(value).__name__}"
        )
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def money(title: str, amount: int | None) -> str:
    if amount is None:
        return "–"
    return format_money(CURRENCY.get(title, "$"), amount)


NAME_CHARS = 24  # a player's name as drawn: a longer one is cut, so no name can widen an image


def display_name(player: Mapping[str, Any]) -> str:
    name = str(player.get("name", player.get("id")))
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def player_names(snapshot: Mapping[str, Any]) -> dict[Any, str]:
    return {p["id"]: display_name(p) for p in snapshot.get("players", [])}


def round_text(snapshot: Mapping[str, Any]) -> str:
    """'Operating Round 3.1' / 'Stock Round 2' / 'Auction Round'."""
    rnd = str(snapshot.get("round", ""))
    turn, num = snapshot.get("turn"), snapshot.get("round_num")
    if rnd.startswith("Operating") and turn is not None:
        return f"{rnd} {turn}.{num or 1}"
    if rnd.startswith("Stock") and turn is not None:
        return f"{rnd} {turn}"
    return rnd


def acting_text(snapshot: Mapping[str, Any]) -> str:
    """Who must act, naming a company's president: 'PRR (Ann)'."""
    names = player_names(snapshot)
    corps = snapshot.get("corporations", {})
    out = []
    for who in snapshot.get("active", []):
        if who in corps:
            pres = corps[who].get("president")
            out.append(f"{who} ({names[pres]})" if pres in names else str(who))
        else:
            out.append(names.get(who, str(who)))
    return ", ".join(out)


def result_text(snapshot: Mapping[str, Any]) -> str:
    names = player_names(snapshot)
    result = snapshot.get("result") or {}
    title = str(snapshot.get("title", ""))
    ranked = sorted(result.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{names.get(_pid(k, names), k)} {money(title, v)}" for k, v in ranked)


def _pid(key: Any, names: dict[Any, str]) -> Any:
    """Result keys may arrive as strings after a JSON round trip."""
    if key in names:
        return key
    return next((pid for pid in names if str(pid) == str(key)), key)


def header_line(snapshot: Mapping[str, Any]) -> tuple[str, str]:
    """(left, right) texts for an image header."""
    title = str(snapshot.get("title", ""))
    left = f"{title} · {round_text(snapshot)} · Phase {snapshot.get('phase', '?')}"
    if snapshot.get("bank") is not None:
        left += f" · Bank {money(title, snapshot['bank'])}"
    if snapshot.get("finished"):
        return left, f"Game over: {result_text(snapshot)}"
    acting = acting_text(snapshot)
    return left, f"To act: {acting}" if acting else ""
