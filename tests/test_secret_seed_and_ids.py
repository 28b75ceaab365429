"""Issue 34: String Railway's hidden deck cannot be worked out from what the table shows (a new
game's seed has 128 secret bits, and the map is rolled from a one-way hash of it), old seeds
replay exactly as before; and ids in a move are whole numbers or names, never true or 2.0."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing

import pytest

import engine.strings.setup as strings_setup
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.base import random_seed
from bot.core.store import Store
from bot.core.store.connection import SqliteBackend
from bot.core.store.migrations import MIGRATIONS, SQLITE, _record_table
from engine.eighteen import io
from engine.errors import InvalidAction
from engine.game import Game, PlayerInfo
from engine.strings.game import StringRailway
from engine.titles import create_game, find_title

ANN, BOB, CY = Caller(10, "Ann"), Caller(11, "Bob"), Caller(12, "Cy")
THREE = [PlayerInfo("p1", "Ann"), PlayerInfo("p2", "Bob"), PlayerInfo("p3", "Cy")]


def strings(seed: int, **options: object) -> StringRailway:
    game = create_game("string_railway", THREE, options, seed)
    assert isinstance(game, StringRailway)
    return game


def rounded(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(round(x, 6), round(y, 6)) for x, y in points]


# -- the seed --------------------------------------------------------------------------------
def test_a_new_string_railway_seed_has_128_secret_bits_and_18xx_seeds_stay_small() -> None:
    seeds = [random_seed(StringRailway) for _ in range(64)]
    assert all(s >= 2**64 for s in seeds)  # beyond every seed of before: the new scheme
    secret = [s - 2**64 for s in seeds]
    assert max(secret) < 2**128 and len(set(secret)) == 64
    # the top bits vary too: the draw spans 128 bits, not a searchable 31 or 64
    assert len({s >> 120 for s in secret}) > 16
    assert max(secret) > 2**120 and all(
        0 <= random_seed(find_title("1830")) < 2**31 for _ in range(64)
    )


async def test_a_started_game_keeps_its_long_seed_in_the_store(make_store) -> None:
    service = GameService(make_store())
    created = await service.create_game(ANN, "string_railway", seats=2)
    assert created.ok, created.error
    assert (await service.join(created.game_id, BOB)).ok
    assert (await service.start(created.game_id, ANN)).ok
    seed = (await service.store.game(created.game_id)).seed
    assert seed is not None and seed >= 2**64
    again = GameService(make_store())  # another process reads the game back from the store
    record = await again.store.game(created.game_id)
    assert record.seed == seed
    game = await again._live(record)
    assert game.seed == seed and game.order == strings(seed).order[: len(game.order)]


def test_the_deck_does_not_follow_from_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two new seeds whose map key is made equal: the same area, river and mountain, yet
    different decks. The map is rolled from the key alone, which is a one-way hash of the seed,
    so no search over maps reaches the seed that shuffles the deck."""
    first, second = 2**64 + 12345, 2**64 + 2**127 + 678
    assert strings_setup.map_key(first) != strings_setup.map_key(second)
    assert strings_setup.map_key(first) != str(first)  # not the seed itself, as old seeds are
    monkeypatch.setattr(strings_setup, "map_key", lambda seed: "a shown map")
    a, b = strings(first, chaotic=True), strings(second, chaotic=True)
    assert a.area_points == b.area_points
    assert a.board.river == b.board.river and a.board.mountain == b.board.mountain
    assert a.order != b.order


# Today's behaviour for stored games (recorded with the code of main 4f8afa8): old seeds must
# deal and roll the same deck, river and mountain, or their stored logs would not replay.
OLD_4242_ORDER = (
    "regional village scenic transit village junction village central scenic regional junction "
    "city central village transit city village regional suburban regional suburban junction "
    "transit central village regional village village terminal suburban terminal central "
    "transit suburban regional suburban transit suburban"
).split()
OLD_4242_RIVER = [
    (24.1, 45.7), (30.1, 36.0), (37.2, 27.6), (47.1, 21.7), (58.4, 21.2), (67.1, 15.0),
    (76.1, 12.8),
]  # fmt: skip
OLD_4242_MOUNTAIN = [
    (78.4, 48.8), (71.1, 56.9), (63.1, 62.7), (57.1, 59.0), (48.7, 53.2), (49.0, 43.2),
    (51.7, 34.1), (67.8, 34.3), (75.2, 36.9), (78.4, 48.8),
]  # fmt: skip
OLD_4242_REROLLED_RIVER = [
    (37.1, -2.0), (36.8, 6.1), (37.7, 13.3), (35.8, 22.7), (34.0, 32.1), (35.4, 39.3),
    (41.8, 47.6), (44.2, 59.1), (45.6, 65.1),
]  # fmt: skip
OLD_MAX_ORDER_START = "regional regional regional suburban city central transit suburban".split()
OLD_MAX_AREA = [(0.0, 0.0), (91.4, 23.5), (59.2, 114.3)]
OLD_MAX_RIVER_START = [(63.5, 14.3), (56.5, 21.5), (53.3, 31.4)]


def test_old_seeds_deal_and_roll_as_before() -> None:
    game = strings(4242)
    assert game.order == OLD_4242_ORDER
    assert rounded(game.board.river) == OLD_4242_RIVER
    assert rounded(game.board.mountain) == OLD_4242_MOUNTAIN
    seat = game.setup_seat("river")
    game.process({"type": "reroll", "entity": game.companies[seat].player, "what": "river"})
    assert rounded(game.board.river) == OLD_4242_REROLLED_RIVER
    chaotic = strings(2**31 - 1, chaotic=True)  # the largest seed the service drew before
    assert chaotic.order[:8] == OLD_MAX_ORDER_START
    assert rounded(chaotic.area_points) == OLD_MAX_AREA
    assert rounded(chaotic.board.river)[:3] == OLD_MAX_RIVER_START


