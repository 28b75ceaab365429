"""Values bounded where they are read (hours, ids, numbers, names), for the console as for
Discord, and a reminder loop that survives whatever a database row holds."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

from bot.cli.console import Console
from bot.core.config import ConfigError, load_settings
from bot.core.parsing import parse_action, parse_seat_users
from bot.core.rendering import render_view
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.game import PlayerInfo
from engine.titles import create_game
from tests.raw_sql import execute
from tests.test_console import session
from tests.test_service import ANN, BOB, CY, started

NO_DOTENV = Path("/nonexistent/.env")
NOW = datetime(2030, 1, 1, tzinfo=UTC)


@pytest.fixture
def service(db_path):
    return GameService(Store(db_path), new_seed=lambda: 3)


@pytest.mark.parametrize("hours", [100_000_000, float("inf"), float("nan"), -1, 0.0001, 0.99])
async def test_reminder_hours_out_of_range_are_refused(service, hours):
    gid = await started(service, ANN, BOB)
    result = await service.set_reminders(gid, ANN, hours)
    assert result.error.startswith("reminder hours are 0 (no reminders) or 1 to 8760 (a year)")
    assert (await service.store.game(gid)).remind_hours is None


async def test_the_reminder_loop_survives_any_stored_value(service):
    good = await started(service, ANN, BOB)
    broken = [await started(service, ANN, CY) for _ in range(4)]
    db = service.store.path
    execute(db, "UPDATE games SET remind_hours = 1e300 WHERE id = ?", [broken[0]])
    execute(db, "UPDATE games SET turn_since = 'yesterday' WHERE id = ?", [broken[1]])
    execute(db, "UPDATE games SET reminded_at = '2029-13-45' WHERE id = ?", [broken[2]])
    execute(
        db, "UPDATE games SET turn_since = '2029-01-01T00:00:00' WHERE id = ?", [broken[3]]
    )  # no time zone: read as UTC
    sweep = await service.sweep(NOW)
    assert {r.game_id for r in sweep.reminders} == {good, broken[0], broken[3]}
    assert sweep.next_due is not None  # broken[0]'s next period, read as a year


def test_settings_refuse_endless_reminder_hours():
    for value in ("inf", "nan", "1e9", "0.0001"):
        with pytest.raises(ConfigError, match=r"RAILCHAT_REMIND_HOURS must be 0 \(no reminders\)"):
            load_settings({"RAILCHAT_REMIND_HOURS": value}, dotenv=NO_DOTENV)
    with pytest.raises(ConfigError, match="RAILCHAT_GUILD"):
        load_settings({"RAILCHAT_GUILD": "9" * 30}, dotenv=NO_DOTENV)


async def test_console_numbers_beyond_sqlite_are_refused(db_path):
    console = Console(GameService(Store(db_path)), io.StringIO())
    huge = "9" * 25
    out = await session(
        console,
        f"/game status game:{huge}",
        f"/game status {'9' * 5000}",
        f"as {huge}: /game list",
        f"/game-admin remind hours:{'9' * 400}",
    )
    assert out == [
        "Refused: game must be a whole number below 9,223,372,036,854,775,808",
        "Refused: game must be a whole number below 9,223,372,036,854,775,808",
        f"Refused: 'as' takes a player number, e.g. as 2: /game status (not '{huge}')",
        f"Refused: hours must be a number, not '{'9' * 30}'",
    ]
    for text in (f"<@{huge}>", "1" * 5000):
        with pytest.raises(ValueError, match="is not a user id"):
            parse_seat_users(text)
    with pytest.raises(ValueError, match="at most 4,000 are read"):
        parse_action('{"type": "pass", "x": "' + "y" * 5000 + '"}')
    with pytest.raises(ValueError, match="nested too deeply to be a move"):
        parse_action('{"type": "bid", "price": ' + "[" * 1980 + "]" * 1980 + "}")


async def test_a_huge_name_is_cut_on_input_and_in_every_image(service):
    giant = Caller(7, "N" * 1_000_000)
    created = await service.create_game(giant, "tally", seats=2)
    [seat] = await service.store.seats(created.game_id)
    assert len(seat.name) == 100 and len(giant.name) == 100
    players = [PlayerInfo(1, "Ann"), PlayerInfo(2, "Bob"), PlayerInfo(3, "Cy")]
    named = [PlayerInfo(1, "N" * 1_000_000), *players[1:]]
    for view in ("sheet", "map", "market"):
        plain = Image.open(io.BytesIO(render_view(create_game("1830", players, {}, 1), view)))
        huge = Image.open(io.BytesIO(render_view(create_game("1830", named, {}, 1), view)))
        assert huge.size == plain.size, view
