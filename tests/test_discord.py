"""The Discord shell offline with the test-only Tally title: seating, acting, refusals,
autocomplete, thread posts and the limits of the command payload (see tests/discord_world.py
for the stand-ins)."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

import discord
import pytest

from bot.core.results import Caller
from bot.discord_ui.io import fit_latest
from tests.discord_world import CHANNEL, GUILD, Sent, World, make_world, posts, three_players

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
ADD4 = '{"type": "add", "amount": 4, "entity": 1, "entity_type": "player"}'


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


def _check_payload(payload: dict, depth: int = 0) -> int:
    """Check one command/option payload against Discord's limits; return commands seen."""
    assert NAME.match(payload["name"]), payload["name"]
    assert 1 <= len(payload["description"]) <= 100, payload["name"]
    options = payload.get("options", [])
    assert len(options) <= 25, payload["name"]
    assert len(payload.get("choices", [])) <= 25, payload["name"]
    for choice in payload.get("choices", []):
        assert 1 <= len(choice["name"]) <= 100
    seen = 1
    subcommands = [o for o in options if o["type"] in (1, 2)]
    if subcommands:
        assert depth < 2 and len(subcommands) == len(options) <= 25
        for sub in subcommands:
            seen += _check_payload(sub, depth + 1)
    else:
        required = [o.get("required", False) for o in options]
        assert required == sorted(required, reverse=True), "required options come first"
        for option in options:
            _check_payload(option, depth + 1)
    return seen


async def test_command_tree_fits_discord_limits(world):
    commands = world.bot.tree.get_commands()
    assert 1 <= len(commands) <= 100
    payloads = [c.to_dict(world.bot.tree) for c in commands]
    assert sum(_check_payload(p) for p in payloads) > len(payloads)
    by_name = {p["name"]: p for p in payloads}
    assert set(by_name) == {"game", "game-admin", "play", "settings", "turns", "stats"}
    # a player's own commands work in a direct message with the bot too; the games' do not,
    # nor standings (they are per server)
    assert [by_name[n]["dm_permission"] for n in ("turns", "settings", "game", "play", "stats")] == [
        True, True, False, False, False]  # fmt: skip
    assert {o["name"]: o.get("required", False) for o in by_name["stats"]["options"]} == {
        "player": False, "title": False}  # fmt: skip
    players = {o["name"] for o in by_name["game"]["options"]}
    assert players == {"new", "join", "leave", "start", "list", "status", "view", "undo",
                       "redo", "import", "export", "help"}  # fmt: skip
    admin = by_name["game-admin"]
    assert {o["name"] for o in admin["options"]} == {
        "pause", "resume", "abandon", "replace", "computer", "rewind", "remind", "extend", "thread",
        "act"}  # fmt: skip
    # shown only to members who may manage threads (a game's creator: /game status)
    assert (
        int(admin["default_member_permissions"]) == discord.Permissions(manage_threads=True).value
    )
    assert by_name["game"].get("default_member_permissions") is None
    assert {o["name"] for o in by_name["play"]["options"]} == {
        "move", "pass", "lay", "run", "rail", "auto", "answer", "hint", "away", "back"}  # fmt: skip
    view = next(o for o in by_name["game"]["options"] if o["name"] == "view")
    what = next(o for o in view["options"] if o["name"] == "what")
    assert [c["value"] for c in what["choices"]] == [
        "map", "market", "sheet", "chart", "history", "since", "routes", "info", "moves"]  # fmt: skip


async def test_limit_check_catches_bad_payloads():
    with pytest.raises(AssertionError):
        _check_payload({"name": "Game", "description": "x"})
    with pytest.raises(AssertionError):
        _check_payload({"name": "game", "description": "x" * 101})
    with pytest.raises(AssertionError):
        _check_payload(
            {
                "name": "game",
                "description": "x",
                "options": [{"name": f"o{i}", "description": "x", "type": 3} for i in range(26)],
            }
        )
    with pytest.raises(AssertionError):
        _check_payload({"name": "a" * 33, "description": "x"})


async def open_game(world: World, user: int = 1, **kwargs):
    interaction = world.interaction(user)
    sent = await world.run(
        "new",
        interaction,
        title="tally",
        seats=kwargs.pop("seats", 2),
        options=kwargs.pop("options", None),
    )
    thread = list(world.threads.values())[-1]
    game_id = await world.bot.service.game_for_thread(thread.id, guild_id=GUILD)
    assert game_id is not None, sent
    return game_id, thread


