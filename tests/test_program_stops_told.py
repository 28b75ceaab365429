"""Programs that stop, or make no move on their player's turn, say so (issue 35): whenever a
program of a player's leaves them a turn it would have made, or ends by itself, its player
alone is told why, once, in words (docs/playing.md, "Programmed moves"): a note kept until it
reaches them (`Result.noted`), or the answer to their own command (`Result.aside`); the console
prints it for that player. A deal with a seat nobody can answer for is never offered."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli.console import Console
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from tests.reference_games import game_path, require_games
from tests.test_program_holes import finish_auction
from tests.test_service_orders import ANN, BOB, CY, DAN, started

INCOME = (
    "Private income: Ann $30 (SV $5, CA $25); Bob $40 (CS $10, BO $30); Cy $15 from DH; Dan "
    "$20 from MH."
)
AWAY = "are away: railchat passes for you in stock rounds, auctions and Buy Companies steps"


@pytest.fixture
def service(db_path):
    return GameService(Store(db_path), new_seed=lambda: 1)


def left(reason: str, program: str = AWAY) -> str:
    """What a player is told when their program leaves them a turn it would have made."""
    return f"Your programmed move left this turn to you: {reason}. (It stays set: you {program}.)"


async def notes_of(service: GameService, user_id: int) -> list[str]:
    notes = await service.waiting_notes(user_id, None)
    await service.notes_delivered(notes)
    return [n.text for n in notes]


async def test_away_says_why_it_leaves_its_player_a_turn_with_their_bid_at_stake(service):
    gid = await started(service)
    await service.act(gid, ANN, {"type": "bid", "company": "CS", "price": 50})
    await service.act(gid, BOB, {"type": "bid", "company": "CS", "price": 55})
    await service.set_order(gid, ANN, "away")
    sold = await service.act(gid, CY, {"type": "bid", "company": "SV", "price": 20})
    assert sold.notify == (ANN.user_id,) and sold.noted == (ANN.user_id,)
    assert await notes_of(service, ANN.user_id) == [
        f"Game #{gid}: " + left("you bid $50 on CS: a pass would give that bid up")
    ]


async def test_away_says_why_it_leaves_a_turn_after_a_go_round_of_programmed_passes(service):
    gid = await started(service)
    await service.act(gid, ANN, {"type": "bid", "company": "SV", "price": 20})  # bought
    for caller in (CY, DAN, ANN):
        await service.set_order(gid, caller, "away")
    done = await service.set_order(gid, BOB, "away")  # now every pass is programmed
    assert done.aside == f"Programmed: you {AWAY}. " + left(
        "every player passed by program for a whole round: the auction would go on paying the "
        "privates for ever"
    )


async def test_away_says_why_a_stock_round_after_one_without_a_move_by_hand_waits(service):
    gid = await started(service)
    await finish_auction(service, gid)  # Cy is to act in Stock Round 1
    for caller in (DAN, ANN, BOB):
        await service.set_order(gid, caller, "away")
    done = await service.act(gid, CY, {"type": "pass"})  # by hand: SR 2 is played too
    assert done.text.endswith("Stock Round 2 begins. " + INCOME) and done.notify == (CY.user_id,)
    done = await service.set_order(gid, CY, "away")  # Stock Round 2 without a move by hand
    assert done.text.endswith("Stock Round 3 begins. " + INCOME) and done.notify == (CY.user_id,)
    assert done.aside == f"Programmed: you {AWAY}. " + left(
        "nobody moved by hand in the last stock round, so this one waits for a player's move "
        "(were every player away, the game would go on without anyone)"
    )


async def test_a_buy_program_that_cannot_buy_says_why_in_the_rules_words(service):
    gid = await started(service)
    await finish_auction(service, gid)  # Cy is to act
    typed = {"type": "program_buy_shares", "corporation": "PRR", "until_condition": "float",
             "from_market": False, "auto_pass_after": False}  # fmt: skip
    done = await service.act(gid, CY, typed)  # as typed: the menus offer parred companies
    assert done.aside == (
        "Programmed: you buy PRR from the IPO until it floats. Your programmed move stopped: "
        "Cannot buy PRR from IPO (PRR has not been parred yet). (It was: you buy PRR from the "
        "IPO until it floats.)"
    )
    [stop] = (await service.store.actions(gid))[-1].payload["auto_actions"]
    assert stop["reason"] == "Cannot buy PRR from IPO"  # as 18xx.games records it


async def test_the_console_prints_why_a_program_stopped_for_its_player_by_name(db_path):
    console = Console(GameService(Store(db_path), new_seed=lambda: 1), io.StringIO())
    await console.run(
        ["as 1: /game new 1830 seats:4", *(f"as {n}: /game join" for n in (2, 3, 4))]
        + ["as 1: /game start", "as 4: /play auto set until another player bids on CA"]
    )
    await console.run(["as 1: /play move bid CA 170", "as 2: /play pass"])
    console.out = io.StringIO()
    await console.run(["as 3: /play pass"])  # player 4's turn: the program stops
    assert console.out.getvalue().splitlines() == [
        "player 3 passes (Bid on Companies).",
        "[player 4] Game #1: Your programmed move stopped: player 1 bid $170 on CA. (It was: "
        "you pass in the auction until another player bids on CA.)",
        "To act: player 4",
    ]
    assert await console.service.waiting_notes(4, None) == []  # told once


async def test_the_menu_offers_no_deal_the_computer_would_be_asked_to_answer(db_path):
    """1830_game_end_bank after 37 actions: a stock round, Player 2 to act, who may offer to buy
    the other players' privates; Player 3's seat, handed to the computer, makes no deals."""
    require_games("1830")
    service = GameService(Store(db_path), new_seed=lambda: 1)
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    one, two = Caller(1, "user1"), Caller(2, "user2")
    made = await service.import_game(
        one, {**data, "actions": data["actions"][:37]}, [1, 2, 3], offer=False
    )
    gid = made.game_id
    assert gid is not None

    def sellers(choices: list) -> set:
        return {game.counterparty(c.action) for c in choices} - {None}

    game = await service._live(await service.store.game(gid))
    p1, _, p3 = (s.player_id for s in await service.store.seats(gid))
    assert sellers(await service.legal_actions(gid, two.user_id)) == {p1, p3}
    assert (await service.computer_seat(gid, one, 3, True)).ok
    offered = await service.legal_actions(gid, two.user_id)
    prompt = await service.prompt(gid)
    assert sellers(offered) == sellers(list(prompt.choices)) == {p1}  # Player 1 may answer
    for choice in offered:
        if game.counterparty(choice.action) is not None:  # each deal offered is proposed
            asked = await service.play(gid, two, lambda g, c, a=choice.action: dict(a))
            assert asked.ok and asked.vote is not None, asked.error