def test_a_long_seed_exports_imports_and_replays() -> None:
    seed = random_seed(StringRailway)
    game = strings(seed)
    public = io.export(game, public=True)
    assert "seed" not in public["settings"]  # hidden while the game runs
    data = json.loads(json.dumps(io.export(game)))
    assert data["settings"]["seed"] == seed
    again = io.load(data).game
    assert isinstance(again, StringRailway)
    assert again.seed == seed and again.order == game.order
    assert again.board.river == game.board.river


async def test_an_imported_long_seed_is_stored_whole(make_store) -> None:
    seed = random_seed(StringRailway)
    data = json.loads(json.dumps(io.export(strings(seed))))
    service = GameService(make_store())
    imported = await service.import_game(ANN, data, [ANN.user_id, BOB.user_id, CY.user_id])
    assert imported.ok, imported.error
    assert (await service.store.game(imported.game_id)).seed == seed


async def test_stored_seeds_keep_their_value_when_the_store_migrates(db_path) -> None:
    backend = SqliteBackend(str(db_path), busy_timeout=1, durable=False)
    backend.write_now(lambda conn: _record_table(conn, "sqlite"))
    for migration in MIGRATIONS[:15]:  # the schema whose seeds were 64-bit integers

        def apply(conn, m=migration):
            m(conn, SQLITE)
            conn.execute("INSERT INTO schema_migrations VALUES (?, 'then')", [m.__name__])

        backend.write_now(apply)
    for gid, seed in ((1, 2**31 - 1), (2, None), (3, 2**63 - 1)):
        backend.write_now(
            lambda conn, gid=gid, seed=seed: conn.execute(
                "INSERT INTO games (id, title, seat_limit, status, creator_id, seed, "
                "created_at, updated_at) VALUES (?, 'tally', 2, 'active', 10, ?, 'then', 'then')",
                [gid, seed],
            )
        )
    backend.close()
    store = Store(db_path)
    assert [(await store.game(g)).seed for g in (1, 2, 3)] == [2**31 - 1, None, 2**63 - 1]
    with closing(sqlite3.connect(db_path)) as conn:
        kinds = conn.execute("SELECT typeof(seed) FROM games ORDER BY id").fetchall()
    assert kinds == [("text",), ("null",), ("text",)]


# -- ids are names or whole numbers ----------------------------------------------------------
def g1830() -> Game:
    return create_game("1830", [PlayerInfo(n, name) for n, name in ((1, "A"), (2, "B"))], {}, 1)


def bid() -> dict:
    return {"type": "bid", "entity": 1, "entity_type": "player", "company": "SV", "price": 20}


@pytest.mark.parametrize(
    "changes, error",
    [
        ({"entity": True}, "entity must be a whole number or a name, not true"),
        ({"entity": 1.0}, "entity must be a whole number or a name, not 1.0"),
        ({"company": False}, "company must be a whole number or a name, not false"),
        ({"price": 20.0}, "price must be a whole number, not 20.0"),
    ],
)
def test_an_id_given_as_true_or_a_decimal_is_refused_before_the_actor_check(changes, error):
    game = g1830()
    with pytest.raises(InvalidAction, match=f"^{re.escape(error)}$"):
        game.process({**bid(), **changes}, by=1)
    with pytest.raises(InvalidAction, match=f"^{re.escape(error)}$"):
        game.check_submission({**bid(), **changes})
    assert game.actions == []
    assert game.process(bid(), by=1) == bid()  # the honest move as before


def test_every_title_refuses_them(db_path) -> None:
    """The Tally test title reads `amount` with isinstance(int), which true passes."""
    tally = create_game("tally", [PlayerInfo(1, "A"), PlayerInfo(2, "B")], {}, 1)
    add = {"type": "add", "entity": 1, "entity_type": "player", "amount": 2}
    with pytest.raises(InvalidAction, match="^amount must be a whole number, not true$"):
        tally.process({**add, "amount": True}, by=1)
    with pytest.raises(InvalidAction, match="^entity must be a whole number or a name, not true$"):
        tally.process({**add, "entity": True}, by=1)
    assert tally.actions == [] and tally.process(add, by=1) == add


async def test_a_typed_move_with_a_true_entity_is_refused_and_not_stored(make_store) -> None:
    service = GameService(make_store(), new_seed=lambda: 1)
    created = await service.create_game(ANN, "1830", seats=2)
    assert (await service.join(created.game_id, BOB)).ok
    assert (await service.start(created.game_id, ANN)).ok
    refused = await service.act(created.game_id, ANN, {**bid(), "entity": True})
    assert refused.error == "entity must be a whole number or a name, not true"
    assert await service.store.actions(created.game_id) == []


def test_a_file_with_a_true_entity_is_refused() -> None:
    data = {
        "title": "1830",
        "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}],
        "actions": [{**bid(), "id": 1}, {"type": "pass", "entity": 2.0, "entity_type": "player"}],
    }
    with pytest.raises(io.ReplayError, match="entity must be a whole number or a name, not 2.0"):
        io.load(data)
    auto = {**bid(), "id": 1, "auto_actions": [{"type": "pass", "entity": True}]}
    with pytest.raises(io.ReplayError, match="entity must be a whole number or a name, not true"):
        io.load({**data, "actions": [auto]})
