"""Malformed or oversized game files: one clear line each, from the service, Discord's /game
import and `railchat replay`; nothing is created for them (no game row, no thread)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests.discord_world import make_world
from tests.reference_games import game_path

ROOT = Path(__file__).resolve().parents[1]
GOOD = {
    "title": "1830",
    "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}],
    "settings": {"seed": 3},
    "actions": [],
}


def shaped(**changes) -> dict:
    return {**GOOD, **changes}


MALFORMED = [
    (shaped(settings="x"), "the file's settings are not an object"),
    (shaped(settings={"seed": "abc"}), "the file's seed is 'abc', not a whole number from 0"),
    (
        shaped(settings={"seed": 10**60}),
        "the file.settings.seed is 10000000000000000000…: numbers must lie within "
        "±9,223,372,036,854,775,807",
    ),
    (
        shaped(settings={"seed": float("inf")}),
        "the file.settings.seed is inf: numbers must lie within ±9,223,372,036,854,775,807",
    ),
    (
        shaped(settings={"seed": 1, "optional_rules": [{}]}),
        "the file's optional_rules are not a list of names",
    ),
    (shaped(actions=[1, "x", None]), "action #0 of the file is not an object with a 'type'"),
    (
        shaped(actions=[{"type": "pass", "auto_actions": "x"}]),
        "action #0's auto_actions are not objects with a 'type'",
    ),
    (shaped(players=[{"id": 1}, {"id": 1}]), "the file seats player id 1 more than once"),
    (shaped(players=[{"id": True}]), "player 1 of the file has no id (a number or a text)"),
    (shaped(players=[]), "the file has no players"),
    (
        shaped(players=[{"id": 1, "name": "x" * 1_000_000}, {"id": 2}]),
        "the file.players[0].name is 1,000,000 characters long; at most 10000 are allowed",
    ),
    (
        shaped(players=[{"id": 1, "name": "x" * 5000}, {"id": 2}]),
        "player 1's name is not a text of at most 100 characters",
    ),
    (
        shaped(actions=[{"type": "pass"}] * 20_001),
        "the file has 20,001 actions; at most 20,000 are read",
    ),
    (shaped(title=["1830"]), "the file's title is not a text"),
    ({"actions": []}, "that is not an 18xx.games game file (it needs 'players' and 'actions')"),
]


@pytest.mark.parametrize("data, error", MALFORMED)
async def test_a_malformed_file_is_refused_in_one_line_and_creates_nothing(db_path, data, error):
    service = GameService(Store(db_path))
    result = await service.import_game(Caller(1, "Mod"), data)
    assert result.error == error and "\n" not in result.error
    assert await service.store.games() == []


@pytest.mark.parametrize(
    "raw, error",
    [
        (
            '{"players": [{"id": 1}], "actions": [' + "[" * 100_000 + "]" * 100_000 + "]}",
            "nested more than 12 levels deep",
        ),
        (
            "{x}",
            "the file is not valid JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
        (b"\xff\xfe", "the file is not valid JSON"),
        ("1" * 5000, "the file is not valid JSON: Exceeds the limit (4300 digits)"),
        (
            " " * (io.MAX_FILE_BYTES + 1),
            "the file is 10,485,761 bytes; game files of at most 10,485,760 bytes are read",
        ),
    ],
)
def test_raw_file_text_is_checked_before_it_is_read(raw, error):
    with pytest.raises(io.InvalidAction) as refused:
        io.parse(raw)
    assert error in str(refused.value) and "\n" not in str(refused.value)


async def test_a_failed_discord_import_leaves_no_thread(db_path):
    world = await make_world(db_path)
    for data in (shaped(players=[{"id": 1}, {"id": 1}]), shaped(settings="x")):
        raw = json.dumps(data).encode()

        async def read(raw=raw) -> bytes:
            return raw

        attachment = SimpleNamespace(filename="g.json", size=len(raw), read=read)
        sent = await world.run("import", world.interaction(1), file=attachment, players=None)
        assert sent[-1].text.startswith("Refused: g.json is not usable: the file")
    assert world.threads == {} and await world.bot.service.store.games() == []
    # a file that is well formed but does not replay: refused before a thread is made
    data = json.loads(game_path("1830", "26855").read_text())
    data["actions"].insert(
        2,
        {
            "type": "par",
            "entity": 1627,
            "entity_type": "player",
            "corporation": "PRR",
            "share_price": "67,0,6",
        },
    )
    raw = json.dumps(data).encode()

    async def read_bad() -> bytes:
        return raw

    attachment = SimpleNamespace(filename="g.json", size=len(raw), read=read_bad)
    sent = await world.run("import", world.interaction(1), file=attachment, players=None)
    assert sent[-1].text.startswith("Refused: the file does not replay: action #2")
    assert world.threads == {}  # checked whole before any thread is made
    assert await world.bot.service.store.games() == []


@pytest.mark.parametrize(
    "content",
    ['{"players": [{"id": 1}, {"id": 1}], "actions": []}', "[" * 100_000, '{"title": "1830"'],
)
def test_railchat_replay_prints_one_line_never_a_traceback(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith(f"railchat: {path}: ") and done.stderr.count("\n") == 1
