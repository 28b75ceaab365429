"""A player's turns across all games, their settings, and reminders and direct messages that
respect them (quiet hours, absences), through the service with the Tally title, on SQLite and
PostgreSQL. Every time is passed in (the turn clock is set in the database where a test needs
a known hour)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.store.connection import SqliteBackend
from bot.core.store.migrations import MIGRATIONS, SQLITE, _record_table
from bot.core.turn_list import TurnList
from bot.core.user_settings import DAY as MINUTES
from bot.core.user_settings import UserSettings, first_free, parse_away, parse_quiet_hours
from tests.raw_sql import execute, scalar
from tests.test_service import ANN, BOB, CY, EVE, add, started

MONDAY = datetime(2030, 1, 7, 12, tzinfo=UTC)  # the turn clock of the timed tests
DAY = timedelta(days=1)


@pytest.fixture
def service(make_store):
    return GameService(
        make_store(),
        new_seed=lambda: 4242,
        remind_hours=24,
        game_caps=(1000, 1000),
        clock=lambda: MONDAY,
    )


def link(entry) -> str:
    return f"<{entry.game_id}>"


def at(service: GameService, game_id: int, when: datetime = MONDAY) -> None:
    """Set the game's turn clock (the store writes the wall clock's time)."""
    execute(
        service.store.path,
        "UPDATE games SET turn_since = ? WHERE id = ?",
        [when.isoformat(), game_id],
    )


async def abroad_game(service: GameService) -> int:
    """A game of server 77, Cy's turn, Ann seated."""
    cy, ann = (Caller(c.user_id, c.name, guild_id=77) for c in (CY, ANN))
    created = await service.create_game(cy, "tally", seats=2, guild_id=77, thread_id=7700)
    assert (await service.join(created.game_id, ann)).ok
    assert (await service.start(created.game_id, cy)).ok
    return created.game_id


async def test_turns_list_every_game_of_every_server_yours_first(service):
    mine = await started(service, ANN, BOB)  # Ann to act
    theirs = await started(service, BOB, ANN, CY)  # Bob to act
    abroad = await abroad_game(service)
    paused = await started(service, ANN, CY)
    assert (await service.pause(paused, ANN, True)).ok
    opened = await service.create_game(CY, "tally", seats=3)
    assert (await service.join(opened.game_id, ANN)).ok
    await started(service, BOB, CY)  # Ann is not seated: not hers to see
    for game_id, hours in ((mine, 3), (theirs, 50), (abroad, 1)):
        at(service, game_id, MONDAY - timedelta(hours=hours))
    found = await service.my_turns(ANN.user_id, now=MONDAY)
    assert isinstance(found, TurnList)
    assert found.text(link).splitlines() == [
        "Your games: 5 (your turn in 1):",
        f"**your turn** · #{mine} · tally · waiting 3 h · <{mine}>",
        f"#{theirs} · tally · Bob to act · waiting 2 days · <{theirs}>",
        f"#{abroad} · tally · Cy to act · waiting 1 h · <{abroad}>",
        f"#{paused} · tally · paused · <{paused}>",
        f"#{opened.game_id} · tally · open, 2/3 seated · <{opened.game_id}>",
    ]
    assert (await service.act(mine, ANN, add(1))).ok  # now Bob's turn there
    found = await service.my_turns(ANN.user_id, now=MONDAY)
    assert found.yours == 0 and found.text(link).startswith("Your games: 5 (your turn in none):")
    empty = await service.my_turns(EVE.user_id)
    assert empty.text(link) == "You are not seated in any game that is open or in play."


async def test_turns_come_a_page_at_a_time(service):
    games = [await started(service, BOB, ANN) for _ in range(20)]
    first = await service.my_turns(ANN.user_id, now=MONDAY)
    lines = first.text(link).splitlines()
    assert lines[0] == "Your games: 20 (your turn in none), page 1 of 3:"
    assert len(lines) == 10 and lines[-1] == "… and 12 more: /turns page:2"
    last = await service.my_turns(ANN.user_id, page=3, now=MONDAY)
    assert len(last.entries) == 4 and {e.game_id for e in last.entries} < set(games)
    assert not last.text(link).endswith("/turns page:4")
    refused = await service.my_turns(ANN.user_id, page=4)
    assert refused.error == "there is no page 4: your games fill 3 pages"


