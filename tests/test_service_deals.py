"""Deals that take another player's property (Tally's `take`, standing in for 1830's privates
and trains at an agreed price): proposed instead of applied, then accepted, declined,
withdrawn or lapsed; stored, so a restart keeps them; only the right players answer."""

from __future__ import annotations

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from engine.errors import IllegalAction
from tests.raw_sql import execute
from tests.test_service import ANN, BOB, CY, EVE, add, started, stored

ADMIN = Caller(50, "Mod", is_admin=True)
DAN = Caller(13, "Dan")


def take(entity: int, source: int, amount: int) -> dict:
    return {
        "type": "take",
        "entity": entity,
        "entity_type": "player",
        "from": source,
        "amount": amount,
    }


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242)  # scores Ann 6, Bob 2, Cy 0


async def test_a_deal_waits_for_the_other_owner_and_is_made_when_accepted(service):
    gid = await started(service, ANN, BOB, CY)
    version = (await service.store.game(gid)).version
    asked = await service.act(gid, ANN, take(1, 2, 2))
    assert asked.ok and asked.changed and asked.vote == 1 and asked.vote_kind == "deal"
    assert asked.notify == (BOB.user_id,) and asked.views == ()
    assert asked.text == (
        "Ann proposes deal #1 to Bob: Ann took 2 from Bob.\nBob, do you "
        "agree? Until you answer nothing changes; the deal lapses if the game "
        "moves on first."
    )
    assert (await stored(service, gid)) == [] and (await service.store.game(gid)).version == version
    status = await service.status(gid)
    assert status.text.splitlines()[-1] == (
        "Awaiting an answer: deal #1 from Ann: Ann took 2 from Bob."
    )
    assert await service.open_requests(gid) == [(1, "deal #1 from Ann: Ann took 2 from Bob.")]

    accepted = await service.vote(1, BOB, True)
    assert accepted.ok and accepted.text == "Bob accepted deal #1: Ann took 2 from Bob."
    assert accepted.notify == (BOB.user_id,) and accepted.views == ("board",)  # Bob's turn now
    assert (await stored(service, gid)) == [take(1, 2, 2)]
    assert (await service.store.actions(gid))[0].user_id == ANN.user_id  # made for its proposer
    assert (await service.store.request(1)).status == "done" and await service.open_requests(
        gid
    ) == []
    assert (await service.vote(1, BOB, True)).error == "this deal was already accepted and made"
    assert (await service.vote(1, BOB, False)).error == "this deal was already accepted and made"


async def test_a_deal_can_be_declined_or_withdrawn(service):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    declined = await service.vote(1, BOB, False)
    assert declined.ok and declined.text == (
        "Bob declined deal #1 (Ann took 1 from Bob.); nothing changed."
    )
    assert (await service.vote(1, BOB, True)).error == "this deal was declined or withdrawn"
    await service.act(gid, ANN, take(1, 2, 1))
    withdrawn = await service.vote(2, ANN, False)
    assert withdrawn.text == "Ann withdrew deal #2 (Ann took 1 from Bob.); nothing changed."
    await service.act(gid, ANN, take(1, 2, 1))
    assert (await service.vote(3, ADMIN, False)).text.startswith("Mod declined deal #3")
    assert (await stored(service, gid)) == [] and await service.open_requests(gid) == []


async def test_only_the_other_owner_accepts(service):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    for someone in (CY, ANN, EVE, ADMIN):  # another player, the proposer, a spectator, an admin
        assert (await service.vote(1, someone, True)).error == (
            "only Bob can accept deal #1: it takes their property"
        )
    for someone in (CY, EVE):
        assert (await service.vote(1, someone, False)).error == (
            "only Bob (whose property deal #1 takes), Ann (who proposed it) or a game admin "
            "can decline it"
        )
    assert (await stored(service, gid)) == [] and (await service.store.request(1)).status == "open"
    assert (await service.vote(7, BOB, True)).error == "there is no undo request or deal #7"
    assert (await service.vote(1, BOB, True)).ok


async def test_a_deal_lapses_when_the_game_moves_on(service):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    moved = await service.act(gid, ANN, add(1, 3))
    assert moved.ok and moved.text == (
        "Ann added 3.\nDeal #1 (Ann's: Ann took 1 from Bob.) "
        "lapsed: the game moved on before it was accepted."
    )
    assert (await service.vote(1, BOB, True)).error == (
        "this deal lapsed: the game moved on (or the seats changed) since it was proposed; "
        "propose it again with /play"
    )
    assert (await stored(service, gid)) == [add(1, 3)]
    # an undo of a move makes a deal proposed after it lapse too
    await service.act(gid, BOB, take(2, 1, 1))
    undone = await service.undo(gid, ANN)  # Ann is the admin: at once
    assert undone.ok and undone.text.endswith(
        "Deal #2 (Bob's: Bob took 1 from Ann.) lapsed: the game moved on before it was accepted."
    )
    assert (await service.store.request(2)).status == "void"


async def test_a_new_proposal_replaces_the_proposers_open_one(service):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    second = await service.act(gid, ANN, take(1, 2, 2))
    assert second.vote == 2 and second.text.endswith("(It replaces Ann's deal #1.)")
    assert (await service.vote(1, BOB, True)).error == "this deal was declined or withdrawn"
    assert (await service.vote(2, BOB, True)).ok
    assert (await stored(service, gid)) == [take(1, 2, 2)]


