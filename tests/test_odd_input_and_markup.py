"""Odd input gets a sentence and changes nothing (dates at the ends of the calendar, custom ids
and menu values no component of the bot's carries, a live replay that starts with an undo or a
redo); names and chat are shown in Discord as written, never as markup, and no post or edit
pings anyone it does not name."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.core.results import Result
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.component_values import NOT_VALID
from engine.eighteen import house_programs as house
from engine.errors import GameError
from engine.game import PlayerInfo
from engine.titles import create_game
from tests.discord_world import make_world, three_players
from tests.fake_discord import THREAD_ID, Posted, user
from tests.test_service_orders import BOB, started
from tests.wire_bot import ANN, answered, bots, settled, thread_posts, until

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


# -- names and chat are text, not markup ---------------------------------------------------------
EVIL = user(13, "# [click](https://evil.example) <@123>")
SHOWN = "\\# \\[click](https://evil.example) <\u200b@123>"  # escaped, the mention broken


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


def _buttons(post: Posted) -> dict[str, str]:
    return {i["label"]: i["custom_id"] for row in post.components for i in row["components"]}


def _pings_nobody_else(body: dict[str, Any], *allowed: int) -> bool:
    mentions = body["allowed_mentions"]
    return mentions["parse"] == [] and {int(u) for u in mentions.get("users", [])} <= set(allowed)


async def test_a_name_written_as_markup_is_shown_as_written(connect) -> None:
    wire = await connect()
    fake = wire.fake
    post = await fake.forum_post(EVIL, "tables", "new table")
    await fake.command(7901, EVIL, "game", "new", where=post, title="tally", seats=2,
                       options="free_for_all=true")  # fmt: skip
    await until(lambda: answered(fake, 7901), "the game opened")
    [tid] = [t for t, data in fake.threads.items() if data["name"].startswith("tally · #")]
    lobby = fake.messages[tid]
    await until(lambda: _buttons(lobby), "the lobby's buttons")
    assert f"Seated: 1. {SHOWN}" in lobby.content.splitlines()
    await fake.press(7902, ANN, lobby.id, _buttons(lobby)["Join"])
    await until(lambda: "2 of 2 seats" in lobby.content, "the lobby edited")
    assert f"Seated: 1. {SHOWN}, 2. ann" in lobby.content.splitlines()
    await fake.press(7903, EVIL, lobby.id, _buttons(lobby)["Start"])
    await until(lambda: "in play" in lobby.content, "the game started")
    game_id = (await wire.service.store.game_by_thread(tid)).id
    for iid, amount in ((7904, 3), (7905, 2)):  # free for all: both moves grow one post
        act = json.dumps({"type": "add", "amount": amount})
        await fake.command(iid, EVIL, "game-admin", "act", where=fake.threads[tid], action=act,
                           game=game_id)  # fmt: skip
    await until(lambda: any("added 3." in p.content for p in fake.posts(tid)), "the move")
    turn = next(p for p in fake.posts(tid) if "added 3." in p.content)
    await until(lambda: "added 2." in turn.content, "the second move edited into the post")
    lines = turn.content.splitlines()
    assert lines[1:3] == [f"{SHOWN} added 3.", f"{SHOWN} added 2."]
    assert lines[0].endswith(
        "Seat order: 1. # \\[click](https://evil.example) <\u200b@123>, 2. ann."
    )
    await settled(fake)
    edits = [c for c in fake.requests if c.method == "PATCH" and "/messages/" in c.path]
    worded = [c.body for c in edits if "content" in (c.body or {})]  # the lobby's, the turn's
    assert len(worded) >= 3 and all(_pings_nobody_else(body) for body in worded), worded
    posted = fake.calls("POST", rf"/channels/{tid}/messages")
    assert all(_pings_nobody_else(c.body, 11, 13) for c in posted)


async def test_a_chat_line_is_shown_as_written(connect) -> None:
    """A line of the thread as the service tells it (a chat line of an imported game's log
    reads "name: what they wrote")."""
    wire = await connect()
    fake = wire.fake
    said = "ann: # big\n> quoted\n```boom``` [x](https://evil.example) <@&5> @everyone"
    wire.bot.poster.queue(Result(said, game_id=wire.game_id, thread_id=THREAD_ID, changed=True))
    await until(lambda: thread_posts(fake), "the chat line posted")
    [post] = fake.posts(THREAD_ID)
    assert post.content.splitlines()[:3] == [
        "ann: # big",
        "\\> quoted",
        "\\`\\`\\`boom\\`\\`\\` \\[x](https://evil.example) <@&5> @everyone",
    ]
    [sent] = fake.calls("POST", rf"/channels/{THREAD_ID}/messages")
    assert _pings_nobody_else(sent.body, 11, 12)