async def test_who_must_act_is_stored_with_every_change_of_the_log(service):
    gid = await started(service, ANN, BOB)
    acting = lambda: service.store.game(gid)  # noqa: E731
    assert (await acting()).acting == (1,)
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await acting()).acting == (2,)
    assert (await service.undo(gid, ANN)).ok
    assert (await acting()).acting == (1,)
    assert (await service.redo(gid, ANN)).ok
    assert (await acting()).acting == (2,)
    both = await started(service, ANN, BOB, free_for_all=True)
    assert (await service.store.game(both)).acting == (1, 2)


async def test_a_game_stored_before_who_acts_was_kept_is_worked_out_once(service):
    gid = await started(service, ANN, BOB)
    execute(service.store.path, "UPDATE games SET acting = NULL WHERE id = ?", [gid])
    found = await service.my_turns(ANN.user_id, now=MONDAY)
    assert found.yours == 1
    assert scalar(service.store.path, "SELECT acting FROM games WHERE id = ?", [gid]) == "[1]"


async def test_the_turn_dm_choice_of_before_is_kept(db_path):
    backend = SqliteBackend(str(db_path), busy_timeout=1, durable=False)
    backend.write_now(lambda conn: _record_table(conn, "sqlite"))
    for migration in MIGRATIONS[:10]:  # the schema before players' settings

        def apply(conn, m=migration):
            m(conn, SQLITE)
            conn.execute("INSERT INTO schema_migrations VALUES (?, 'then')", [m.__name__])

        backend.write_now(apply)
    backend.write_now(lambda conn: conn.execute("INSERT INTO notify_prefs VALUES (10, 1), (11, 0)"))
    backend.close()
    store = Store(db_path)
    settings = await store.user_settings([10, 11, 12])
    assert [settings[u].turn_dm for u in (10, 11, 12)] == [True, False, False]
    assert scalar(db_path, "SELECT count(*) FROM sqlite_master WHERE name = 'notify_prefs'") == 0


async def test_settings_are_checked_and_shown(service):
    assert (await service.set_time_zone(ANN, "europe/paris")).text == (
        "Your time zone is Europe/Paris (it is 13:00 there now)."
    )
    assert (await service.set_time_zone(ANN, "Mars/Olympus")).error.startswith(
        "'Mars/Olympus' is not a time zone I know; pick one of the suggestions"
    )
    assert service.time_zones("paris", 25) == ["Europe/Paris"]
    assert (await service.set_quiet_hours(ANN, "23-8")).text == (
        "Quiet hours 23:00-08:00, in Europe/Paris: no direct message and no reminder ping "
        "then; what falls due waits until 08:00."
    )
    for typed, error in (
        ("late", "quiet hours are two times of day such as 23-8 or 22:30-07:00"),
        ("8-8", "quiet hours must start and end at different times"),
        ("25-3", "'25-3' is not a time of day"),
        ("6-4", "quiet hours last at most 18 hours"),
    ):
        assert (await service.set_quiet_hours(ANN, typed)).error.startswith(error), typed
    assert (await service.set_away(ANN, "3 Dec")).text.startswith("You are away until 3 Dec:")
    assert (await service.set_away(ANN, "Jan 2")).text.startswith("You are away until 2 Jan 2031")
    for typed, error in (
        ("2030-01-07", "2030-01-07 is not after today (2030-01-07)"),
        ("2032-01-01", "away at most a year ahead"),
        ("soon", "away until a day such as 2025-12-03"),
    ):
        assert (await service.set_away(ANN, typed)).error.startswith(error), typed
    assert (await service.set_reminder_dm(ANN, True)).ok
    gid = await started(service, ANN, BOB)
    assert (await service.set_turn_dm(ANN, "on", gid)).text == (
        f"I will send you a direct message when it is your turn in game #{gid}."
    )
    assert (await service.set_turn_dm(ANN, "on", 999)).error == "you have no seat in a game #999"
    assert (await service.set_turn_dm(EVE, "off", gid)).error == (
        f"you have no seat in a game #{gid}"
    )
    assert (await service.set_turn_dm(ANN, "default")).error.startswith("default is for one game")
    assert (
        await service.set_turn_dm(ANN, "maybe")
    ).error == "dm is on, off or default, not 'maybe'"
    shown = await service.show_settings(ANN)
    assert shown.text.splitlines() == [
        "Your settings:",
        f"• Direct message when it is your turn: only in game #{gid} (/settings turn-dm)",
        "• Reminders by direct message: on (/settings reminder-dm)",
        "• Time zone: Europe/Paris, where it is 13:00 (/settings timezone)",
        "• Quiet hours: 23:00-08:00 (/settings quiet-hours)",
        "• Away: until 2 Jan 2031 (/settings away)",
    ]
    assert (await service.set_turn_dm(ANN, "on")).text == (
        "I will also send you a direct message when it is your turn."
    )
    assert (await service.set_turn_dm(ANN, "off", gid)).ok
    assert "in all your games but game #" in (await service.show_settings(ANN)).text
    assert (await service.set_turn_dm(ANN, "default", gid)).text == (
        f"Game #{gid} follows your choice for all your games now: direct messages on."
    )


