"""Standings: a finished game rates its players once (per server and title) by openskill's
Plackett-Luce model, an undo of its end takes the rating back, the computer is rated by level
apart from people, and /stats, /game list and the final post tell how players fare."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce

from bot.core import ratings
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from tests.test_service import ANN, BOB, CY, add, started

EVE = Caller(13, "Eve")


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242)


async def play_out(
    service: GameService, gid: int, players: list[Caller], amounts: list[int]
) -> None:
    """Players take turns adding their amount until the game is over."""
    turn = 0
    while (await service.store.game(gid)).status != "finished":
        n = turn % len(players)
        result = await service.act(gid, players[n], add(n + 1, amounts[n]))
        assert result.ok, result.error
        turn += 1


async def ordinal(service: GameService, user_id: int, guild_id: int | None = None) -> float:
    (standing,) = await service.store.standings(guild_id, user_id)
    return ratings.ordinal((standing.mu, standing.sigma))


def test_a_ranking_of_four_is_one_ranking_not_three_duels():
    fresh = [ratings.FRESH] * 4
    after = ratings.rate(fresh, [1, 2, 3, 4])
    model = PlackettLuce()
    one = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 3, 4])
    assert after == [(t[0].mu, t[0].sigma) for t in one]
    assert after[0][0] > after[1][0] > after[2][0] > after[3][0]
    # the winner beating three players one duel at a time ends elsewhere
    winner = model.rating()
    for _ in range(3):
        winner = model.rate([[winner], [model.rating()]], ranks=[1, 2])[0][0]
    assert abs(winner.mu - after[0][0]) > 0.1
    # a tie shares a place and a rating
    tied = ratings.rate([ratings.FRESH] * 3, [1, 1, 3])
    assert tied[0] == pytest.approx(tied[1]) and tied[0][0] > tied[2][0]
    assert ratings.places({"a": 10, "b": 10, "c": 3}) == {"a": 1, "b": 1, "c": 3}


def test_turn_times_count_the_wait_before_each_run_of_own_moves():
    t = "2030-01-01T10:{:02d}:00+00:00"
    moves = [
        (1, t.format(0)),
        (2, t.format(5)),
        (2, t.format(6)),
        (1, t.format(16)),
        (0, t.format(17)),
    ]
    assert ratings.turn_times(moves, 2) == [360.0]  # from 1's move to 2's last of the run
    assert ratings.turn_times(moves, 1) == [600.0]  # the first move has nothing to wait on
    assert ratings.clock_text([360.0, 600.0]) == "16m used, 8m a move (median)"
    assert ratings.duration(3 * 3600 + 5 * 60) == "3h 05m"


async def test_a_finished_game_rates_its_players_once(service):
    gid = await started(service, ANN, BOB, CY, target=40)
    await play_out(service, gid, [ANN, BOB, CY], [9, 5, 1])
    winner, second, last = [
        await ordinal(service, u) for u in (ANN.user_id, BOB.user_id, CY.user_id)
    ]
    assert winner > 0 > last  # a first player's rating starts at 0
    assert winner > second > last
    (ann,) = await service.store.standings(None, ANN.user_id)
    assert (ann.title, ann.games, ann.wins, ann.average_place) == ("tally", 1, 1, 1.0)
    # seen finishing again (another process, a repeated post): rated already
    record = await service.store.game(gid)
    seats = await service.store.seats(gid)
    entrants = ratings.entrants(seats, {1: 50, 2: 0, 3: 0})
    again = await service.store.rate_game(
        gid, record.version, entrants, ratings.rate, ratings.FRESH
    )
    assert again is False
    assert (await service.store.standings(None, ANN.user_id))[0].games == 1


async def test_two_processes_seeing_one_end_rate_it_once(store_url):
    first = GameService(Store(store_url), new_seed=lambda: 4242)
    gid = await started(first, ANN, BOB, target=30)
    await play_out(first, gid, [ANN, BOB], [9, 1])
    other = Store(store_url)
    try:
        await other.backend.write(lambda c: c.execute("DELETE FROM game_ratings"))
        await other.backend.write(lambda c: c.execute("DELETE FROM ratings"))
        record = await other.game(gid)
        entrants = ratings.entrants(await other.seats(gid), {1: 30, 2: 5})
        tries = [
            store.rate_game(gid, record.version, entrants, ratings.rate, ratings.FRESH)
            for store in (first.store, other, first.store, other)
        ]
        assert sorted(await asyncio.gather(*tries)) == [False, False, False, True]
        assert (await other.standings(None, BOB.user_id))[0].games == 1
    finally:
        other.close()
        first.store.close()


async def test_an_undo_of_the_end_takes_the_rating_back_and_a_redo_rates_it_again(service):
    gid = await started(service, ANN, BOB, target=30)
    await play_out(service, gid, [ANN, BOB], [9, 1])
    rated = await ordinal(service, ANN.user_id)
    last = (await service.store.actions(gid))[-1]
    mover = ANN if last.user_id == ANN.user_id else BOB
    assert (await service.undo(gid, mover)).ok
    assert (await service.store.game(gid)).status == "active"
    assert await service.store.standings(None, ANN.user_id) == []
    assert await service.store.winners([gid]) == {}
    assert (await service.redo(gid, mover)).ok
    assert (await service.store.standings(None, ANN.user_id))[0].games == 1
    assert await ordinal(service, ANN.user_id) == pytest.approx(rated)


async def test_the_computer_is_rated_by_level_apart_from_people(service):
    made = await service.create_game(ANN, "tally", seats=2, computers=1, level="random")
    assert (await service.start(made.game_id, ANN)).ok
    gid = made.game_id
    while (await service.store.game(gid)).status != "finished":
        if due := await service.due_computer_games():
            await service.play_computers(due[0])
            continue
        assert (await service.act(gid, ANN, add(1, 9))).ok
    assert [s.games for s in await service.store.standings(None, 0, "random")] == [1]
    assert [s.games for s in await service.store.standings(None, ANN.user_id)] == [1]
    text = (await service.stats(ANN)).text
    assert "random" not in text and "1 game" in text


async def test_stats_tell_games_wins_place_rating_trend_and_pace(service):
    for n in range(6):  # Ann wins the first five, Bob the last
        gid = await started(service, ANN, BOB, target=30)
        await play_out(service, gid, [ANN, BOB], [9, 1] if n < 5 else [1, 9])
    ann = await service.store.standings(None, ANN.user_id)
    recent = await service.store.rated_games(None, ANN.user_id, "tally", limit=5)
    trend = ratings.ordinal((ann[0].mu, ann[0].sigma)) - ratings.ordinal(recent[-1].before)
    text = (await service.stats(BOB, ANN.user_id, "tally")).text
    lines = text.splitlines()
    assert lines[0].startswith("Ann's standing in this database")
    assert lines[1].startswith(
        f"tally: rating {round(ratings.ordinal((ann[0].mu, ann[0].sigma)))} "
        f"({round(trend):+d} over the last 5) · 6 games, 5 wins · average place 1.2 · "
    )
    assert lines[1].endswith("a move (median)")
    assert "1 win " in (await service.stats(BOB)).text
    assert "no finished game" in (await service.stats(CY)).text
    assert (await service.stats(ANN, title="no-such-title")).error
    # standings are per server: the console's games do not count in a Discord server's
    assert "no finished game" in (await service.stats(Caller(10, "Ann", guild_id=5))).text


async def test_game_list_names_the_winner_of_each_finished_game(service):
    gid = await started(service, ANN, BOB, target=30)
    await play_out(service, gid, [ANN, BOB], [1, 9])
    mine = (await service.list_games(user_id=ANN.user_id, include_finished=True)).text
    assert f"#{gid} · tally · finished · won by Bob" in mine
    every = (await service.list_games(include_finished=True)).text
    assert f"#{gid} · tally · finished · won by Bob · Ann, Bob" in every
    # a game that ended before games were rated: its winner is read from its result
    await service.store.backend.write(lambda c: c.execute("DELETE FROM game_ratings"))
    assert "won by Bob" in (await service.list_games(include_finished=True)).text


async def test_the_time_to_move_names_each_person_seated(service):
    gid = await started(service, ANN, BOB, target=30)
    await play_out(service, gid, [ANN, BOB], [9, 1])
    text = await service.time_to_move(gid)
    assert text.startswith("Time to move: Ann ") and "; Bob " in text
    assert text.count("a move (median)") == 2


async def test_a_finished_game_ranking_fewer_than_two_rates_nobody(db_path) -> None:
    """An imported file whose seats nobody claimed ends with one entrant or none: it imports,
    and nobody is rated by it."""
    from bot.core.results import Caller
    from bot.core.service import GameService
    from bot.core.store import Store
    from engine.eighteen import io
    from tests.reference_games import game_path

    service = GameService(Store(db_path))
    data = io.read_file(game_path("1830", "1830_game_end_bank"))
    imported = await service.import_game(Caller(1, "one"), data, [1])  # one seat claimed
    assert imported.ok, imported.error
    assert imported.game_id is not None
    assert (await service.store.game(imported.game_id)).status == "finished"  # type: ignore[union-attr]
    assert await service.store.standings(None, 1) == []
