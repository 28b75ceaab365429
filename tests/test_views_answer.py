"""Every view answers with text: each image, chart, the history, every company's routes, every
info topic and the moves, at the first and the last position of every recorded game (and of a
String Railway game played out by the computer), and before a game starts. A view that raises
is a traceback for the user ("Something went wrong"), so each call must return a Result whose
text or refusal says something."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli.arena_game import play_game
from bot.core.moves import moves_text
from bot.core.rendering import draw_chart, render_view
from bot.core.results import Caller, Result
from bot.core.routes_input import best_routes_text, route_companies
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests.reference_games import game_files

VIEWS = ("map", "market", "sheet")
REAL = [*game_files("1830"), *game_files("1860")]


def said(result: Result) -> str:
    words = result.text if result.ok else result.error
    assert isinstance(words, str) and words.strip(), result
    return words


async def walk(service: GameService, game_id: int) -> list[str]:
    """Every view of /game view, as the Discord command and its autocomplete ask for it."""
    answers = [said(await service.status(game_id))]
    for view in VIEWS:
        answers.append(said(await service.view(game_id, view, render_view)))
    charts = await service.peek(game_id, lambda g: g.chart_names()) or []
    for key in ["", *(k for k, _ in charts), "all", "nonsense"]:
        answers.append(said(await service.chart(game_id, key, draw_chart)))
    answers.append(said(await service.history(game_id, 10)))
    running = await service.peek(game_id, route_companies) or []
    for company in [*(sym for sym, _ in running), "NOPE"]:
        answers.append(said(await service.inspect(game_id, lambda g: best_routes_text(g, company))))
    topics = await service.peek(game_id, lambda g: g.reference_topics()) or []
    for topic in [None, *topics, "no such topic"]:
        answers.append(said(await service.reference(game_id, topic)))
    for user in (1, 2, 999):
        answers.append(moves_text(await service.legal_actions(game_id, user)))
    return answers


async def imported(service: GameService, data: dict[str, Any]) -> int:
    players = data["players"]
    result = await service.import_game(Caller(1, "one"), data, [p["id"] for p in players])
    assert result.ok, result.error
    assert result.game_id is not None
    return result.game_id


async def walk_first_and_last(db_path: str, data: dict[str, Any]) -> list[int]:
    """How many answers every view gave at the game's start and at its end."""
    service = GameService(Store(db_path))
    first = copy.deepcopy(data)
    first["actions"] = []
    return [len(await walk(service, await imported(service, version))) for version in (first, data)]


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
async def test_every_view_answers_at_the_first_and_last_position(path: Path, db_path) -> None:
    assert min(await walk_first_and_last(db_path, io.read_file(path))) > 10


async def test_every_view_answers_in_a_played_out_string_railway_game(tmp_path, db_path) -> None:
    report = await play_game(
        "string_railway", ["standard", "random"], 5, save_dir=tmp_path, db_dir=tmp_path
    )
    assert report.file is not None and not report.end.startswith(("error", "stuck")), report.end
    data = json.loads(Path(report.file).read_text())
    assert min(await walk_first_and_last(db_path, data)) > 5


@pytest.mark.parametrize("title", ["1830", "1860", "string_railway"])
async def test_every_view_answers_before_the_game_starts(title: str, db_path) -> None:
    service = GameService(Store(db_path))
    opened = await service.create_game(Caller(1, "one"), title)
    assert opened.ok and opened.game_id is not None, opened.error
    answers = await walk(service, opened.game_id)
    assert any("not started" in a or "has not" in a for a in answers), answers
