"""The console's numbered menu of moves: the same moves, grouped the same way, as Discord's
menu of moves (one source: `grouped_moves`), picked by typing a number; a menu from an earlier
turn, a number out of range or no menu at all are refused and change nothing."""

from __future__ import annotations

import io

import pytest

from bot.cli.console import Console
from bot.core.moves import choice_key, quick_kind
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.turn_prompt import menu_options
from tests.test_console import session
from tests.test_refusals_teach import AUCTION, STOCK_ROUND

START = [
    "as 1: /game new 1830 seats:3",
    "as 2: /game join",
    "as 3: /game join",
    "as 1: /game start",
]


@pytest.fixture
def console(db_path, tmp_path) -> Console:
    return Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=None,
    )


async def test_the_menu_numbers_the_moves_of_discords_menu(console):
    """Discord's menu leaves out the moves its buttons make (Pass); the console has no buttons,
    so its menu holds both, in the order of the kinds of move."""
    await session(console, *START)
    out = await session(console, "menu")
    assert out == [
        "Moves for player 1 in game #1 (type a number to make one):",
        "1. Buy SV (Schuylkill Valley) for $20",
        "2. Bid CS (Champlain & St.Lawrence) for $45",
        "3. Bid DH (Delaware & Hudson) for $75",
        "4. Bid MH (Mohawk & Hudson) for $115",
        "5. Bid CA (Camden & Amboy) for $165",
        "6. Bid BO (Baltimore & Ohio) for $225",
        "7. Pass (Bid on Companies)",
    ]
    choices = await console.service.legal_actions(1, 1)
    discord = [o.value for o in menu_options(choices)]
    buttons = [choice_key(c.action) for c in choices if quick_kind(c.action) is not None]
    keys = console.menus[1].keys
    assert len(keys) == len(discord) + len(buttons) and set(keys) == {*discord, *buttons}


async def test_a_number_makes_that_move(console):
    await session(console, *START, "menu")
    assert await session(console, "2") == [
        "player 1 bids $45 on CS ($5 over its face value).",
        "To act: player 2",
    ]
    assert (await console.service.store.actions(1))[0].payload["company"] == "CS"
    out = await session(console, "as 2: /play menu", "as 2: 7")
    assert out[-2:] == ["player 2 passes (Bid on Companies).", "To act: player 3"]


async def test_bad_picks_change_nothing(console):
    await session(console, *START)
    assert await session(console, "3") == [
        "Refused: a number picks a move from player 1's menu: type menu first"
    ]
    await session(console, "menu")
    assert await session(console, "8") == [
        "Refused: player 1's menu has moves 1 to 7; type menu to see it again"
    ]
    # a menu from an earlier turn: player 1 moves by command, the menu is stale
    await session(console, "/play move bid SV")
    assert await session(console, "as 1: 1") == [
        "Refused: the game has moved on since that menu; type menu for the moves open now"
    ]
    assert await console.service.store.action_count(1) == 1
    assert await session(console, "as 1: menu") == ["player 1 has no move to make now."]


async def test_menu_and_numbers_follow_whoever_must_act(console):
    """At one keyboard a move goes to the player who must act, unless the line names another:
    one line per move, no `as N:` needed."""
    await session(console, *START, "as 1: 2")  # a stale number: player 1 has no menu yet
    out = await session(console, "menu", "1", "menu", "1")
    assert out[0] == "Moves for player 1 in game #1 (type a number to make one):"
    assert out[8:10] == ["player 1 buys SV for $20.", "To act: player 2"]
    assert out[10] == "Moves for player 2 in game #1 (type a number to make one):"
    assert out[-2:] == ["player 2 buys CS for $40.", "To act: player 3"]
    # `as N:` names another player: their menu, even when it is empty
    assert await session(console, "as 1: menu game:1") == ["player 1 has no move to make now."]
    # the list of moves, too, is the acting player's unless a line names another
    assert (await session(console, "/game view moves"))[1].startswith("bid: Buy DH ")
    assert await session(console, "as 1: /game view moves") == ["You have no move to make now."]
    # and the numbers of a player who must act are theirs, whoever `as N:` named before
    out = await session(console, "menu game:1", "5")
    assert out[0] == "Moves for player 3 in game #1 (type a number to make one):"
    assert out[-2:] == ["player 3 passes (Bid on Companies).", "To act: player 1"]


async def test_the_menu_of_a_long_list_says_where_the_rest_are(console):
    await session(console, *AUCTION, *STOCK_ROUND[:3])
    out = await session(console, "as 3: menu")  # the first stock turn: every par, every buy
    choices = await console.service.legal_actions(1, 3)
    assert len(out) == 1 + 25 + 1
    assert (
        out[-1]
        == f"(and {len({c.label for c in choices}) - 25} more: /game view what:moves lists them all)"
    )
    kinds = {line.split()[1] for line in out[1:-1]}
    assert {"Par", "Buy", "Pass"} <= kinds  # each kind of move keeps a share


async def test_a_number_after_a_hint_makes_that_suggested_move(console):
    """String Railway's hints are numbered like a menu; the number makes the hinted move (a
    spot in the plane, not one of a listed set), as the engine judges it."""
    await session(
        console, "as 1: /game new string_railway seats:2", "as 2: /game join", "as 1: /game start"
    )
    out = await session(console, "/play hint")
    assert out[0] == "Best moves for player 1 now (type a number to make one):"
    second = out[2].split(". ", 1)[1]  # "place Junction at C1 (15 5): ..."
    spot = second.split("(", 1)[1].split(")", 1)[0].split()
    made = await session(console, "2")
    assert made[0].endswith(f"at ({float(spot[0])}, {float(spot[1])}).") and len(made) >= 2
    [action] = [a.payload for a in await console.service.store.actions(1)]
    assert (action["x"], action["y"]) == (float(spot[0]), float(spot[1]))
    assert await session(console, "2") == [  # the hint was used up with its move
        "Refused: a number picks a move from player 1's menu: type menu first"
    ]
    assert await console.service.store.action_count(1) == 1
