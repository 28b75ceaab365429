"""Acceptance: 1860 in the console, through the same service as Discord: the opening auction
(bids for the pick, a private taken, a director's certificate parred) and a recorded game
brought to its end (import, rewind, the last run of British Rail)."""

from __future__ import annotations

import io

from bot.cli.console import Console
from bot.core.service import GameService
from bot.core.store import Store
from tests.reference_games import game_path
from tests.test_console import session


def _console(db_path, tmp_path) -> Console:
    return Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=None,
    )


async def test_the_1860_opening_auction_in_the_console(db_path, tmp_path):
    console = _console(db_path, tmp_path)
    out = await session(
        console,
        "as 1: /game new 1860 seats:3",
        "as 2: /game join",
        "as 3: /game join",
        "as 1: /game start",
        "as 1: /game moves",
    )
    assert "/play bid: Bid for the pick: £5 to £640 (the right to take the next item)" in out
    out = await session(
        console,
        "as 1: /play bid company:pick price:20",
        "as 2: /play bid pick",
        "as 3: /play pass",
        "as 1: /play pass",
        "as 2: /game moves",
    )
    assert out[0] == "player 1 bids £20 for the pick."
    assert out[2] == "player 2 bids £25 for the pick."
    assert "player 2 wins the pick for £25." in out[6]
    assert out[-2].startswith("/play bid: Take BHC (Brading Harbour Company) for £30; ")
    assert out[-1].startswith("/play par: Take the C&N director's certificate at par £100; ")
    out = await session(
        console,
        "as 2: /play bid company:RPSC",
        "as 3: /play pass",
        "as 1: /play pass",
        "as 2: /play pass",
        "as 3: /play par IOW 82",
        "/game status",
    )
    assert out[0] == "player 2 buys RPSC for £130."
    # the director's certificate is 20%: 2 × 82
    assert out[8:10] == [
        "player 3 pars IOW at £82, paying £164 for the president's certificate.",
        "To act: player 1",
    ]
    assert out[-1] == "Players: player 1 £670; player 2 £515; player 3 £506"


async def test_a_recorded_1860_game_is_finished_in_the_console(db_path, tmp_path):
    console = _console(db_path, tmp_path)
    out = await session(
        console,
        f"as 1: /game import file:{game_path('1860', '19354')} players:1 2",
        "as 1: /game rewind 456",
        "as 1: /game moves",
    )
    assert out[0].startswith("player 1 imported a 1860 game as game #1 (460 actions).")
    assert out[-1] == "/play run: Run best routes for £340"  # the players ran NGStL for £330
    out = await session(console, "as 2: /play run", "as 1: /play run", "/game status")
    assert out[0] == "Refused: it is not your turn in game #1; waiting for Player 1"
    assert out[1].startswith("NGStL runs for £340 (9+5-train £340).")
    assert (
        "IOW is nationalised and ceases to operate. NGStL is nationalised and ceases to operate. "
        "Game over (nationalization): Player 1 £12,609, Player 2 £11,004."
    ) in out[1]
    # the £340 is paid out to the holders of 80% and 20% of NGStL
    assert "Player 2 +£68" in out[1] and "Player 1 +£272" in out[1]
    assert "no revenue" not in out[1]
    assert "Result: Player 1 12609, Player 2 11004" in out


async def test_the_1860_auction_is_drawn_while_bids_for_the_pick_stand(db_path, tmp_path):
    from bot.core.rendering import render_view

    console = Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=render_view,
    )
    out = await session(
        console,
        "as 1: /game new 1860 seats:3",
        "as 2: /game join",
        "as 3: /game join",
        "as 1: /game start",
        "as 1: /play bid company:pick price:20",
    )
    images = tmp_path / "img"
    assert out[-5:] == [
        "player 1 bids £20 for the pick.",
        f"Image: {images / 'game-1-map.png'}",
        f"Image: {images / 'game-1-market.png'}",
        f"Image: {images / 'game-1-sheet.png'}",
        "To act: player 2",
    ]
