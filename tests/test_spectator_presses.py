"""Spectators pressing a turn post's public image buttons (Map, Market, Sheet) cannot slow a
game: the image is drawn outside the game's lock, from the state taken at the press, once per
game version however many press (later presses reuse it), and a move makes the next press
draw the new state."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from typing import Any

from bot.core.service.images import ImageCache, ImageKey
from tests.discord_world import GUILD, Sent, fake_renderer, make_world
from tests.test_discord_1830 import Table, open_table
from tests.wire_bot import until

MAP = "rc:v:1:map"  # the Map button of game 1's turn posts
SPECTATOR = 9


class BlockingRenderer:
    """The harness's renderer, counting what it draws; while `hold` is set, a drawing of the
    map (which only the button asks for; a turn post shows the compact market) waits for
    `release` and sets `drawing` when it starts."""

    def __init__(self) -> None:
        self.drawn: Counter[str] = Counter()
        self.hold = False
        self.drawing, self.release = threading.Event(), threading.Event()

    def __call__(self, game: Any, view: str, *focus: object) -> bytes:
        self.drawn[view] += 1
        if view == "map" and self.hold:
            self.drawing.set()
            self.release.wait(timeout=60)  # a safety net: the tests release it
        return fake_renderer(game, view, *focus)


async def table_with(db_path, renderer: BlockingRenderer) -> Table:
    return await open_table(await make_world(db_path, renderer=renderer))


async def press_map(table: Table) -> list[Sent]:
    return await table.world.press(MAP, table.at(SPECTATOR))


async def the_map_now(table: Table) -> bytes:
    """The map as the game stands, drawn straight from the live game."""
    drawn = await table.world.bot.service.peek(
        1, lambda game: fake_renderer(game, "map"), guild_id=GUILD
    )
    assert drawn is not None
    return drawn


def shown_map(sent: list[Sent]) -> bytes:
    assert sent[-1].ephemeral and sent[-1].files == ["map.png"], sent
    return sent[-1].images[0]


def lock_idle(table: Table) -> bool:
    """No command holds game 1's lock or waits for it."""
    lock = table.world.bot.service._locks[1]
    return not lock.locked() and not lock._waiters


async def test_a_move_goes_through_while_a_press_draws(db_path):
    renderer = BlockingRenderer()
    table = await table_with(db_path, renderer)
    before = await the_map_now(table)
    renderer.hold = True
    pressing = asyncio.create_task(press_map(table))
    try:
        await until(renderer.drawing.is_set, "the map's drawing to start")
        assert lock_idle(table), "the game's lock is held while the map is drawn"
        moved = await table.play(1, "bid", company="CS", price=50)
        assert moved[-1].text.startswith("Done: user1 bids $50 on CS ($10 over its face value)."), (
            moved
        )
        assert not pressing.done() and not renderer.release.is_set()
    finally:
        renderer.release.set()
    # the press shows the game as it stood when pressed, not as the move left it
    assert shown_map(await pressing) == before != await the_map_now(table)


async def test_ten_presses_at_one_version_draw_the_map_once(db_path):
    renderer = BlockingRenderer()
    table = await table_with(db_path, renderer)
    renderer.hold = True
    presses = [asyncio.create_task(press_map(table)) for _ in range(10)]
    try:
        await until(renderer.drawing.is_set, "the map's drawing to start")
        # every other press has had its turn with the game while the one drawing runs
        await until(lambda: lock_idle(table), "the other presses to wait for that drawing")
    finally:
        renderer.release.set()
    shown = [shown_map(sent) for sent in await asyncio.gather(*presses)]
    expected = await the_map_now(table)
    assert shown == [expected] * 10
    assert shown_map(await press_map(table)) == expected  # a later press: no drawing either
    assert renderer.drawn["map"] == 1


async def test_a_press_after_a_move_draws_the_new_state(db_path):
    renderer = BlockingRenderer()
    table = await table_with(db_path, renderer)
    first = shown_map(await press_map(table))
    assert shown_map(await press_map(table)) == first == await the_map_now(table)
    assert renderer.drawn["map"] == 1  # the second press reused the first's drawing
    await table.play(1, "bid", company="CS", price=50)
    second = shown_map(await press_map(table))
    assert second == await the_map_now(table) != first
    assert renderer.drawn["map"] == 2


async def kept(cache: ImageCache, key: ImageKey, png: bytes) -> bytes:
    """Draw `png` as `key`'s image, as a press that found none does."""
    return await cache.draw(key, lambda: png)


def key_of(game: int, version: int, view: str = "map") -> ImageKey:
    return (game, (version, "[]"), view, fake_renderer)


async def test_the_images_kept_are_bounded():
    cache = ImageCache(most=3, most_bytes=10)
    await kept(cache, key_of(1, 1), b"a")
    await kept(cache, key_of(1, 1, "sheet"), b"b")
    await kept(cache, key_of(1, 2), b"c")  # game 1 moved on: its older images go
    assert [cache.drawn(key_of(1, 1, v)) for v in ("map", "sheet")] == [None, None]
    await kept(cache, key_of(2, 1), b"d")
    await kept(cache, key_of(3, 1), b"e")
    assert await cache.drawn(key_of(1, 2)) == b"c"  # shown again: the last to go
    await kept(cache, key_of(4, 1), b"f")  # four games: the least recently shown goes
    assert cache.drawn(key_of(2, 1)) is None and await cache.drawn(key_of(1, 2)) == b"c"
    assert await kept(cache, key_of(5, 1), b"x" * 11) == b"x" * 11  # shown, too big to keep
    assert cache.drawn(key_of(5, 1)) is None
    await kept(cache, key_of(3, 2), b"ten bytes!")  # ten bytes: the others go to make room
    assert [k for k in map(key_of, (1, 3, 4), (2, 2, 1)) if cache.drawn(k)] == [key_of(3, 2)]


async def test_an_image_drawn_after_the_game_moved_on_is_not_kept():
    cache = ImageCache()
    slow = threading.Event()
    older = cache.draw(key_of(1, 1), lambda: slow.wait(60) and b"old")
    await kept(cache, key_of(1, 2), b"new")
    slow.set()
    assert await older == b"old"  # its presser still sees it
    assert cache.drawn(key_of(1, 1)) is None and await cache.drawn(key_of(1, 2)) == b"new"