async def started_game(world: World):
    game_id, thread = await open_game(world)
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    thread.send.reset_mock()
    return game_id, thread


async def test_new_opens_a_thread_and_posts_there(world):
    game_id, thread = await open_game(world)
    kwargs = world.channel.create_thread.call_args.kwargs
    [lobby] = world.channel.messages  # the thread is started from the lobby message
    assert kwargs["message"] is lobby and thread.id == lobby.id
    assert kwargs["name"] == "tally · user1's game"
    assert lobby.content.splitlines() == [
        f"**Game #{game_id} · tally** · open: 1 of 2 seats taken (2 needed to start)",
        "Seated: 1. user1",
        "Join to take a seat; user1 (or a server admin) starts the game.",
        f"Played in <#{thread.id}>",
    ]
    assert [item.item.custom_id for item in lobby.view.children] == [
        f"rc:g:{game_id}:join",
        f"rc:g:{game_id}:leave",
        f"rc:g:{game_id}:start",
    ]
    [post] = posts(thread)
    assert post.text.startswith(f"user1 opened game #{game_id} of tally for up to 2 players")
    assert post.files == {} and post.buttons == []  # nothing to draw before the start
    thread.add_user.assert_awaited_once()
    record = await world.bot.service.store.game(game_id)
    assert (record.guild_id, record.channel_id, record.thread_id) == (GUILD, CHANNEL, thread.id)


async def test_new_refusals_are_ephemeral_and_change_nothing(world):
    sent = await world.run("new", world.interaction(1), title="chess", seats=None, options=None)
    assert sent[0].ephemeral and sent[0].text.startswith("Refused: unknown title 'chess'")
    sent = await world.run(
        "new", world.interaction(1), title="tally", seats=None, options="target="
    )
    assert sent[0].ephemeral and "cannot read option 'target='" in sent[0].text
    sent = await world.run("new", world.interaction(1), title="tally", seats=9, options=None)
    assert sent[0].text == "Refused: tally is played by 2 to 4 players, not 9"
    world.channel.create_thread.assert_not_awaited()
    game_id, thread = await open_game(world)
    sent = await world.run(
        "new", world.interaction(1, where=thread.id), title="tally", seats=None, options=None
    )
    assert sent[0].text.startswith("Refused: open games from a server text channel")
    assert [g.id for g in await world.bot.service.store.games()] == [game_id]


async def test_a_game_played_in_its_thread(world):
    game_id, thread = await open_game(world)
    sent = await world.run("join", world.interaction(2, where=thread.id), game=None)
    assert sent == [Sent(f"Done: user2 joined game #{game_id} at seat 2 (2/2 seated).", True)]
    assert posts(thread)[-1].text == f"user2 joined game #{game_id} at seat 2 (2/2 seated)."
    refused = await world.run("start", world.interaction(2, where=thread.id), game=None)
    assert refused[0].ephemeral and "only the creator" in refused[0].text
    started = await world.run("start", world.interaction(1, where=thread.id), game=None)
    assert started[0].ephemeral and started[0].text.startswith("Done: Game #1 of tally has")
    post = posts(thread)[-1]
    assert post.text.endswith("To act: <@1>") and post.pinged == [1]
    assert list(post.files) == ["board.png"]
    wrong = await world.run(
        "act",
        world.interaction(2, where=thread.id),
        game=None,
        action='{"type": "pass", "entity": 2, "entity_type": "player"}',
    )
    assert wrong[0] == Sent(
        f"Refused: it is not your turn in game #{game_id}; waiting for user1", ephemeral=True
    )
    count = len(posts(thread))
    acted = await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    assert acted == [Sent("Done: user1 added 4.", True)]
    assert len(posts(thread)) == count + 1
    assert posts(thread)[-1].text == "user1 added 4.\nTo act: <@2>"
    status = await world.run("status", world.interaction(3, where=thread.id), game=None)
    assert status[0].ephemeral and "To act: user2" in status[0].text
    undone = await world.run("undo", world.interaction(1, where=thread.id), game=None)
    assert undone[0].text.startswith("Done: user1 undid action 1: user1 added 4.")
    assert await world.bot.service.store.actions(game_id) == []


