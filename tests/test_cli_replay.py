"""`railchat replay` and `railchat states` on the recorded games."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from tests.reference_games import reference_states, require_games


def test_replay_json_line_matches_the_recorded_result(capsys: pytest.CaptureFixture[str]) -> None:
    for path in require_games("1830"):
        data = json.loads(path.read_text())
        assert main(["replay", str(path), "--json"]) == 0
        last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert last["title"] == "1830"
        assert last["result"] == data["result"]
        assert last["game_end_reason"] == data["game_end_reason"]
        assert last["actions"] == len(reference_states(path)) - 1


def test_replay_upto_stops_early(capsys: pytest.CaptureFixture[str]) -> None:
    path = require_games("1830")[0]
    assert main(["replay", str(path), "--upto", "30", "--json"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert 0 < last["actions"] <= 31 and last["game_end_reason"] is None


def test_replay_reports_the_illegal_action(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in require_games("1830") if p.stem == "29133")
    data = json.loads(path.read_text())
    target = next(
        i for i, a in enumerate(data["actions"]) if a["type"] == "lay_tile" and not a.get("skip")
    )
    data["actions"][target]["hex"] = "A1"  # not on the map
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    assert main(["replay", str(broken), "--json"]) == 1
    err = capsys.readouterr().err
    assert f"index {target}" in err and f"id {data['actions'][target]['id']}" in err
    assert "A1" in err


def test_replay_rejects_a_file_that_is_not_a_game(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit, match="not valid JSON"):
        main(["replay", str(bad)])


def test_states_lines_match_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in require_games("1830") if p.stem == "29133")
    assert main(["states", str(path)]) == 0
    ours = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ref = reference_states(path)
    assert len(ours) == len(ref)
    for a, b in zip(ours, ref):
        assert {k: v for k, v in a.items() if k != "step"} == {
            k: v for k, v in b.items() if k != "step"
        }
