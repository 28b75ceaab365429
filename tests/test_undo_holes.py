"""Undo holes of issue 34: an undo never takes back a person's own move without them (their
seat left to the computer since or not), while the moves the computer made are nobody's to
approve; and an undo never takes back a drawn String Railway station for free (the player
would replay knowing it): the other players approve it, and with nobody to ask it is
refused."""

from __future__ import annotations

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.store.connection import SqliteBackend
from bot.core.store.migrations import MIGRATIONS, SQLITE, _record_table
from engine.game import Action, Choice, Game, PlayerInfo
from engine.titles import create_game

ANN, BOB, CAT = Caller(1, "Ann"), Caller(2, "Bob"), Caller(3, "Cat")
STATION_MOVES = ("place_station", "set_aside_station", "lay_rail", "forfeit_rail")


@pytest.fixture
def service(make_store) -> GameService:
    return GameService(make_store(), new_seed=lambda: 7)


def add(seat: int, amount: int = 5) -> dict:
    return {"type": "add", "amount": amount, "entity": seat, "entity_type": "player"}


async def _game(service: GameService, title: str, creator: Caller, *others: Caller, **kw) -> int:
    made = await service.create_game(creator, title, seats=1 + len(others) + kw.pop("cpu", 0), **kw)
    assert made.ok and made.game_id is not None, made.error
    for caller in others:
        assert (await service.join(made.game_id, caller)).ok
    started = await service.start(made.game_id, creator)
    assert started.ok, started.error
    return made.game_id


async def _count(service: GameService, game_id: int) -> int:
    return await service.store.action_count(game_id)


# -- 1. another player's own move needs them, their seat played by the computer or not ---------


async def test_an_away_players_own_move_is_not_taken_back_without_them(service):
    """Ann (the creator) runs the table; Cat moved by hand, then left her seat to the computer.
    Bob's undo reaches Cat's move: Cat is asked, may vote though away, and her yes applies it."""
    game_id = await _game(service, "tally", ANN, BOB, CAT)
    for caller, seat in ((ANN, 1), (BOB, 2), (CAT, 3)):
        assert (await service.act(game_id, caller, add(seat))).ok
    assert (await service.computer_seat(game_id, CAT, None, True, level="random")).ok
    assert await _count(service, game_id) == 3  # Ann's turn: the computer has not moved

    asked = await service.undo(game_id, BOB)
    assert asked.ok and asked.vote is not None, asked.text
    assert asked.notify == (3,)
    assert "Cat must approve" in asked.text
    assert await _count(service, game_id) == 3
    stranger = await service.vote(asked.vote, Caller(9, "Dan"), True)
    assert stranger.error == (
        "only the players whose actions would be undone (Cat) or a game admin vote on this undo"
    )
    approved = await service.vote(asked.vote, CAT, True)
    assert approved.ok, approved.error
    assert await _count(service, game_id) == 1  # Bob's move and Cat's taken back


async def test_an_away_players_no_ends_the_undo(service):
    game_id = await _game(service, "tally", ANN, BOB, CAT)
    for caller, seat in ((ANN, 1), (BOB, 2), (CAT, 3)):
        assert (await service.act(game_id, caller, add(seat))).ok
    assert (await service.computer_seat(game_id, ANN, 3, True, level="random")).ok  # admin's
    asked = await service.undo(game_id, BOB)
    assert asked.vote is not None and asked.notify == (3,), asked.text
    rejected = await service.vote(asked.vote, CAT, False)
    assert rejected.ok and "Cat rejected the undo" in rejected.text
    assert await _count(service, game_id) == 3


