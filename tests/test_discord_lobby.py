"""A game's public lobby, offline: the message `/game new` posts in the channel (the thread's
first post), its Join / Leave / Start buttons pressed by strangers, the creator and admins as
after a restart (from the custom id alone), the lobby edited in place at each change, and the
`game:` option's suggestions everywhere."""

from __future__ import annotations

import json

import pytest

from tests.discord_world import CHANNEL, World, make_world
from tests.titles_for_tests import Tally


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def open_lobby(world: World, *, seats: int = 2, options: str | None = None):
    await world.run("new", world.interaction(1), title="tally", seats=seats, options=options)
    [lobby] = [m for m in world.channel.messages if not m.deleted]
    thread = world.threads[lobby.id]
    game_id = await world.bot.service.game_for_thread(thread.id, guild_id=500)
    return game_id, thread, lobby


def lines(message) -> list[str]:
    return message.content.splitlines()


def buttons(message) -> list[str]:
    return [item.item.custom_id for item in message.view.children] if message.view else []


async def test_strangers_join_from_the_lobby_and_only_the_creator_starts(world, monkeypatch):
    monkeypatch.setattr(Tally, "round_name", lambda game: f"Turn {game.turn + 1}")
    game_id, thread, lobby = await open_lobby(world, seats=3, options="target=30")
    assert lines(lobby)[:3] == [
        f"**Game #{game_id} · tally** · open: 1 of 3 seats taken (2 needed to start)",
        "Options: target=30",
        "Seated: 1. user1",
    ]
    joined = await world.press(f"rc:g:{game_id}:join", world.interaction(2))
    assert joined[-1].ephemeral and joined[-1].text.startswith(
        f"Done (posted in <#{thread.id}>): user2 joined game #{game_id} at seat 2 (2/3 seated)."
    )
    thread.add_user.assert_awaited()  # the new player follows the thread
    assert lines(lobby)[0].endswith("open: 2 of 3 seats taken (2 needed to start)")
    assert lines(lobby)[2] == "Seated: 1. user1, 2. user2"
    edits = lobby.edits
    again = await world.press(f"rc:g:{game_id}:join", world.interaction(2))
    assert again[-1].text == f"Refused: you are already seated in game #{game_id} (seat 2)"
    refused = await world.press(f"rc:g:{game_id}:start", world.interaction(2))
    assert refused[-1].ephemeral
    assert refused[-1].text == (
        f"Refused: only the creator of game #{game_id} or a server admin can start it"
    )
    stranger = await world.press(f"rc:g:{game_id}:leave", world.interaction(4))
    assert stranger[-1].text == f"Refused: you are not seated in game #{game_id}"
    assert lobby.edits == edits  # refusals change nothing, the lobby included
    assert (await world.bot.service.store.game(game_id)).status == "open"
    asked = await world.press(f"rc:g:{game_id}:start", world.interaction(1))  # a seat is empty
    assert asked[-1].ephemeral and asked[-1].text == (
        f"only 2 of game #{game_id}'s 3 seats are taken; start with 2 players? "
        "(/game start confirm:yes, or wait for more to join)"
    )
    assert asked[-1].buttons == [(f"rc:g:{game_id}:begin", "Start with 2")]
    assert lobby.edits == edits and (await world.bot.service.store.game(game_id)).status == "open"
    refused = await world.press(f"rc:g:{game_id}:begin", world.interaction(2))
    assert refused[-1].text.startswith("Refused: only the creator")
    await world.press(f"rc:g:{game_id}:begin", world.interaction(1))
    assert lines(lobby) == [
        f"**Game #{game_id} · tally** · in play · Turn 1",
        "Players: 1. user1, 2. user2",
        "To act: user1",
        f"Played in <#{thread.id}>",
    ]
    assert buttons(lobby) == []  # seats are fixed now
    late = await world.press(f"rc:g:{game_id}:join", world.interaction(3))
    assert late[-1].text == f"Refused: game #{game_id} has already started; seats are fixed now"


