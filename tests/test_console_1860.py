"""Acceptance: 1860 in the console, through the same service as Discord: the opening auction
(bids for the pick, a private taken, a director's certificate parred) and a recorded game
brought to its end (import, rewind, the last run of British Rail)."""

from __future__ import annotations

import io

from bot.cli.console import Console
from bot.core.moves import MOVES_HEADER
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
        "as 1: /game view moves",
    )
    assert "bid: Bid for the pick: £5 to £640 (the right to take the next item)" in out
    out = await session(
        console,
        "as 1: /play move bid pick 20",
        "as 2: /play move bid pick",
        "as 3: /play pass",
        "as 1: /play pass",
        "as 2: /game view moves",
    )
    assert out[0] == "player 1 bids £20 for the pick."
    assert out[2] == "player 2 bids £25 for the pick."
    assert "player 2 wins the pick for £25." in out[6]
    assert out[-2].startswith("bid: Take BHC (Brading Harbour Company) for £30; ")
    assert out[-1].startswith("par: Take the C&N director's certificate at par £100; ")
    out = await session(
        console,
        "as 2: /play move bid RPSC",
        "as 3: /play pass",
        "as 1: /play pass",
        "as 2: /play pass",
        "as 3: /play move par IOW 82",
        "/game status",
    )
    assert out[0] == "player 2 buys RPSC for £130."
    # the director's certificate is 20%: 2 × 82
    assert out[8:10] == [
        "player 3 pars IOW at £82, paying £164 for the director's certificate.",
        "To act: player 1",
    ]
    assert out[-1] == "Players: player 1 £670; player 2 £515; player 3 £506"


async def test_a_recorded_1860_game_is_finished_in_the_console(db_path, tmp_path):
    console = _console(db_path, tmp_path)
    out = await session(
        console,
        f"as 1: /game import file:{game_path('1860', '19354')} players:1 2",
        "as 1: /game-admin rewind 456",
        "as 1: /game view moves",
    )
    assert out[0].startswith("player 1 imported a 1860 game as game #1 (460 actions).")
    assert out[-2:] == [
        MOVES_HEADER,
        "run: Run best routes for £340",
    ]  # the players ran NGStL for £330
    out = await session(console, "as 2: /play run", "as 1: /play run", "/game status")
    assert out[0] == "Refused: it is not your turn in game #1; waiting for Player 1"
    assert out[1].startswith("NGStL runs for £340 (9+5-train £340).")
    assert (
        "IOW is nationalised and ceases to operate. NGStL is nationalised and ceases to operate. "
        "Game over (nationalisation completed): Player 1 £12,609, Player 2 £11,004."
    ) in out[1]
    # the £340 is paid out at once (spec 13.3) to the holders of 80% and 20% of NGStL
    assert (
        "NGStL pays out £340 (£34 a share): Player 2 £68 for 20%, Player 1 £272 for 80%."
    ) in out[1]
    assert "no revenue" not in out[1]
    assert "Result: Player 1 £12,609, Player 2 £11,004" in out


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
        "as 1: /play move bid pick 20",
    )
    images = tmp_path / "img"
    assert out[-3:] == [
        "player 1 bids £20 for the pick.",
        f"Images in {images}: game-1-map.png, game-1-market.png, game-1-sheet.png",
        "To act: player 2",
    ]


async def test_an_import_without_players_says_how_to_seat_them(db_path, tmp_path):
    console = _console(db_path, tmp_path)
    path = game_path("1860", "19354")
    out = await session(console, f"/game import file:{path}")
    assert out[-1] == (
        "Nobody plays seats 1, 2 yet, so no move can be made there. At this keyboard: "
        "/game-admin replace seat:1 user:1 gives seat 1 to player 1; or import with every seat "
        f"taken: /game import file:{path} players:1 2"
    )
    out = await session(
        console, "/game-admin replace seat:1 user:1", "/game-admin replace seat:2 user:2"
    )
    assert out[-1] == "player 1 gave seat 2 (Player 2) of game #1 to player 2."
    out = await session(console, "/game-admin rewind 41", "menu")
    assert out[1] == "To act: player 2"
    assert out[2] == "Moves for player 2 in game #1 (type a number to make one):"
