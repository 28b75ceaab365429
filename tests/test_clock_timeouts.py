"""Clocks in real games: a seat whose time runs out at every kind of 1830 and 1860 step (and
String Railway's), every clock kind through whole games in the console, quiet hours across a
time-zone change and daylight saving. The service's clock is the test's (`FakeClock`).

Recorded games are played move by move through the service into a clocked game (an import
carries no clock), so every position is one a clocked game reaches. Each timeout must be the
engine's legal move, be told "(time ran out)", hand the seat back, and export a file that
replays to the same game. With RAILCHAT_EXPORTS set, the 18xx exports are written there for
the 18xx.games engine (`../shared/oracle/replay.rb`); nothing here needs Ruby.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.results import Caller, Result
from bot.core.service import GameService
from bot.core.service.clocks import TIMED_OUT
from engine.eighteen import io as game_files
from engine.game import Game, PlayerInfo
from engine.titles import create_game
from tests.reference_games import game_path
from tests.test_clocks import FakeClock, clocked, due, game_clock, left

RECORDED = {"1830": "26855", "1860": "19354"}  # no standing orders: every move is typed


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(make_store, clock):
    return GameService(make_store(), new_seed=lambda: 4242, clock=clock)


def players(count: int) -> list[Caller]:
    return [Caller(100 + n, f"Player {n}") for n in range(1, count + 1)]


async def play_recorded(service: GameService, title: str, before: int, spec: str) -> int:
    """A clocked game of the recorded `title` game's players, its moves before file index
    `before` typed by their players (a deal answered by its other owner)."""
    data = json.loads(game_path(title, RECORDED[title]).read_text())
    seat = {p["id"]: n for n, p in enumerate(data["players"], 1)}
    callers = players(len(seat))
    options = {rule: True for rule in data["settings"].get("optional_rules") or []}
    gid = await clocked(service, spec, *callers, title=title, options=options)
    for index, action in game_files.effective_actions(data["actions"]):
        if index >= before:
            break
        if action["type"] == "message":
            continue
        move = {k: v for k, v in action.items() if k not in ("id", "user", "created_at")}
        if move.get("entity_type") == "player":
            move["entity"] = seat[move["entity"]]
        done = await first_ok(callers, lambda c, m=move: service.act(gid, c, m))
        if done.vote is not None:
            await first_ok(callers, lambda c, v=done.vote: service.vote(v, c, True))
    return gid


async def first_ok(callers: list[Caller], send: Any) -> Result:
    """The answer of the one caller whose command is accepted (the acting player's)."""
    errors = []
    for caller in callers:
        result = await send(caller)
        if result.ok:
            return result
        errors.append(result.error)
    raise AssertionError(errors)


async def replayed(service: GameService, gid: int, since: int | None = None) -> Game:
    """The game rebuilt from its stored log, each move after the first `since` (None: none)
    checked to be one of the legal moves of the player who made it."""
    record = await service.store.game(gid)
    assert record is not None and record.seed is not None
    seats = await service.store.seats(gid)
    game = create_game(
        record.title,
        [PlayerInfo(s.player_id, s.name) for s in seats if s.player_id is not None],
        record.options,
        record.seed,
    )
    for n, stored in enumerate(await service.store.actions(gid)):
        if since is not None and n >= since:
            mover = next(s for s in seats if s.user_id == stored.user_id).player_id
            legal = [c.action for c in game.legal_actions(mover)]
            assert stored.payload in legal, (stored.payload, legal[:5])
        game.process(stored.payload)
    return game


def state(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True, default=str)


async def time_out(service: GameService, clock: FakeClock, gid: int) -> Result:
    """The sweep at the turn's deadline: one result, every line of it a timed-out move."""
    at = await due(service, gid)
    assert at is not None
    clock.now = at
    [result] = (await service.clock_sweep(clock.now)).results
    assert result.ok and result.text
    assert all(line.endswith(TIMED_OUT) for line in result.text.splitlines()), result.text
    return result


async def exported_replays(service: GameService, gid: int, name: str) -> None:
    """The export replays to the same game in railchat (and is kept for the 18xx.games
    engine when RAILCHAT_EXPORTS names a folder)."""
    game = await replayed(service, gid)
    [(_, payload)] = (await service.export(gid)).files
    data = json.loads(payload)
    assert state(game_files.load(data).game) == state(game)
    folder = os.environ.get("RAILCHAT_EXPORTS")
    if folder and data["title"] in RECORDED:
        Path(folder, f"{name}.json").write_bytes(payload)


# (title, file index the deadline comes before, the step the seat is in)
POSITIONS = [
    ("1830", 0, "auction"),
    ("1830", 30, "stock"),
    ("1830", 59, "track"),
    ("1830", 68, "compulsory train"),
    ("1830", 90, "token"),
    ("1830", 91, "route"),
    ("1830", 92, "dividend"),
    ("1830", 99, "train"),
    ("1830", 423, "emergency train"),
    ("1860", 0, "auction"),
    ("1860", 36, "stock"),
    ("1860", 41, "track"),
    ("1860", 54, "compulsory train"),
    ("1860", 58, "token"),
    ("1860", 68, "route"),
    ("1860", 69, "dividend"),
    ("1860", 104, "train"),
]
PASSING = {"auction", "stock", "track", "token"}


@pytest.mark.parametrize(
    ("title", "before", "step", "policy"),
    [(*p, "computer") for p in POSITIONS] + [(*p, "pass") for p in POSITIONS if p[2] in PASSING],
    ids=lambda v: str(v).replace(" ", "-"),
)
async def test_a_seat_timed_out_at_every_kind_of_18xx_step(
    service, clock, title, before, step, policy
):
    gid = await play_recorded(service, title, before, f"1h timeout:{policy}")
    played = await service.store.action_count(gid)
    timed_seat = (await game_clock(service, gid)).seat
    game = await replayed(service, gid)
    acting = game.active_players()[0]
    can_pass = any(c.action["type"] == "pass" for c in game.legal_actions(acting))
    result = await time_out(service, clock, gid)
    seats = await service.store.seats(gid)
    timed_user = next(s.user_id for s in seats if s.seat == timed_seat)
    made = (await service.store.actions(gid))[played:]
    assert {m.user_id for m in made} == {timed_user}  # made for the seat whose time ran out
    assert len(result.text.splitlines()) == await service.store.action_count(gid) - played
    game = await replayed(service, gid, since=played)  # each move made was legal
    if policy == "pass" and can_pass:
        assert made[0].payload["type"] == "pass"
    assert not game.finished and game.active_players()
    seats = await service.store.seats(gid)
    assert not any(s.computer for s in seats)  # the seat is still its player's
    assert (await game_clock(service, gid)).turn is not None  # the next turn's clock runs
    await exported_replays(service, gid, f"timeout-{title}-{before}-{policy}")


async def test_a_seat_timed_out_where_its_president_declared_bankruptcy(service, clock):
    """1830 26855 ends when a president declares bankruptcy over the compulsory train: timed
    out there, the computer settles that train its own legal way (an emergency purchase, or
    bankruptcy) and the game goes on or ends as the rules say."""
    gid = await play_recorded(service, "1830", 587, "1h timeout:computer")
    played = await service.store.action_count(gid)
    erie = next(c for c in (await replayed(service, gid)).corporations if c.sym == "ERIE")
    assert not erie.trains  # the train it must buy
    result = await time_out(service, clock, gid)
    assert all(line.endswith(TIMED_OUT) for line in result.text.splitlines())
    game = await replayed(service, gid, since=played)  # each move made was legal
    made = [a.payload["type"] for a in (await service.store.actions(gid))[played:]]
    erie = next(c for c in game.corporations if c.sym == "ERIE")
    assert "bankrupt" in made if game.finished else erie.trains, made
    await exported_replays(service, gid, "timeout-1830-bankrupt")


@pytest.mark.parametrize("policy", ["computer", "pass"])
async def test_string_railway_placement_and_rail_time_out(service, clock, policy):
    ann, bob = players(2)
    gid = await clocked(service, f"1h timeout:{policy}", ann, bob, title="string_railway")
    kinds = []
    for _ in range(6):  # the placements, then rails
        before = await service.store.action_count(gid)
        await time_out(service, clock, gid)
        game = await replayed(service, gid, since=before)
        assert await service.store.action_count(gid) > before and not game.finished
        kinds += [a.payload["type"] for a in (await service.store.actions(gid))[before:]]
    assert len(set(kinds)) >= 2, kinds  # placements and rails both timed out
    # (its export leaves the seed out while the game runs: the stored log was replayed above)


# -- quiet hours as the player's zone counts them --------------------------------------------------
@pytest.mark.parametrize(
    ("start", "deadline"),
    [
        # Paris springs forward on Sunday 31 March 2030: 23:00-07:00 is 7 hours that night
        (datetime(2030, 3, 30, 12, tzinfo=UTC), datetime(2030, 3, 31, 19, tzinfo=UTC)),
        # and falls back on Sunday 27 October 2030: 9 hours
        (datetime(2030, 10, 26, 12, tzinfo=UTC), datetime(2030, 10, 27, 21, tzinfo=UTC)),
    ],
    ids=["spring", "autumn"],
)
async def test_quiet_hours_across_daylight_saving_stop_the_clock_as_long_as_they_last(
    service, clock, start, deadline
):
    ann, bob = players(2)
    assert (await service.set_time_zone(ann, "Europe/Paris")).ok
    assert (await service.set_quiet_hours(ann, "23-7")).ok
    clock.now = start
    gid = await clocked(service, "24h", ann, bob)
    assert await due(service, gid) == deadline
    clock.now = deadline - timedelta(hours=1)
    assert await left(service, gid) == "1 h left"
    assert not (await service.clock_sweep(clock.now)).results
    await time_out(service, clock, gid)


async def test_a_time_zone_changed_mid_turn_counts_the_rest_in_the_new_zone(service, clock):
    ann, bob = players(2)
    assert (await service.set_time_zone(ann, "Asia/Tokyo")).ok  # noon UTC is 21:00 there
    assert (await service.set_quiet_hours(ann, "23-7")).ok  # 14:00-22:00 UTC
    gid = await clocked(service, "24h", ann, bob)
    clock.advance(timedelta(hours=5))  # 02:00 in Tokyo: 2 hours counted, then asleep
    assert await left(service, gid) == "22 h left"
    assert (await service.set_time_zone(ann, "Europe/Paris")).ok  # 18:00 in Paris: awake
    assert await left(service, gid) == "22 h left"  # the hours slept in Tokyo still do not count
    # 17:00-22:00 UTC counts (7), Paris sleeps 22:00-06:00 UTC, 16 more (23), asleep, 1 more
    assert await due(service, gid) == datetime(2030, 1, 9, 7, tzinfo=UTC)
