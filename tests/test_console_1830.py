"""Acceptance: 1830 hot-seat in the console, as a newcomer without Discord plays it: the
/play commands from the auction to a paid dividend with the real images written to files, and
a recorded game brought to its end (import, admin rewind, the deciding move)."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.cli.console import Console
from bot.core.moves import MOVES_HEADER
from bot.core.rendering import render_view
from bot.core.service import GameService
from bot.core.store import Store
from tests.reference_games import game_path, require_games
from tests.test_console import session


def _console(db_path, tmp_path, renderer=render_view) -> Console:
    return Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=renderer,
    )


OPENING = [
    "as 1: /game new 1830 seats:4",
    "as 2: /game join",
    "as 3: /game join",
    "as 4: /game join",
    "as 1: /game start",
    "/play move bid CS 50",
    "as 2: /play move bid SV",
    "as 3: /play move bid DH",
    "as 4: /play move bid MH",
    "as 1: /play move bid CA",
    "as 2: /play move bid BO",
    "/play move par B&O 100",
    "as 3: /play move par PRR 67",
    "as 4: /play move buy PRR IPO",
    "as 1: /play move buy PRR IPO",
    "as 2: /play move buy PRR IPO",
    "as 3: /play move buy PRR IPO",
    "as 4: /play move buy PRR IPO",
    "as 1: /play pass",
    "as 2: /play pass",
    "as 3: /play pass",
    "as 4: /play pass",
]


async def test_a_newcomer_plays_1830_in_the_console(db_path, tmp_path):
    console = _console(db_path, tmp_path)
    out = await session(console, *OPENING)
    assert (
        "Game #1 of 1830 has started. Seat order: 1. player 1, 2. player 2, 3. player 3, "
        "4. player 4." in out
    )
    for sentence in (
        "player 1 bids $50 on CS ($10 over its face value).",
        "player 2 pars B&O at $100.",
        "player 4 buys 10% of PRR from the IPO for $67.",
        "player 4 passes (Sell/Buy/Sell Shares).",
    ):
        assert any(line.startswith(sentence) for line in out), sentence
    assert out[-1] == "To act: player 3"
    images = sorted(p.name for p in (tmp_path / "img").iterdir())
    assert images == ["game-1-map.png", "game-1-market.png", "game-1-sheet.png"]
    for name in images:
        with Image.open(tmp_path / "img" / name) as image:
            assert image.format == "PNG" and image.width > 300 and image.height > 200

    out = await session(console, "as 3: /game view moves")
    assert out[:2] == [MOVES_HEADER, "pass: Pass (Lay/Upgrade Track)"]
    assert out[2].startswith("lay: Lay tile 57 on H10: track W to H8, E to Altoona; ")
    out = await session(
        console,
        "/play lay hex:H10 tile:9",
        "/play lay H10 tile:57",
        "/play move token H10",
        "/play move train 2-train",
        "/play move train 2-train",
        "/play pass",
    )
    assert out[0] == "Refused: tile 9 is not possible in a lay now; possible: 57"
    assert "PRR lays tile 57 on H10 (Pittsburgh), track W toward H8, E toward Altoona (H12)." in out
    assert (
        "PRR places a station token in H10 (Pittsburgh) for $40. PRR skips Run Routes: it has "
        "no train. Share price: PRR $67 → $65 (no revenue this turn)."
    ) in out
    assert out.count("PRR buys a 2-train from the bank for $80.") == 2
    out = await session(
        console,
        *(f"as {n}: /play pass" for n in (1, 2, 3, 4)),
        "as 3: /play pass",
        "/game view routes PRR",
    )
    assert out[-2:] == ["PRR can earn $30:", "  2-train: H10-H12 ($30)"]
    out = await session(
        console,
        "/play run routes:2: H10 H14",
        "/play run routes:2: H10 H12",
        "/play move payout",
        "/game view history 2",
    )
    assert out[0] == (
        "Refused: there is no track from stop to stop along H10-H14 (train 2); "
        "list every hex the train passes"
    )
    img = tmp_path / "img"
    assert out[1:] == [
        "PRR runs for $30 (2-train $30).",
        f"Images in {img}: game-1-map.png, game-1-market.png, game-1-sheet.png",
        "To act: player 3",
        # every 10% is paid $3: the players' 80%, and nothing for the 20% left in the IPO
        "PRR pays out $30 ($3 a share): player 1 $6 for 20%, player 2 $3 for 10%, player 3 "
        "$9 for 30%, player 4 $6 for 20%; nothing for the IPO's 20%. Share price: PRR $65 → "
        "$67.",
        f"Images in {img}: game-1-map.png, game-1-market.png, game-1-sheet.png",
        "To act: player 3",
        "Game #1: actions 28-29 of 29",
        "28. PRR runs for $30 (2-train $30).",
        "29. PRR pays out $30 ($3 a share): player 1 $6 for 20%, player 2 $3 for 10%, "
        "player 3 $9 for 30%, player 4 $6 for 20%; nothing for the IPO's 20%. Share price: "
        "PRR $65 → $67.",
    ]
    assert (tmp_path / "img" / "game-1-map.png").stat().st_size > 10_000


async def test_a_recorded_game_is_finished_in_the_console(db_path, tmp_path):
    require_games("1830")
    path = game_path("1830", "26855")
    console = _console(db_path, tmp_path, renderer=None)
    out = await session(console, f"as 1: /game import file:{path} players:1 2 3 4")
    assert out[0].startswith(
        "player 1 imported a 1830 game as game #1 (502 actions). Seats: "
        "1. Player 1, 2. Player 2, 3. Player 3, 4. Player 4."
    )
    last = await console.service.store.action_count(1)
    out = await session(console, f"/game-admin rewind {last - 1}", "as 3: /game view moves")
    assert out == [  # the sentence stored when the move was made, with what it set off
        f"player 1 rewound game #1 to action {last - 1}, taking back from ERIE declares "
        "bankruptcy. Player 4 becomes president of B&M. Player 3 is bankrupt. Game over "
        "(bankrupt): Player 4 $2,212, Player 2 $2,127, Player 1 $1,831, Player 3 $310. Share "
        "prices: NYNH $75 → $70, B&M $75 → $70. Cash also moved: Player 3 -$19 (now $0).",
        "To act: player 3",
        MOVES_HEADER,
        "sell: Sell 10% of NYNH for $75; Sell 20% of NYNH for $150; Sell 10% of B&M for "
        "$75; Sell 20% of B&M for $150; Sell 30% of B&M for $225; Sell 40% of B&M for $300; "
        "Sell 50% of B&M for $375",
        # In an emergency a company may also buy another company's train, for at most its face
        # value and what it and its president hold together ($257 here), as on 18xx.games.
        "train: Buy PRR's 6-train for $257; Buy NYC's 5-train for $257; Buy NYC's 6-train "
        "for $257; Buy CPR's 5-train for $257; Buy C&O's D-train for $257; Buy NYNH's 5-train "
        "for $257",
        "bankrupt: Declare ERIE's president bankrupt",
    ]
    history = await session(console, "/game view history 2")
    assert history == [
        f"Game #1: actions {last - 2}-{last - 1} of {last - 1}",
        f"{last - 2}. ERIE passes (Lay/Upgrade Track).",
        f"{last - 1}. ERIE passes (Place a Token). ERIE skips Run Routes: it has no "
        "train. Share price: ERIE $30 → $20 (no revenue this turn).",
    ]  # each as it happened
    out = await session(
        console,
        "as 2: /play move bankrupt",
        "as 3: /play move bankrupt",
        "/game status",
        f"/game export out:{tmp_path / 'ended.json'}",
    )
    assert out[0] == "Refused: it is not your turn in game #1; waiting for Player 3"
    assert out[1:3] == [
        "ERIE declares bankruptcy. Player 4 becomes president of B&M. Player 3 is bankrupt. "
        "Game over (bankrupt): Player 4 $2,212, Player 2 $2,127, Player 1 $1,831, Player 3 $310. "
        "Share prices: NYNH $75 → $70, B&M $75 → $70. Cash also moved: Player 3 -$19 (now $0).",
        "The game is over. /game status shows the result.",
    ]
    assert "Result: Player 4 $2,212, Player 2 $2,127, Player 1 $1,831, Player 3 $310" in out
    assert out[-1] == f"File: {tmp_path / 'ended.json'}"  # where out: says, not among images
    assert json.loads((tmp_path / "ended.json").read_text())["title"] == "1830"


async def test_a_lay_is_picked_by_its_picture_in_the_console(db_path, tmp_path):
    """`/play lay HEX` draws the lays open on that hex, numbered as the picture numbers them
    (Discord's lay picture), and a number makes one; a rotation may be named by its exits."""
    console = _console(db_path, tmp_path, renderer=lambda game, view: b"")
    await session(console, *OPENING)
    assert await session(console, "/game view routes") == [  # which company? those that run
        "Refused: name the company in detail: PRR (e.g. /game view routes PRR)"
    ]
    chart = tmp_path / "img" / "game-1-chart-prices.png"  # as Discord's /game view what:chart
    assert await session(console, "/game view chart prices") == [
        "Game #1 · prices",
        f"File: {chart}",
    ]
    with Image.open(chart) as image:
        assert image.format == "PNG" and image.width > 300
    out = await session(console, "/play lay H14")
    assert out == [
        f"5 ways to lay on H14, drawn in {tmp_path / 'img' / 'game-1-lays.png'}; type a number "
        "to make one:",
        "1. Tile 7: SW toward I13, W toward Altoona (H12)",
        "2. Tile 7: W toward Altoona (H12), NW toward G13",
        "3. Tile 8: W toward Altoona (H12), NE toward G15",
        "4. Tile 8: W toward Altoona (H12), SE toward Baltimore (I15)",
        "5. Tile 9: W toward Altoona (H12), E toward Lancaster (H16)",
    ]
    with Image.open(tmp_path / "img" / "game-1-lays.png") as image:
        assert image.format == "PNG" and image.width > 300
    assert (await session(console, "/play lay H14 tile:8"))[1:] == [
        "1. Tile 8: W toward Altoona (H12), NE toward G15",
        "2. Tile 8: W toward Altoona (H12), SE toward Baltimore (I15)",
    ]
    out = await session(console, "2")  # player 3, who must act, though `as 4:` came last
    assert out[0].startswith(
        "PRR lays tile 8 on H14, track W toward Altoona (H12), SE toward Baltimore (I15)."
    )
    await session(console, "as 3: /game undo")
    out = await session(console, "/play lay H14 tile:7 rotation:G13")  # by its exits' words
    assert out[0].startswith("PRR lays tile 7 on H14, track W toward Altoona (H12), NW toward G13.")
    await session(console, "as 3: /game undo")
    assert (await session(console, "/play lay H10"))[0].startswith(  # one lay: made at once
        "PRR lays tile 57 on H10 (Pittsburgh)"
    )


async def test_routes_before_any_company_has_run_says_so(db_path, tmp_path):
    console = _console(db_path, tmp_path, renderer=None)
    await session(console, *OPENING[:5])
    out = await session(console, "/game view what:routes")
    assert out == ["Refused: no company has run a train yet: routes are shown once one has"]
