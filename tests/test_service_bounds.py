"""Every size a user controls is bounded before any work is done: title options, the number of
games, chat messages in a log, names from files; a command without a game number costs one
query; each game keeps its own previews; a running String Railway game keeps its deck hidden."""

from __future__ import annotations

import json
import math

import pytest

from bot.core.parsing import parse_options
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests.test_service import ANN, BOB, CY

SR_OPTIONS = (
    "river=-5 50 30 50, mountain=50 50 65 50 65 65 50 65, "
    "station_order=central village regional central central central"
)


@pytest.fixture
def service(db_path):
    return GameService(Store(db_path), new_seed=lambda: 4242, game_caps=(4, 2))


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"station_size": math.nan}, "option station_size must lie between 1 and 20 cm"),
        ({"station_size": "inf"}, "option station_size must lie between 1 and 20 cm"),
        ({"rerolls": math.nan}, "option rerolls is a whole number from 0 to 10"),
        ({"rerolls": 1_000_000_000}, "option rerolls is a whole number from 0 to 10"),
        ({"river_length": 1e-300}, "option river_length must lie between 10 and 500 cm"),
        ({"river_length": math.nan}, "option river_length must lie between 10 and 500 cm"),
        ({"short": math.inf}, "option short must lie between 5 and 200 cm"),
        ({"short": 50, "long": 40}, "a short rail cannot be longer than a long one"),
        (
            {"area": "0 0; 1000000 0; 1000000 1000000; 0 1000000"},
            "area: coordinates lie within ±1000 cm",
        ),
        (
            {"area": "0 0; 900 0; 900 900; 0 900"},
            "the play area must span 20 to 300 cm each way (it spans 900 by 900)",
        ),
        ({"area": [[0, 0]] * 500}, "area: at most 24 vertices"),
        ({"chaotic": "maybe"}, "option chaotic is only on or off, not 'maybe'"),
        ({"station_order": ["central"] * 201}, "station_order lists at most 200 stations"),
    ],
)
async def test_string_railway_options_out_of_range_are_refused_before_any_game(
    service, options, refusal
):
    checked = await service.check_new_game(ANN, "string_railway", 2, options)
    assert checked.error == refusal
    created = await service.create_game(ANN, "string_railway", seats=2, options=options)
    assert created.error == refusal
    assert await service.store.games(limit=5) == []


async def test_a_title_flag_is_only_on_or_off(service):
    refused = await service.check_new_game(ANN, "1830", 4, {"optional_6_train": 1e300})
    assert refused.error == "option optional_6_train is only on or off (optional_6_train or " \
        "optional_6_train=false), not '1e+300'"  # fmt: skip
    assert (await service.check_new_game(ANN, "1830", 4, {"optional_6_train": True})).ok


async def test_an_imported_file_with_a_huge_area_is_refused_before_any_thread(service):
    data = {
        "title": "string_railway",
        "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
        "settings": {"seed": 1, "area": [[0, 0], [10**6, 0], [10**6, 10**6], [0, 10**6]]},
        "actions": [],
    }
    prepared = await service.prepare_import(ANN, data, [ANN.user_id])
    assert prepared.error == "area: coordinates lie within ±1000 cm"


async def test_games_are_capped_per_user_and_per_server(service):
    other = Caller(50, "Zed", guild_id=None)
    for _ in range(2):
        assert (await service.create_game(ANN, "tally", seats=2)).ok
    third = await service.create_game(ANN, "tally", seats=2)
    assert third.error == (
        "you have opened 2 games that are not over yet (at most 2); finish or abandon one first"
    )
    assert (await service.create_game(BOB, "tally", seats=2)).ok
    assert (await service.create_game(CY, "tally", seats=2)).ok
    assert (await service.create_game(other, "tally", seats=2)).error.startswith(
        "this server has 4 games that are not over yet (at most 4)"
    )
    assert (await service.abandon(1, ANN)).ok  # a game over no longer counts
    assert (await service.create_game(ANN, "tally", seats=2)).ok


