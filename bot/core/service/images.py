"""Images of a game shown to whoever asks (the public Map / Market / Sheet buttons anyone in a
server may press): drawn from a copy of the game taken under its lock, outside that lock, once
per game version and view however many ask at once, and kept for the presses that follow."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

from engine.game import Game

log = logging.getLogger(__name__)

IMAGE_COUNT = 48  # images kept in all (least recently shown dropped first)...
IMAGE_BYTES = 32 * 2**20  # ...and their bytes at most
# (game, version key (see `version_key`), view, renderer): one drawing
ImageKey = tuple[int, tuple[int, str], str, Callable[..., bytes]]


class Still:
    """A game as it stood when an image of it was asked for: what a renderer reads of a `Game`
    (title, options, log, views, snapshot), copied under the game's lock so that the drawing
    can run outside it while moves change the live game."""

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.options = dict(game.options)
        self.actions = tuple(game.actions)
        self._views = tuple(game.views())
        taken = getattr(game, "snapshot", None)
        if taken is not None:  # a title without one has no picture render/ can draw
            state = copy.deepcopy(taken())  # nothing in it may be shared with the live game
            self.snapshot: Callable[[], Any] = lambda: state

    def views(self) -> tuple[str, ...]:
        return self._views


class ImageCache:
    """Images drawn by key, and those being drawn: a press that finds its image drawn or being
    drawn waits for that one instead of drawing again (a crowd pressing Map draws it once).
    A game's images of older versions are dropped when a newer one is kept (no press asks for
    them again: a press shows the game as it stands); at most IMAGE_COUNT images and
    IMAGE_BYTES in all."""

    def __init__(self, *, most: int = IMAGE_COUNT, most_bytes: int = IMAGE_BYTES) -> None:
        self.most, self.most_bytes = most, most_bytes
        self._kept: OrderedDict[ImageKey, bytes] = OrderedDict()
        self._bytes = 0
        self._drawing: dict[ImageKey, asyncio.Task[bytes]] = {}

    def drawn(self, key: ImageKey) -> asyncio.Future[bytes] | None:
        """The image if it is kept or being drawn (to await once the game's lock is let go),
        else None."""
        png = self._kept.get(key)
        if png is not None:
            self._kept.move_to_end(key)
            ready: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
            ready.set_result(png)
            return ready
        task = self._drawing.get(key)
        return asyncio.shield(task) if task is not None else None

    def draw(self, key: ImageKey, drawing: Callable[[], bytes]) -> asyncio.Future[bytes]:
        """Start `drawing` (from a `Still`) in a worker thread, off the event loop; a waiter
        that gives up does not stop it for the others."""
        task = asyncio.create_task(asyncio.to_thread(drawing))
        self._drawing[key] = task
        task.add_done_callback(partial(self._done, key))
        return asyncio.shield(task)

    def _done(self, key: ImageKey, task: asyncio.Task[bytes]) -> None:
        self._drawing.pop(key, None)
        if task.cancelled():
            return
        if task.exception() is not None:  # its waiters are told; the next press tries again
            log.warning("drawing %s of game %s failed", key[2], key[0])
            return
        self._keep(key, task.result())

    def _keep(self, key: ImageKey, png: bytes) -> None:
        others = [k for k in self._kept if k[0] == key[0] and k[1] != key[1]]
        if len(png) > self.most_bytes or any(k[1][0] > key[1][0] for k in others):
            return  # too big, or the game moved on while this was drawn
        for older in others:
            self._bytes -= len(self._kept.pop(older))
        self._kept[key] = png
        self._bytes += len(png)
        while len(self._kept) > self.most or self._bytes > self.most_bytes:
            self._bytes -= len(self._kept.popitem(last=False)[1])
