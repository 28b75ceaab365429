"""1830's negotiated deals through Discord (offline), from positions of a recorded game: a
company buying another president's train for $1, and a player buying another player's private
in a stock round, each waiting for the seller's agreement."""

from __future__ import annotations

import json

import pytest

from bot.core.results import Caller
from tests.discord_world import GUILD, Sent, World, make_thread, make_world, posts
from tests.reference_games import game_path, require_games


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def recorded_position(world: World, actions: int):
    """1830_game_end_bank after its first `actions` file actions, imported for users 1-3
    (Player 1 presides over NYNH, Player 2 over PRR, Player 3 over B&O)."""
    require_games("1830")
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    thread = make_thread(800)
    world.threads[thread.id] = thread
    imported = await world.bot.service.import_game(
        Caller(1, "user1"),
        {**data, "actions": data["actions"][:actions]},
        [1, 2, 3],
        guild_id=GUILD,
        thread_id=thread.id,
        offer=False,  # the players have agreed already
    )
    assert imported.ok, imported.error
    return thread, imported.game_id


async def test_a_company_buys_another_presidents_train_only_when_they_agree(world):
    thread, gid = await recorded_position(world, 33)  # NYNH may buy trains; B&O owns two 2s
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    service = world.bot.service
    before = await service.store.action_count(gid)
    trains = await world.suggest_move(at(1), "b&o")
    assert [t.name for t in trains] == ["Buy B&O's 2-train for $80"]
    sent = await world.play("train", at(1), train=trains[0].value, price=1, game=None)
    assert sent[-1] == Sent(
        "Done: Player 1 proposes deal #1 to Player 3: NYNH buys B&O's 2-train for $1.", True
    )
    post = posts(thread)[-1]
    assert post.text.endswith("To answer: <@3>\nTo act: <@1>")  # user1: first post since import
    assert post.pinged == [3, 1]
    assert post.buttons[:2] == [("rc:d:1:yes", "Accept deal"), ("rc:d:1:no", "Decline deal")]
    assert await service.store.action_count(gid) == before

    refused = await world.play("train", at(1), train=trains[0].value, price=0, game=None)
    assert refused[-1] == Sent(
        "Refused: NYNH may only spend between $1 and $920 on B&O's 2 train", True
    )
    assert await service.open_requests(gid, guild_id=GUILD) == [
        (1, "deal #1 from Player 1: NYNH buys B&O's 2-train for $1.")
    ]  # the refused one asked nobody
    sent = await world.press("rc:d:1:yes", at(2))  # PRR's president is not the seller
    assert sent[-1] == Sent(
        "Refused: only Player 3 can accept deal #1: it takes their property", True
    )
    sent = await world.press("rc:d:1:yes", at(3))
    assert sent[-1] == Sent(
        "Done: Player 3 accepted deal #1: NYNH buys B&O's 2-train for $1.", True
    )
    game = await service._live(await service.store.game(gid))
    assert [t.id for t in game.corporation("NYNH").trains] == ["2-2", "2-0"]
    assert [t.id for t in game.corporation("B&O").trains] == ["2-1"]
    assert game.corporation("B&O").cash == 761
    stored = (await service.store.actions(gid))[-1]
    assert stored.user_id == 1 and stored.payload["price"] == 1


async def test_a_player_buys_another_players_private_at_an_agreed_price(world):
    thread, gid = await recorded_position(world, 37)  # a stock round: Player 2 acts
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    service = world.bot.service
    refused = await world.play("private", at(2), company="CS", price=5000, game=None)
    assert refused[-1] == Sent("Refused: Player 2 has $70 and cannot spend $5000", True)
    assert (
        await service.open_requests(gid, guild_id=GUILD) == []
    )  # a deal the engine refuses is never proposed
    sent = await world.play("private", at(2), company="SV", price=5, game=None)
    assert sent[-1].text.startswith("Done: Player 2 proposes deal #1 to Player 3: ")
    sent = await world.play("answer", at(3), request="r:1", answer="no")
    assert sent[-1].text.startswith("Done: Player 3 declined deal #1")
    sent = await world.play("private", at(2), company="SV", price=30, game=None)
    assert sent[-1].text.startswith("Done: Player 2 proposes deal #2 to Player 3: ")
    sent = await world.play("answer", at(3), request="r:2", answer="yes")
    assert sent[-1].text.startswith("Done: Player 3 accepted deal #2: ")
    game = await service._live(await service.store.game(gid))
    assert game.company("SV").owner.name == "Player 2"
