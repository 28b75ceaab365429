"""`/turns` and `/settings` through the real command tree (Discord offline), in a server and in
a direct message with the bot; reminders and turn messages sent by direct message, and a user
whose direct messages are closed."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from unittest.mock import AsyncMock

import discord
import pytest

from bot.core.user_settings import day_label
from tests.discord_world import GUILD, Sent, make_world, posts, three_players
from tests.test_discord import ADD4, started_game


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


def in_dm(world, user: int, **typed):
    """An interaction in the user's direct messages with the bot: no server."""
    return world.interaction(user, guild=None, **typed)


async def test_turns_lists_the_games_with_links_in_a_server_and_in_a_dm(world):
    game_id, thread = await started_game(world)  # user1 to act
    link = f"https://discord.com/channels/{GUILD}/{thread.id}"
    sent = await world.run("turns", world.interaction(1), group=None, page=None)
    [answer] = sent
    assert answer.ephemeral
    assert answer.text.splitlines() == [
        "Your games: 1 (your turn in 1):",
        f"**your turn** · #{game_id} · tally · waiting 0 min · {link}",
    ]
    sent = await world.run("turns", in_dm(world, 2), group=None, page=None)
    assert sent[-1].text.splitlines()[1] == (
        f"#{game_id} · tally · user1 to act · waiting 0 min · {link}"
    )
    sent = await world.run("turns", in_dm(world, 2), group=None, page=2)
    assert sent == [Sent("Refused: there is no page 2: your games fill 1 page", True)]
    stranger = await world.run("turns", in_dm(world, 77), group=None, page=None)
    assert stranger == [Sent("You are not seated in any game that is open or in play.", True)]


async def test_settings_in_a_dm_refuse_what_they_cannot_take(world):
    sent = await world.run("timezone", in_dm(world, 2), group="settings", zone="Moon/Base")
    assert sent[-1].text.startswith("Refused: 'Moon/Base' is not a time zone I know")
    picked = await world.suggest("timezone", "zone", in_dm(world, 2), "new_y", group="settings")
    assert [c.value for c in picked] == ["America/New_York"]
    sent = await world.run("timezone", in_dm(world, 2), group="settings", zone="America/New_York")
    assert sent[-1].text.startswith("Your time zone is America/New_York (it is ")
    sent = await world.run("quiet-hours", in_dm(world, 2), group="settings", hours="whenever")
    assert sent[-1].text.startswith("Refused: quiet hours are two times of day")
    sent = await world.run("quiet-hours", in_dm(world, 2), group="settings", hours="22-7")
    assert sent[-1].text.startswith("Quiet hours 22:00-07:00, in America/New_York:")
    sent = await world.run("away", in_dm(world, 2), group="settings", until="yesterday")
    assert sent[-1].text.startswith("Refused: away until a day such as 2025-12-03")
    sent = await world.run("turn-dm", in_dm(world, 2), group="settings", dm="on", game=41)
    assert sent == [Sent("Refused: you have no seat in a game #41", True)]
    sent = await world.run("show", in_dm(world, 2), group="settings")
    assert "• Quiet hours: 22:00-07:00" in sent[-1].text
    assert "• Time zone: America/New_York" in sent[-1].text


async def test_turn_dm_for_one_game_is_offered_the_caller_s_games(world):
    game_id, thread = await started_game(world)
    asking = world.interaction(2, where=thread.id)
    picked = await world.suggest("turn-dm", "game", asking, "", group="settings")
    assert [(c.name, c.value) for c in picked] == [(f"#{game_id} · tally", game_id)]
    assert await world.suggest("turn-dm", "game", world.interaction(77), "", "settings") == []
    await world.run("turn-dm", world.interaction(2), group="settings", dm="on", game=game_id)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    assert world.dms == [(2, f"Your move in game #{game_id} (tally): {thread.jump_url}")]


async def test_an_absence_shows_in_the_turn_prompt(world):
    game_id, thread = await started_game(world)
    today = datetime.now(UTC).date()
    back = today + timedelta(days=3)
    sent = await world.run("away", world.interaction(2), group="settings", until=back.isoformat())
    assert sent[-1].text.startswith(f"You are away until {day_label(back, today)}:")
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=ADD4)
    assert posts(thread)[-1].text.endswith(
        f"To act: <@2>\nuser2 is away until {day_label(back, today)}."
    )


async def test_reminders_reach_the_thread_then_the_dms_of_those_who_take_them(world):
    thread = await three_players(world)
    await world.run("reminder-dm", world.interaction(1), group="settings", dm="on")
    since = datetime.fromisoformat((await world.bot.service.store.game(1)).turn_since)
    first = await world.bot.send_reminders(since + timedelta(hours=24))
    assert len(first.reminders) == 1 and world.dms == []
    assert thread.send.call_args.args[0] == "Reminder: game #1 has waited 24 h for user1.\n<@1>"
    thread.send.reset_mock()
    await world.bot.send_reminders(since + timedelta(hours=48))
    assert thread.send.call_count == 0  # by direct message only
    link = f"https://discord.com/channels/{GUILD}/{thread.id}"
    assert world.dms == [(1, f"Reminder: game #1 (tally) has waited 2 days for your move: {link}")]


async def test_closed_dms_are_logged_and_change_nothing(world, caplog):
    thread = await three_players(world)
    await world.run("reminder-dm", world.interaction(1), group="settings", dm="on")
    closed = discord.Forbidden(
        SimpleNamespace(status=403, reason="Forbidden"),
        {"code": 50007, "message": "Cannot send messages to this user"},
    )
    world.bot.get_user = lambda user_id: SimpleNamespace(
        id=user_id, send=AsyncMock(side_effect=closed)
    )
    since = datetime.fromisoformat((await world.bot.service.store.game(1)).turn_since)
    thread.send.reset_mock()
    await world.bot.send_reminders(since + timedelta(hours=24))
    with caplog.at_level(logging.INFO, logger="bot.discord_ui.direct"):
        second = await world.bot.send_reminders(since + timedelta(hours=48))
    assert len(second.reminders) == 1 and second.next_due == since + timedelta(hours=72)
    assert "no DM to user 1: their direct messages are closed" in caplog.text
    assert (await world.bot.send_reminders(since + timedelta(hours=49))).reminders == ()
    assert thread.send.call_count == 1  # the first reminder; the second was a DM


async def test_a_turn_message_held_through_quiet_hours_carries_the_turn_prompt(world):
    """Sent hours after the move, it shows the prompt as the thread does (who, which step)."""
    await world.run("new", world.interaction(1), title="1830", seats=2)
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    now = datetime.now(UTC)
    quiet = f"{(now.hour - 1) % 24}-{(now.hour + 2) % 24}"
    await world.run("turn-dm", world.interaction(2), group="settings", dm="on")
    await world.run("quiet-hours", world.interaction(2), group="settings", hours=quiet)
    world.dms.clear()
    await world.play("pass", world.interaction(1, where=thread.id), game=None)
    await world.bot.poster.drain()
    assert world.dms == []  # held until their quiet hours end
    await world.bot.send_reminders(now + timedelta(hours=3))
    [(user, text, title)] = world.dms
    assert user == 2 and text.startswith("Your move in game #1 (1830)")
    assert title == "To act: user2"