async def test_a_reminder_waits_for_the_end_of_quiet_hours(service):
    gid = await started(service, ANN, BOB)
    at(service, gid)
    assert (await service.set_time_zone(ANN, "Europe/Paris")).ok  # UTC+1 in January
    assert (await service.set_quiet_hours(ANN, "11-14")).ok  # 10:00-13:00 UTC
    due = MONDAY + DAY
    sweep = await service.sweep(due)
    assert sweep.reminders == () and sweep.next_due == due + timedelta(hours=1)
    [reminder] = (await service.sweep(due + timedelta(hours=1))).reminders
    assert reminder.text == f"Reminder: game #{gid} has waited 25 h for Ann."
    assert reminder.ping == (ANN.user_id,)


async def test_overlapping_quiet_hours_remind_whoever_is_awake(service):
    gid = await started(service, ANN, BOB, free_for_all=True)
    at(service, gid)
    assert (await service.set_quiet_hours(ANN, "0-18")).ok  # UTC: no zone set
    assert (await service.set_quiet_hours(BOB, "12-6")).ok
    sweep = await service.sweep(MONDAY + DAY + timedelta(hours=1))  # 13:00: both asleep
    assert sweep.reminders == () and sweep.next_due == MONDAY + DAY + timedelta(hours=6)
    [reminder] = (await service.sweep(MONDAY + DAY + timedelta(hours=6))).reminders
    assert reminder.ping == (ANN.user_id,) and "for Ann, Bob." in reminder.text


async def test_nobody_is_reminded_while_away(service):
    gid = await started(service, ANN, BOB)
    at(service, gid)
    assert (await service.set_away(ANN, "2030-01-10")).ok
    sweep = await service.sweep(MONDAY + DAY)
    assert sweep.reminders == () and sweep.next_due == datetime(2030, 1, 10, tzinfo=UTC)
    prompt = await service.prompt(gid, choices=False)
    assert prompt.away == ("Ann is away until 10 Jan",)
    assert "Ann is away until 10 Jan" in (await service.status(gid)).text
    listing = await service.my_turns(BOB.user_id, now=MONDAY)
    assert "Ann to act · Ann is away until 10 Jan" in listing.text(link)
    [reminder] = (await service.sweep(datetime(2030, 1, 10, tzinfo=UTC))).reminders
    assert reminder.ping == (ANN.user_id,)
    assert (await service.set_away(ANN, "off")).text.startswith("Welcome back")


async def test_programmed_moves_still_run_for_one_away(service):
    """1830: the privates bought one each (cheapest first), B&O parred; Ann, away, programs a
    pass; when the stock round reaches her the program passes for her and the turn goes on."""
    players = (ANN, BOB, CY, EVE)
    by_id = {p.user_id: p for p in players}
    created = await service.create_game(ANN, "1830", seats=4)
    gid = created.game_id
    for p in players[1:]:
        assert (await service.join(gid, p)).ok
    assert (await service.start(gid, ANN)).ok

    async def first_move() -> str:
        prompt = await service.prompt(gid)
        made = await service.play(gid, by_id[prompt.notify[0]], lambda game, ch: ch[0].action)
        assert made.ok, made.error
        return made.text

    for _ in range(7):  # six privates, then Bob pars B&O for BO
        await first_move()
    assert (await service.set_away(ANN, "2030-01-10")).ok
    program = {"type": "program_share_pass", "entity": 1, "entity_type": "player"}
    assert (await service.act(gid, ANN, {**program, "unconditional": True})).ok
    assert (await service.prompt(gid)).notify == (CY.user_id,)  # after Bob, the last buyer
    await first_move()  # Cy
    assert "Programmed moves: Ann passes" in await first_move()  # Eve, then Ann's program
    prompt = await service.prompt(gid)
    assert prompt.notify == (BOB.user_id,) and prompt.away == ()


