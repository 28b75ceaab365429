"""Programmed moves through the service: each player sets, lists and cancels their own, and
nobody else is told what they are (18xx.games shows a player's programs to that player alone).
A program set quietly moves no button, request or turn clock of the others; the moves it makes
are told like any move, the next human asked at once; why one stopped reaches its player alone
(a note kept until it is delivered); an away program ends at its date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.moves import MOVES, resolve
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store

ANN, BOB, CY, DAN = (Caller(n, name) for n, name in enumerate(("Ann", "Bob", "Cy", "Dan"), 1))
EVE = Caller(9, "Eve")  # a spectator
AUCTION = "pass in the auction until it ends"
AWAY = "are away: railchat passes for you in stock rounds, auctions and Buy Companies steps"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db_path, clock):
    return GameService(Store(db_path), new_seed=lambda: 1, clock=clock)


async def started(service: GameService) -> int:
    gid = (await service.create_game(ANN, "1830", seats=4)).game_id
    assert gid is not None
    for caller in (BOB, CY, DAN):
        assert (await service.join(gid, caller)).ok
    assert (await service.start(gid, ANN)).ok
    return gid


async def test_a_program_is_set_listed_and_cancelled_by_its_player_alone(service):
    gid = await started(service)
    offered = [name for name, _ in await service.order_suggestions(
        gid, BOB.user_id, "auction", guild_id=None, cancel=False)]  # fmt: skip
    assert (
        offered[0] == AUCTION and "pass in the auction until another player bids on CA" in offered
    )
    assert await service.order_suggestions(gid, EVE.user_id, "", guild_id=None, cancel=False) == []
    version = (await service.store.game(gid)).version
    done = await service.set_order(gid, BOB, "auction until it ends")
    assert done.ok and not done.changed and done.text == f"Programmed: you {AUCTION}."
    record = await service.store.game(gid)
    assert record.version == version + 1 and record.moved == version  # nobody else is told
    assert (await service.orders(gid, BOB)).text == (
        f"Your programmed moves in game #{gid} (only you see them):\n- you {AUCTION}"
    )
    assert (await service.orders(gid, CY)).text == (
        f"You have no programmed moves in game #{gid}. /play auto what:set suggests those you "
        "may set now."
    )
    assert (
        "You pass in the auction until it ends (programmed)."
        in (await service.status(gid, viewer=BOB.user_id)).text
    )
    assert "programmed" not in (await service.status(gid, viewer=CY.user_id)).text
    # what Bob set, Bob reads in the history; the others, only that he changed his programs
    assert (await service.history(gid, viewer=BOB.user_id)).text.endswith(
        f"1. Programmed: you {AUCTION}. Bob changed their programmed moves."
    )
    assert (await service.history(gid, viewer=CY.user_id)).text.endswith(
        "1. Bob changed their programmed moves."
    )
    await service.set_order(gid, BOB, "away")
    cancels = await service.order_suggestions(gid, BOB.user_id, "", guild_id=None, cancel=True)
    assert [name for name, _ in cancels] == ["all: every programmed move of yours", AUCTION,
                                             f"{AWAY}"]  # fmt: skip
    gone = await service.cancel_order(gid, BOB, cancels[1][1])  # picked by its key
    assert gone.text == f"Cancelled your programmed move: you {AUCTION}."
    gone = await service.cancel_order(gid, BOB, "all")
    assert gone.text == f"Cancelled your programmed move: you {AWAY}."
    assert (await service.orders(gid, BOB)).text.startswith("You have no programmed moves")


@pytest.mark.parametrize(
    ("caller", "how", "refusal"),
    [
        (EVE, ("set", AUCTION, None), "you are not seated in game #1: only its players program "
         "moves, each for their own seat"),
        (BOB, ("set", "merge everything", None), "no programmed move you may set matches "
         "'merge everything'; you may set: pass in the next stock round until"),
        (BOB, ("set", "pass in the auction", None), "10 programmed moves match 'pass in the "
         "auction': pass in the auction until it ends;"),
        (BOB, ("set", AUCTION, "2031-01-01"), "an end date is only for a programmed move that "
         "lasts until you cancel it (away)"),
        (BOB, ("set", "away", "2029-12-31"), "2029-12-31 00:00 UTC has passed; give a date "
         "still to come"),
        (BOB, ("set", "away", "next week"), "'next week' is not a date; give one like 2030-06-01 "
         "(UTC)"),
        (BOB, ("cancel", AUCTION, None), "you have no programmed moves in game #1"),
    ],
)  # fmt: skip
async def test_a_wrong_program_is_refused_and_changes_nothing(service, caller, how, refusal):
    gid = await started(service)
    version = (await service.store.game(gid)).version
    what, program, until = how
    result = await (
        service.set_order(gid, caller, program, until=until)
        if what == "set"
        else service.cancel_order(gid, caller, program)
    )
    assert result.error is not None and result.error.startswith(refusal), result.error
    assert (await service.store.game(gid)).version == version


async def test_programmed_moves_are_told_as_moves_and_the_next_human_is_asked(service):
    gid = await started(service)
    await service.set_order(gid, BOB, AUCTION)
    await service.set_order(gid, CY, "away")
    assert (await service.prompt(gid, choices=False)).notify == (ANN.user_id,)
    passed = await service.play(gid, ANN, lambda g, c: resolve(MOVES["pass"], {}, c, g))
    assert passed.changed and passed.text == (
        "Ann passes (Bid on Companies). Bob passes (programmed). Cy passes (programmed)."
    )
    assert passed.notify == (DAN.user_id,)  # Dan, the next human: neither Bob nor Cy


async def test_a_program_set_quietly_leaves_the_turn_buttons_and_requests_standing(service):
    gid = await started(service)
    await service.act(gid, ANN, {"type": "pass"})
    await service.act(gid, BOB, {"type": "bid", "company": "CA", "price": 170})
    await service.act(gid, CY, {"type": "pass"})
    asked = await service.undo(gid, BOB)  # Cy moved since: Cy is asked
    assert asked.vote is not None and asked.notify == (CY.user_id,)
    button = (await service.prompt(gid)).version  # Dan's turn post
    assert (await service.set_order(gid, ANN, "away")).ok  # Ann, quietly
    approved = await service.vote(asked.vote, CY, True)  # the request stands
    assert approved.ok and approved.text.startswith("Cy approved: the game is back to action 1")
    assert (await service.orders(gid, ANN)).text.endswith(f"- you {AWAY}")  # set again
    # Bob's turn again: his turn post's button works after Dan programs quietly
    button = (await service.prompt(gid)).version
    assert (await service.set_order(gid, DAN, AUCTION)).ok
    pressed = await service.play(
        gid, BOB, lambda g, c: resolve(MOVES["pass"], {}, c, g), version=button
    )
    assert pressed.ok, pressed.error
    assert pressed.text == "Bob passes (Bid on Companies)." and pressed.notify == (CY.user_id,)


async def test_an_undo_asks_nobody_about_programs_set_since_and_keeps_them(service):
    gid = await started(service)
    await service.act(gid, ANN, {"type": "pass"})
    await service.act(gid, BOB, {"type": "pass"})
    await service.set_order(gid, DAN, "away")  # after Bob's move, before his undo
    undone = await service.undo(gid, BOB)  # Bob is no admin: anyone else's move would ask
    assert undone.ok and undone.vote is None and undone.text.startswith("Bob undid action 2:")
    assert (await service.orders(gid, DAN)).text.endswith(f"- you {AWAY}")
    kinds = [a.payload["type"] for a in await service.store.actions(gid)]
    assert kinds == ["pass", "railchat_program"]


async def test_why_a_program_stopped_is_a_note_for_its_player_alone(service):
    gid = await started(service)
    await service.set_order(gid, CY, "away")
    await service.set_order(gid, DAN, "until another player bids on CA")
    bid = await service.act(gid, ANN, {"type": "bid", "company": "CA", "price": 170})
    pass_ = await service.act(gid, BOB, {"type": "pass"})
    assert bid.noted == () and pass_.noted == (DAN.user_id,)
    assert pass_.text == "Bob passes (Bid on Companies). Cy passes (programmed)."  # no reason
    assert pass_.notify == (DAN.user_id,)
    notes = await service.waiting_notes(DAN.user_id, None)
    assert [n.text for n in notes] == [
        f"Game #{gid}: Your programmed move stopped: Ann bid $170 on CA. (It was: you pass in "
        "the auction until another player bids on CA.)"
    ]
    assert await service.waiting_notes(BOB.user_id, None) == []
    await service.notes_delivered(notes)
    assert await service.waiting_notes(DAN.user_id, None) == []
    # one's own: told at once
    await service.set_order(gid, DAN, "until another player bids on BO")
    told = await service.act(gid, DAN, {"type": "bid", "company": "BO", "price": 230})
    assert told.aside == "" and told.noted == ()


async def test_an_away_program_ends_at_its_date(service, clock):
    gid = await started(service)
    set_ = await service.set_order(gid, BOB, "away", until="2030-01-05")
    assert set_.text == (
        "Programmed: you are away until 2030-01-05 00:00 UTC: railchat passes for you in stock "
        "rounds, auctions and Buy Companies steps."
    )
    passed = await service.act(gid, ANN, {"type": "pass"})
    assert passed.text.endswith("Bob passes (programmed).")
    await service.act(gid, CY, {"type": "pass"})
    await service.act(gid, DAN, {"type": "pass"})
    clock.now += timedelta(days=4)  # it is 2030-01-05: the first command ends it first
    passed = await service.act(gid, ANN, {"type": "pass"})
    assert passed.text == "Ann passes (Bid on Companies)." and passed.notify == (BOB.user_id,)
    [note] = await service.waiting_notes(BOB.user_id, None)
    assert note.text.startswith(
        f"Game #{gid}: Your programmed move stopped: its end, 2030-01-05 00:00 UTC, has come."
    )
    actions = await service.store.actions(gid)
    assert actions[-2].user_id == BOB.user_id and actions[-2].payload["reason"] == (
        "its end, 2030-01-05 00:00 UTC, has come"
    )


async def test_a_refused_move_leaves_an_ended_away_program_for_the_next_one(service, clock):
    gid = await started(service)
    await service.set_order(gid, BOB, "away", until="2030-01-02")
    before = await service.store.actions(gid)
    clock.now += timedelta(days=2)
    refused = await service.act(gid, CY, {"type": "pass"})  # not Cy's turn: nothing changes
    assert refused.error and await service.store.actions(gid) == before
    ended = await service.cancel_order(gid, BOB, "all")  # the program's own end comes first
    assert ended.text == (
        "It had ended already: you are away until 2030-01-02 00:00 UTC: railchat passes for you "
        "in stock rounds, auctions and Buy Companies steps."
    )
    [stop] = (await service.store.actions(gid))[len(before) :]
    assert stop.payload["reason"] == "its end, 2030-01-02 00:00 UTC, has come"


async def test_the_prompt_tells_everyone_of_18xx_programs_alone(service):
    """18xx.games keeps its programs in the game's public log (its Auto page: "not secret"):
    every prompt names them, in words after the player's name; railchat's own, which its game
    file never holds, it leaves out."""
    gid = await started(service)
    await service.set_order(gid, BOB, AUCTION)
    await service.set_order(gid, CY, "away")
    assert (await service.prompt(gid, choices=False)).programmed == ()
    await service.set_order(
        gid, DAN, "pass in the next stock round until another player's move changes things"
    )
    assert (await service.prompt(gid, choices=False)).programmed == (
        "Dan automatically passes in the next stock round until another player's move changes "
        "things",
    )
    await service.cancel_order(gid, DAN, "all")
    assert (await service.prompt(gid, choices=False)).programmed == ()
