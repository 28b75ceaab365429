"""`/play hint` in 1830 and 1860: at positions of the recorded games (private auction, stock
round, operating round: lay, token, route, train, dividend) the service suggests one to three
moves, each one of the engine's legal moves of the player who must act, with its reason; a
player not to act is told so; the console makes a suggestion by its number and Discord by its
button; a hint at the slowest late 1860 position stays within 2 s of CPU."""

from __future__ import annotations

import io as text_io
import time
from typing import Any

import pytest

from bot.cli.console import Console
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from engine.eighteen.game import EighteenGame
from engine.game import Choice
from tests.discord_world import GUILD, make_thread, make_world
from tests.reference_games import game_path, require_games
from tests.test_console import session

# (title, game, file actions made, the step the player to act is in, the moves' kind)
POSITIONS = [
    ("1830", "26855", 0, "WaterfallAuction", "bid"),
    ("1830", "26855", 26, "CompanyPendingPar", "par"),
    ("1830", "26855", 27, "BuySellParShares", "par"),
    ("1830", "26855", 41, "BuySellParShares", "buy_shares"),
    ("1830", "26855", 336, "BuySellParShares", "buy_shares"),
    ("1830", "26855", 59, "Track", "lay_tile"),
    ("1830", "26855", 60, "BuyTrain", "buy_train"),
    ("1830", "26855", 90, "Token", "place_token"),
    ("1830", "26855", 91, "Route", "run_routes"),
    ("1830", "26855", 92, "Dividend", "dividend"),
    ("1860", "19354", 0, "BuyCert", "bid"),
    ("1860", "19354", 11, "BuyCert", "par"),
    ("1860", "19354", 36, "BuySellPar", "buy_shares"),
    ("1860", "19354", 51, "Track1860", "lay_tile"),
    ("1860", "19354", 54, "BuyTrain1860", "buy_train"),
    ("1860", "19354", 67, "Route1860", "run_routes"),
    ("1860", "19354", 69, "Dividend1860", "dividend"),
]
# a late lay in a dense network: the costliest hint measured over the recorded 1860 games
SLOWEST_1860 = ("1860_game_end_stock_market", 610)


def recorded(title: str, stem: str, actions: int) -> tuple[dict[str, Any], EighteenGame]:
    """The game file cut after its first `actions` file actions, and the engine's own replay
    of it (the reference the suggestions are checked against)."""
    require_games(title)
    data = io.read_file(game_path(title, stem))
    partial = {**data, "actions": data["actions"][:actions]}
    game = io.load(partial).game
    assert isinstance(game, EighteenGame)
    return partial, game


async def imported(service: GameService, data: dict[str, Any], thread: int | None = None) -> int:
    users = list(range(1, len(data["players"]) + 1))
    made = await service.import_game(
        Caller(1, "user1"), data, users, guild_id=GUILD if thread else None,
        thread_id=thread, offer=False,
    )  # fmt: skip
    assert made.ok, made.error
    assert made.game_id is not None
    return made.game_id


def user_of(data: dict[str, Any], player: Any) -> Caller:
    """The user seated for the file's player (the file's players are seated in order)."""
    seat = 1 + [p["id"] for p in data["players"]].index(player)
    return Caller(seat, f"user{seat}")


def suggestions(text: str) -> list[str]:
    lines = text.splitlines()
    assert lines[0] == "Best moves now:", text
    assert [line.split(". ", 1)[0] for line in lines[1:]] == [str(n) for n in range(1, len(lines))]
    return [line.split(". ", 1)[1] for line in lines[1:]]


def same(one: Choice, other: dict[str, Any]) -> bool:
    return one.action == other


@pytest.mark.parametrize(("title", "stem", "actions", "step", "kind"), POSITIONS)
async def test_a_hint_suggests_legal_moves_with_their_reasons(
    db_path, title: str, stem: str, actions: int, step: str, kind: str
) -> None:
    data, game = recorded(title, stem, actions)
    assert type(game.round.active_step()).__name__ == step
    [player] = game.active_players()[:1]
    legal = game.legal_actions(player)
    service = GameService(Store(db_path))
    gid = await imported(service, data)
    user = user_of(data, player)
    answer = await service.hints(gid, user)
    assert answer.ok, answer.error
    lines = suggestions(answer.text)
    _, found = await service.hint_choices(gid, user)
    assert 1 <= len(found) <= 3 and len(lines) == len(found)
    for line, choice in zip(lines, found, strict=True):
        assert any(c.action == choice.action for c in legal), choice  # a complete legal move
        assert game.is_legal(dict(choice.action))
        move, _, reason = line.partition(" — ")
        assert reason.strip() and move == next(c.label for c in legal if c.action == choice.action)
    assert found[0].action["type"] == kind  # the pick is a move of the step under way
    assert len({c.label for c in found}) == len(found)  # no move twice
    assert [n for n, _ in answer.offered] == list(range(1, len(found) + 1))  # buttons for all


