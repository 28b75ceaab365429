"""Seats the computer plays, through the service and the console: opened with the game, handed
over mid-game and back, left while away; a computer seat is never pinged, never holds the game
up (a bounded share of moves per command, the rest by the worker's call), never moves in a
paused game, makes no deals and has no say in undo votes."""

from __future__ import annotations

import io

import pytest

from bot.cli.console import Console
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.computers import MARK, MOVES_PER_CALL
from bot.core.shards import Shards
from bot.core.store import Store

ANN, BOB, CAT = Caller(1, "Ann"), Caller(2, "Bob"), Caller(3, "Cat")


def add(seat: int, amount: int = 5) -> dict:
    return {"type": "add", "amount": amount, "entity": seat, "entity_type": "player"}


@pytest.fixture
def service(make_store) -> GameService:
    return GameService(make_store(), new_seed=lambda: 7)


async def _tally(service: GameService, computers: int, seats: int = 3, **options: object) -> int:
    made = await service.create_game(
        ANN, "tally", seats=seats, options=options or None, computers=computers, level="random"
    )
    assert made.ok, made.error
    assert made.game_id is not None
    for caller in (BOB, CAT)[: seats - 1 - computers]:
        assert (await service.join(made.game_id, caller)).ok
    started = await service.start(made.game_id, ANN)
    assert started.ok, started.error
    return made.game_id


async def _finish(service: GameService, game_id: int) -> int:
    """Let the worker make every computer move due; how many calls it took."""
    calls = 0
    while due := await service.due_computer_games():
        assert due == [game_id]
        calls += 1
        assert await service.play_computers(game_id) is not None
    return calls


async def test_computer_seats_move_at_once_and_are_never_pinged(service):
    game_id = await _tally(service, computers=2)
    seats = await service.store.seats(game_id)
    assert [(s.name, s.computer, s.user_id) for s in seats] == [
        ("Ann", None, 1),
        ("Computer 1", "random", -2),
        ("Computer 2", "random", -3),
    ]
    status = await service.status(game_id)
    assert "Played by the computer: Computer 1 (random), Computer 2 (random)." in status.text
    for _ in range(3):
        moved = await service.act(game_id, ANN, add(1))
        assert moved.ok and moved.notify in ((1,), ())
        lines = moved.text.splitlines()
        if moved.notify:  # Ann's move, then both computers', and Ann's turn again
            assert len(lines) == 3 and all(line.endswith(MARK) for line in lines[1:])
            assert lines[1].startswith("Computer 1") and lines[2].startswith("Computer 2")
    prompt = await service.prompt(game_id)
    assert prompt.notify == (1,) and prompt.names == ("Ann",)
    assert prompt.player_names == {1: "Ann", 2: "Computer 1 (computer)", 3: "Computer 2 (computer)"}


async def test_a_game_of_computers_is_finished_by_the_worker_in_bounded_calls(service):
    game_id = await _tally(service, computers=2)
    away = await service.computer_seat(game_id, ANN, None, True)
    assert away.ok and "Ann is away: the computer (random) plays their seat" in away.text
    assert len([line for line in away.text.splitlines() if line.endswith(MARK)]) == MOVES_PER_CALL
    assert away.notify == ()
    calls = await _finish(service, game_id)
    game = await service.peek(game_id, lambda g: g)
    assert game is not None and game.finished and calls >= 2
    assert len(game.actions) > MOVES_PER_CALL * 2
    # every move of the log was made by a seat's own player, in turn
    assert await service.due_computer_games() == []


async def test_a_paused_game_gets_no_computer_move(service):
    game_id = await _tally(service, computers=2)
    assert (await service.computer_seat(game_id, ANN, None, True)).ok
    assert (await service.pause(game_id, ANN, True)).ok
    before = await service.store.action_count(game_id)
    assert await service.due_computer_games() == [game_id]
    assert await service.play_computers(game_id) is None
    assert await service.due_computer_games(stored=True) == []  # paused: not listed
    assert await service.store.action_count(game_id) == before
    resumed = await service.pause(game_id, ANN, False)
    assert resumed.ok and resumed.text.count(MARK) == MOVES_PER_CALL
    assert await service.store.action_count(game_id) == before + MOVES_PER_CALL