async def test_later_reminders_come_by_direct_message_to_those_who_take_them(service):
    gid = await started(service, ANN, BOB, CY, free_for_all=True)
    at(service, gid)
    assert (await service.set_reminder_dm(ANN, True)).ok
    [first] = (await service.sweep(MONDAY + DAY)).reminders
    assert first.in_thread and first.ping == (ANN.user_id, BOB.user_id, CY.user_id)
    assert first.messages == ()
    [second] = (await service.sweep(MONDAY + 2 * DAY)).reminders
    assert second.ping == (BOB.user_id, CY.user_id) and second.in_thread
    [dm] = second.messages
    assert (dm.user_id, dm.text) == (
        ANN.user_id,
        f"Reminder: game #{gid} (tally) has waited 2 days for your move",
    )
    for caller in (BOB, CY):
        assert (await service.set_reminder_dm(caller, True)).ok
    [third] = (await service.sweep(MONDAY + 3 * DAY)).reminders
    assert not third.in_thread and len(third.messages) == 3  # no thread post at all


async def test_a_turn_dm_in_quiet_hours_waits_and_lapses_when_the_turn_passed(service):
    gid = await started(service, ANN, BOB)
    for caller in (ANN, BOB):
        assert (await service.set_turn_dm(caller, "on")).ok
        assert (await service.set_quiet_hours(caller, "10-14")).ok
    assert await service.direct_messages(gid, [ANN.user_id], now=MONDAY) == []
    sweep = await service.sweep(MONDAY + timedelta(hours=1))
    assert sweep.messages == () and sweep.next_due == MONDAY + timedelta(hours=2)
    [dm] = (await service.sweep(MONDAY + timedelta(hours=2))).messages
    assert (dm.user_id, dm.text) == (ANN.user_id, f"Your move in game #{gid} (tally)")
    assert (await service.sweep(MONDAY + timedelta(hours=3))).messages == ()  # sent once
    assert await service.direct_messages(gid, [ANN.user_id], now=MONDAY) == []
    assert (await service.act(gid, ANN, add(1))).ok  # her turn passed meanwhile
    assert (await service.sweep(MONDAY + timedelta(hours=2))).messages == ()


async def test_a_held_turn_dm_is_not_sent_once_dms_are_turned_off(service):
    gid = await started(service, ANN, BOB)
    assert (await service.set_turn_dm(ANN, "on")).ok
    assert (await service.set_quiet_hours(ANN, "10-14")).ok
    assert await service.direct_messages(gid, [ANN.user_id], now=MONDAY) == []
    assert (await service.set_turn_dm(ANN, "off", gid)).ok
    assert (await service.sweep(MONDAY + timedelta(hours=2))).messages == ()
    assert await service.store.held_dms() == []  # nothing held any more


async def test_a_turn_dm_sums_up_the_other_games_waiting(service):
    first = await started(service, ANN, BOB)
    second = await started(service, ANN, CY)
    at(service, second, MONDAY - timedelta(hours=5))
    assert (await service.set_turn_dm(ANN, "on")).ok
    [dm] = await service.direct_messages(first, [ANN.user_id, BOB.user_id], now=MONDAY)
    assert dm.user_id == ANN.user_id  # Bob did not ask for them
    assert [(e.game_id, e.waited) for e in dm.others] == [(second, timedelta(hours=5))]


def test_days_are_read_as_people_write_them():
    today = date(2030, 12, 20)
    assert parse_away("3 Jan", today) == date(2031, 1, 3)  # the next such day
    assert parse_away("Dec 24", today) == date(2030, 12, 24)
    assert parse_away("24 December 2030", today) == date(2030, 12, 24)
    assert parse_away("off", today) is None
    assert parse_quiet_hours("22:30 - 7:15") == (22 * 60 + 30, 7 * 60 + 15)
    assert parse_quiet_hours("22 to 24") == (22 * 60, 0)


ZONES = ("UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(ZONES),
            st.integers(0, 23 * 4).map(lambda q: q * 15),
            st.integers(1, 18 * 4).map(lambda q: q * 15),
        ),
        min_size=1,
        max_size=3,
    ),
    st.datetimes(datetime(2030, 1, 1), datetime(2031, 1, 1)).map(lambda d: d.replace(tzinfo=UTC)),
)
def test_quiet_hours_end_when_they_say_across_time_zones_and_clock_changes(spells, due):
    users = [
        UserSettings(n, time_zone=zone, quiet=(start, (start + length) % MINUTES))
        for n, (zone, start, length) in enumerate(spells)
    ]
    for user in users:
        end = user.quiet_ends(due)
        assert due <= end <= due + DAY and not user.quiet_at(end)
        assert end == due or user.quiet_at(end - timedelta(seconds=1))  # no sooner
    free = first_free(users, due)
    if free is not None:
        assert free >= due and not any(u.quiet_at(free) for u in users)
