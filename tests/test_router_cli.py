"""`railchat routes FILE`: one line per run_routes, then a summary."""

from __future__ import annotations

import argparse
import json

from bot.cli import routes as cli_routes
from tests.reference_games import require_games


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="railchat")
    cli_routes.add_parser(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


def test_json_lines_and_summary(capsys) -> None:
    path = {p.stem: p for p in require_games("1830")}["29133"]
    assert run(["routes", str(path), "--json", "--show"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    *checks, summary = lines
    assert len(checks) == 24 and summary["count"] == 24 and summary["summary"] is True
    assert summary["best_above_recorded"] == 0 and summary["best_below_recorded"] == 0
    first = checks[0]
    assert (first["action_id"], first["corporation"], first["recorded"], first["best"]) == (
        96,
        "B&O",
        50,
        50,
    )
    assert first["routes"] == [{"train": "2-0", "stops": "I15-J14", "revenue": 50}]
    assert all(c["best"] == c["recorded"] for c in checks)
    assert summary["max_ms"] >= summary["median_ms"] > 0


def test_readable_output_marks_better_routes(capsys) -> None:
    path = {p.stem: p for p in require_games("1830")}["26855"]
    assert run(["routes", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    marked = [line for line in out if "better routes existed" in line]
    assert [line.split()[0] for line in marked] == ["#296", "#328"]
    assert out[-1].startswith("43 run_routes; best above recorded 2, below 0;")


def test_a_missing_file_is_reported(capsys, tmp_path) -> None:
    assert run(["routes", str(tmp_path / "nope.json")]) == 1
    assert "railchat: cannot read" in capsys.readouterr().err