async def test_a_command_without_a_game_number_costs_one_query(db_path, monkeypatch):
    service = GameService(Store(db_path), new_seed=lambda: 1, game_caps=(500, 500))
    others = [Caller(100 + n, f"P{n}") for n in range(30)]
    for caller in others:
        await service.create_game(caller, "tally", seats=2)
    mine = await service.create_game(ANN, "tally", seats=2)
    calls = []
    for name in ("games", "games_in_play", "seats", "game"):
        real = getattr(service.store, name)

        async def counted(*args, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(service.store, name, counted)
    chosen = await service.default_game(ANN.user_id)
    assert chosen.game_id == mine.game_id and calls == ["games_in_play"]
    ambiguous = await service.default_game(999)
    assert ambiguous.error.startswith("which game? several games are open or in play here: #31")
    assert len(calls) == 2


async def test_each_game_keeps_its_own_previews(db_path):
    store = Store(db_path)
    one = await store.create_game(title="tally", options={}, seat_limit=2, creator_id=1)
    two = await store.create_game(title="tally", options={}, seat_limit=2, creator_id=2)
    await store.save_preview("mine", one.id, 1, 1, {"type": "pass"}, keep=16)
    for n in range(40):  # another server's game shows many previews
        await store.save_preview(f"t{n}", two.id, 1, 2, {"type": "pass"}, keep=16)
    assert (await store.preview("mine")) is not None
    assert (await store.preview("t23")) is None and (await store.preview("t24")) is not None


async def test_a_player_leaves_few_messages_between_moves(db_path):
    service = GameService(Store(db_path), new_seed=lambda: 5)
    created = await service.create_game(
        ANN, "string_railway", seats=2, options=parse_options(SR_OPTIONS)
    )
    assert (await service.join(created.game_id, BOB)).ok
    assert (await service.start(created.game_id, ANN)).ok
    game = created.game_id
    say = {"type": "message", "message": "hello"}
    for _ in range(5):
        assert (await service.act(game, ANN, say)).ok
    assert (await service.act(game, ANN, say)).error == (
        "you have left 5 messages in the log since the last move; talk in the thread until "
        "the game moves on"
    )
    assert (await service.act(game, BOB, say)).ok  # each player has their own allowance


async def test_a_running_string_railway_export_keeps_the_deck_hidden(db_path):
    service = GameService(Store(db_path), new_seed=lambda: 5)
    created = await service.create_game(ANN, "string_railway", seats=2)
    assert (await service.join(created.game_id, BOB)).ok
    assert (await service.start(created.game_id, ANN)).ok
    exported = await service.export(created.game_id)
    assert exported.text.endswith("(seed, station_order left out until the game ends).")
    [(_, payload)] = exported.files
    settings = json.loads(payload)["settings"]
    assert "seed" not in settings and "station_order" not in settings
    assert "area" in settings  # what the table shows stays in


async def test_names_from_a_file_cannot_mention_or_flood(service):
    from tests.reference_games import game_path, require_games

    require_games("1830")
    data = io.read_file(game_path("1830", "26855"))
    players = [dict(p) for p in data["players"]]
    players[0]["name"] = "<@888> @everyone"
    players[1] = {"id": players[1]["id"]}  # no name: the id stands in
    data = {**data, "players": players, "actions": data["actions"][:5]}
    imported = await service.import_game(ANN, data, [ANN.user_id])
    assert imported.ok, imported.error
    names = [s.name for s in await service.store.seats(imported.game_id)]
    assert names[0] == "<\u200b@888> @\u200beveryone" and "<@" not in imported.text
    long_id = {**data, "players": [{"id": "9" * 9999}, *players[1:]]}
    refused = await service.prepare_import(ANN, long_id, [])
    assert refused.error == "player 1's id is longer than 100 characters"


async def test_an_imported_file_replays_at_most_2000_moves(service):
    """A chat import replays the whole file; past the longest real games it is refused first,
    so that no file costs more than a fraction of a second to check."""
    players = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]
    chatter = [
        {"type": "message", "entity": 1, "entity_type": "player", "message": "hi", "id": n}
        for n in range(1, 2002)
    ]
    data = {"title": "1830", "players": players, "settings": {"seed": 1}, "actions": chatter}
    refused = await service.prepare_import(ANN, data, [])
    assert refused.error == (
        "the file has 2,001 moves; a game imported by chat has at most 2,000 (the longest "
        "games have about 1,400)"
    )
