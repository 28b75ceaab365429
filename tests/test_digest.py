"""What a player missed since their own last move (issue 36): the digest's figures are read
against 18xx.games' own states (the recorded games' reference states), not against our engine:
at every 50th action of three recorded games, for every player, their cash and shares then (just
after their last move, found from the file: their own move, or their company's while they
presided it) and now are the reference's, and the digest fits a phone screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.digest import LINES, missed
from engine.eighteen import io
from tests.reference_games import game_path, reference_states

GAMES = [("1830", "1830_game_end_bank"), ("1830", "26855"), ("1860", "19354")]
EVERY = 50


def _mover(action: dict[str, Any], before: dict[str, Any]) -> Any:
    """The player who made an action, by the reference state before it: the player named, or
    the president of the company (or owner of the private) it acts for."""
    kind, entity = action.get("entity_type"), action.get("entity")
    if kind == "player":
        return entity
    if kind == "corporation":
        return before["corporations"][entity]["president"]
    owner = before["companies"].get(entity)
    corps = before["corporations"]
    return corps[owner]["president"] if owner in corps else owner


def _shares(state: dict[str, Any], player: Any) -> dict[str, int]:
    found = next(p for p in state["players"] if p["id"] == player)
    return {sym: pct for sym, pct in found["shares"].items() if pct}


def _cash(state: dict[str, Any], player: Any) -> int:
    return next(p["cash"] for p in state["players"] if p["id"] == player)


@pytest.mark.parametrize(("game_set", "stem"), GAMES, ids=[s for _, s in GAMES])
def test_every_50th_action_every_player_s_figures_are_the_reference_s(
    game_set: str, stem: str
) -> None:
    path: Path = game_path(game_set, stem)
    data = json.loads(path.read_text())
    states = {s["idx"]: s for s in reference_states(path)}
    indices = io.load(data).indices  # the file's index of each action our game applies
    before = [states[-1], *(states[i] for i in indices[:-1])]
    movers = [_mover(data["actions"][i], b) for i, b in zip(indices, before)]
    players = [p["id"] for p in data["players"]]
    checked = 0
    for count in range(EVERY, len(indices) + 1, EVERY):
        game = io.load(data, upto=indices[count - 1]).game
        now = states[indices[count - 1]]
        for player in players:
            since = max((n + 1 for n in range(count) if movers[n] == player), default=0)
            then = states[indices[since - 1]] if since else states[-1]
            found = missed(game, player, since)
            assert found.cash == (_cash(then, player), _cash(now, player)), (count, player)
            held = {s: pct for s, (_, pct) in found.shares.items() if pct}
            was = {s: pct for s, (pct, _) in found.shares.items() if pct}
            assert (was, held) == (_shares(then, player), _shares(now, player)), (count, player)
            assert found.moves <= count - since and len(found.lines) <= LINES
            money = "£" if game_set == "1860" else "$"
            cash_line = found.lines[1]
            for amount in {_cash(then, player), _cash(now, player)}:
                assert f"{money}{amount:,}" in cash_line, (count, player, cash_line)
            checked += 1
    assert checked >= 4 * len(players)


def test_looking_back_leaves_the_game_as_it_was() -> None:
    """A game walked back and forth plays on exactly as one that never was: same positions
    after every later action of the file."""
    path = game_path("1830", "26855")
    data = json.loads(path.read_text())
    upto = io.load(data).indices[299]
    walked, plain = io.load(data, upto=upto).game, io.load(data, upto=upto).game
    seen: list[int] = []
    walked.looking_back(240, lambda g, a: seen.append(len(g.actions)))
    assert seen == list(range(240, 301))
    assert walked.snapshot() == plain.snapshot()
    later = [a for i, a in io.effective_actions(data["actions"]) if i > upto]
    for action in later[:100]:
        for game in (walked, plain):
            game.process(io.imported(action), atomic=False)
        assert walked.snapshot() == plain.snapshot()