async def test_commands_from_outside_the_thread_post_into_it(world):
    game_id, thread = await open_game(world)
    thread.send.reset_mock()
    sent = await world.run("join", world.interaction(2), game=game_id)
    assert sent == [
        Sent(
            f"Done (posted in <#{thread.id}>): user2 joined game #{game_id} at "
            "seat 2 (2/2 seated).",
            ephemeral=True,
        )
    ]
    assert posts(thread)[0].text == f"user2 joined game #{game_id} at seat 2 (2/2 seated)."
    assert thread.add_user.await_count == 2
    admin_start = await world.run("start", world.interaction(3, admin=True), game=game_id)
    assert admin_start[0].ephemeral and "posted in" in admin_start[0].text
    assert "has started" in posts(thread)[-1].text


async def test_bad_input_gets_a_specific_private_answer(world):
    sent = await world.run("status", world.interaction(1), game=None)
    assert sent == [
        Sent(
            "Refused: which game? no game is open or in play here; start one with "
            "/game new (or use the command in the game's thread)",
            ephemeral=True,
        )
    ]
    sent = await world.run("join", world.interaction(1), game=42)
    assert sent == [Sent("Refused: there is no game #42", ephemeral=True)]
    game_id, thread = await open_game(world)
    sent = await world.run(
        "act", world.interaction(1, where=thread.id), game=None, action='{"type": "pass"'
    )
    assert sent[0].ephemeral and sent[0].text.startswith("Refused: the action is not valid JSON")
    sent = await world.run(
        "act", world.interaction(1, where=thread.id), game=None, action='{"type": "pass"}'
    )
    assert sent[-1] == Sent(
        f"Refused: game #{game_id} has not started yet; its creator starts it with /game start",
        ephemeral=True,
    )
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    sent = await world.run("join", world.interaction(3, where=thread.id), game=None)
    assert sent == [Sent(f"Refused: game #{game_id} is full (2/2 seats taken)", ephemeral=True)]
    assert len(await world.bot.service.store.seats(game_id)) == 2


async def test_a_resubmitted_interaction_is_ignored(world):
    game_id, thread = await open_game(world)
    first = await world.run(
        "join", world.interaction(2, where=thread.id, interaction_id=77), game=None
    )
    again = await world.run(
        "leave", world.interaction(2, where=thread.id, interaction_id=77), game=None
    )
    assert first[0].text.startswith("Done")
    assert again == [Sent("That command was already handled.", ephemeral=True)]
    assert len(await world.bot.service.store.seats(game_id)) == 2


def game_id_thread(world: World, game_id: int) -> int:
    [thread] = [t.id for t in world.threads.values()]
    return thread


async def test_list_and_help(world):
    sent = await world.run("list", world.interaction(1))
    assert sent[0].text.startswith("No games here yet")
    game_id, _ = await open_game(world)
    sent = await world.run("list", world.interaction(1))
    assert sent[0].text.splitlines() == [
        "Your games:",
        f"#{game_id} · tally · open, 1 of 2 seats · <#{game_id_thread(world, game_id)}>",
        "No other game is open to join here; open one with /game new.",
    ]
    sent = await world.run("list", world.interaction(2))  # a stranger sees it open to join
    assert sent[0].text.splitlines() == [
        "Open to join:",
        f"#{game_id} · tally · open, 1 of 2 seats · <#{game_id_thread(world, game_id)}>",
    ]
    sent = await world.run("help", world.interaction(1), title=None)
    [embed] = sent[0].embeds
    assert [f.name for f in embed.fields] == ["Playing", "Games", "Yours, everywhere", "Admins"]
    games = embed.fields[1].value
    for usage in (
        "/game new title [seats] [options] [computers] [level] — ",
        "/game view what [detail] — ",
    ):
        assert usage in games
    assert "/game-admin rewind action — take the game back" in embed.fields[3].value
    world.bot.command_ids = {"game": 11, "play": 12}  # known once Discord listed them
    sent = await world.run("help", world.interaction(1), title=None)
    [embed] = sent[-1].embeds
    assert "</game new:11> title [seats] [options]" in embed.fields[1].value
    assert "</play move:12> move" in embed.fields[0].value
    assert "/game-admin rewind" in embed.fields[3].value  # no id known: plain
    sent = await world.run("help", world.interaction(1), title="1830")
    [embed] = sent[-1].embeds
    assert embed.title == "1830: Railways & Robber Barons"
    assert "</play move:12> bid CS 50 — bid on a private" in embed.description
    assert "Options for </game new:11>: multiple_brown_from_ipo" in embed.description
    sent = await world.run("help", world.interaction(1), title="tally")
    assert "Moves: </play move:12>, its suggestions list your legal moves." in (
        sent[-1].embeds[0].description
    )
    sent = await world.run("help", world.interaction(1), title="chess")
    assert sent[-1].text.startswith("Refused: unknown title 'chess'")


