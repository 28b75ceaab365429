"""1830 rules that the complete random 18xx.games games reach and real games rarely do, each
checked in a position of one of those games where it decides what happens."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.eighteen import io
from engine.eighteen.game import EighteenGame
from engine.errors import IllegalAction
from tests.reference_games import game_path


def position(name: str, last_index: int) -> tuple[EighteenGame, list[dict[str, Any]]]:
    """The random game `name` just after its action `last_index`, and the file's actions."""
    data = json.loads(game_path("random/1830", name).read_text())
    game = io.load(data, upto=last_index).game
    assert isinstance(game, EighteenGame)
    return game, data["actions"]


def types_for(game: EighteenGame, entity: Any) -> set[str]:
    return set(game.round.actions_for(entity))


def test_turn_stays_open_with_only_pass_while_the_operator_can_still_use_a_private_power() -> None:
    # PRR bought CS during its train step and passed it; CS's free tile on B20 is still unused.
    game, actions = position("1830_3p_r3_s202", 174)
    prr, cs = game.corporation("PRR"), game.company("CS")
    assert game.active_entities() == [prr]
    assert "pass" in types_for(game, prr) and "buy_company" not in types_for(game, prr)
    assert types_for(game, cs) == {"lay_tile"}
    game.process(actions[175])  # CS lays on B20: the power is used up,
    assert game.active_entities() == [game.corporation("B&M")]  # so PRR's turn ends


def test_teleport_lay_only_during_the_owning_corporations_track_step() -> None:
    # ERIE has just bought DH and is in its track step: DH may lay on F16 now...
    game, _ = position("1830_3p_r3_s211", 81)
    dh = game.company("DH")
    assert "lay_tile" in types_for(game, dh)
    # ...but not once ERIE has passed its track step.
    game.process({"type": "pass", "entity": "ERIE", "entity_type": "corporation"})
    assert "lay_tile" not in types_for(game, dh)
    with pytest.raises(IllegalAction):
        game.process(
            {
                "type": "lay_tile",
                "entity": "DH",
                "entity_type": "company",
                "hex": "F16",
                "tile": "57-1",
                "rotation": 4,
            }
        )


def test_teleport_station_is_the_corporations_next_token_free_and_its_token_of_the_turn() -> None:
    game, actions = position("1830_3p_r3_s211", 82)  # DH laid 57 on F16
    erie = game.corporation("ERIE")
    unused, cash = erie.tokens_unused, erie.cash
    game.process(actions[83])  # DH's token on F16
    assert erie.tokens_unused == unused - 1
    assert erie.cash == cash
    assert erie.placed_tokens == ["E11", "F16"]
    assert game.round.tokened


def test_a_route_needs_a_second_stop_reached_from_the_same_station() -> None:
    # ERIE's stations on E11 and F16 are not joined by track: two stations are no route.
    game, _ = position("1830_3p_r3_s211", 83)
    erie = game.corporation("ERIE")
    assert erie.trains and set(erie.placed_tokens) == {"E11", "F16"}
    assert len(game.board.reach("ERIE").nodes) >= 2
    assert not game.can_run_route(erie)
    assert erie.share_price.price == 65  # nothing run: withheld, price down


def test_trade_in_and_purchase_stay_open_at_the_train_limit() -> None:
    # Phase 6, limit 2: B&O holds two 4-trains and may still buy the D (its 4s then rust).
    game, actions = position("1830_2p_r3_s201", 536)
    bo = game.corporation("B&O")
    assert [t.name for t in bo.trains] == ["4", "4"] and game.train_limit == 2
    assert game.active_entities() == [bo] and "buy_train" in types_for(game, bo)
    game.process(actions[537])  # buys D-0 for $1100, no trade-in
    assert [t.name for t in bo.trains] == ["D"]


def test_a_lifted_home_token_keeps_its_place_among_the_stations() -> None:
    # ERIE's home token on E11 was lifted by the OO upgrade and put back: still its first station.
    game, actions = position("1830_3p_r3_s211", 244)
    erie = game.corporation("ERIE")
    game.process(actions[245])  # 59 on E11 lifts ERIE's token
    assert "E11" not in erie.placed_tokens
    game.process(actions[246])  # ERIE's token back in city 1
    assert erie.placed_tokens[0] == "E11"


def test_a_company_once_seen_with_a_route_keeps_it() -> None:
    # ERIE's 59 on its home hex E11 joined its token to track for a moment (before the token was
    # lifted to choose its city again): 18xx.games remembers that route for the rest of the game.
    game, actions = position("1830_6p_oracle_s309", 400)
    erie = game.corporation("ERIE")
    game.process(actions[401])  # ERIE lays 9 on E13
    assert erie.trains and not game.board.route_available("ERIE")
    assert game.can_run_route(erie)
    assert "run_routes" in types_for(game, erie)  # a run of nothing, as recorded
    game.process(actions[402])


def test_mohawk_and_hudson_is_exchanged_for_one_nyc_share() -> None:
    # naming a second IPO share with the exchange handed the player both, free
    from engine.eighteen.states import public_state

    game, _ = position("1830_3p_r3_s202", 42)
    before = public_state(game)
    swap = {"type": "buy_shares", "entity": "MH", "entity_type": "company", "percent": 10}
    with pytest.raises(IllegalAction, match="Mohawk & Hudson is exchanged for one share, not 2"):
        game.process({**swap, "shares": ["NYC_1", "NYC_6"]})
    with pytest.raises(IllegalAction, match="Mohawk & Hudson cannot be exchanged for NYC_0"):
        game.process({**swap, "shares": ["NYC_0"]})
    assert public_state(game) == before
    done = game.process({**swap, "shares": ["NYC_1"]}, story=True)
    assert game.player(2).percent_of(game.corporation("NYC")) == 10 and game.company("MH").closed
    assert game.describe(done) == "Player 2 exchanges MH for 10% of NYC from the IPO. MH closes."