async def test_an_illegal_deal_is_refused_before_anyone_is_asked(service):
    gid = await started(service, ANN, BOB, CY)
    refused = await service.act(gid, ANN, take(1, 3, 1))
    assert refused.error == "Cy has only 0 points" and await service.open_requests(gid) == []
    assert (await service.act(gid, BOB, take(2, 1, 1))).error == (
        "it is not your turn in game #1; waiting for Ann"
    )
    assert await service.store.request(1) is None
    # taking from oneself takes nobody else's property: applied at once
    own = await service.act(gid, ANN, take(1, 1, 1))
    assert own.ok and own.vote is None and (await stored(service, gid)) == [take(1, 1, 1)]


async def test_an_accepted_deal_the_engine_now_refuses_is_refused_with_its_reason(
    service, monkeypatch
):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    game = await service._live(await service.store.game(gid))

    def refuse(self, action, **_):
        raise IllegalAction("Bob's points are frozen")

    # on the class: a refused action rebuilds the instance, which would drop an instance patch
    monkeypatch.setattr(type(game), "_apply", refuse)
    refused = await service.vote(1, BOB, True)
    assert refused.error == "deal #1 cannot be made any more: Bob's points are frozen"
    assert (await service.store.request(1)).status == "void" and (await stored(service, gid)) == []


async def test_a_deal_waits_while_the_game_is_paused(service):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    assert (await service.pause(gid, ANN, True)).ok
    assert (await service.vote(1, BOB, True)).error == (
        "game #1 is paused; nothing changes until a game admin resumes it "
        "with /game-admin resume (its creator: /game status)"
    )
    assert (await service.pause(gid, ANN, False)).ok
    assert (await service.vote(1, BOB, True)).ok


async def test_the_new_holder_of_a_seat_answers_for_it(service):
    """A seat handed over lapses the deals asked of it; its new holder answers the next."""
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, take(1, 2, 1))
    offered = await service.replace_seat(gid, ANN, 2, DAN.user_id, DAN.name)
    assert offered.text.endswith("Deal #1 (Ann's: Ann took 1 from Bob.) lapsed: the game moved "
                                 "on before it was accepted.")  # fmt: skip
    assert (await service.vote(1, BOB, True)).error.startswith("this deal lapsed")
    assert (await service.answer_invitation(offered.invitations[0], DAN, True)).ok
    again = await service.act(gid, ANN, take(1, 2, 1))
    assert again.notify == (DAN.user_id,)
    assert (await service.vote(again.vote, BOB, True)).error == (
        f"only Dan can accept deal #{again.vote}: it takes their property"
    )
    accepted = await service.vote(again.vote, DAN, True)
    assert accepted.text == f"Dan accepted deal #{again.vote}: Ann took 1 from Dan."


async def test_a_seat_nobody_holds_cannot_be_asked(service):
    gid = await started(service, ANN, BOB, CY)
    execute(  # as an imported game's unclaimed seat
        service.store.path, "UPDATE seats SET user_id = -2 WHERE game_id = ? AND seat = 2", [gid]
    )
    refused = await service.act(gid, ANN, take(1, 2, 1))
    assert refused.error == (
        "this deal takes Bob's property and nobody holds that seat to "
        "agree to it; a game admin can give the seat with /game-admin replace"
    )


async def test_a_deal_survives_a_restart(make_store):
    first = GameService(make_store(), new_seed=lambda: 4242)
    gid = await started(first, ANN, BOB, CY)
    await first.act(gid, ANN, take(1, 2, 2), interaction_id=501)
    first.store.close()
    again = GameService(make_store())
    assert await again.open_requests(gid) == [(1, "deal #1 from Ann: Ann took 2 from Bob.")]
    accepted = await again.vote(1, BOB, True, interaction_id=502)
    assert accepted.ok and (await stored(again, gid)) == [take(1, 2, 2)]
    duplicate = await again.vote(1, BOB, True, interaction_id=502)
    assert duplicate.duplicate and (await stored(again, gid)) == [take(1, 2, 2)]
    resent = await again.act(gid, ANN, take(1, 2, 2), interaction_id=501)
    assert resent.duplicate and await again.open_requests(gid) == []


async def test_an_open_undo_request_lapses_with_a_move_and_says_so(service):
    gid = await started(service, ANN, BOB, CY)
    for caller, seat in ((ANN, 1), (BOB, 2), (CY, 3)):
        assert (await service.act(gid, caller, add(seat))).ok
    asked = await service.undo(gid, BOB)
    moved = await service.act(gid, ANN, add(1))
    assert moved.text == "Ann added 1.\nBob's undo request #1 lapsed: the game moved on."
    assert (await service.vote(asked.vote, CY, True)).error == (
        "the game has moved on since this undo was asked; ask again with /game undo"
    )


async def test_each_owner_answers_only_the_deal_that_takes_their_property(service):
    gid = await started(service, ANN, BOB, CY, free_for_all=True)  # everybody acts at once
    assert (await service.act(gid, ANN, take(1, 2, 1))).vote == 1  # from Bob
    assert (await service.act(gid, CY, take(3, 1, 2))).vote == 2  # from Ann
    assert (await service.vote(2, BOB, True)).error == (
        "only Ann can accept deal #2: it takes their property"
    )
    assert (await service.vote(1, ANN, True)).error == (
        "only Bob can accept deal #1: it takes their property"
    )
    assert (await service.vote(2, BOB, False)).error.startswith("only Ann (whose property")
    accepted = await service.vote(2, ANN, True)
    assert accepted.text == (
        "Ann accepted deal #2: Cy took 2 from Ann.\nDeal #1 (Ann's: Ann "
        "took 1 from Bob.) lapsed: the game moved on before it was "
        "accepted."
    )
    assert (await stored(service, gid)) == [take(3, 1, 2)]
    assert (await service.store.actions(gid))[0].user_id == CY.user_id
