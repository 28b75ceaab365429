"""`railchat arena`: whole games between computer levels through the service, its report and
the game files it saves; refusals of a malformed seating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.arena import rotated


def test_arena_reports_each_level_and_saves_each_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "arena",
            "--title",
            "string_railway",
            "--games",
            "3",
            "--seats",
            "standard,random,random",
            "--seed",
            "4",
            "--jobs",
            "2",
            "--save",
            str(tmp_path),
            "-v",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "string_railway: 3 games, seats standard,random,random" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line}
    assert {"standard", "random"} <= set(lines)
    assert lines["standard"][1] == "3" and lines["random"][1] == "6"  # seats played
    games = [line for line in out.splitlines() if line.startswith("game seed")]
    assert "game ends: end 3" in out and len(games) == 3
    slowest = next(line for line in out.splitlines() if line.startswith("slowest standard"))
    seed = int(slowest.rsplit(" ", 1)[1])  # the game it names, played again alone: the same
    assert any(line.startswith(f"game seed {seed}:") for line in games)
    again = ["arena", "--title", "string_railway", "--games", "3", "--seed", "4", "-v"]
    again += ["--seats", "standard,random,random", "--only", str(seed)]
    assert main(again) == 0
    alone = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game seed")]
    assert alone == [line for line in games if line.startswith(f"game seed {seed}:")]
    files = sorted(tmp_path.glob("arena-string_railway-*.json"))
    assert len(files) == 3
    data = json.loads(files[0].read_text())
    assert data["title"] == "string_railway" and data["actions"] and data["result"]


def test_seats_rotate_from_game_to_game() -> None:
    seats = ["standard", "random", "random", "random"]
    assert [rotated(seats, i).index("standard") for i in range(5)] == [0, 3, 2, 1, 0]


@pytest.mark.parametrize(
    "seats, why",
    [
        ("standard,clever", "unknown computer level 'clever'"),
        ("standard", "seats 2 to 5, not 1"),
    ],
)
def test_a_bad_seating_is_refused(seats: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--title", "string_railway", "--seats", seats]) == 2
    assert why in capsys.readouterr().err


def test_options_the_seats_do_not_fit_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--title", "1860", "--options", "two_player_map"]) == 2
    assert "two_player_map is made for 2 to 3 players, not 4" in capsys.readouterr().err
    assert main(["arena", "--title", "1860", "--options", "fast"]) == 2
    assert "unknown option(s) for 1860: fast" in capsys.readouterr().err


def test_seats_default_to_standard_against_random(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--title", "string_railway", "--games", "1", "--seed", "2"]) == 0
    assert "string_railway: 1 games, seats standard,random,random,random" in capsys.readouterr().out
