"""Games belong to the Discord server they were opened in: from another server a game does not
exist (every command answers "there is no game #N" and changes nothing), and "admin" means
Manage Threads or Manage Server in the game's own server, or being its creator."""

from __future__ import annotations

import json

import discord
import pytest

from bot.core.results import Caller
from bot.discord_ui.io import caller_of
from tests.discord_world import GUILD, Sent, World, make_world, posts

OTHER = GUILD + 1  # a second server the same bot is in
EVE = 66  # a member (and admin) of the other server only


@pytest.fixture
async def world(db_path) -> World:
    return await make_world(db_path)


async def open_in(world: World, guild: int, creator: int, second: int):
    """A started two-seat tally game opened in `guild`; returns (game id, thread)."""
    await world.run(
        "new", world.interaction(creator, guild=guild), title="tally", seats=2, options=None
    )
    thread = list(world.threads.values())[-1]
    game_id = await world.bot.service.game_for_thread(thread.id, guild_id=guild)
    await world.run("join", world.interaction(second, where=thread.id, guild=guild), game=None)
    await world.run("start", world.interaction(creator, where=thread.id, guild=guild), game=None)
    return game_id, thread


async def snapshot(world: World, game_id: int):
    store = world.bot.service.store
    record = await store.game(game_id)
    return (
        record.version,
        record.status,
        record.paused,
        record.abandoned_at,
        record.remind_hours,
        await store.actions(game_id),
        await store.seats(game_id),
        await store.open_requests(game_id),
    )


async def test_two_servers_games_side_by_side_see_and_change_nothing_of_each_other(world):
    ours, our_thread = await open_in(world, GUILD, 1, 2)
    theirs, their_thread = await open_in(world, OTHER, 5, 6)
    # a move and an undo request in our game, so there is something to vote on
    for seat in (1, 2, 1):
        await world.run(
            "act",
            world.interaction(seat, where=our_thread.id),
            game=None,
            action=json.dumps({"type": "add", "entity": seat, "amount": 3}),
        )
    await world.run("undo", world.interaction(2, where=our_thread.id), game=None)
    [request_id] = [r.id for r in await world.bot.service.store.open_requests(ours)]
    before = await snapshot(world, ours)
    posted = len(posts(our_thread))

    def eve(admin: bool = True, **typed):
        return world.interaction(EVE, admin=admin, guild=OTHER, **typed)

    gone = f"Refused: there is no game #{ours}"
    attempts = [
        ("status", {}),
        ("view", {"what": "history", "detail": "10"}),
        ("view", {"what": "map"}),
        ("view", {"what": "sheet"}),
        ("view", {"what": "info"}),
        ("export", {}),
        ("view", {"what": "moves"}),
        ("join", {}),
        ("leave", {}),
        ("start", {}),
        ("undo", {}),
        ("pause", {}),
        ("resume", {}),
        ("abandon", {}),
        ("rewind", {"action": 0}),
        ("remind", {"hours": 1.0}),
        ("act", {"action": json.dumps({"type": "add", "amount": 1})}),
        ("view", {"what": "routes", "detail": "PRR"}),
    ]
    for name, kwargs in attempts:
        sent = await world.run(name, eve(), game=ours, **kwargs)
        assert sent[-1].text == gone, (name, sent)
    replace = await world.run("replace", eve(), game=ours, seat=1, user=discord.Object(EVE))
    assert replace[-1].text == gone
    for answer in ("yes", "no"):
        sent = await world.play("answer", eve(), request=f"r:{request_id}", answer=answer)
        assert sent[-1].text == f"Refused: there is no undo request or deal #{request_id}"
    sent = await world.play("pass", eve(), game=ours)
    assert sent[-1].text == gone
    # buttons of our game pressed from the other server
    for custom_id in (f"rc:u:{request_id}:yes", f"rc:u:{request_id}:no"):
        sent = await world.press(custom_id, eve())
        assert "there is no" in sent[-1].text
    # suggestions, listings and the game a bare command means show nothing of ours
    assert await world.suggest("act", "action", eve(game=ours), "") == []
    assert await world.suggest("answer", "request", eve(), "") == []
    assert await world.suggest_move(eve(game=ours), "") == []
    assert await world.suggest("status", "game", eve(), "") == []
    listing = await world.run("list", world.interaction(5, guild=OTHER))  # seated in theirs
    assert f"#{ours} " not in listing[-1].text and f"#{theirs} " in listing[-1].text
    assert await snapshot(world, ours) == before
    assert len(posts(our_thread)) == posted  # nothing was posted to our thread

    # and the other way round: our admin cannot touch theirs, their game still plays
    theirs_before = await snapshot(world, theirs)
    sent = await world.run("abandon", world.interaction(1, admin=True), game=theirs)
    assert sent[-1].text == f"Refused: there is no game #{theirs}"
    assert await snapshot(world, theirs) == theirs_before
    sent = await world.run(
        "status", world.interaction(5, where=their_thread.id, guild=OTHER), game=None
    )
    assert sent[-1].text.startswith(f"Game #{theirs} · tally · in play")


async def test_admin_is_manage_threads_or_manage_server_in_the_games_server(world):
    ours, thread = await open_in(world, GUILD, 1, 2)
    # Manage Threads in one channel only (an override) is not a server admin
    sent = await world.run("pause", world.interaction(4, channel_admin=True), game=ours)
    assert sent[-1] == Sent(
        f"Refused: only the creator of game #{ours} or a server admin can pause or resume it", True
    )
    sent = await world.run("pause", world.interaction(4, admin=True), game=ours)
    assert "paused game" in sent[-1].text
    interaction = world.interaction(4)
    interaction.user.guild_permissions = discord.Permissions(manage_guild=True)
    assert caller_of(interaction) == Caller(4, "user4", is_admin=True, guild_id=GUILD)
    sent = await world.run("resume", interaction, game=ours)
    assert "resumed game" in sent[-1].text


async def test_the_console_sees_only_its_own_games(world):
    ours, _ = await open_in(world, GUILD, 1, 2)
    service = world.bot.service
    local = await service.create_game(Caller(1, "me"), "tally", seats=2)
    assert (await service.list_games(include_finished=True)).text.startswith(f"#{local.game_id} ")
    assert f"#{ours} " not in (await service.list_games(include_finished=True)).text
    assert (await service.status(ours)).error == f"there is no game #{ours}"
    assert (
        await service.pause(ours, Caller(1, "me", is_admin=True), True)
    ).error == f"there is no game #{ours}"
    assert await service.legal_actions(ours, 1) == []
