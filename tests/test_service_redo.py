"""Redo: after an undo, `redo` puts the undone actions back while nobody has moved since,
through the service (Tally for the rules of who and when; 1830, 1860 and String Railway for
the titles), and refuses with the reason otherwise."""

from __future__ import annotations

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from tests.test_service import ANN, BOB, CY, add, started, stored

ADMIN = Caller(50, "Mod", is_admin=True)


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242)


async def test_a_redo_puts_back_what_the_undo_took_back(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1, 3))).ok
    before = (await service.status(gid)).text
    assert (await service.undo(gid, ANN)).ok and (await stored(service, gid)) == []
    redone = await service.redo(gid, ANN)
    assert redone.ok and redone.changed, redone.error
    assert redone.text == "Ann redid action 1: Ann added 3."
    assert (await stored(service, gid)) == [add(1, 3)]
    assert [a.user_id for a in await service.store.actions(gid)] == [ANN.user_id]
    assert (await service.status(gid)).text == before
    assert redone.notify == (BOB.user_id,)  # Bob's turn again, as before the undo
    # the redo is done: a second one has nothing left to put back
    assert (await service.redo(gid, ANN)).error == (
        "nothing undone in game #1 is left to redo (every undo was redone, or nothing was undone)"
    )


async def test_no_redo_once_anyone_moved_since_the_undo(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1, 3))).ok
    assert (await service.undo(gid, ANN)).ok
    assert (await service.act(gid, ANN, add(1, 5))).ok
    refused = await service.redo(gid, ANN)
    assert refused.error == (
        "a redo puts back an undo only while nobody has moved since it; "
        "a move was made after the last undo, so it cannot be redone"
    )
    assert (await stored(service, gid)) == [add(1, 5)]


async def test_nothing_to_redo_and_who_may(service):
    gid = await started(service, ANN, BOB, CY)
    assert (await service.redo(gid, BOB)).error == (
        "nothing undone in game #1 is left to redo (every undo was redone, or nothing was undone)"
    )
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.act(gid, BOB, add(2))).ok
    assert (await service.undo(gid, BOB)).ok
    assert (
        await service.redo(gid, CY)
    ).error == "only Bob (who undid it) or a game admin can redo it"
    assert (await service.redo(gid, ADMIN)).text == "Mod redid action 2: Bob added 1."
    assert [a.user_id for a in await service.store.actions(gid)] == [ANN.user_id, BOB.user_id]


async def test_a_rewind_of_several_actions_is_redone_whole(service):
    gid = await started(service, ANN, BOB)
    for i in range(4):
        assert (await service.act(gid, [ANN, BOB][i % 2], add(i % 2 + 1, i + 1))).ok
    assert (await service.rewind(gid, ANN, 1)).ok
    redone = await service.redo(gid, ANN)
    assert redone.text == "Ann redid actions 2-4: Bob added 2. Ann added 3. Bob added 4."
    assert (await stored(service, gid)) == [add(1, 1), add(2, 2), add(1, 3), add(2, 4)]
    # the redone log is the game's: it goes on from there, and undoes again
    assert (await service.act(gid, ANN, add(1, 5))).ok
    assert (await service.undo(gid, ANN)).ok and (await service.redo(gid, ANN)).ok
    assert len(await stored(service, gid)) == 5


async def admin_undo(service: GameService, gid: int) -> bool:
    """An admin takes back the game's last move, whoever made it."""
    asked = await service.undo(gid, ADMIN)
    return (await service.undo(gid, ADMIN, confirmed=asked.confirm_undo)).ok