async def test_the_suggested_moves_keep_the_rules_their_reasons_name(db_path) -> None:
    """The reasons are true of the position: a bid leaves the bidder the money to hold 60% of
    a company at the lowest par (B&O's private comes with its 20% president's certificate),
    a par is one the player can hold 60% of."""
    data, game = recorded("1830", "26855", 0)
    service = GameService(Store(db_path))
    gid = await imported(service, data)
    [player] = game.active_players()
    _, bids = await service.hint_choices(gid, user_of(data, player))
    me = game.player(player)
    lowest = min(p.price for p in game.market.par_prices)
    assert len(bids) == 3
    for bid in bids:
        shares = 4 if bid.action["company"] == "BO" else 6
        assert me.cash - bid.action["price"] >= shares * lowest
        assert "worth $" in bid.label and "more than that to you" in bid.label
    data, game = recorded("1830", "26855", 27)
    gid = await imported(GameService(Store(db_path.with_name("b.db"))), data)
    [player] = game.active_players()
    cash = game.player(player).cash
    _, pars = await GameService(Store(db_path.with_name("b.db"))).hint_choices(
        gid, user_of(data, player)
    )
    assert len(pars) == 3 and len({p.action["corporation"] for p in pars}) == 3
    for par in pars:
        price = int(str(par.action["share_price"]).split(",")[0])
        assert 6 * price <= cash and "the highest par we can hold 60% of" in par.label


async def test_a_share_suggested_for_its_dividend_paid_it(db_path) -> None:
    """A share bought for what it pays: the player can afford it, and its company paid out
    the dividend the reason names in its last run."""
    data, game = recorded("1830", "26855", 336)
    [player] = game.active_players()
    service = GameService(Store(db_path))
    gid = await imported(service, data)
    _, found = await service.hint_choices(gid, user_of(data, player))
    paying = [c for c in found if "a share last run" in c.label]
    assert paying and all(c.action["type"] == "buy_shares" for c in found)
    for choice in found:
        corp = game.corporation(choice.action["shares"][0].rpartition("_")[0])
        assert corp.share_price is not None
        assert corp.share_price.price <= game.player(player).cash
    for choice in paying:
        corp = game.corporation(choice.action["shares"][0].rpartition("_")[0])
        assert corp.last_payout == "payout" and corp.last_revenue
        assert f"{corp.sym} paid ${corp.last_revenue // 10} a share last run" in choice.label


async def test_a_player_not_to_act_is_told_so(db_path) -> None:
    data, game = recorded("1830", "26855", 59)
    [player] = game.active_players()
    other = next(p.id for p in game.players if p.id != player)
    service = GameService(Store(db_path))
    gid = await imported(service, data)
    answer = await service.hints(gid, user_of(data, other))
    name = game.player(player).name
    assert answer.error == f"it is not your turn in game #{gid}; waiting for {name}"


@pytest.fixture
def console(db_path, tmp_path) -> Console:
    return Console(
        GameService(Store(db_path), new_seed=lambda: 7),
        text_io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=None,
    )


async def test_a_number_after_an_1830_hint_makes_that_move(console) -> None:
    await session(console, "as 1: /game new 1830 seats:2", "as 2: /game join", "as 1: /game start")
    out = await session(console, "/play hint")
    assert out[0] == "Best moves for player 1 now (type a number to make one):"
    _, found = await console.service.hint_choices(1, Caller(1, "player 1"))
    assert out[1:] == [f"{n}. {c.label}" for n, c in enumerate(found, 1)] and len(found) >= 2
    made = await session(console, "2")
    assert made[0].startswith("player 1 ") and made[-1] == "To act: player 2"
    [action] = [a.payload for a in await console.service.store.actions(1)]
    assert {k: action[k] for k in found[1].action} == found[1].action
    refused = await session(console, "as 1: /play hint")
    assert refused == ["Refused: it is not your turn in game #1; waiting for player 2"]


async def test_discord_offers_the_suggestions_as_buttons(db_path) -> None:
    world = await make_world(db_path)
    data, game = recorded("1830", "26855", 92)  # NYNH's dividend
    thread = make_thread(800)
    world.threads[thread.id] = thread
    gid = await imported(world.bot.service, data, thread.id)
    [player] = game.active_players()
    user = user_of(data, player).user_id
    at = world.interaction(user, where=thread.id)
    [hint] = await world.play("hint", at, game=None)
    assert hint.ephemeral and hint.text.startswith("Best moves now:\n1. Pay out $110")
    (button, label), *_ = hint.buttons
    assert label.startswith("1. Pay out $110")
    before = await world.bot.service.store.action_count(gid)
    done = await world.press(button, world.interaction(user, where=thread.id))
    assert done[-1].text.startswith("Done: "), done
    [last] = (await world.bot.service.store.actions(gid))[before:]
    assert last.payload["type"] == "dividend" and last.payload["kind"] == "payout"


async def test_a_late_1860_hint_stays_within_two_seconds_of_cpu(db_path) -> None:
    data, game = recorded("1860", *SLOWEST_1860)
    [player] = game.active_players()
    service = GameService(Store(db_path))
    gid = await imported(service, data)
    started = time.process_time()
    answer = await service.hints(gid, user_of(data, player))
    assert time.process_time() - started < 2.0
    assert answer.ok and answer.text.startswith("Best moves now:\n1. ")