async def test_an_admin_starts_and_the_lobby_follows_the_game_to_its_end(world):
    game_id, thread, lobby = await open_lobby(world, options="target=25")
    await world.press(f"rc:g:{game_id}:join", world.interaction(2))
    await world.press(f"rc:g:{game_id}:leave", world.interaction(2))
    assert lines(lobby)[2] == "Seated: 1. user1"
    await world.press(f"rc:g:{game_id}:join", world.interaction(3))
    started = await world.press(f"rc:g:{game_id}:start", world.interaction(5, admin=True))
    assert started[-1].text.startswith("Done")
    scores = await world.bot.service.peek(game_id, lambda g: dict(g.scores), guild_id=500)
    assert lines(lobby)[2] == "To act: user1"
    player = 1
    while not await world.bot.service.peek(game_id, lambda g: g.finished, guild_id=500):
        user = 1 if player == 1 else 3
        act = json.dumps({"type": "add", "amount": 9})
        await world.run("act", world.interaction(user, where=thread.id), game=None, action=act)
        scores[player] += 9
        player = 3 - player
    ranking = sorted(((scores[1], "user1"), (scores[2], "user3")), reverse=True)
    assert lines(lobby) == [
        f"**Game #{game_id} · tally** · finished",
        "Players: 1. user1, 2. user3",
        "Result: " + ", ".join(f"{n}. {name} {s}" for n, (s, name) in enumerate(ranking, 1)),
        f"Played in <#{thread.id}>",
    ]


async def test_a_deleted_lobby_is_posted_again_in_the_channel(world):
    game_id, thread, lobby = await open_lobby(world)
    await lobby.delete()  # a moderator removed it
    await world.press(f"rc:g:{game_id}:join", world.interaction(2))
    [again] = [m for m in world.channel.messages if not m.deleted]
    assert again is not lobby and lines(again)[1] == "Seated: 1. user1, 2. user2"
    assert buttons(again)[0] == f"rc:g:{game_id}:join"
    assert await world.bot.service.lobby_post(game_id) == (CHANNEL, again.id)


async def test_the_game_option_suggests_games_everywhere(world):
    mine, thread, _ = await open_lobby(world)
    await world.press(f"rc:g:{mine}:join", world.interaction(2))
    await world.press(f"rc:g:{mine}:start", world.interaction(1))
    await world.run("new", world.interaction(3), title="tally", seats=4, options=None)
    [open_id] = [g.id for g in await world.bot.service.store.games() if g.id != mine]
    for command, group in (("status", "game"), ("pass", "play"), ("pause", "game-admin")):
        found = await world.suggest(command, "game", world.interaction(1), "", group=group)
        assert [(c.name, c.value) for c in found] == [
            (f"#{mine} · tally · your turn", mine),
            (f"#{open_id} · tally · open, 1 of 4 seats", open_id),
        ]
    waiting = await world.suggest("status", "game", world.interaction(2), "")
    assert waiting[0].name == f"#{mine} · tally · waiting for user1"
    typed = await world.suggest("status", "game", world.interaction(1), f"#{open_id}")
    assert [c.value for c in typed] == [open_id]
    assert await world.suggest("status", "game", world.interaction(1), "chess") == []


async def test_suggestions_stay_within_discords_limits(world):
    """At most 25 suggestions of at most 100 characters, however many games and long names."""
    waiting_on = world.interaction(200)
    waiting_on.user.display_name = "x" * 120
    await world.run("new", waiting_on, title="tally", seats=2, options=None)
    [long_game] = [g.id for g in await world.bot.service.store.games()]
    await world.press(f"rc:g:{long_game}:join", world.interaction(1))
    await world.press(f"rc:g:{long_game}:start", world.interaction(200))
    for n in range(30):
        await world.run("new", world.interaction(100 + n), title="tally", seats=2, options=None)
    found = await world.suggest("join", "game", world.interaction(1), "")
    assert len(found) == 25 and all(len(c.name) <= 100 for c in found)
    assert found[0].value == long_game  # the user's own game first
    assert found[0].name == f"#{long_game} · tally · waiting for {'x' * 99}"[:99] + "…"
    listing = await world.run("list", world.interaction(1))
    assert len(listing[-1].text) <= 2000
