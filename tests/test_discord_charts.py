"""Charts through Discord (offline): `/game view what:chart` answers the caller with a PNG of
the chart asked for (worth by default), the series is computed once per game version, and the
post that ends a String Railway game carries its charts and the ranking.
"""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.core.rendering import render_view
from bot.core.results import Caller
from engine.eighteen import io as game_files
from engine.eighteen.game import EighteenGame
from tests.discord_world import GUILD, make_world, posts, three_players
from tests.reference_games import game_path


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def _imported(world, title: str, data: dict, upto: int) -> tuple[int, object]:
    """The game file with its first `upto` actions, opened in a thread of its own."""
    thread = await world._create_thread(name="import")
    opened = await world.bot.service.import_game(
        Caller(1, "user1", guild_id=GUILD),
        {**data, "actions": data["actions"][:upto]},
        [1, 2, 3, 4][: len(data["players"])],
        guild_id=GUILD,
        thread_id=thread.id,
        offer=False,
    )
    assert opened.ok, opened.error
    return opened.game_id, thread


async def _view(world, thread, **options):
    return await world.run(
        "view", world.interaction(2, where=thread.id), **{"detail": None, "game": None, **options}
    )


def _png_width(data: bytes) -> int:
    return Image.open(io.BytesIO(data)).width


async def test_a_chart_is_shown_to_the_caller_alone(world):
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    _, thread = await _imported(world, "1830", data, 300)
    sent = await _view(world, thread, what="chart")
    assert sent[-1].ephemeral and sent[-1].files == ["chart-worth.png"]  # worth by default
    assert _png_width(sent[-1].images[0]) == 800
    sent = await _view(world, thread, what="chart", detail="pri")
    assert sent[-1].files == ["chart-prices.png"]
    sent = await _view(world, thread, what="chart", detail="all")
    assert sent[-1].files == ["chart-worth.png", "chart-prices.png", "chart-revenue.png"]
    sent = await _view(world, thread, what="chart", detail="weather")
    assert sent[-1].ephemeral and sent[-1].text == (
        "Refused: 1830 has no 'weather' chart; its charts: worth, prices, revenue (or all)"
    )
    offered = await world.suggest("view", "detail", world.interaction(2, what="chart"), "")
    assert [(c.value, c.name) for c in offered] == [
        ("worth", "worth: Each player's worth"),
        ("prices", "prices: Share prices"),
        ("revenue", "revenue: Revenue per operating round"),
        ("all", "all: every chart"),
    ]


async def test_the_series_is_computed_once_per_version(world, monkeypatch):
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    moves = game_files.effective_actions(data["actions"])
    index, move = moves[103]  # a run
    assert "auto_actions" not in move and move["type"] != "message"
    game_id, thread = await _imported(world, "1830", data, index)
    replays = []
    series = EighteenGame.chart_series

    def counted(self):
        replays.append(len(self.actions))
        return series(self)

    monkeypatch.setattr(EighteenGame, "chart_series", counted)
    for detail in ("worth", "prices", "worth"):
        assert (await _view(world, thread, what="chart", detail=detail))[-1].files
    assert replays == [103]
    move = {k: v for k, v in move.items() if k not in ("id", "user", "created_at")}
    actor = (await world.bot.service.prompt(game_id, choices=False)).notify[0]
    done = await world.bot.service.act(game_id, Caller(actor, f"user{actor}", guild_id=GUILD), move)
    assert done.ok, done.error
    await _view(world, thread, what="chart")
    assert replays == [103, 104]


async def test_a_title_without_charts_and_a_game_not_started_are_refused(world):
    thread = await three_players(world)  # the test title, which draws no charts
    sent = await _view(world, thread, what="chart")
    assert sent[-1].text == "Refused: tally games have no charts"
    await world.run("new", world.interaction(1), title="1830", seats=3, options=None)
    waiting = list(world.threads.values())[-1]
    sent = await _view(world, waiting, what="chart")
    assert sent[-1].text.startswith("Refused: game #2 has not started yet")


async def test_the_last_post_of_a_string_railway_game_has_its_charts_and_ranking(db_path):
    from tests.test_string_game_three import GAME

    world = await make_world(db_path, renderer=render_view)  # the stand-in draws 18xx only

    actions = GAME["actions"]
    game_id, thread = await _imported(world, "string_railway", GAME, len(actions) - 1)
    last = actions[-1]
    result = await world.bot.service.act(game_id, Caller(3, "user3", guild_id=GUILD), last)
    assert result.ok, result.error
    world.bot.poster.queue(result)
    await world.bot.poster.drain()
    post = posts(thread)[-1]
    assert sorted(post.files) == ["chart-per-round.png", "chart-score.png", "map.png"]
    assert all(_png_width(post.files[f]) == 800 for f in post.files if f.startswith("chart-"))
    # the hand-computed result of the test game: c 16, b 15, a 13
    assert post.embed.title == "Final ranking · String Railway"
    assert post.embed.description == (
        "1. **c** 16 VP\n2. **b** 15 VP (1 VP behind)\n3. **a** 13 VP (3 VP behind)"
    )