async def test_the_computers_moves_need_no_approval_after_its_player_came_back(service):
    """Cat was away while the computer made her move; she is back. Bob's undo takes back his
    move and the computer's after it at once: that move was never Cat's."""
    game_id = await _game(service, "tally", ANN, BOB, CAT)
    assert (await service.computer_seat(game_id, CAT, None, True, level="random")).ok
    assert (await service.act(game_id, ANN, add(1))).ok
    assert (await service.act(game_id, BOB, add(2))).ok  # the computer answers for Cat
    actions = await service.store.actions(game_id)
    assert [(a.user_id, a.computer) for a in actions] == [(1, None), (2, None), (3, "random")]
    assert (await service.computer_seat(game_id, CAT, None, False)).ok

    undone = await service.undo(game_id, BOB)
    assert undone.ok and undone.vote is None, undone.text
    assert undone.text.startswith("Bob took back actions 2-3")
    assert await _count(service, game_id) == 1


async def test_redo_puts_the_computers_move_back_as_the_computers(service):
    game_id = await _game(service, "tally", ANN, BOB, CAT)
    assert (await service.computer_seat(game_id, CAT, None, True, level="random")).ok
    assert (await service.act(game_id, ANN, add(1))).ok
    assert (await service.act(game_id, BOB, add(2))).ok
    assert (await service.undo(game_id, BOB)).ok
    assert (await service.redo(game_id, BOB)).ok
    actions = await service.store.actions(game_id)
    assert [(a.user_id, a.computer) for a in actions] == [(1, None), (2, None), (3, "random")]


async def test_moves_stored_before_are_the_computers_only_on_seats_nobody_holds(db_path):
    """A database from before moves were marked: the moves of a seat nobody holds (which only
    the computer plays) become the computer's; a held seat's stay its holder's."""
    backend = SqliteBackend(str(db_path), busy_timeout=1, durable=False)
    backend.write_now(lambda conn: _record_table(conn, "sqlite"))
    for migration in MIGRATIONS[:15]:  # the schema with computer seats, before m016

        def apply(conn, m=migration):
            m(conn, SQLITE)
            conn.execute("INSERT INTO schema_migrations VALUES (?, 'then')", [m.__name__])

        backend.write_now(apply)

    def fill(conn) -> None:
        conn.execute(
            "INSERT INTO games (id, title, seat_limit, status, creator_id, created_at, "
            "updated_at, version) VALUES (1, 'tally', 3, 'active', 1, 'then', 'then', 4)"
        )
        for seat, user, computer in ((1, 1, None), (2, 2, "random"), (3, -3, "random")):
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, player_id, computer) "
                "VALUES (1, ?, ?, 'x', ?, ?)",
                [seat, user, str(seat), computer],
            )
        for seq, user in ((1, 1), (2, 2), (3, -3)):
            conn.execute(
                "INSERT INTO actions (game_id, seq, user_id, payload, created_at) "
                "VALUES (1, ?, ?, '{}', 'then')",
                [seq, user],
            )
        conn.execute(
            "INSERT INTO undone_actions (game_id, seq, user_id, payload, created_at, "
            "undone_by, undone_at, redo_version) VALUES (1, 4, -3, '{}', 'then', 1, 'then', 4)"
        )

    backend.write_now(fill)
    backend.close()
    store = Store(db_path)
    assert [a.computer for a in await store.actions(1)] == [None, None, "random"]
    undone = await store.last_undone(1)
    assert undone is not None and [a.computer for a in undone.actions] == ["random"]


# -- 2. a drawn station is not taken back for free ----------------------------------------------


def station_move(game: Game, choices: list[Choice]) -> Action:
    """A honest turn's next step: place the drawn station, else lay (or forfeit) a rail."""
    return next(c.action for c in choices if c.action["type"] in STATION_MOVES)


async def _turn(service: GameService, game_id: int, caller: Caller) -> None:
    """The caller places their drawn stations and lays a rail (which draws the next one)."""
    while True:
        played = await service.play(game_id, caller, station_move)
        assert played.ok and played.action is not None, played.error
        if played.action["type"] in ("lay_rail", "forfeit_rail"):
            return