async def test_a_seat_handed_to_the_computer_mid_game_and_back(service):
    game_id = await _tally(service, computers=0)
    refused = await service.computer_seat(game_id, CAT, 2, True)
    assert refused.error == (
        "only the creator of game #1 or a server admin can hand another player's seat to the "
        "computer"
    )
    wrong = await service.computer_seat(game_id, ANN, 2, True, "clever")
    assert wrong.error == ("unknown computer level 'clever' (levels: random, standard)")
    assert (await service.act(game_id, ANN, add(1))).notify == (2,)
    handed = await service.computer_seat(game_id, ANN, 2, True)
    assert handed.ok and "Ann handed seat 2 (Bob) to the computer (random)" in handed.text
    lines = handed.text.splitlines()
    assert lines[-1].startswith("Bob added") and lines[-1].endswith(MARK)
    assert handed.notify == (3,)  # Bob's move was made at once; Cat is pinged, Bob never
    again = await service.computer_seat(game_id, ANN, 2, True)
    assert again.error == "seat 2 (Bob) is already played by the computer (random)"
    assert (await service.act(game_id, CAT, add(3))).notify == (1,)
    moved = await service.act(game_id, ANN, add(1))
    assert moved.text.splitlines()[-1].startswith("Bob added") and moved.notify == (3,)
    back = await service.computer_seat(game_id, BOB, None, False)
    assert back.ok and back.text.startswith("Bob is back and plays their seat again.")
    seats = await service.store.seats(game_id)
    assert [(s.user_id, s.name, s.computer) for s in seats] == [
        (1, "Ann", None),
        (2, "Bob", None),
        (3, "Cat", None),
    ]
    assert (await service.act(game_id, CAT, add(3))).notify == (1,)
    assert (await service.act(game_id, ANN, add(1))).notify == (2,)  # Bob is pinged again


async def test_computer_seats_make_no_deals_and_have_no_say_in_undos(service):
    game_id = await _tally(service, computers=1, seats=2)
    deal = {"type": "take", "from": 2, "amount": 1, "entity": 1, "entity_type": "player"}
    refused = await service.act(game_id, ANN, deal)
    assert refused.error == (
        "this deal takes Computer 1's property, and the computer plays that seat: it makes no deals"
    )
    assert (await service.act(game_id, ANN, add(1, 4))).ok  # the computer replied at once
    count = await service.store.action_count(game_id)
    undone = await service.undo(game_id, ANN)
    assert undone.ok and undone.vote is None, undone.text
    assert await service.store.action_count(game_id) == count - 2


async def test_refusals_change_nothing(service):
    made = await service.create_game(ANN, "tally", seats=2, computers=2)
    assert made.error == (
        "a game of 2 seats has room for 0 to 1 computers (the first seat is yours), not 2"
    )
    made = await service.create_game(ANN, "tally", seats=2, computers=1, level="standard")
    assert made.error == "tally has no standard computer player yet; it plays random"
    assert await service.store.games() == []
    opened = await service.create_game(ANN, "tally", seats=2)
    assert (await service.computer_seat(1, ANN, None, True)).error == (
        "game #1 has not started; computer seats of a new game are opened with /game new ... "
        "computers:N"
    )
    assert (await service.abandon(1, ANN)).ok and opened.game_id == 1
    game_id = await _tally(service, computers=0)
    stranger = await service.computer_seat(game_id, Caller(9, "Dan"), None, True)
    assert stranger.error == "you are not seated in game #2; a game admin names a seat"
    assert (await service.computer_seat(game_id, ANN, 5, True)).error == (
        "game #2 has seats 1 to 3, not 5"
    )
    assert (await service.computer_seat(game_id, BOB, None, False)).error == (
        "seat 2 (Bob) is already played by its holder"
    )
    assert all(s.computer is None for s in await service.store.seats(game_id))


