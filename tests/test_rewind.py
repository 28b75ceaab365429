"""Taking moves back without replaying the log (`Game.rewind_to`): the game must stand exactly
where a replay of its first actions stands, checked against 18xx.games' reference states for
the recorded games, and against a plain replay for String Railway."""

from __future__ import annotations

import json
import random

import pytest

from engine.eighteen import io
from engine.eighteen.states import public_state
from engine.errors import GameError
from engine.game import PlayerInfo
from engine.titles import create_game
from tests.reference_games import COMPARED, game_path, reference_states

CASES = [("1830", "1830_game_end_bank"), ("1860", "1860_game_end_stock_market")]


def _same_as_reference(game, ref: list[dict], count: int) -> None:
    assert len(game.actions) == count
    ours = public_state(game)
    for key in COMPARED:
        assert ours[key] == ref[count][key], f"after rewinding to {count}: {key} differs"


@pytest.mark.parametrize("game_set, name", CASES)
def test_rewind_stands_where_the_reference_stands(game_set: str, name: str) -> None:
    path = game_path(game_set, name)
    data = json.loads(path.read_text())
    ref = reference_states(path)
    game = io.load(data).game
    total = len(game.actions)
    assert len(ref) == total + 1
    kept = list(game.actions)
    for count in (total - 1, total - 2, 401, 400, 399, 117, 50, 49, 1, 0):
        game.rewind_to(count)
        _same_as_reference(game, ref, count)
    for action in kept[:333]:  # played on from the start, then taken back and forth again
        game.process(action, atomic=False)
    _same_as_reference(game, ref, 333)
    game.rewind_to(260)
    _same_as_reference(game, ref, 260)
    for action in kept[260:total]:
        game.process(action, atomic=False)
    assert game.finished
    assert {str(k): v for k, v in game.result().items()} == data["result"]


def test_a_tried_move_leaves_no_checkpoint_behind() -> None:
    path = game_path("1830", "1830_game_end_bank")
    data = json.loads(path.read_text())
    ref = reference_states(path)
    game = io.load(data).game
    game.rewind_to(49)
    legal = game.legal_actions(game.active_players()[0])
    game.try_out(legal[0].action, None, lambda g, a: None)  # would be action 50
    assert [at for at, _ in game._history] == [0]
    game.rewind_to(3)
    _same_as_reference(game, ref, 3)


def test_a_replay_keeps_the_checkpoints_that_playing_move_by_move_keeps() -> None:
    """A replay that knows its length skips the checkpoints the history would drop, and ends
    with the same ones: the start's and the latest HISTORY_KEPT multiples of HISTORY_EVERY."""
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    loaded = io.load(data).game
    total = len(loaded.actions)
    every, kept = loaded.HISTORY_EVERY, loaded.HISTORY_KEPT
    expected = [0] + list(range(every, total + 1, every))[-kept:]
    assert [at for at, _ in loaded._history] == expected
    played = io.new_game(data)
    for action in loaded.actions:
        played.process(action, atomic=False)
    assert [at for at, _ in played._history] == expected
    loaded.rewind_to(expected[2] - 1)  # replays from the checkpoint before it, keeping it
    assert [at for at, _ in loaded._history] == expected[:2]


def test_rewind_refuses_a_count_outside_the_log() -> None:
    game = create_game("1830", [PlayerInfo(1, "A"), PlayerInfo(2, "B")], {}, 1)
    with pytest.raises(ValueError):
        game.rewind_to(1)


def test_string_railway_rewinds_to_what_a_replay_shows(monkeypatch) -> None:
    players = [PlayerInfo(i, f"P{i}") for i in (1, 2, 3)]
    game = create_game("string_railway", players, {}, 11)
    monkeypatch.setattr(type(game), "HISTORY_EVERY", 10)  # a whole game is about 40 moves
    rng = random.Random(11)
    while not game.finished and len(game.actions) < 140:
        game.process(rng.choice(game.legal_actions(rng.choice(game.active_players()))).action)
    played = list(game.actions)
    assert game.finished and len(played) > 30

    def fresh(count: int):
        g = create_game("string_railway", players, {}, 11)
        for action in played[:count]:
            g.process(action, atomic=False)
        return g

    for count in (len(played) - 1, 31, 30, 29, 17, 2, 0):
        game.rewind_to(count)
        again = fresh(count)
        assert (game.snapshot(), game.active_players(), game.status_text()) == (
            again.snapshot(),
            again.active_players(),
            again.status_text(),
        )


@pytest.mark.parametrize("game_set, name", CASES)
def test_a_refusal_puts_back_the_position_it_was_refused_in(game_set: str, name: str) -> None:
    """Refusals and probes share one saved state while the game stands still: every move,
    undo and tried move must retire it, else a refusal would put back an older position."""
    path = game_path(game_set, name)
    data = json.loads(path.read_text())
    ref = reference_states(path)
    game = io.new_game(data)
    moves = [a for _, a in io.effective_actions(data["actions"])]
    bogus = {"type": "lay_tile", "entity": "no such company", "hex": "A1", "tile": "7-0"}

    def refuse_and_compare(count: int) -> None:
        with pytest.raises(GameError):
            game.process(dict(bogus))
        _same_as_reference(game, ref, count)

    for count, action in enumerate(moves[:300]):
        if count % 7 == 0:
            game.legal_actions(game.active_players()[0])  # probes save the position
        if count % 11 == 0 and count:
            game.try_out(io.imported(action), None, lambda g, a: None)
        game.process(io.imported(action))
        if count % 7 == 0:
            refuse_and_compare(count + 1)
    for count in (296, 250, 120):  # 250: a kept checkpoint, put back with no move replayed
        game.legal_actions(game.active_players()[0])
        game.rewind_to(count)
        refuse_and_compare(count)