async def test_autocomplete(world):
    cog = world.command("new").binding
    titles = await cog._new_titles(world.interaction(1), "TAL")
    assert [c.value for c in titles] == ["tally"]
    game_id, thread = await started_game(world)
    moves = world.command("move").binding
    interaction = world.interaction(1, where=thread.id)
    choices = await moves._moves(interaction, "add")
    assert [c.name for c in choices] == [f"add {n}" for n in range(1, 10)]
    assert choices[0].value.startswith("~")  # one legal move, by its key
    assert await moves._moves(world.interaction(3, where=thread.id), "") == []
    elsewhere = world.interaction(1)
    elsewhere.namespace.game = game_id
    assert len(await moves._moves(elsewhere, "")) == 10
    # outside the thread: the only game of the server, then the only one the user plays in
    assert len(await moves._moves(world.interaction(1), "")) == 10
    await open_game(world, user=3)
    assert len(await moves._moves(world.interaction(1), "")) == 10
    assert await moves._moves(world.interaction(9), "") == []  # which game?
    act = world.command("act").binding  # the admin's JSON move keeps its JSON suggestions
    [add1, *_] = await act._actions(interaction, "add")
    assert add1.value == '{"type":"add","amount":1,"entity":1,"entity_type":"player"}'


async def test_a_slow_search_answers_in_time_and_the_next_keystroke_gets_it(world, monkeypatch):
    """Autocomplete cannot wait: past its budget it answers nothing, the search goes on, and
    the next keystroke is answered from what it found."""
    import time

    from bot.discord_ui import suggestions
    from tests.titles_for_tests import Tally

    monkeypatch.setattr(suggestions, "BUDGET", 0.2)
    game_id, thread = await started_game(world)
    real = Tally.legal_actions
    calls = []

    def slow(game, player, kinds=None):
        calls.append(player)
        time.sleep(0.6)  # an engine listing slower than the budget
        return real(game, player, kinds)

    monkeypatch.setattr(Tally, "legal_actions", slow)
    world.bot.service._choices.clear()  # the turn post's listing is not at hand
    cog = world.command("move").binding
    interaction = world.interaction(1, where=thread.id)
    assert await cog._moves(interaction, "add") == []
    await asyncio.sleep(0.8)  # the search finishes in the background
    again = await cog._moves(interaction, "add")
    assert [c.name for c in again][:2] == ["add 1", "add 2"] and len(calls) == 1


async def test_an_unexpected_error_is_logged_with_an_id_the_user_is_told(
    world, monkeypatch, caplog
):
    """A bug in a command or a button: its traceback is logged under an id, and the user reads
    that id (the error is never swallowed by a handler that only answers)."""

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(world.bot.service, "status", broken)
    monkeypatch.setattr(world.bot.service, "play", broken)
    thread = await three_players(world)
    caplog.set_level("ERROR")
    sent = await world.run("status", world.interaction(1, where=thread.id), game=None)
    pressed = await world.press("rc:m:1:1:pass", world.interaction(1, where=thread.id))
    for answer, where in ((sent, "/game status"), (pressed, "the component MoveButton")):
        assert answer[-1].ephemeral
        error_id = answer[-1].text.split("(error ")[1].split(";")[0]
        [record] = [r for r in caplog.records if error_id in r.getMessage()]
        assert where in record.getMessage() and record.exc_info[1].args == ("boom",)


async def test_a_resubmitted_new_discards_its_second_thread(world):
    first = world.interaction(1, interaction_id=55)
    await world.run("new", first, title="tally", seats=2, options=None)
    again = world.interaction(1, interaction_id=55)
    sent = await world.run("new", again, title="tally", seats=2, options=None)
    assert sent[-1] == Sent("That command was already handled.", ephemeral=True)
    kept, extra = world.threads.values()
    extra.delete.assert_awaited_once()
    kept.delete.assert_not_awaited()
    assert [g.thread_id for g in await world.bot.service.store.games()] == [kept.id]


