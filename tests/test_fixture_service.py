"""Acceptance with the recorded 18xx.games games (../shared/fixtures/1830): played move by move
through the service as the bot receives moves (each player acting for their own seat, no
programmed actions) they end exactly as `railchat replay` says; imported as files they replay
whole, survive a restart, export back and open from Discord's /game import."""

from __future__ import annotations

import copy
import io as text_io
import json
from contextlib import redirect_stdout
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import cli
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests.discord_world import make_world, posts
from tests.reference_games import game_files, game_ids, require_games

FIXTURES = game_files("1830")


def replay_result(path: Path) -> dict[str, int]:
    """What `railchat replay FILE --json` prints as the result."""
    out = text_io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["replay", str(path), "--json"]) == 0
    return json.loads(out.getvalue().splitlines()[-1])["result"]


def moves_as_players_make_them(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The file's effective moves one by one: programmed (auto) actions become the moves they
    made, since railchat players act themselves; chat messages are left out."""
    steps = []
    for _, action in io.effective_actions(data["actions"]):
        if action["type"] == "message":
            continue
        if not action["type"].startswith("program_"):
            steps.append(
                {
                    k: v
                    for k, v in action.items()
                    if k not in ("auto_actions", "id", "created_at", "user")
                }
            )
        steps += [
            {k: v for k, v in auto.items() if k not in ("created_at",)}
            for auto in action.get("auto_actions") or []
            if not auto["type"].startswith("program_")
        ]
    return steps


@pytest.mark.parametrize("path", FIXTURES or [None], ids=game_ids("1830"))
async def test_a_fixture_played_through_the_service_ends_as_railchat_replay(path, db_path):
    require_games("1830")
    data = io.read_file(path)
    seed = int(data["settings"]["seed"])
    service = GameService(Store(db_path), new_seed=lambda: seed)
    users = [Caller(100 + i, p["name"]) for i, p in enumerate(data["players"])]
    options = {rule: True for rule in data["settings"].get("optional_rules") or []}
    gid = (await service.create_game(users[0], "1830", seats=len(users), options=options)).game_id
    for user in users[1:]:
        assert (await service.join(gid, user)).ok
    assert (await service.start(gid, users[0])).ok
    seat_of = {p["id"]: n for n, p in enumerate(data["players"], start=1)}
    for step, action in enumerate(moves_as_players_make_them(data)):
        if action.get("entity_type") == "player":
            action["entity"] = seat_of[action["entity"]]
            who = users[action["entity"] - 1]
        else:  # a company's move is made by whoever must act for it: its president
            who = users[(await service.prompt(gid, choices=False)).notify[0] - 100]
        result = await service.act(gid, who, action)
        assert result.ok, (step, action, result.error)
    final = await GameService(Store(db_path)).status(gid)  # rebuilt from the stored log
    expected = replay_result(path)
    names = {str(p["id"]): p["name"] for p in data["players"]}
    ranked = sorted(expected.items(), key=lambda kv: -kv[1])
    shown = ", ".join(f"{names[k]} ${v:,}" for k, v in ranked)  # 1830's money
    assert final.text.endswith(f"Result: {shown}")
    assert (await service.store.game(gid)).status == "finished"
    assert expected == data["result"]


@pytest.mark.parametrize("path", FIXTURES or [None], ids=game_ids("1830"))
async def test_an_imported_file_replays_restarts_and_exports(path, db_path):
    require_games("1830")
    data = io.read_file(path)
    service = GameService(Store(db_path))
    imported = await service.import_game(Caller(1, "Mod"), data, [11, None], offer=False)
    assert imported.ok, imported.error
    gid = imported.game_id
    seats = await service.store.seats(gid)
    assert [(s.user_id, s.player_id) for s in seats] == (
        [(11, data["players"][0]["id"]), (-2, data["players"][1]["id"])]
        + [(-(n + 1), p["id"]) for n, p in enumerate(data["players"]) if n >= 2]
    )
    restarted = GameService(Store(db_path))
    status = await restarted.status(gid)
    assert status.ok and "Result: " in status.text
    exported = await restarted.export(gid)
    [(name, payload)] = exported.files
    assert name == f"railchat-{gid}-1830.json"
    again = io.load(json.loads(payload)).game
    assert {str(k): v for k, v in again.result().items()} == data["result"] == replay_result(path)


async def test_import_refusals(db_path):
    files = require_games("1830")
    service = GameService(Store(db_path))
    data = io.read_file(files[0])
    assert (await service.import_game(Caller(1, "Mod"), {"actions": []})).error == (
        "that is not an 18xx.games game file (it needs 'players' and 'actions')"
    )
    broken = copy.deepcopy(data)
    broken["actions"].insert(
        3,
        {
            "type": "lay_tile",
            "entity": "PRR",
            "entity_type": "corporation",
            "hex": "H10",
            "tile": "57-0",
            "rotation": 0,
            "id": 99999,
        },
    )
    refused = await service.import_game(Caller(1, "Mod"), broken)
    assert refused.error.startswith("the file does not replay: action #3 (id 99999, lay_tile)")
    too_many = await service.import_game(Caller(1, "Mod"), data, [1, 2, 3, 4, 5, 6, 7])
    assert too_many.error == (f"the file has {len(data['players'])} players but 7 users were given")
    twice = await service.import_game(Caller(1, "Mod"), data, [5, 5])
    assert twice.error == "each user can take only one seat"
    assert await service.store.games() == []


def _attachment(data: dict[str, Any], name: str = "game.json"):
    raw = json.dumps(data).encode()

    async def read() -> bytes:
        return raw

    return SimpleNamespace(filename=name, size=len(raw), read=read)


async def test_discord_import_opens_a_playable_thread_and_exports(db_path):
    files = require_games("1830")
    data = io.read_file(files[0])
    upto = 60  # stop early so the game is still in play
    partial = {**data, "actions": data["actions"][:upto]}
    world = await make_world(db_path)
    sent = await world.run(
        "import", world.interaction(1), file=_attachment(partial), players="<@11> - <@13>"
    )
    assert sent[-1].text.startswith("Game #1 is open in <#")
    thread = list(world.threads.values())[-1]
    offered, post = posts(thread)
    assert offered.pinged == [11, 13] and offered.text.startswith("<@11> <@13>: a seat")
    assert [label for _, label in offered.buttons] == ["Take the seat", "Decline"] * 2
    assert post.text.startswith("user1 imported a 1830 game as game #1 (")
    assert "Seats: 1. Player 1 (unclaimed), 2. Player 2 (unclaimed), 3. Player 3 (unclaimed)." \
        in post.text  # fmt: skip
    assert post.pinged == []  # nobody is seated yet, so nobody is pinged to act
    # a phone's image; the full map, market and sheet one tap away
    assert sorted(post.files) == ["market_compact.png"]
    assert [label for cid, label in post.buttons if cid.startswith("rc:v:")] == [
        "Map",
        "Market",
        "Sheet",
    ]
    service = world.bot.service
    assert [s.user_id for s in await service.store.seats(1)] == [-1, -2, -3]  # none agreed yet
    take_1, _, take_3, _ = (cid for cid, _ in offered.buttons)
    refused = await world.press(take_3, world.interaction(11, where=thread.id))
    assert refused[-1].text == "Refused: this seat is offered to someone else; only they can answer"
    for button, user in ((take_1, 11), (take_3, 13)):
        taken = await world.press(button, world.interaction(user, where=thread.id))
        assert taken[-1].text.startswith(f"Done: user{user} took seat"), taken
    thread.add_user.assert_awaited()  # those who took a seat follow the thread
    replaced = await world.run(
        "replace",
        world.interaction(1, where=thread.id),
        seat=2,
        user=SimpleNamespace(id=12, display_name="user12"),
        game=None,
    )
    assert replaced[-1].text.startswith("Done: user1 offers seat 2 (Player 2) of game #1 to user12")
    [offer] = await service.store.open_invitations(1)
    joined = await world.run("join", world.interaction(12, where=thread.id), game=None)
    assert joined[-1].text.startswith("Done: user12 took seat 2")
    assert [s.user_id for s in await service.store.seats(1)] == [11, 12, 13]
    prompt = await service.prompt(1)
    assert prompt.names == ("user13",) and prompt.notify == (13,)  # seats take their names
    exported = await world.run("export", world.interaction(9, where=thread.id), game=None)
    assert exported[-1].files == ["railchat-1-1830.json"] and exported[-1].ephemeral
    bad = await world.run(
        "import", world.interaction(1), file=_attachment(partial), players="@someone"
    )
    assert bad[-1].text == (
        "Refused: game.json is not usable: players lists @mentions (or user "
        "ids) or - for each seat, not '@someone'"
    )
    not_json = SimpleNamespace(filename="x.json", size=3, read=_bytes(b"{x}"))
    bad = await world.run("import", world.interaction(1), file=not_json, players=None)
    assert bad[-1].text.startswith(
        "Refused: x.json is not usable: the file is not valid JSON: Expecting property name"
    )
    assert len(world.threads) == 1


def _bytes(raw: bytes):
    async def read() -> bytes:
        return raw

    return read


def test_railchat_export_writes_the_game(db_path, tmp_path, capsys):
    files = require_games("1830")
    import asyncio

    store = Store(db_path)
    result = asyncio.run(GameService(store).import_game(Caller(1, "Mod"), io.read_file(files[-1])))
    store.close()
    out = tmp_path / "out.json"
    assert cli.main(["export", str(result.game_id), "--db", str(db_path), "--out", str(out)]) == 0
    exported = json.loads(out.read_text())
    assert exported["title"] == "1830" and exported["result"] == io.read_file(files[-1])["result"]
    assert cli.main(["export", "99", "--db", str(db_path)]) == 1
    assert "railchat: there is no game #99" in capsys.readouterr().err
    assert cli.main(["export", "1", "--db", str(tmp_path / "none.db")]) == 1
    assert f"there is no database {tmp_path / 'none.db'}" in capsys.readouterr().err
