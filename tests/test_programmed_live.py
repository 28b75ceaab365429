"""Programmed moves made by railchat are 18xx.games', move for move.

The games in ../shared/fixtures/programmed (and the ones kept in tests/data/fixtures/programmed)
were played through the 18xx.games engine in live mode: players set and cleared programs at
random moments and every `auto_actions` list was made by that engine. The kept ones come from
the same generator (../shared/oracle/randgame_prog.rb, states by dump.rb): 1830 with 6 players,
seed 9105 (an undo between a program and the sale that stops it), with 2 players, 9101; 1860
with 3 players, 9202 (a private bought from the bank stops a program), and with 2 players on
the two-player map re-entering hexes, 9208. Played again through the
service with those lists dropped (`railchat replay --live`), railchat must make the same
programmed moves after the same actions, with the same disarm reasons, and reach the same state
after every action; the file it writes must replay (its auto_actions applied as recorded) to
those states too.
"""

from __future__ import annotations

import io as text_io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.cli.replay_live import replay_live
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from engine.eighteen.states import public_state
from tests.reference_games import (
    COMPARED,
    first_divergence,
    game_files,
    game_ids,
    reference_states,
    require_games,
    state_differences,
)

GAMES = game_files("programmed")
IDS = game_ids("programmed")
NOT_COMPARED = ("id", "created_at", "user")  # 18xx.games' bookkeeping, renumbered or absent


def _fields(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in NOT_COMPARED and k != "auto_actions"}


def _autos(action: dict[str, Any]) -> list[dict[str, Any]]:
    return [_fields(a) for a in action.get("auto_actions") or []]


def _moves(data: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The file's effective actions (chat lines left out), with their index in the file."""
    return [(i, a) for i, a in io.effective_actions(data["actions"]) if a["type"] != "message"]


def test_the_reference_games_are_there() -> None:
    assert game_files("programmed"), "tests/data/fixtures/programmed lost its games"


@pytest.mark.parametrize("path", GAMES or [None], ids=IDS)
def test_imported_it_replays_state_by_state(path: Path | None) -> None:
    require_games("programmed")
    assert path is not None
    matched, problem = first_divergence(path)
    assert problem is None, f"{path.name}: {matched} states match, then {problem}"


@pytest.mark.parametrize("path", GAMES or [None], ids=IDS)
async def test_played_live_railchat_makes_the_same_programmed_moves(path: Path | None) -> None:
    require_games("programmed")
    assert path is not None
    data = json.loads(path.read_text())
    played = await replay_live(data)
    ours = played.exported["actions"]
    theirs = _moves(data)
    assert len(ours) == len(theirs)
    for (index, reference), action in zip(theirs, ours):
        where = f"{path.name}: action index {index} (id {reference.get('id')})"
        assert _fields(action) == _fields(reference), where
        assert _autos(action) == _autos(reference), where
    assert played.summary["result"] == data["result"]
    assert played.summary["game_end_reason"] == data["game_end_reason"]
    # the file railchat wrote replays, its auto_actions applied, to the reference's states
    ref = {line["idx"]: line for line in reference_states(path)}
    seen: list[tuple[int, dict[str, Any]]] = []
    io.load(played.exported, on_state=lambda n, _a, g: seen.append((n, public_state(g))))
    assert len(seen) == len(theirs)
    for (index, _), (_, state) in zip(theirs, seen):
        diffs = [d for k in COMPARED for d in state_differences(state[k], ref[index][k], k)]
        assert not diffs, f"{path.name}: after action index {index}: {diffs[:5]}"


def test_railchat_replay_live_writes_the_game(tmp_path: Path) -> None:
    path = min(require_games("programmed"), key=lambda p: p.stat().st_size)
    out = tmp_path / "live.json"
    printed = text_io.StringIO()
    with redirect_stdout(printed):
        assert cli.main(["replay", "--live", str(path), "--out", str(out)]) == 0
    line = json.loads(printed.getvalue().splitlines()[-1])
    data = json.loads(path.read_text())
    assert line == {
        "title": data["title"],
        "result": data["result"],
        "game_end_reason": data["game_end_reason"],
        "actions": len(_moves(data)),
    }
    written = json.loads(out.read_text())
    assert [_autos(a) for a in written["actions"]] == [_autos(a) for _, a in _moves(data)]


# -- programs sent through the service ---------------------------------------------------------
async def test_a_program_is_set_off_turn_and_bad_ones_change_nothing(db_path: Path) -> None:
    service = GameService(Store(db_path), new_seed=lambda: 1)
    ann, bob, cy = Caller(1, "Ann"), Caller(2, "Bob"), Caller(3, "Cy")
    gid = (await service.create_game(ann, "1830", seats=3)).game_id
    assert gid is not None
    for caller in (bob, cy):
        assert (await service.join(gid, caller)).ok
    assert (await service.start(gid, ann)).ok
    assert (await service.prompt(gid, choices=False)).notify == (1,)  # Ann bids first
    refusals = {
        'program_buy_shares needs an until_condition: "float" (until the company floats) '
        "or a number of shares from 1, not 0": {
            "type": "program_buy_shares",
            "corporation": "PRR",
            "until_condition": 0,
        },
        "unknown corporation 'XYZ' (known: PRR, NYC, CPR, B&O, C&O, ERIE, NYNH, B&M)": {
            "type": "program_buy_shares",
            "corporation": "XYZ",
            "until_condition": "float",
        },
        "Bob has no programmed move to stop": {"type": "program_disable"},
        "unknown action type 'program_close_pass'; moves are: bankrupt, bid, buy_company, "
        "buy_shares, buy_train, discard_train, dividend, lay_tile, par, pass, place_token, "
        "program_buy_shares, program_disable, program_share_pass, run_routes, sell_shares": {
            "type": "program_close_pass"
        },
        "program_share_pass's unconditional is true or false, not 'yes'": {
            "type": "program_share_pass",
            "unconditional": "yes",
        },
        "a program_share_pass move has no until_condition (its fields: indefinite, "
        "unconditional)": {"type": "program_share_pass", "until_condition": "float"},
        "you can only act for your own seat": {
            "type": "program_share_pass",
            "entity": 1,
            "entity_type": "player",
        },
    }
    version = await service.store.version(gid)
    for reason, action in refusals.items():
        assert (await service.act(gid, bob, action)).error == reason, action
    assert await service.store.version(gid) == version  # nothing was stored
    done = await service.act(gid, bob, {"type": "program_share_pass", "indefinite": True})
    assert done.ok, done.error
    assert done.text.startswith(
        "Bob programs a move: pass in every stock round until another player's move changes things."
    )
    assert (await service.store.actions(gid))[-1].payload == {
        "type": "program_share_pass",
        "indefinite": True,
        "entity": 2,
        "entity_type": "player",
    }
    stopped = await service.act(gid, bob, {"type": "program_disable", "reason": "user"})
    assert stopped.text.startswith("Bob stops their programmed moves.")
    assert (await service.prompt(gid, choices=False)).notify == (1,)  # still Ann's turn
