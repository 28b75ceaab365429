"""The fuzz harness (bot/core/fuzz, `railchat fuzz`): a small CI budget of 20 short games per
18xx title and 20 complete String Railway games through the service, and proof that each of its checks can
fail."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.fuzz import game_seeds
from bot.core.fuzz import eighteen
from bot.core.fuzz.invariants import Invariants, contract_problems, public_state
from bot.core.fuzz.mirror import ExportMirror
from bot.core.fuzz.player import fuzz_game, program_counts
from bot.core.service import GameService
from engine.eighteen import io as game_files
from engine.game import PlayerInfo
from engine.titles import create_game


def _game():
    return create_game("1830", [PlayerInfo(i, f"P{i}") for i in (1, 2, 3, 4)], {}, 3)


# CI's budget per 18xx title: 20 games of 120 moves each (the auction, the first stock rounds
# and operating rounds), every seat count the title allows. Whole games and long runs: docs/testing.md.
EIGHTEEN_BUDGET = [
    (title, 2 + i % seats, s)
    for title, seats, run in (("1830", 5, 15), ("1860", 3, 18))
    for i, s in enumerate(game_seeds(run, 20))
]


@pytest.mark.parametrize("title, players, seed", EIGHTEEN_BUDGET)
def test_fuzzed_18xx_games_keep_every_invariant(
    title: str, players: int, seed: int, tmp_path: Path
) -> None:
    report = asyncio.run(
        fuzz_game(title, players, seed, max_actions=120, replay_every=60, out_dir=tmp_path)
    )
    assert report.failure is None, report.file
    assert report.actions >= 120 and report.illegal > 0 and report.replays >= 2


@pytest.mark.parametrize(
    "seed, players", [(s, 2 + i % 4) for i, s in enumerate(game_seeds(16, 20))]
)
def test_complete_string_railway_games_keep_every_invariant(
    seed: int, players: int, tmp_path: Path
) -> None:
    """String Railway's CI budget: 20 whole games, 2 to 5 players (long runs: docs/testing.md)."""
    report = asyncio.run(
        fuzz_game("string_railway", players, seed, replay_every=20, out_dir=tmp_path)
    )
    assert report.failure is None, report.file
    assert report.finished and report.illegal > 0 and report.replays >= 2


def test_a_seed_plays_the_same_game_again(tmp_path: Path) -> None:
    first, again = (
        asyncio.run(fuzz_game("1830", 3, 77, max_actions=15, out_dir=tmp_path)) for _ in range(2)
    )
    assert first == again


def test_a_failure_writes_a_game_file_that_replays(tmp_path: Path, monkeypatch) -> None:
    calls = []

    def broken(self, game, legal):
        calls.append(1)
        return ["planted problem"] if len(calls) == 6 else []

    monkeypatch.setattr(Invariants, "problems", broken)
    report = asyncio.run(fuzz_game("1830", 4, 5, max_actions=50, out_dir=tmp_path))
    assert report.failure and "planted problem" in report.failure
    data = json.loads(Path(report.file).read_text())
    about = data["railchat_fuzz"]
    assert about["seed"] == 5 and "planted problem" in about["failure"]
    game = create_game(
        "1830",
        [PlayerInfo(p["id"], p["name"]) for p in data["players"]],
        {},
        data["settings"]["seed"],
    )
    for action in data["actions"]:
        game.process(action)
    assert len(game.actions) == len(data["actions"]) >= 4


def test_a_refused_move_that_changes_the_position_is_a_failure(tmp_path: Path, monkeypatch) -> None:
    real = GameService.act

    async def leaky(self, game_id, caller, action, interaction_id=None):
        result = await real(self, game_id, caller, action, interaction_id)
        if result.error:  # refused, yet the live game lost a dollar of the bank's
            self._cache[game_id][1].bank.cash -= 1
        return result

    monkeypatch.setattr(GameService, "act", leaky)
    report = asyncio.run(fuzz_game("1830", 3, 9, max_actions=60, out_dir=tmp_path))
    assert report.failure and report.failure.startswith(
        "one of these refused moves changed the position: "
    ), report.failure


def test_the_18xx_checks_see_money_shares_and_trains_go_wrong() -> None:
    game = _game()
    money = eighteen._money(game)
    assert eighteen.problems(game, money) == []
    game.bank.cash -= 5
    assert any("money is not conserved" in p for p in eighteen.problems(game, money))
    game.bank.cash += 5
    prr = game.corporation("PRR")
    share = prr.shares[-1]
    game.player_list[0].shares.append(share)  # one certificate in two hands
    found = eighteen.problems(game, money)
    assert any("PRR_" in p and "2 holders" in p for p in found)
    assert any("PRR's shares add up to 110%" in p for p in found)
    assert any(p.endswith("is counted with 0% of PRR but holds 10%") for p in found)
    game.player_list[0].shares.remove(share)
    train = game.depot.upcoming[0]
    prr.trains.append(train)  # in the depot and in PRR's hands
    assert any(train.id in p for p in eighteen.problems(game, money))