async def test_taking_back_ones_own_draw_needs_the_other_players(service):
    game_id = await _game(service, "string_railway", ANN, BOB)
    await _turn(service, game_id, ANN)
    placed = await service.play(game_id, BOB, station_move)
    assert placed.ok and placed.action is not None
    assert placed.action["type"] == "place_station"
    undone = await service.undo(game_id, BOB)  # placing draws nothing: undone at once
    assert undone.ok and undone.vote is None, undone.text
    await _turn(service, game_id, BOB)
    count = await _count(service, game_id)

    asked = await service.undo(game_id, BOB)
    assert asked.ok and asked.vote is not None, asked.text
    assert asked.notify == (1,)
    assert "drew" in asked.text and "Ann must approve" in asked.text
    assert await _count(service, game_id) == count
    approved = await service.vote(asked.vote, ANN, True)
    assert approved.ok, approved.error
    assert await _count(service, game_id) == count - 1


async def test_a_draw_is_not_taken_back_with_the_computers_moves_since(service):
    """Ann's rail drew the computer's station, the computer's rail drew Bob's: Ann's undo
    (at once before) asks Bob, not the computer, nor Cat who left her seat to it."""
    game_id = await _game(service, "string_railway", BOB, ANN, CAT)
    assert (await service.computer_seat(game_id, BOB, 3, True, level="random")).ok
    await _turn(service, game_id, BOB)
    count = await _count(service, game_id)
    await _turn(service, game_id, ANN)  # the computer plays Cat's turn after it
    assert (await service.prompt(game_id)).names == ("Bob",)

    asked = await service.undo(game_id, ANN)
    assert asked.ok and asked.vote is not None, asked.text
    assert asked.notify == (2,) and "Bob must approve" in asked.text
    approved = await service.vote(asked.vote, BOB, True)
    assert approved.ok, approved.error
    assert await _count(service, game_id) == count + 1  # back to before Ann's rail


async def test_a_draw_with_only_computers_to_ask_is_refused(service):
    """Bob left his seat to the computer: Ann, who is not the game's admin, has nobody to ask."""
    game_id = await _game(service, "string_railway", BOB, ANN)
    assert (await service.computer_seat(game_id, BOB, None, True, level="random")).ok
    await _turn(service, game_id, ANN)  # the computer plays Bob's turn after Ann's
    assert (await service.prompt(game_id)).names == ("Ann",)
    count = await _count(service, game_id)
    log = await service.store.actions(game_id)
    refused = await service.undo(game_id, ANN)
    assert refused.error is not None and "drew" in refused.error, refused.text
    assert "the computer plays every other seat" in refused.error
    assert await service.store.actions(game_id) == log and await _count(service, game_id) == count


def test_string_railway_says_which_actions_drew():
    """Every rail laid or forfeited draws the next company's station, but the game's last;
    placing draws nothing; the answers stand after a rewind (the 18xx titles draw nothing)."""
    game = create_game("string_railway", [PlayerInfo(1, "A"), PlayerInfo(2, "B")], {}, 3)
    while not game.finished:
        player = game.active_players()[0]
        game.process(station_move(game, game.legal_actions(player)), player)
    kinds = [a["type"] for a in game.actions]
    ends = [n for n, kind in enumerate(kinds, 1) if kind in ("lay_rail", "forfeit_rail")]
    drew = [n for n in range(1, len(kinds) + 1) if game.revealed(n)]
    assert drew == ends[:-1] and len(ends) == 20
    assert not game.revealed(0) and not game.revealed(len(kinds) + 1)
    game.rewind_to(ends[3])
    assert [n for n in range(1, ends[3] + 1) if game.revealed(n)] == ends[:4]
    g1830 = create_game("1830", [PlayerInfo(n, f"P{n}") for n in (1, 2, 3)], {}, 1)
    g1830.process(g1830.legal_actions(g1830.active_players()[0])[0].action)
    assert not g1830.revealed(1)
