"""Computer players in 1830 and 1860: a whole game through the service with computer seats, a
listed move with a reason from every level at every position of a random game, and the
standard level's rules of thumb where they apply (money kept for trains, no deals proposed)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.arena_game import play_game
from bot.computer import g1830_standard, g1860_standard
from bot.computer.eighteen_reading import saving_for, train_reserve
from bot.computer.eighteen_stock import money_kept
from bot.computer.levels import LEVELS, Computer
from bot.core.fuzz.picking import pick_move
from engine.eighteen.entities import Corporation
from engine.eighteen.game import EighteenGame
from engine.game import Choice, PlayerId, PlayerInfo
from engine.titles import create_game

TITLES = ("1830", "1860")
STOCK = {"1830": g1830_standard.STOCK, "1860": g1860_standard.STOCK}
OPERATING = {"1830": g1830_standard.OPERATING, "1860": g1860_standard.OPERATING}


def _positions(
    title: str, players: int, seed: int, moves: int
) -> Iterator[tuple[EighteenGame, PlayerId, list[Choice]]]:
    """The positions of a game played by the fuzzer's careful random player (its first
    `moves`): the game, a player who must act and that player's legal moves (the game must
    not be changed)."""
    game = create_game(title, [PlayerInfo(i + 1, f"P{i + 1}") for i in range(players)], {}, seed)
    assert isinstance(game, EighteenGame)
    rng = random.Random(seed)
    while not game.finished and len(game.actions) < moves:
        player = game.active_players()[0]
        choices = game.legal_actions(player)
        yield game, player, choices
        move = pick_move(rng, choices, careful=True).action
        game.process(move, player)


@pytest.mark.parametrize("title", TITLES)
def test_a_whole_game_through_the_service(title: str, tmp_path: Path) -> None:
    """Two seats, standard against random, to the end by the rules; the file is written."""
    report = asyncio.run(
        play_game(title, ["standard", "random"], 4, save_dir=tmp_path, db_dir=tmp_path)
    )
    assert report.end in ("bank", "bankrupt", "stock_market", "nationalization"), report.end
    assert report.file and Path(report.file).is_file()
    assert all(s.move_cpu and not s.fallbacks for s in report.seats)
    assert report.seats[0].rank == 1  # standard beats random


@pytest.mark.parametrize("title, players, seed", [("1830", 4, 3), ("1860", 3, 5)])
def test_every_level_picks_a_listed_move_with_a_reason(title: str, players: int, seed: int) -> None:
    checked = 0
    for n, (game, player, choices) in enumerate(_positions(title, players, seed, 1200)):
        if n % 5:
            continue
        for level in LEVELS:
            decision = Computer(level, player, seed).decide(game, choices)
            assert any(decision.choice is c for c in choices), (level, decision)
            assert decision.why
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("title", TITLES)
def test_the_view_of_an_open_game_is_the_game(title: str) -> None:
    """18xx hides nothing: a computer judges moves on the game itself (and only tries them)."""
    game = create_game(title, [PlayerInfo(1, "A"), PlayerInfo(2, "B")], {}, 1)
    assert game.player_view() is game


def _acting(game: EighteenGame, choices: list[Choice]) -> Corporation | None:
    entity = game.resolve_entity(choices[0].action) if choices else None
    return entity if isinstance(entity, Corporation) else None


@pytest.mark.parametrize("title, seed", [("1830", 8), ("1860", 9)])
def test_standard_rules_of_thumb(title: str, seed: int) -> None:
    """Along a random game: a dividend is withheld exactly when the treasury lacks its next
    train's money (the end not near, the train not one held back), a stock purchase never
    spends what our companies may need for trains, and no move asks another player to accept
    a deal."""
    seen = {"withhold": 0, "payout": 0, "buy": 0, "deal offered": 0}
    for game, player, choices in _positions(title, 4, seed, 900):
        kinds = {c.action["type"] for c in choices}
        deals = any(game.counterparty(c.action) not in (None, player) for c in choices)
        if not deals and not kinds & {"dividend", "buy_shares"}:
            continue
        seen["deal offered"] += deals
        decision = Computer("standard", player, 1).decide(game, choices)
        action = decision.choice.action
        assert game.counterparty(action) in (None, player)
        corp = _acting(game, choices)
        if action["type"] == "dividend" and corp is not None and "bank" not in decision.why:
            held_back = saving_for(game, corp) in OPERATING[title].held_back
            short = corp.cash < train_reserve(game, corp) and not held_back
            assert (action["kind"] == "withhold") == short, decision.why
            seen[action["kind"]] += 1
        if action["type"] == "buy_shares" and game.resolve_entity(action).id == player:
            me = game.player(player)
            before = me.cash
            spent = game.try_out(action, player, lambda _g, _a: before - game.player(player).cash)
            assert before - spent >= money_kept(game, me, STOCK[title]), decision.why
            seen["buy"] += 1
    assert all(seen.values()), seen
