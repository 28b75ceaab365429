"""Odd input gets a sentence and changes nothing (dates at the ends of the calendar, custom ids
and menu values no component of the bot's carries, a live replay that starts with an undo or a
redo); names and chat are shown in Discord as written, never as markup, and no post or edit
pings anyone it does not name."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import cli
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.component_values import NOT_VALID
from engine.eighteen import house_programs as house
from engine.errors import GameError
from engine.game import PlayerInfo
from engine.titles import create_game
from tests.discord_world import make_world, three_players
from tests.test_service_orders import BOB, started

HUGE = str(2**63)  # one past the store's integers


# -- dates at the ends of the calendar ----------------------------------------------------------
@pytest.fixture
def service(db_path):
    return GameService(
        Store(db_path), new_seed=lambda: 1, clock=lambda: datetime(2030, 1, 1, tzinfo=UTC)
    )


@pytest.mark.parametrize(
    ("until", "refusal"),
    [
        ("9999-12-31T23:59-05:00", "'9999-12-31T23:59-05:00' is not a date; give one like "
         "2030-06-01 (UTC), after now and by 2031-01-02"),
        ("0001-01-01T00:00+05:00", "'0001-01-01T00:00+05:00' is not a date; give one like "
         "2030-06-01 (UTC), after now and by 2031-01-02"),
        ("9999-12-31", "9999-12-31 is too far ahead; give a date by 2031-01-02 (a year from "
         "now, UTC)"),
        ("0001-01-01", "0001-01-01 00:00 UTC has passed; give a date still to come"),
        ("99999 days", "'99999 days' is not a date"),
    ],
)  # fmt: skip
async def test_an_away_program_ending_at_the_calendars_ends_is_refused(service, until, refusal):
    gid = await started(service)
    version = (await service.store.game(gid)).version
    result = await service.set_order(gid, BOB, "away", until=until)
    assert result.error == refusal or (result.error or "").startswith(refusal), result.error
    assert (await service.store.game(gid)).version == version


@pytest.mark.parametrize("until", ["9999-12-31T23:59-05:00", "0001-01-01T00:00+05:00"])
def test_an_away_action_past_the_calendar_is_refused_by_the_engine(until: str) -> None:
    game = create_game("1830", [PlayerInfo(i, f"p{i}") for i in (1, 2, 3)], {})
    with pytest.raises(GameError) as refused:
        game.process(
            {"type": house.SET, "entity": 2, "entity_type": "player", "program": house.AWAY,
             "until": until}
        )  # fmt: skip
    assert (
        str(refused.value) == f"an away program ends at a date like 2030-06-01 (UTC), not {until!r}"
    )
    assert game.actions == []


# -- custom ids and menu values no component carries --------------------------------------------
@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


@pytest.mark.parametrize(
    "custom_id",
    [f"rc:m:1:{HUGE}:pass", f"rc:m:{HUGE}:1:pass", f"rc:g:{HUGE}:join", f"rc:u:{HUGE}:yes",
     f"rc:i:{HUGE}:no", f"rc:x:1:{HUGE}", f"rc:a:{HUGE}:pause", f"rc:v:{HUGE}:board"],
)  # fmt: skip
async def test_a_forged_button_past_the_stores_integers_gets_a_sentence(world, custom_id):
    thread = await three_players(world)
    version = (await world.bot.service.store.game(1)).version
    sent = await world.press(custom_id, world.interaction(1, where=thread.id, admin=True))
    assert sent[-1].text == NOT_VALID
    assert (await world.bot.service.store.game(1)).version == version


@pytest.mark.parametrize(
    ("custom_id", "value"),
    [("rc:ah:1", "soon"), ("rc:ah:1", "nan"), ("rc:ar:1", "x"), ("rc:ar:1", HUGE),
     ("rc:as:1", "-1"), ("rc:ac:1", "2"), ("rc:ac:1", f"{HUGE}:on"), ("rc:ac:1", "x:off"),
     (f"rc:s:1:{HUGE}", "~000000000000"), (f"rc:au:1:{HUGE}", "1")],
)  # fmt: skip
async def test_a_forged_menu_pick_gets_a_sentence(world, custom_id, value):
    thread = await three_players(world)
    version = (await world.bot.service.store.game(1)).version
    sent = await world.select(
        custom_id, [], value, world.interaction(1, where=thread.id, admin=True)
    )
    assert sent[-1].text == NOT_VALID
    assert (await world.bot.service.store.game(1)).version == version


async def test_an_honest_reminder_pick_still_works(world):
    thread = await three_players(world)
    sent = await world.select("rc:ah:1", [], "24.0", world.interaction(1, where=thread.id))
    assert sent[-1].text.startswith("Done"), sent[-1].text


# -- a live replay that starts with an undo or a redo -------------------------------------------
@pytest.mark.parametrize(
    ("kind", "why"),
    [("undo", "an undo before any move: nothing to take back"),
     ("redo", "a redo with no undo before it: nothing to redo")],
)  # fmt: skip
def test_a_live_replay_starting_with_undo_or_redo_says_so(tmp_path: Path, capsys, kind, why):
    source = min(
        Path("tests/data/fixtures/programmed").glob("*.json"), key=lambda p: p.stat().st_size
    )
    data = json.loads(source.read_text())
    first = {"type": kind, "entity": data["players"][0]["id"], "entity_type": "player", "id": 9}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({**data, "actions": [first, *data["actions"][:3]]}))
    assert cli.main(["replay", "--live", str(path)]) == 1
    assert capsys.readouterr().err.strip() == f"illegal action at index 0 (id 9, {kind}): {why}"
