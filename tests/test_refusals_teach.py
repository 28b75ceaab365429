"""Refusals that teach: bad input sent through the service (by the console, which reads
options as Discord does and builds moves with the same `resolve`) is refused with the rule in
play and what would make it legal, and named and positional options work alike. An 1830 game
is played to each situation: the auction, the 60% holding limit, a sold-out company, the
compulsory train, trains sold in order, a private bought by a company in phase 3."""

from __future__ import annotations

import io

import pytest

from bot.cli.console import Console
from bot.core.service import GameService
from bot.core.store import Store
from tests.test_console import session

AUCTION = [
    "as 1: /game new 1830 seats:4",
    "as 2: /game join",
    "as 3: /game join",
    "as 4: /game join",
    "as 1: /game start",
    "as 1: /play move bid SV",
    "as 2: /play move bid CS",
    "as 3: /play move bid DH",
    "as 4: /play move bid MH",
]
# B&O parred at $100 and floated, PRR parred at $67 with player 3 at 60% and its IPO sold out
STOCK_ROUND = [
    "as 1: /play move bid CA 180",
    "as 2: /play move bid BO",
    "as 2: /play move par B&O 100",
    "as 3: /play move par PRR 67",
    *[
        f"as {u}: /play move buy {c}"
        for u, c in (
            (4, "B&O"),
            (1, "B&O"),
            (2, "B&O"),
            (3, "PRR"),
            (4, "B&O"),
            (1, "B&O"),
            (2, "B&O"),
            (3, "PRR"),
            (4, "PRR"),
            (1, "PRR"),
        )
    ],
    "as 2: /play pass",
    "as 3: /play move buy PRR",
    "as 4: /play pass",
    "as 1: /play pass",
    "as 2: /play pass",
    "as 3: /play move buy PRR",
    "as 4: /play pass",
    "as 1: /play pass",
    "as 2: /play pass",
]
# OR 1: B&O connects Baltimore to Washington (it now has a route) and stops at Buy Trains
TO_BUY_TRAINS = ["as 3: /play pass", "as 2: /play lay hex:J14 tile:57", "as 2: /play pass"]


@pytest.fixture
def console(db_path, tmp_path) -> Console:
    return Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=None,
    )


async def refused(console: Console, line: str) -> str:
    actions = await console.service.store.action_count(1)
    [out] = [o for o in await session(console, line)]
    assert out.startswith("Refused: "), out
    assert await console.service.store.action_count(1) == actions  # nothing changed
    return out.removeprefix("Refused: ")


async def test_a_price_typed_after_the_company_is_the_price_option(console):
    await session(console, *AUCTION)
    # the option named (as Discord sends it) and the positional one make the same bid
    out = await session(console, "as 1: /play move move:bid CA 180")
    assert out[0] == "player 1 buys CA for $180. player 1 receives a 10% PRR share with CA."
    await session(console, "as 1: /game undo")
    out = await session(console, "as 1: /play move bid CA 180")
    assert out[0] == "player 1 buys CA for $180. player 1 receives a 10% PRR share with CA."


async def test_a_par_without_a_price_lists_the_prices(console):
    await session(console, *AUCTION, *STOCK_ROUND[:2])
    assert await refused(console, "as 2: /play move par B&O") == (
        "give the price too: 6 prices are open ($100, $90, $82, $76, $71, $67), e.g. /play move par "
        "B&O 100"
    )
    # a price that is not a par price names the ones that are (the rule: the par row)
    assert (await refused(console, "as 2: /play move par B&O 50")).startswith(
        "$50 is not a par price; B&O can be parred at $100, $90, $82, $76, $71, $67; you can: "
    )
    assert (await refused(console, "as 2: /play move par B&O 50")).startswith(
        "$50 is not a par price; B&O can be parred at $100, $90, $82, $76, $71, $67"
    )
    # the private bought came with the B&O president's certificate: B&O is the one to par
    assert (await refused(console, "as 2: /play move par PRR 67")).startswith(
        "nothing you can par matches 'PRR': Baltimore & Ohio came with the B&O president's "
        "certificate, so B&O is the company to par now"
    )
    out = await session(console, "as 2: /play move par B&O 100")
    assert out[0] == "player 2 pars B&O at $100. Stock Round 1 begins."


async def test_the_holding_limit_and_a_sold_out_company_are_named(console):
    await session(console, *AUCTION, *STOCK_ROUND)
    # player 3 holds 60% of PRR; one PRR share is still in the IPO
    assert (await refused(console, "as 3: /play move buy PRR")).startswith(
        "nothing you can buy matches 'PRR': player 3 holds 60% of PRR: no player may hold more "
        "than 60% of one company (the 60% holding limit, lifted only while its share price is "
        "in the market's orange or brown zone); you can: /play move Buy 10% of B&O from the IPO for $100"
    )
    assert (await refused(console, "as 3: /play move buy PRR IPO")).startswith(
        "nothing you can buy matches 'PRR IPO': player 3 holds 60% of PRR"
    )


