"""Garbage-collector settings for the long-running bot process."""

from __future__ import annotations

import gc


def freeze_loaded_code() -> None:
    """Move everything alive now (modules, classes, functions and fonts loaded at start-up,
    which live as long as the process) out of the collector's generations: a full collection
    then walks only the games and what they made. With discord.py, the renderer and the engine
    loaded: about 63,000 objects, 45 ms added to every full collection otherwise. Frozen objects
    are never collected, so this runs once, before any game is loaded."""
    gc.collect()
    gc.freeze()
