"""Programmed moves cannot be abused (issue 34): a flood of them cannot make a game too long to
import (a player sets at most `MAX_ORDER_SETS` in a round; cancelling is never refused), and
they belong to the person who set them: a seat handed to someone else is never played by its
old holder's programs."""

from __future__ import annotations

import json

import pytest

from bot.core.service import GameService
from bot.core.service.playing import MAX_ORDER_SETS
from bot.core.store import Store
from tests.test_service_orders import ANN, AUCTION, BOB, CY, DAN, EVE, started

NEXT_STOCK = "pass in the next stock round until another player's move changes things"
CAPPED = (
    f"you have set {MAX_ORDER_SETS} programmed moves in this round; set the next one when a new "
    "round begins (you may still cancel yours)"
)


@pytest.fixture
def service(db_path):
    return GameService(Store(db_path), new_seed=lambda: 1)


async def reimported(service: GameService, gid: int) -> int:
    """The game exported and imported again (by Ann, every seat hers to give): its new id."""
    [(_, payload)] = (await service.export(gid)).files
    again = await service.import_game(ANN, json.loads(payload), [ANN.user_id])
    assert again.ok, again.error
    assert again.game_id is not None
    return again.game_id


# -- a flood of program changes ----------------------------------------------------------------
@pytest.mark.parametrize("program", [NEXT_STOCK, AUCTION])  # 18xx.games' and railchat's own
async def test_a_thousand_set_and_cancel_pairs_leave_the_game_importable(service, program):
    gid = await started(service)
    refused = 0
    for _ in range(1100):
        done = await service.set_order(gid, BOB, program)
        if done.error:
            assert done.error == CAPPED
            refused += 1
            continue
        assert (await service.cancel_order(gid, BOB, "all")).ok
    await reimported(service, gid)
    assert refused == 1100 - MAX_ORDER_SETS
    assert len(await service.store.actions(gid)) == 2 * MAX_ORDER_SETS


async def test_at_the_cap_cancelling_still_works_and_a_new_round_allows_more(service):
    gid = await started(service)
    for _ in range(MAX_ORDER_SETS):
        assert (await service.set_order(gid, BOB, AUCTION)).ok  # each replaces the one before
    version = (await service.store.game(gid)).version
    again = await service.set_order(gid, BOB, NEXT_STOCK)
    assert again.error == CAPPED and (await service.store.game(gid)).version == version
    typed = {"type": "program_share_pass", "unconditional": False, "indefinite": False}
    sent = await service.act(gid, BOB, typed)  # the same move typed: the same refusal
    assert sent.error == CAPPED and (await service.store.game(gid)).version == version
    assert (await service.cancel_order(gid, BOB, "all")).ok
    assert (await service.set_order(gid, CY, AUCTION)).ok  # the cap is each player's own
    await finish_auction(service, gid)  # a stock round: a new round, a new allowance
    assert (await service.set_order(gid, BOB, "pass in this stock round until another")).ok


async def by_whoever_acts(service: GameService, gid: int, action: dict) -> None:
    """The action made by the player whose turn it is (the others are refused)."""
    for caller in (ANN, BOB, CY, DAN):
        if (await service.act(gid, caller, action)).ok:
            return
    raise AssertionError(f"nobody may {action}")


async def finish_auction(service: GameService, gid: int) -> None:
    """The players buy the privates in turn at face value; B&O's buyer pars it."""
    for sym, value in (("SV", 20), ("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160), ("BO", 220)):
        await by_whoever_acts(service, gid, {"type": "bid", "company": sym, "price": value})
    await by_whoever_acts(
        service, gid, {"type": "par", "corporation": "B&O", "share_price": "100,0,6"}
    )


# -- programs belong to a person, not a seat ---------------------------------------------------
@pytest.mark.parametrize("offer", [False, True])  # given at once, or offered (unclaimed till then)
async def test_a_seat_given_to_someone_else_is_not_played_by_its_old_holders_programs(
    service, offer
):
    gid = await started(service)
    await service.set_order(gid, BOB, AUCTION)  # railchat's own
    await service.set_order(gid, BOB, NEXT_STOCK)  # 18xx.games'
    given = await service.replace_seat(gid, ANN, 2, EVE.user_id, "Eve", offer=offer)
    assert given.ok, given.error
    assert "programmed" not in given.text  # the others are not told what Bob had set
    if offer:
        [invitation] = given.invitations
        assert (await service.answer_invitation(invitation, EVE, True)).ok
    passed = await service.act(gid, ANN, {"type": "pass"})
    assert passed.text == "Ann passes (Bid on Companies)."  # not "Eve passes (programmed)."
    assert passed.notify == (EVE.user_id,)  # Eve is asked to act
    assert (await service.orders(gid, EVE)).text.startswith("You have no programmed moves")
    notes = [n.text for n in await service.waiting_notes(BOB.user_id, None)]
    assert notes == [
        f"Game #{gid}: Your programmed move stopped: your seat was given to someone else. "
        f"(It was: you {program}.)"
        for program in (NEXT_STOCK, AUCTION)
    ]
    kinds = [a.payload["type"] for a in await service.store.actions(gid)]
    assert kinds == [
        "railchat_program",
        "program_share_pass",
        "program_disable",
        "railchat_program_disable",
        "pass",
    ]
    await reimported(service, gid)  # the cancel is an 18xx.games move: the export replays


async def test_a_players_programs_outlast_their_own_time_away_with_the_computer(service):
    gid = await started(service)
    await service.set_order(gid, BOB, AUCTION)
    assert (await service.computer_seat(gid, BOB, None, True)).ok  # /play away
    assert (await service.computer_seat(gid, BOB, None, False)).ok  # /play back
    assert (await service.orders(gid, BOB)).text.endswith(f"- you {AUCTION}")
    passed = await service.act(gid, ANN, {"type": "pass"})
    assert passed.text == "Ann passes (Bid on Companies). Bob passes (programmed)."