def test_the_export_mirror_follows_the_game_and_sees_a_file_that_replays_otherwise(
    monkeypatch,
) -> None:
    game = _game()
    mirror = ExportMirror()
    for _ in range(6):
        game.process(game.legal_actions(game.active_players()[0])[0].action)
        assert mirror.problems(game, public_state(game)) == []
    assert mirror.copy is not None and len(mirror.copy.actions) == 6
    copy = mirror.copy
    game.rewind_to(4)  # an undo of two moves: the copy follows it back, without a rebuild
    mirror.forget()
    assert mirror.problems(game, public_state(game)) == [] and mirror.copy is copy
    assert len(copy.actions) == 4
    game.process(game.legal_actions(game.active_players()[0])[0].action)
    game.process(game.legal_actions(game.active_players()[0])[0].action)
    for _ in range(4):  # two pars, a pass, a par
        game.process(game.legal_actions(game.active_players()[0])[-2].action)
    real = game_files.exported_action
    monkeypatch.setattr(
        game_files,
        "exported_action",  # a file that loses the par price
        lambda a, n: {k: v for k, v in real(a, n).items() if k != "share_price"},
    )
    found = mirror.problems(game, public_state(game))
    assert found == [
        "the exported game does not replay: action #6 (id 7, par) refused: None "
        "is not a par value; choose one of 100, 90, 82, 76, 71, 67"
    ]
    monkeypatch.setattr(game_files, "exported_action", real)
    assert mirror.problems(game, public_state(game)) == []  # rebuilt from the whole file
    assert mirror.problems(game, public_state(_game())) == [
        "the exported game replays to a different public state"
    ]


def test_the_contract_check_wants_someone_to_act_with_a_move() -> None:
    game = _game()
    active = game.active_players()
    assert contract_problems(game, {p: game.legal_actions(p) for p in active}) == []
    assert contract_problems(game, {}) == [f"player {active[0]} must act but has no legal action"]


def test_fuzz_command(capsys, tmp_path: Path) -> None:
    assert (
        main(
            [
                "fuzz",
                "--title",
                "1830",
                "--games",
                "1",
                "--seed",
                "2",
                "--max-actions",
                "8",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "1830: 1 games (0 finished), 8 moves" in out and "0 failures" in out
    assert main(["fuzz", "--title", "18nope", "--games", "1"]) == 2
    assert "unknown title" in capsys.readouterr().err


def test_fuzz_options_are_checked_and_drawn_per_game(capsys, tmp_path: Path) -> None:
    assert (
        main(["fuzz", "--title", "1860", "--games", "1", "--options", "re_enter_hexes,fast"]) == 2
    )
    assert "1860 has no option fast" in capsys.readouterr().err
    assert (
        main(
            [
                "fuzz",
                "--title",
                "1860",
                "--games",
                "4",
                "--seed",
                "3",
                "--max-actions",
                "4",
                "--players",
                "3",  # the first edition's map (two_player_map) is for 2 or 3
                "--options",
                "two_player_map,re_enter_hexes",
                "--out",
                str(tmp_path),
                "--save",
                str(tmp_path / "saved"),
            ]
        )
        == 0
    )
    files = [json.loads(p.read_text()) for p in (tmp_path / "saved").glob("*.json")]
    drawn = [sorted(f["railchat_fuzz"]["options"]) for f in files]
    assert [sorted(f["settings"]["optional_rules"]) for f in files] == drawn
    assert len({tuple(d) for d in drawn}) > 1  # not every game plays the same options


def test_a_careful_player_s_sales_weigh_as_one_move() -> None:
    """Ten ways to sell and Pass, early in a stock round (Pass at a 1% share): a careless
    player nearly always sells, a careful one passes about 1 / 1.3 of the time."""
    import random

    from bot.core.fuzz.picking import pick_move
    from engine.game import Choice

    legal = [Choice(f"sell {i}", {"type": "sell_shares", "shares": [f"X_{i}"]}) for i in range(10)]
    legal.append(Choice("pass", {"type": "pass"}))
    passes = {
        careful: sum(
            pick_move(random.Random(i), legal, pass_share=0.01, careful=careful).label == "pass"
            for i in range(2000)
        )
        / 2000
        for careful in (False, True)
    }
    assert passes[False] < 0.05 and 0.7 < passes[True] < 0.85


def test_players_set_and_cancel_programs_of_their_own_and_the_game_holds(tmp_path: Path) -> None:
    report = asyncio.run(
        fuzz_game("1830", 4, 3, max_actions=150, out_dir=tmp_path, program_rate=0.15)
    )
    assert report.failure is None, report.failure
    kinds = {k for k in report.programs if not k.startswith(("made:", "stopped:"))}
    assert {"program_share_pass", "program_buy_shares", "railchat_program:away"} <= kinds
    assert report.programs["made:18xx.games"] and report.programs["made:away"]
    assert report.programs["stopped:program_disable"]


def test_program_counts_tell_settings_moves_and_stops_apart() -> None:
    log = [
        {"type": "program_share_pass", "entity": 1},
        {"type": "railchat_program", "program": "auction_pass", "company": "BO", "entity": 2},
        {
            "type": "pass",
            "entity": 3,
            "auto_actions": [
                {"type": "pass", "entity": 1},
                {"type": "pass", "entity": 2, "_house": "auction_pass"},
                {"type": "program_disable", "entity": 1, "reason": "Shares were sold"},
            ],
        },
    ]
    assert program_counts(log) == {
        "program_share_pass": 1,
        "railchat_program:auction_pass+company": 1,
        "made:18xx.games": 1,
        "made:auction_pass": 1,
        "stopped:program_disable": 1,
    }


def test_fuzz_draws_an_option_only_for_the_seats_it_is_made_for(tmp_path: Path) -> None:
    """Four seats never get 1860's first-edition map (made for 2 or 3): no game fails to open."""
    args = ["fuzz", "--title", "1860", "--games", "3", "--seed", "5", "--max-actions", "2"]
    args += ["--options", "two_player_map", "--out", str(tmp_path), "--save", str(tmp_path / "s")]
    assert main(args) == 0
    files = [json.loads(p.read_text()) for p in (tmp_path / "s").glob("*.json")]
    assert files and all(not f["railchat_fuzz"]["options"] for f in files)
