"""Computer players in String Railway: whole games through the service, a legal move at every
position for every level, the standard level's reroll, and proof that no decision depends on
what the players cannot see (the undrawn stations, the seed)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.cli.arena_game import play_game
from bot.computer.levels import LEVELS, Computer
from bot.core.fuzz.picking import pick_move
from engine.game import PlayerInfo
from engine.strings.game import StringRailway
from engine.titles import create_game


def _game(players: int = 3, seed: int = 5, **options: object) -> StringRailway:
    game = create_game(
        "string_railway", [PlayerInfo(i + 1, f"P{i + 1}") for i in range(players)], options, seed
    )
    assert isinstance(game, StringRailway)
    return game


def test_whole_games_through_the_service(tmp_path: Path) -> None:
    """Two and four seats (two seats: each person runs two companies), every level, to the
    end; the game file is written."""
    for levels in (["standard", "random"], ["random", "standard", "standard", "random"]):
        report = asyncio.run(
            play_game("string_railway", levels, 11, save_dir=tmp_path, db_dir=tmp_path)
        )
        assert report.end == "end", report.end
        assert report.moves > 20 and report.file and Path(report.file).is_file()
        assert all(s.move_cpu and not s.fallbacks for s in report.seats)
        assert {s.rank for s in report.seats} >= {1}


def test_every_level_makes_a_legal_move_at_every_position() -> None:
    """A random game; at each position each level's move (a listed one, or a hint's bent rail)
    is accepted by the engine, with a reason."""
    for players, seed in ((2, 1), (5, 2)):
        game = _game(players, seed)
        rng = random.Random(seed)
        while not game.finished:
            for player in game.active_players():
                choices = game.legal_actions(player)
                for level in LEVELS:
                    decision = Computer(level, player, seed).decide(game, choices)
                    assert decision.why
                    assert game.is_legal(decision.choice.action), (level, decision)
            player = game.active_players()[0]
            game.process(pick_move(rng, game.legal_actions(player)).action, player)


def test_the_view_leaves_out_the_undrawn_stations_and_the_seed() -> None:
    game = _game(4, 9, station_order=["central"] * 40)
    view = game.player_view()
    assert view is not game and view.seed == 0
    assert view.order == game.order[: game.deck_pos] and len(game.order) > game.deck_pos
    assert "station_order" not in view.options and "station_order" in game.options
    assert view.snapshot() == game.snapshot()  # everything a player sees is there


def _twins() -> tuple[StringRailway, StringRailway]:
    """Two games alike in all a player sees: the same table (river and mountain given), the
    same first stations drawn; different seeds and different stations still to come."""
    first = _game(4, 101)
    table = {"river": first.board.river, "mountain": first.board.mountain[:-1]}
    drawn = first.order[:12]
    rest = [k for k in first.order[12:]]
    a = _game(4, 202, station_order=drawn + rest, **table)
    b = _game(4, 303, station_order=drawn + rest[::-1], **table)
    assert a.order[12:] != b.order[12:]
    return a, b


def test_no_decision_changes_when_only_hidden_information_changes() -> None:
    """Both levels, every seat, move after move while the twins' drawn stations agree: the same
    moves, made on both games, and the same reasons."""
    a, b = _twins()
    compared = 0
    while not a.finished and a.deck_pos <= 12 and b.deck_pos <= 12:
        assert a.snapshot() == b.snapshot()
        for player in a.active_players():
            for level in LEVELS:
                seat = Computer(level, player, 7)
                one = seat.decide(a, a.legal_actions(player))
                two = seat.decide(b, b.legal_actions(player))
                assert (one.choice.action, one.why) == (two.choice.action, two.why)
                compared += 1
        player = a.active_players()[0]
        move = Computer("standard", player, 7).decide(a, a.legal_actions(player)).choice.action
        a.process(move, player)
        b.process(move, player)
    assert compared > 15


def test_the_hidden_deck_is_what_the_twins_differ_by() -> None:
    """The comparison above can fail: a strategy that peeked at the deck would see this."""
    a, b = _twins()
    assert a.order != b.order and a.player_view().order == b.player_view().order


def test_the_river_seat_rolls_again_a_river_past_its_base() -> None:
    """Four seats: seat 3 lays the river; one running past its base (B3, top right) is rolled
    again, while the seat has rerolls left; one far from it is kept."""
    near = _game(4, 5, river=[[76, 90], [76, 40]], mountain=[[30, 30], [45, 30], [45, 45]])
    seat = Computer("standard", 3, 1)
    choices = near.legal_actions(3)
    assert seat.volunteers(near, choices)
    assert seat.decide(near, choices).choice.action == {
        "type": "reroll",
        "entity": 3,
        "what": "river",
    }
    far = _game(4, 5, river=[[20, 90], [20, 40]], mountain=[[30, 30], [45, 30], [45, 45]])
    assert not seat.volunteers(far, far.legal_actions(3))
    assert not Computer("random", 3, 1).volunteers(near, choices)
