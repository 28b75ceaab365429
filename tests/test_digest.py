"""What a player missed since their own last move (issue 36): the digest's figures are read
against 18xx.games' own states (the recorded games' reference states), not against our engine:
at every 50th action of three recorded games, for every player, their cash and shares then (just
after their last move, found from the file: their own move, or their company's while they
presided it) and now are the reference's, and the digest fits a phone screen."""

from __future__ import annotations

import io as text_io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli.console import Console
from bot.core.digest import LINES, missed
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests import test_string_game_three as string_game
from tests.discord_world import make_world
from tests.reference_games import game_path, reference_states
from tests.test_discord_1830 import open_table

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


def test_a_long_digest_is_folded_to_a_phone_screen() -> None:
    """Six players of 1830 (a recorded random game), 65 actions after player 1's move: their
    digest would be 17 lines; 15 are shown, the last pointing to the history."""
    data = json.loads(game_path("random/1830", "1830_6p_r3_s209").read_text())
    game = io.load(data, upto=io.load(data).indices[499]).game
    found = missed(game, 1, 435)
    assert found is not None and found.moves == 65 and len(found.lines) == LINES
    assert found.lines[0] == "Since your last move (action 435): 65 moves."
    assert found.lines[1].startswith("Cash $")
    assert found.lines[-1] == "… and 3 more: /game view what:history"


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


def test_string_railway_tells_the_scores_stations_and_rails_scored_by_hand() -> None:
    """The hand-scored three-player game (tests/test_string_game_three.py): a's last move is
    their rail of turn 13 (a 12, b 13, c 12 VP); b and c then score 15 and 16, a 13 (b's rail
    reaches a's Transit), with a Central and a Regional placed, a short and a long rail."""
    game = io.new_game(string_game.GAME)
    for action in string_game.ACTIONS:
        game.process(dict(action))
    since = string_game.ACTIONS.index(string_game.lay("a", "short", "S4", "S11")) + 1
    found = missed(game, "a", since)
    assert found is not None and (found.score, found.rank, found.cash) == ((12, 13), (2, 3), None)
    assert found.moves == len(string_game.ACTIONS) - since == 4
    assert found.lines[1:] == (
        "a: 12 → 13 VP · rank 2nd → 3rd of 3",
        "VP: a 12 → 13, b 13 → 15, c 12 → 16.",
        "Stations drawn and placed: central S17, regional S18.",
        "Rails laid: b short, c long.",
        *found.lines[5:],
    )
    assert found.lines[5:] == (
        "b: 2 moves (placed Central S17, laid a short rail S10–S16)",
        "c: 2 moves (placed Regional S18, laid a long rail S5–S9–S10)",
    )


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def test_discord_since_answers_the_caller_alone_and_the_turn_dm_carries_it(world):
    """1830, four players with $600 each: user1 bids $50 on CS, the others pass. Before their
    own move user2 is told everything since the start; user1's turn DM (turn DMs on) tells
    only what came after their bid; a spectator is pointed to the history."""
    await world.run("turn-dm", world.interaction(1), group="settings", dm="on", game=None)
    table = await open_table(world)
    await table.play(1, "bid", company="CS", price=50)
    sent = await table.game(2, "view", what="since", game=None)
    assert sent[-1].ephemeral and sent[-1].text.splitlines() == [
        "Game #1 · Since the start (you have not moved yet): 1 move.",
        "Cash $600 · worth $600 · rank 1st of 4",
        "user1: 1 move (bids $50 on CS)",
    ]
    for user in (2, 3, 4):
        await table.play(user, "pass")
    user, text, _ = world.dms[-1]
    assert user == 1 and text.splitlines()[1:] == [
        "Since your last move (action 1): 3 moves.",
        "Cash $600 · worth $600 · rank 1st of 4",
        "user2: 1 move (passes)",
        "user3: 1 move (passes)",
        "user4: 1 move (passes)",
    ]
    sent = await table.game(9, "view", what="since", game=None)
    assert sent[-1].ephemeral
    assert sent[-1].text == "Refused: you are not seated in game #1: /game view what:history"


async def test_the_console_tells_the_player_to_act_what_they_missed(db_path):
    """The console's `view since` answers for whoever must act (hot seat), as Discord does:
    three players of 1830 with $800 each, player 1 passed."""
    console = Console(GameService(Store(db_path), new_seed=lambda: 3), text_io.StringIO())
    await console.run(
        [
            "as 1: /game new 1830 seats:3",
            "as 2: /game join",
            "as 3: /game join",
            "as 1: /game start",
            "as 1: /play pass",
        ]
    )
    console.out.seek(0)
    console.out.truncate()
    await console.run(["/game view since"])
    assert console.out.getvalue().splitlines() == [
        "Game #1 · Since the start (you have not moved yet): 1 move.",
        "Cash $800 · worth $800 · rank 1st of 3",
        "player 1: 1 move (passes)",
    ]