async def test_rapid_actions_are_coalesced_into_one_post(db_path):
    world = await make_world(db_path)
    world.bot.poster.delay = 0.05
    game_id, thread = await started_game(world)
    service = world.bot.service
    for seat in (1, 2, 1):
        result = await service.act(game_id, _caller(seat), _add(seat, 1))
        world.bot.poster.queue(result)
    await world.bot.poster.drain()
    [post] = posts(thread)
    assert post.text == "user1 added 1.\nuser2 added 1.\nuser1 added 1.\nTo act: <@2>"
    assert list(post.files) == ["board.png"]


async def test_whoever_must_act_is_mentioned_once(world):
    game_id, thread = await open_game(world, options="free_for_all")
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    assert posts(thread)[-1].pinged == [1, 2]
    count = len(posts(thread))
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    post = posts(thread)[-1]  # both still act: the same turn's post grows, nobody is pinged again
    assert len(posts(thread)) == count and post.edits == 1
    assert post.text.endswith(
        "started. Seat order: 1. user1, 2. user2.\nuser1 added 4.\nTo act: user1, user2"
    )


async def test_direct_messages_for_those_who_opted_in(world):
    sent = await world.run("turn-dm", world.interaction(2), group="settings", dm="on", game=None)
    assert sent == [Sent("I will also send you a direct message when it is your turn.", True)]
    game_id, thread = await started_game(world)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    assert world.dms == [(2, f"Your move in game #{game_id} (tally): {thread.jump_url}")]
    await world.run("turn-dm", world.interaction(2), group="settings", dm="off", game=None)
    await world.run("undo", world.interaction(1, where=thread.id), game=None)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    assert len(world.dms) == 1


async def test_a_post_without_its_thread_is_dropped_quietly(world, caplog):
    game_id, thread = await started_game(world)
    del world.threads[thread.id]
    world.bot.fetch_channel = _missing_channel
    sent = await world.run("act", world.interaction(1), game=game_id, action=ADD4)
    assert sent[0].text.startswith("Done (posted in")
    assert await world.bot.service.store.action_count(game_id) == 1
    assert f"thread {thread.id} is gone" in caplog.text


async def _missing_channel(channel_id):
    raise discord.NotFound(_response(404), "Unknown Channel")


def _response(status: int):
    return SimpleNamespace(status=status, reason="Not Found")


def _caller(seat: int):
    return Caller(seat, f"user{seat}", guild_id=GUILD)


def _add(seat: int, amount: int) -> dict:
    return {"type": "add", "amount": amount, "entity": seat, "entity_type": "player"}


async def test_images_stay_within_the_upload_limit(db_path):
    big = b"\x89PNG" + b"\0" * (10 * 1024 * 1024)
    world = await make_world(db_path, renderer=lambda game, view: big + bytes([len(game.actions)]))
    game_id, thread = await open_game(world)
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    post = posts(thread)[-1]
    assert post.files == {}
    assert "(The board image is too large to attach; use /game view board.)" in post.text


async def test_a_failing_renderer_still_posts_the_move(db_path, caplog):
    def broken(game, view):
        raise RuntimeError("no fonts")

    world = await make_world(db_path, renderer=broken)
    game_id, thread = await open_game(world)
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    post = posts(thread)[-1]
    assert (
        post.files == {}
        and "(The images could not be drawn this time; /game view map shows them.)" in post.text
    )
    assert "drawing game 1 failed" in caplog.text


async def test_an_import_over_the_size_limit_is_refused(world):
    huge = SimpleNamespace(filename="big.json", size=11 * 1024 * 1024, read=None)
    sent = await world.run("import", world.interaction(1), file=huge, players=None)
    assert sent == [
        Sent(
            f"Refused: the file is {11 * 1024 * 1024} bytes; at most {10 * 1024 * 1024} are read",
            True,
        )
    ]
    assert world.threads == {}


def test_long_histories_keep_their_newest_lines():
    text = "Game #1: actions 1-50 of 50\n" + "\n".join(f"{n}. " + "x" * 60 for n in range(1, 51))
    fitted = fit_latest(text)
    lines = fitted.splitlines()
    assert len(fitted) <= 2000 and lines[:2] == ["Game #1: actions 1-50 of 50", "…"]
    assert lines[-1].startswith("50. ") and fit_latest("short\ntext") == "short\ntext"


async def test_the_bot_does_not_warn_of_voice_it_never_uses(db_path, monkeypatch, caplog):
    from bot.core.service import GameService
    from bot.core.store import Store
    from bot.discord_ui.app import RailchatBot

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level("WARNING", logger="discord"):
        store = Store(db_path)
        RailchatBot(GameService(store))
        store.close()
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
