"""The images of a recorded game's turn posts, as the thread poster asks for them: after each
move, the close-up of the places it changed with its runs, and the compact market. Shared by
the pixel-identity test and benchmarks/bench_render.py."""

from __future__ import annotations

import copy
import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.core.rendering import runs_of
from engine.eighteen import io as game_io
from render.focus import render_focus
from render.market_compact import render_market_compact
from tests.reference_games import game_path


@dataclass(frozen=True)
class Post:
    """One move's post: the snapshot after it, the places it changed, its runs."""

    snapshot: dict[str, Any]
    places: tuple[str, ...]
    runs: tuple[dict[str, Any], ...]
    options: tuple[str, ...]


def recorded_posts(stem: str = "1830_game_end_bank") -> list[Post]:
    """A post for every move of a recorded 1830 game."""
    posts: list[Post] = []

    def keep(_index: int, action: dict[str, Any], game: Any) -> None:
        options = tuple(sorted(name for name, on in game.options.items() if on))
        snapshot = copy.deepcopy(game.snapshot())
        posts.append(Post(snapshot, game.changed_places(), tuple(runs_of(action)), options))

    game_io.load(json.loads(game_path("1830", stem).read_text()), on_state=keep)
    return posts


def post_images(post: Post) -> dict[str, bytes]:
    """The PNGs of a turn post: "focus" (when the move changed the map) and "market_compact"."""
    images = {"market_compact": render_market_compact(post.snapshot, post.options)}
    focus = render_focus(post.snapshot, post.places, post.options, post.runs)
    if focus is not None:
        images["focus"] = focus
    return images


def pixel_digest(png: bytes) -> str:
    """The image's size and RGB pixels, hashed: equal for the same picture whatever the PNG
    compression."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return f"{image.width}x{image.height}:" + hashlib.sha256(image.tobytes()).hexdigest()[:32]