async def test_a_sold_out_company_is_named(console):
    await session(
        console,
        *AUCTION,
        *STOCK_ROUND[:-3],
        "as 4: /play move buy PRR",
        "as 1: /play pass",
        "as 2: /play pass",
    )
    assert (await refused(console, "as 3: /play move buy PRR")).startswith(
        "nothing you can buy matches 'PRR': no PRR share is for sale: its IPO is sold out and "
        "the bank pool holds none; you can: "
    )


async def test_a_compulsory_train_is_named_with_how_to_buy_it(console):
    await session(console, *AUCTION, *STOCK_ROUND, *TO_BUY_TRAINS)
    assert await refused(console, "as 2: /play pass") == (
        "you cannot pass now: a train is compulsory: B&O owns no train and has a route, so it "
        "must buy one before its turn ends (from the bank the cheapest is a 2-train for $80); "
        "you can: /play move Buy a 2-train from the bank for $80"
    )
    # what a refusal suggests is typed as it reads; here the one train of the step
    out = await session(console, "as 2: /play move Buy a 2-train from the bank for $80")
    assert out[0].startswith("B&O buys a 2-train from the bank for $80.")
    await session(console, "as 2: /game undo")
    # trains are sold in order
    assert await refused(console, "as 2: /play move train 3") == (
        "nothing you can train matches '3': no 3-train is for sale yet: the bank sells its "
        "trains in order, and 6 2-trains must be bought first; you can: /play move Buy a "
        "2-train from the bank for $80"
    )


async def test_a_move_of_another_step_says_when_it_is_made(console):
    await session(console, *AUCTION)
    assert await refused(console, "as 1: /play lay hex:H10") == (
        "you cannot lay now: it is Bid on Companies in Auction Round 1; tiles are laid by a "
        "company in its operating turn, before its token; you can: /play move Buy CA (Camden "
        "& Amboy) for $160; /play move Bid BO (Baltimore & Ohio) for $225; /play move Pass (Bid "
        "on Companies)"
    )
    # each suggestion is a command typed as it reads
    out = await session(console, "as 1: /play move Bid BO (Baltimore & Ohio) for $225")
    assert out[0] == "player 1 bids $225 on BO ($5 over its face value)."
    await session(console, "as 1: /game undo")
    await session(console, *STOCK_ROUND, *TO_BUY_TRAINS[:-1])
    assert (await refused(console, "as 2: /play move train 2")).startswith(
        "you cannot train now: it is Place a Token in Operating Round 1.1; trains are bought at "
        "the end of a company's operating turn; you can: /play move Pass (Place a Token); "
        "/play move Place a B&O token"
    )


async def test_a_private_bought_by_a_company_named_or_positional(console):
    await session(
        console,
        *AUCTION,
        *STOCK_ROUND,
        *TO_BUY_TRAINS,
        *["as 2: /play move train 2"] * 4,
        "as 3: /play pass",
        "as 3: /play move train 2",
        "as 3: /play move train 2",
        "as 3: /play move train 3",
    )
    # several suggested prices, none given: the price is asked for, with the suggestions
    assert await refused(console, "as 3: /play move private CA") == (
        "give the price too: 3 prices are open ($80, $160, $320), e.g. /play move private CA 80"
    )
    # out of range, named or positional: the rule (half to twice the face value)
    rule = (
        "a company buys a private for a price agreed with its owner within the title's "
        "range: Camden & Amboy (face value $160) for between $80 and $320"
    )
    assert await refused(console, "as 3: /play move move:private CA 400") == rule
    assert await refused(console, "as 3: /play move private CA 400") == rule
    # in range, both forms propose the same deal to CA's owner
    named = await session(console, "as 3: /play move move:private CA 300")
    positional = await session(console, "as 3: /play move private CA 300")
    assert named[0] == "player 3 proposes deal #1 to player 1: PRR buys CA from player 1 for $300."
    assert positional == [  # the same deal asked for again: the open one is named
        "Refused: your deal #1 (PRR buys CA from player 1 for $300.) is already waiting for "
        "player 1's answer"
    ]


async def test_1860s_compulsory_train_has_its_own_rule(console):
    from tests.reference_games import game_path

    await session(
        console,
        f"as 1: /game import file:{game_path('1860', '19354')} players:1 2",
        "as 1: /game-admin rewind 52",
    )
    out = await session(console, "as 1: /play pass", "as 2: /play pass")
    assert out == [
        "Refused: it is not your turn in game #1; waiting for Player 2",
        "Refused: you cannot pass now: a train is compulsory: C&N owns no train and has the "
        "£1,000 to buy one (the cheapest from the bank costs £250), so it must buy one before its "
        "turn ends; you can: /play move Buy a 2+1-train from the bank for £250",
    ]
