"""Moves typed by users (`/game-admin act`, in Discord and the console): the shape of each kind
of move, no internal fields, bounded sizes, the entity filled in when left out, and only the
owner of a private (or the president of a company) acting for it."""

from __future__ import annotations

import copy
import json

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from engine.errors import IllegalAction, InvalidAction
from tests.reference_games import game_path

USERS = [Caller(n, f"user{n}") for n in (1, 2, 3, 4)]
MH_FOR_NYC = {"type": "buy_shares", "entity": "MH", "entity_type": "company", "shares": ["NYC_1"]}


@pytest.fixture
def service(db_path):
    return GameService(Store(db_path), new_seed=lambda: 5)


async def new_1830(service: GameService) -> int:
    created = await service.create_game(USERS[0], "1830", seats=3)
    for caller in USERS[1:3]:
        await service.join(created.game_id, caller)
    await service.start(created.game_id, USERS[0])
    return created.game_id


async def imported(service: GameService, stem: str, actions: int) -> int:
    data = json.loads(game_path("1830", stem).read_text())
    result = await service.import_game(
        USERS[0],
        {**data, "actions": data["actions"][:actions]},
        [c.user_id for c in USERS],
        offer=False,  # the players have agreed already
    )
    assert result.ok, result.error
    return result.game_id


@pytest.mark.parametrize(
    "action, error",
    [
        (
            {
                "type": "pass",
                "auto_actions": [
                    {
                        "type": "bid",
                        "entity": 2,
                        "entity_type": "player",
                        "company": "SV",
                        "price": 20,
                    }
                ],
            },
            "auto_actions cannot be sent in a move",
        ),
        ({"type": "program_share_pass", "_imported": True}, "_imported cannot be sent in a move"),
        (
            {"type": "pass", "message": "x" * 1_000_000},
            "the action.message is 1,000,000 characters long; at most 200 are allowed",
        ),
        (
            {"type": "bid", "company": "SV", "price": 20, "note": "hi"},
            "a bid move has no note (its fields: company, price)",
        ),
        (
            {"type": "teleport"},
            "unknown action type 'teleport'; moves are: bankrupt, bid, "
            "buy_company, buy_shares, buy_train, discard_train, dividend, "
            "lay_tile, par, pass, place_token, program_buy_shares, program_disable, "
            "program_share_pass, run_routes, sell_shares",
        ),
        (
            {"type": "bid", "company": "SV", "price": 10**30},
            "the action.price is 10000000000000000000…: numbers must lie within ±1,000,000,000,000",
        ),
        (
            {"type": "pass", "entity": [[[[[[[[1]]]]]]]]},
            "the action.entity[0][0][0][0][0] is nested more than 6 levels deep",
        ),
    ],
)
async def test_a_typed_move_has_only_its_kinds_fields(service, action, error):
    gid = await new_1830(service)
    result = await service.act(gid, USERS[0], action)
    assert result.error == error
    assert await service.store.action_count(gid) == 0


async def test_the_documented_pass_acts_for_whoever_the_player_acts_for(service):
    gid = await new_1830(service)
    assert (await service.act(gid, USERS[0], {"type": "bid", "company": "SV", "price": 20})).changed
    passed = await service.act(gid, USERS[1], {"type": "pass"})
    assert passed.changed, passed.error
    assert [a.payload for a in await service.store.actions(gid)][-1] == {
        "type": "pass",
        "entity": 2,
        "entity_type": "player",
    }


async def test_only_the_owner_of_a_private_uses_it(service):
    """26855 after 29 actions: a stock round, Player 1 to act, Player 4 owns the Mohawk &
    Hudson, NYC is parred: Player 1 may not trade Player 4's MH for an NYC share."""
    gid = await imported(service, "26855", 29)
    before = await service.store.action_count(gid)
    result = await service.act(gid, USERS[0], MH_FOR_NYC)
    assert result.error == (
        "MH is Player 4's: only the player who owns a private or presides a company acts for it"
    )
    assert await service.store.action_count(gid) == before
    # the engine's own entry point refuses it for any caller that names the acting player
    data = json.loads(game_path("1830", "26855").read_text())
    game = io.load({**data, "actions": data["actions"][:29]}).game
    with pytest.raises(IllegalAction, match="MH is Player 4's"):
        copy.deepcopy(game).process(MH_FOR_NYC, by=1627)


async def test_the_tally_title_keeps_the_generic_checks(db_path):
    from tests.test_service import ANN, BOB, add, started

    service = GameService(Store(db_path))
    gid = await started(service, ANN, BOB)
    assert (await service.act(gid, ANN, {"type": "add", "amount": 3})).changed  # entity filled
    sent = await service.act(gid, BOB, {**add(2), "_secret": 1})
    assert sent.error == "_secret cannot be sent in a move"
    with pytest.raises(InvalidAction):
        service._cache[gid][1].check_submission({"type": "add", "amount": float("nan")})
