"""What a tile lay would look like, for choosing one by picture.

For a hex (and optionally a tile) the legal lays a player may make now, each with the position
it would lead to (laid on the game itself and taken back, so tokens move to the right city of an
upgrade exactly as the rules move them) and its exits in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import checkpoint
from engine.eighteen.describe import exits_text
from engine.eighteen.rounds import EighteenHost


@dataclass(frozen=True)
class LayOption:
    action: dict[str, Any]
    tile: str
    rotation: int
    words: str  # where the track leads, e.g. "W toward H8, E toward Altoona (H12)"
    snapshot: dict[str, Any]  # the position with this tile laid


def tile_name(tile_id: Any) -> str:
    """'57-3' -> '57'."""
    return str(tile_id).rsplit("-", 1)[0]


def lay_options(
    game: EighteenHost, pid: Any, hex_id: str, tile: str | None = None
) -> list[LayOption]:
    """Every lay `pid` may make now on `hex_id` (of `tile` when given), in the engine's order."""
    out: list[LayOption] = []
    seen: set[tuple[str, str]] = set()
    for choice in game.legal_actions(pid):
        action = choice.action
        if action.get("type") != "lay_tile" or action.get("hex") != hex_id:
            continue
        name = tile_name(action.get("tile"))
        if tile is not None and name != tile:
            continue
        rotation = int(action.get("rotation", 0))
        words = exits_text(game, hex_id, name, rotation)
        if (name, words) in seen:  # a symmetric tile turned half way lies the same: once
            continue
        seen.add((name, words))
        saved = game.saved_state()
        try:
            game.process_single(dict(action))
            after = game.snapshot()
        finally:
            checkpoint.restore(saved)
        out.append(LayOption(dict(action), name, rotation, words, after))
    return out