async def test_a_whole_game_with_a_computer_seat_in_the_console(tmp_path):
    out = io.StringIO()
    console = Console(GameService(Store(tmp_path / "c.db"), new_seed=lambda: 3), out)
    await console.run(
        [
            "/game new title:tally seats:3 computers:2 level:random options:target=40",
            "/game start",
        ]
        + ["/game-admin act action:" + '{"type": "add", "amount": 9}'] * 12
    )
    text = out.getvalue()
    assert "2 of them played by the computer (random)" in text
    assert "Computer 1 added" in text and "Computer 2 added" in text
    assert "The game is over" in text
    assert "To act: player -" not in text  # a computer seat is never called on
    game = await console.service.peek(1, lambda g: g)
    assert game is not None and game.finished


async def test_computer_seats_keep_their_numbers_when_a_player_leaves(service):
    made = await service.create_game(ANN, "tally", seats=4, computers=2, level="random")
    assert made.game_id is not None
    assert (await service.join(made.game_id, BOB)).ok
    assert (await service.leave(made.game_id, ANN)).ok
    seats = await service.store.seats(made.game_id)
    assert [(s.seat, s.user_id, s.name, s.computer) for s in seats] == [
        (1, -1, "Computer 1", "random"),
        (2, -2, "Computer 2", "random"),
        (3, 2, "Bob", None),
    ]
    assert (await service.join(made.game_id, CAT)).ok
    started = await service.start(made.game_id, ANN)
    assert started.ok and started.notify == (2,)  # the computers opened; Bob is next
    assert started.text.count(MARK) == 2


async def test_a_failed_computer_move_leaves_the_command_done_and_is_made_later(
    service, monkeypatch
):
    game_id = await _tally(service, computers=2)
    store_move = type(service)._store_move
    calls = 0

    async def failing_once(self, record, game, user_id, *args, **kwargs):
        nonlocal calls
        calls += 1
        if user_id < 0 and calls == 2:  # the first computer move after Ann's
            raise RuntimeError("the database went away")
        return await store_move(self, record, game, user_id, *args, **kwargs)

    monkeypatch.setattr(type(service), "_store_move", failing_once)
    moved = await service.act(game_id, ANN, add(1))
    assert moved.ok and moved.text == "Ann added 5." and MARK not in moved.text
    assert not service.computers_waiting.is_set()  # no retry in a tight loop
    assert await service.store.action_count(game_id) == 1
    assert await service.due_computer_games() == [game_id]
    later = await service.play_computers(game_id)
    assert later is not None and later.text.count(MARK) == 2 and later.notify == (1,)


async def test_computers_finish_a_string_railway_game_in_the_console_while_away(tmp_path):
    out = io.StringIO()
    console = Console(GameService(Store(tmp_path / "c.db"), new_seed=lambda: 5), out)
    await console.run(["/game new string_railway seats:3 computers:2", "/game start", "/play away"])
    text = out.getvalue()
    assert "player 1 is away: the computer (standard) plays their seat" in text
    assert "The game is over" in text and text.count(MARK) > 20
    game = await console.service.peek(1, lambda g: g)
    assert game is not None and game.finished
    await console.run(["/play back"])
    assert out.getvalue().endswith("Refused: game #1 is over\n")


async def test_after_a_restart_each_process_takes_the_computer_games_of_its_shards(make_store):
    """Only the process serving a game's server posts there, so after a restart each process
    finishes the computer moves of its own shards' games."""
    guilds = [(k << 22) + 7 for k in range(2)]  # shards 0 and 1 of 2
    first = GameService(make_store(), new_seed=lambda: 7)
    games = []
    for guild in guilds:
        ann = Caller(1, "Ann", guild_id=guild)
        made = await first.create_game(
            ann, "tally", seats=2, guild_id=guild, computers=1, level="random"
        )
        assert made.ok and made.game_id is not None, made.error
        assert (await first.start(made.game_id, ann)).ok
        games.append(made.game_id)
    for shard, game_id in enumerate(games):
        restarted = GameService(make_store(), new_seed=lambda: 7, shards=Shards((shard,), 2))
        assert await restarted.due_computer_games(stored=True) == [game_id]
    every = GameService(make_store(), new_seed=lambda: 7)
    assert await every.due_computer_games(stored=True) == games
