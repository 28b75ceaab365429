"""The game service with the test-only Tally title: permissions, atomicity, concurrency,
de-duplication and recovery after a restart."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.core.results import Caller
from bot.core.service import GameService

ANN, BOB, CY, EVE = (Caller(10, "Ann"), Caller(11, "Bob"), Caller(12, "Cy"), Caller(99, "Eve"))


def add(entity: int, amount: int = 1) -> dict:
    return {"type": "add", "amount": amount, "entity": entity, "entity_type": "player"}


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242)


async def started(service: GameService, *callers: Caller, **options) -> int:
    """A started Tally game with `callers` seated in order (the first creates it)."""
    created = await service.create_game(
        callers[0], "tally", seats=len(callers), options=options or None
    )
    assert created.ok, created.error
    for c in callers[1:]:
        assert (await service.join(created.game_id, c)).ok
    result = await service.start(created.game_id, callers[0])
    assert result.ok, result.error
    return created.game_id


async def stored(service: GameService, game_id: int) -> list[dict]:
    return [a.payload for a in await service.store.actions(game_id)]


async def test_seating_and_start(service):
    created = await service.create_game(ANN, "Tally", seats=3)
    assert created.ok and created.changed and "game #1" in created.text
    gid = created.game_id
    joined = await service.join(gid, BOB)
    assert joined.ok and "seat 2" in joined.text
    assert (await service.join(gid, CY)).ok
    assert (await service.leave(gid, BOB)).ok
    assert [(s.seat, s.name) for s in await service.store.seats(gid)] == [(1, "Ann"), (2, "Cy")]
    short = await service.start(gid, ANN)  # a seat is still empty: asked first, nothing done
    assert short.confirm_start == 2 and short.error == (
        "only 2 of game #1's 3 seats are taken; start with 2 players? (/game start "
        "confirm:yes, or wait for more to join)"
    )
    assert (await service.store.game(gid)).status == "open"
    start = await service.start(gid, ANN, confirmed=True)
    assert start.ok, start.error
    assert start.views == ("board",) and start.notify == (ANN.user_id,)
    assert (await service.store.game(gid)).seed == 4242
    assert [s.player_id for s in await service.store.seats(gid)] == [1, 2]


async def test_act_notifies_the_next_player(service):
    gid = await started(service, ANN, BOB)
    result = await service.act(gid, ANN, add(1, 5))
    assert result.ok, result.error
    assert result.text == "Ann added 5." and result.notify == (BOB.user_id,)
    assert result.views == ("board",)
    assert await stored(service, gid) == [add(1, 5)]
    status = await service.status(gid)
    assert "To act: Bob" in status.text


async def test_refused_action_leaves_no_row_and_no_trace(service):
    gid = await started(service, ANN, BOB)
    before = (await service.status(gid)).text
    refused = await service.act(gid, ANN, {"type": "explode", "entity": 1, "entity_type": "player"})
    assert refused.error == "explode always fails" and not refused.changed
    assert await stored(service, gid) == []
    assert (await service.status(gid)).text == before  # the mutation was rolled back
    bad = await service.act(gid, ANN, add(1, 12))
    assert bad.error == "amount must be a whole number from 1 to 9"
    assert (await service.act(gid, ANN, "pass")).error.startswith("an action is a JSON object")
    assert await stored(service, gid) == []


async def test_failed_write_rolls_back_the_live_game(service, monkeypatch):
    gid = await started(service, ANN, BOB)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "append_action", broken)
    with pytest.raises(OSError):
        await service.act(gid, ANN, add(1, 5))
    monkeypatch.undo()
    assert await stored(service, gid) == []
    assert "To act: Ann" in (await service.status(gid)).text  # rebuilt from the log


async def test_permission_refusals(service):
    gid = await started(service, ANN, BOB)
    outsider = await service.act(gid, EVE, add(1))
    assert outsider.error == "you are not seated in game #1; spectators can only watch"
    wrong_turn = await service.act(gid, BOB, add(2))
    assert wrong_turn.error == "it is not your turn in game #1; waiting for Ann"
    impostor = await service.act(gid, ANN, add(2))  # Ann's turn, but acting for Bob's seat
    assert impostor.error == "you can only act for your own seat"
    assert (await service.undo(gid, EVE)).error == "game #1 has no action to undo"
    assert (await service.act(gid, ANN, add(1))).ok
    spectator_undo = await service.undo(gid, EVE)
    assert spectator_undo.error == (
        "only the player who made the last action, or a game admin, can undo it"
    )
    assert (await service.undo(gid, BOB)).error == spectator_undo.error
    assert len(await stored(service, gid)) == 1
    open_game = (await service.create_game(BOB, "tally", seats=2)).game_id
    assert (await service.join(open_game, ANN)).ok
    assert (await service.start(open_game, ANN)).error == (
        f"only the creator of game #{open_game} or a server admin can start it"
    )
    assert (await service.start(open_game, Caller(ANN.user_id, "Ann", is_admin=True))).ok


async def test_undo(service):
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1, 4))).ok
    undone = await service.undo(gid, ANN)
    assert undone.ok and undone.text == "Ann undid action 1: Ann added 4."
    assert undone.notify == (ANN.user_id,) and await stored(service, gid) == []
    assert (await service.act(gid, ANN, add(1, 2))).ok
    assert (await service.act(gid, BOB, add(2, 3))).ok
    asked = await service.undo(gid, Caller(ANN.user_id, "Ann"))  # creator = admin: confirms
    assert (
        asked.confirm_undo is not None
        and not asked.changed
        and (await stored(service, gid))[-1] == add(2, 3)
    )
    assert (
        asked.text == "This takes back Bob's move (action 2): Bob added 3. Confirm to take it back."
    )
    assert (await service.undo(gid, Caller(ANN.user_id, "Ann"), confirmed=asked.confirm_undo)).ok
    assert await stored(service, gid) == [add(1, 2)]


async def test_bad_input_changes_nothing(service):
    assert (await service.join(404, ANN)).error == "there is no game #404"
    assert (await service.status(404)).error == "there is no game #404"
    assert (await service.create_game(ANN, "chess")).error.startswith("unknown title 'chess'")
    assert (await service.create_game(ANN, "tally", seats=9)).error == (
        "tally is played by 2 to 4 players, not 9"
    )
    assert (await service.create_game(ANN, "tally", options={"speed": 1})).error == (
        "unknown option(s) for tally: speed (known: free_for_all, target)"
    )
    gid = (await service.create_game(ANN, "tally", seats=2)).game_id
    assert (await service.act(gid, ANN, add(1))).error == (
        f"game #{gid} has not started yet; its creator starts it with /game start"
    )
    assert (
        await service.start(gid, ANN)
    ).error == "tally needs at least 2 players; 1 seated so far"
    assert (await service.join(gid, ANN)).error == f"you are already seated in game #{gid} (seat 1)"
    assert (await service.leave(gid, BOB)).error == f"you are not seated in game #{gid}"
    assert (await service.join(gid, BOB)).ok
    assert (await service.join(gid, CY)).error == f"game #{gid} is full (2/2 seats taken)"
    assert (await service.start(gid, ANN)).ok
    assert (await service.join(gid, CY)).error == (
        f"game #{gid} has already started; seats are fixed now"
    )
    assert (await service.leave(gid, BOB)).error == (
        f"game #{gid} has already started; you cannot leave it now"
    )
    assert [s.name for s in await service.store.seats(gid)] == ["Ann", "Bob"]
    assert [g.id for g in await service.store.games()] == [gid]


async def test_finished_game(service):
    gid = await started(service, ANN, BOB, target=25)
    turn = 0
    while (result := await service.act(gid, [ANN, BOB][turn % 2], add(turn % 2 + 1, 9))).ok:
        turn += 1
        if "The game is over" in result.text:
            break
    assert result.notify == ()
    assert (await service.store.game(gid)).status == "finished"
    assert (await service.act(gid, ANN, add(1))).error == f"game #{gid} is over"
    assert "Result: " in (await service.status(gid)).text


async def test_interaction_ids_are_handled_once(service):
    created = await service.create_game(ANN, "tally", seats=2, interaction_id=1)
    again = await service.create_game(ANN, "tally", seats=2, interaction_id=1)
    assert again.duplicate and again.ok and not again.changed
    gid = created.game_id
    assert (await service.join(gid, BOB, interaction_id=2)).ok
    assert (await service.leave(gid, BOB, interaction_id=2)).duplicate
    assert (await service.start(gid, ANN, interaction_id=3)).ok
    first = await service.act(gid, ANN, add(1, 3), interaction_id=4)
    second = await service.act(gid, ANN, add(1, 3), interaction_id=4)
    assert first.changed and second.duplicate and not second.changed
    assert await stored(service, gid) == [add(1, 3)]
    assert len(await service.store.games()) == 1


async def test_concurrent_duplicate_interactions_apply_once(service):
    gid = await started(service, ANN, BOB, free_for_all=True)
    results = await asyncio.gather(
        *[service.act(gid, ANN, add(1), interaction_id=77) for _ in range(10)]
    )
    assert sum(r.changed for r in results) == 1
    assert sum(r.duplicate for r in results) == 9
    assert await stored(service, gid) == [add(1)]


async def test_concurrent_actions_are_serialised_and_a_repeated_move_is_applied_once(
    service, make_store
):
    """27 different moves sent at once are all applied in some order; each sent a second time
    against the same game version (another click, a retried request) is applied once."""
    gid = await started(service, ANN, BOB, CY, free_for_all=True, target=10_000)
    callers = [ANN, BOB, CY]
    moves = [(callers[i % 3], add(i % 3 + 1, i // 3 + 1)) for i in range(27)]
    calls = [
        service.act(gid, caller, action, interaction_id=1000 + n)
        for n, (caller, action) in enumerate(moves + moves)
    ]
    results = await asyncio.gather(*calls)
    assert all(r.ok for r in results)
    assert sum(r.changed for r in results) == 27 and sum(r.duplicate for r in results) == 27
    actions = await service.store.actions(gid)
    assert [a.seq for a in actions] == list(range(1, 28))
    assert sorted((a.user_id, a.payload["amount"]) for a in actions) == sorted(
        (caller.user_id, action["amount"]) for caller, action in moves
    )
    live = (await service.status(gid)).text
    fresh = GameService(make_store())
    assert (await fresh.status(gid)).text == live


async def test_fifty_concurrent_turn_actions_all_accounted_for(service):
    gid = await started(service, ANN, BOB, target=10_000)
    calls = [service.act(gid, [ANN, BOB][i % 2], add(i % 2 + 1)) for i in range(50)]
    results = await asyncio.gather(*calls)
    accepted = [r for r in results if r.changed]
    refused = [r for r in results if r.error]
    repeated = [r for r in results if r.duplicate]
    assert len(accepted) + len(refused) + len(repeated) == 50
    # Ann's and Bob's moves were sent against the starting version: each applies once
    assert len(accepted) == 2 and len(repeated) == 48 - len(refused)
    assert all(r.error.startswith("it is not your turn") for r in refused)
    assert len(await stored(service, gid)) == len(accepted)


async def test_cache_is_bounded_and_rebuilds(make_store):
    service = GameService(make_store(), cache_size=2)
    games = [await started(service, ANN, BOB) for _ in range(4)]
    for gid in games:
        assert (await service.act(gid, ANN, add(1, 2))).ok
    assert len(service._cache) == 2
    for gid in games:
        assert "To act: Bob" in (await service.status(gid)).text
        assert (await service.act(gid, BOB, add(2, 1))).ok


async def test_restart_recovery_in_a_new_process(service, store_url):
    gid = await started(service, ANN, BOB)
    for i in range(6):
        assert (await service.act(gid, [ANN, BOB][i % 2], add(i % 2 + 1, i + 1))).ok
    before = (await service.status(gid)).text
    service.store.close()
    script = textwrap.dedent(f"""
        import asyncio
        from tests.titles_for_tests import register
        from bot.core.service import GameService
        from bot.core.store import Store
        register()
        print(asyncio.run(GameService(Store({store_url!r})).status({gid})).text)
    """)
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert out.stdout.strip() == before
    assert "Total" in before and "To act: Ann" in before


async def test_legal_actions(service):
    gid = await started(service, ANN, BOB)
    assert [c.label for c in await service.legal_actions(gid, ANN.user_id)][:2] == [
        "add 1",
        "add 2",
    ]
    assert await service.legal_actions(gid, BOB.user_id) == []
    assert await service.legal_actions(gid, EVE.user_id) == []
    assert await service.legal_actions(404, ANN.user_id) == []


async def test_list_games(service):
    assert (await service.list_games()).text.startswith("No games here yet")
    gid = await started(service, ANN, BOB)
    open_gid = (await service.create_game(CY, "tally", seats=2, guild_id=5)).game_id
    assert (
        await service.list_games(guild_id=5)
    ).text == f"#{open_gid} · tally · waiting for players · Cy"
    assert f"#{gid} · tally · in play · Ann, Bob" in (await service.list_games()).text


async def test_draw_renders_the_live_state(service):
    created = await service.create_game(ANN, "tally", seats=2)
    assert await service.draw(created.game_id, ("board",), lambda g, v: b"x") == {}
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, add(1, 5))).ok
    images = await service.draw(
        gid, ("board", "other"), lambda game, view: f"{view}:{game.status_text()}".encode()
    )
    status = (await service.status(gid)).text.splitlines()[1]
    assert images == {"board": f"board:{status}".encode(), "other": f"other:{status}".encode()}
