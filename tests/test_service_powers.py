"""Powers follow the seat, and nothing but reading works on a game that is paused or abandoned;
nobody is seated, or pinged as a player, before saying yes; one undo request per player."""

from __future__ import annotations

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from tests.test_service import ANN, BOB, CY, EVE, add, started, stored

DAN = Caller(13, "Dan")


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242)


async def test_a_replaced_player_loses_every_power_of_the_seat(service):
    gid = await started(service, ANN, BOB, CY)
    for caller, seat in ((ANN, 1), (BOB, 2), (CY, 3)):
        assert (await service.act(gid, caller, add(seat))).ok
    asked = await service.undo(gid, BOB)  # Cy must approve taking back her move
    offered = await service.replace_seat(gid, ANN, 3, DAN.user_id, "Dan")
    assert offered.ok and offered.invited == (DAN.user_id,) and offered.invitations
    assert offered.text.endswith("Bob's undo request #1 lapsed: the game moved on.")
    assert offered.notify == (ANN.user_id,)  # Ann's turn; nobody is pinged for seat 3
    assert (await service.vote(asked.vote, CY, True)).error.startswith("the game has moved on")
    assert (await service.undo(gid, CY)).error == (
        "only the player who made the last action, or a game admin, can undo it"
    )
    taken = await service.answer_invitation(offered.invitations[0], DAN, True)
    assert taken.ok and taken.text == "Dan took seat 3 of game #1. Welcome!"
    undone = await service.undo(gid, DAN)  # the seat's last move is now Dan's to take back
    assert undone.ok and undone.text == "Dan undid action 3: Cy added 1."  # as it was told
    assert (await service.redo(gid, CY)).error.startswith("only Dan (who undid it)")
    assert (await service.redo(gid, DAN)).ok
    assert len(await stored(service, gid)) == 3


async def test_a_seat_is_only_taken_by_the_user_it_was_offered_to(service):
    gid = await started(service, ANN, BOB)
    offered = await service.replace_seat(gid, ANN, 2, DAN.user_id, "Dan")
    [invitation] = offered.invitations
    assert (await service.act(gid, BOB, add(2))).error.startswith("you are not seated")
    assert (await service.answer_invitation(invitation, EVE, True)).error == (
        "this seat is offered to someone else; only they can answer"
    )
    assert (await service.replace_seat(gid, ANN, 2, DAN.user_id, "Dan")).error == (
        "seat 2 is already offered to Dan; it is theirs once they accept"
    )
    declined = await service.answer_invitation(invitation, DAN, False)
    assert declined.ok and declined.text == "Dan declined seat 2 of game #1."
    assert (
        await service.answer_invitation(invitation, DAN, True)
    ).error == "this offer is declined"
    again = await service.replace_seat(gid, ANN, 2, DAN.user_id, "Dan")
    joined = await service.join(gid, DAN)  # joining the game accepts the offer
    assert joined.ok and "Dan took seat 2" in joined.text
    assert (await service.answer_invitation(again.invitations[0], DAN, True)).error == (
        "this offer is already accepted"
    )
    assert (await service.act(gid, ANN, add(1))).notify == (DAN.user_id,)


async def test_an_admin_taking_a_seat_holds_it_at_once(service):
    gid = await started(service, ANN, BOB, CY)
    taken = await service.replace_seat(gid, ANN, 2, EVE.user_id, "Eve")  # not Ann herself
    assert taken.invitations
    own = await service.replace_seat(gid, CY, 1, CY.user_id, "Cy")
    assert own.error == "only the creator of game #1 or a server admin can replace a player"
    admin = Caller(77, "Mod", is_admin=True)
    held = await service.replace_seat(gid, admin, 2, admin.user_id, "Mod")
    assert held.ok and held.text == "Mod took seat 2 (Bob) of game #1." and not held.invitations
    assert [s.user_id for s in await service.store.seats(gid)] == [10, 77, 12]


async def test_an_imported_game_seats_only_the_importer_and_offers_the_rest(service, tmp_path):
    from engine.eighteen import io
    from tests.reference_games import game_path, require_games

    require_games("1830")
    data = io.read_file(game_path("1830", "26855"))
    data = {**data, "actions": data["actions"][:10]}
    users = [ANN.user_id, BOB.user_id, None, CY.user_id][: len(data["players"])]
    imported = await service.import_game(ANN, data, users)
    assert imported.ok, imported.error
    assert sorted(imported.invited) == sorted(u for u in users[1:] if u)
    seats = await service.store.seats(imported.game_id)
    assert [s.user_id > 0 for s in seats] == [True] + [False] * (len(seats) - 1)
    assert all(u in (ANN.user_id,) for u in imported.notify)  # no pings for the invited


async def test_a_paused_game_can_only_be_read(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.act(gid, BOB, add(2))).ok
    assert (await service.undo(gid, BOB)).ok
    assert (await service.pause(gid, ANN, True)).ok
    paused = (
        "game #1 is paused; nothing changes until a game admin resumes it "
        "with /game-admin resume (its creator: /game status)"
    )
    assert (await service.undo(gid, ANN)).error == paused
    assert (await service.redo(gid, BOB)).error == paused
    assert (await service.rewind(gid, ANN, 0)).error == paused
    assert (await service.status(gid)).ok
    assert (await service.pause(gid, ANN, False)).ok
    assert (await service.redo(gid, BOB)).ok


async def test_an_abandoned_game_can_only_be_read(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.abandon(gid, ANN)).ok
    abandoned = "game #1 was abandoned; it can only be read now"
    assert (await service.undo(gid, ANN)).error == abandoned
    assert (await service.rewind(gid, ANN, 0)).error == abandoned
    assert (await service.history(gid)).ok


async def test_one_open_undo_request_per_player(service):
    gid = await started(service, ANN, BOB, CY)
    for caller, seat in ((ANN, 1), (BOB, 2), (CY, 3), (ANN, 1)):
        assert (await service.act(gid, caller, add(seat))).ok
    first = await service.undo(gid, BOB)
    assert first.vote is not None
    again = await service.undo(gid, BOB)
    assert again.error == f"your undo request #{first.vote} is already waiting for Cy, Ann"
    other = await service.undo(gid, CY)  # another player's request stands beside it
    assert other.vote is not None
    assert [r.id for r in await service.store.open_requests(gid)] == [first.vote, other.vote]