async def test_redos_in_a_row_put_back_undos_in_a_row_newest_first(service):
    gid = await started(service, ANN, BOB)
    moves = [(ANN, add(1, 1)), (BOB, add(2, 2)), (ANN, add(1, 3)), (BOB, add(2, 4))]
    for caller, action in moves:
        assert (await service.act(gid, caller, action)).ok
    for _ in range(3):  # Bob's move, then Ann's, then Bob's: each undo by an admin
        assert await admin_undo(service, gid)
    assert await stored(service, gid) == [add(1, 1)]
    redone = [(await service.redo(gid, ADMIN)).text for _ in range(3)]
    assert redone == [
        "Mod redid action 2: Bob added 2.",
        "Mod redid action 3: Ann added 3.",
        "Mod redid action 4: Bob added 4.",
    ]
    assert await stored(service, gid) == [a for _, a in moves]
    assert [a.user_id for a in await service.store.actions(gid)] == [ANN.user_id, BOB.user_id] * 2
    assert (await service.redo(gid, ADMIN)).error.startswith("nothing undone in game #1")


async def test_a_move_between_undos_ends_the_redos_at_the_move(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1, 1))).ok
    assert (await service.undo(gid, ANN)).ok  # undone, then a move: never redone
    assert (await service.act(gid, ANN, add(1, 5))).ok
    assert (await service.act(gid, BOB, add(2, 2))).ok
    assert (await service.act(gid, ANN, add(1, 3))).ok
    assert (await service.undo(gid, ANN)).ok
    assert (await service.redo(gid, ANN)).text == "Ann redid action 3: Ann added 3."
    assert (await service.redo(gid, ANN)).error.startswith("a redo puts back an undo only")
    assert await stored(service, gid) == [add(1, 5), add(2, 2), add(1, 3)]


async def test_an_undo_after_a_redo_keeps_the_older_undos_redoable(service):
    gid = await started(service, ANN, BOB)
    for caller, action in [(ANN, add(1, 1)), (BOB, add(2, 2)), (ANN, add(1, 3))]:
        assert (await service.act(gid, caller, action)).ok
    assert (await service.rewind(gid, ANN, 2)).ok  # Ann's 3
    assert (await service.rewind(gid, ANN, 1)).ok  # Bob's 2
    assert (await service.redo(gid, ANN)).ok  # Bob's 2 is back
    assert await admin_undo(service, gid)
    assert (await service.redo(gid, BOB)).error.startswith("only user 50 (who undid it)")
    assert (await service.redo(gid, ADMIN)).text == "Mod redid action 2: Bob added 2."
    assert (await service.redo(gid, ANN)).text == "Ann redid action 3: Ann added 3."
    assert len(await stored(service, gid)) == 3


async def test_a_redo_survives_a_restart(make_store):
    first = GameService(make_store(), new_seed=lambda: 4242)
    gid = await started(first, ANN, BOB)
    assert (await first.act(gid, ANN, add(1, 3))).ok
    assert (await first.undo(gid, ANN)).ok
    again = GameService(make_store(), new_seed=lambda: 4242)
    assert (await again.redo(gid, ANN)).text == "Ann redid action 1: Ann added 3."


def first_choice(game, choices):
    return choices[0].action


@pytest.mark.parametrize("title, seats", [("1830", 4), ("1860", 3), ("string_railway", 2)])
async def test_undo_and_redo_in_each_title(service, title, seats):
    players = [Caller(100 + n, f"P{n}") for n in range(1, seats + 1)]
    created = await service.create_game(players[0], title, seats=seats)
    assert created.ok, created.error
    for p in players[1:]:
        assert (await service.join(created.game_id, p)).ok
    assert (await service.start(created.game_id, players[0])).ok
    gid = created.game_id
    by_id = {p.user_id: p for p in players}
    for _ in range(3):
        prompt = await service.prompt(gid)
        assert (await service.play(gid, by_id[prompt.notify[0]], first_choice)).ok
    last = (await service.store.actions(gid))[-1]
    log, status = (await stored(service, gid)), (await service.status(gid)).text
    mover = by_id[last.user_id]
    assert (await service.undo(gid, mover)).ok and len(await stored(service, gid)) == 2
    redone = await service.redo(gid, mover)
    assert redone.ok, redone.error
    assert redone.text == f"{mover.name} redid action 3: {last.text}"
    assert (await stored(service, gid)) == log and (await service.status(gid)).text == status
    assert (await service.store.actions(gid))[-1].user_id == mover.user_id
