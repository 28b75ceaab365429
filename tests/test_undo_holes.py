"""Undo holes of issue 34: an undo never takes back a person's own move without them (their
seat left to the computer since or not), while the moves the computer made are nobody's to
approve."""

from __future__ import annotations

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.store.connection import SqliteBackend
from bot.core.store.migrations import MIGRATIONS, SQLITE, _record_table

ANN, BOB, CAT = Caller(1, "Ann"), Caller(2, "Bob"), Caller(3, "Cat")


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
