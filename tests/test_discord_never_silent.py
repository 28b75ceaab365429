"""Nothing silent on Discord (issue 35): when the bot cannot post in a game's thread (a
permission missing, no access, the thread locked or deleted, the server left), the player who
moved is told why in the command's answer, `/game status` says what is wrong and what to
grant until a post succeeds, `/game new` names the permissions it lacks before making
anything, and a deleted thread pauses its game until an admin gives it a new one."""

from __future__ import annotations

import logging

import pytest

from bot.core.service import GameService
from bot.core.store import Store
from tests.fake_discord import CHANNEL_ID, GUILD_ID, THREAD_ID, channel_data
from tests.wire_bot import (
    ANN,
    BOB,
    Wire,
    answered,
    bots,
    move,
    open_game,
    settled,
    thread_posts,
    until,
)


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


async def answers(fake, iid: int, count: int) -> list[str]:
    await until(lambda: len(answered(fake, iid)) >= count, f"{count} answers to {iid}")
    return [a.content for a in answered(fake, iid)]


async def status_of(wire: Wire, iid: int) -> str:
    await wire.fake.command(iid, ANN, "game", "status", where=channel_data(), game=wire.game_id)
    [status] = await answers(wire.fake, iid, 1)
    assert status.startswith(f"Game #{wire.game_id} · tally")
    return status


async def test_a_move_the_thread_refuses_is_told_to_the_player_and_in_status(
    connect, caplog
) -> None:
    """Send Messages in Threads taken away: ann's move is stored and answered "Done", then a
    follow-up names the permission; /game status says it until the thread takes a post again,
    and that post carries the held move too. The refusal is logged as a missing permission."""
    wire = await connect()
    fake = wire.fake
    fake.deny(CHANNEL_ID, "send_messages_in_threads")
    caplog.set_level(logging.WARNING, "bot.discord_ui.post_failures")
    await move(fake, 8001, ANN, 3)
    done, told = await answers(fake, 8001, 2)
    assert done.startswith("Done: ann added 3.")
    assert told == (
        "But I could not post it in the game's thread: I lack Send Messages in Threads there; "
        "an admin can grant it to me in the channel's settings."
    )
    assert thread_posts(fake) == [] and await wire.service.store.action_count(wire.game_id) == 1
    [logged] = [r for r in caplog.records if f"thread {THREAD_ID} " in r.getMessage()]
    assert (
        logged.levelno == logging.WARNING
        and "refuses the bot a permission: Send Messages in Threads (Discord code 50013)"
        in (logged.getMessage())
    )
    status = await status_of(wire, 8002)
    assert "Not posted in the game's thread since " in status
    assert status.endswith(
        "I lack Send Messages in Threads there; an admin can grant it to me in "
        "the channel's settings."
    )
    fake.allow(CHANNEL_ID)
    await move(fake, 8003, BOB, 4)
    assert len(await answers(fake, 8003, 1)) == 1
    await until(lambda: thread_posts(fake), "the held and the new move posted")
    assert thread_posts(fake)[0].splitlines()[:3] == [
        "(Posted late: Discord refused my earlier post here; /game status told why.)",
        "ann added 3.",
        "bob added 4.",
    ]
    await settled(fake)
    assert "Not posted" not in await status_of(wire, 8004)
    assert answered(fake, 8003)[1:] == []  # nothing to tell bob


async def test_no_access_to_the_thread_is_told_as_such(connect, caplog) -> None:
    wire = await connect()
    fake = wire.fake
    fake.deny(CHANNEL_ID, "view_channel")
    caplog.set_level(logging.WARNING, "bot.discord_ui.post_failures")
    await fake.command(
        8011, ANN, "game-admin", "act", where=channel_data(), action='{"type": "add", "amount": 2}'
    )
    done, told = await answers(fake, 8011, 2)
    assert done.startswith("Done (posted in <#")
    assert told.endswith("I may not see it (View Channel); an admin can grant it to me.")
    assert [
        r.levelno
        for r in caplog.records
        if "is out of the bot's access (Discord code 50001)" in r.getMessage()
    ] == [logging.WARNING]
    failure = await wire.service.post_failure(wire.game_id)
    assert failure is not None and (failure.kind, failure.code) == ("access", 50001)


async def test_game_new_names_the_permissions_it_lacks_and_makes_nothing(connect) -> None:
    """Without Send Messages in Threads and Embed Links in the channel a game could be opened
    but never played: /game new names both, and posts, opens and stores nothing."""
    wire = await connect()
    fake = wire.fake
    fake.deny(CHANNEL_ID, "send_messages_in_threads", "embed_links")
    before = len(fake.threads)
    await fake.command(8021, ANN, "game", "new", where=channel_data(), title="tally", seats=2)
    [answer] = await answers(fake, 8021, 1)
    assert answer == (
        "Refused: I lack Send Messages in Threads and Embed Links in this channel, which a "
        "game needs; an admin can grant them to me in the channel's settings"
    )
    await settled(fake)
    assert fake.posts(CHANNEL_ID) == [] and len(fake.threads) == before
    assert [g.id for g in await wire.service.store.games()] == [wire.game_id]


async def test_a_deleted_thread_pauses_the_game_until_it_gets_a_new_one(connect) -> None:
    wire = await connect()
    fake = wire.fake
    await move(fake, 8031, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    await fake.delete_channel(THREAD_ID)
    await until(lambda: fake.posts(CHANNEL_ID), "the notice in the channel")
    [notice] = fake.posts(CHANNEL_ID)
    assert notice.content == (
        f"The thread of game #{wire.game_id} (tally) was deleted, so the game is paused. A "
        "member with Manage Threads can give it a new thread here with `/game-admin thread "
        f"game:{wire.game_id}`; the game goes on there where it stopped."
    )
    assert (await wire.service.store.game(wire.game_id)).paused
    assert "it was deleted; an admin can open a new one with /game-admin thread" in (
        await status_of(wire, 8032)
    )
    await fake.command(8033, ANN, "game-admin", "thread", where=channel_data(), game=wire.game_id)
    [done] = await answers(fake, 8033, 1)
    record = await wire.service.store.game(wire.game_id)
    assert not record.paused and record.thread_id not in (None, THREAD_ID)
    assert done.startswith(f"Done (posted in <#{record.thread_id}>): ann moved game #")
    await until(lambda: thread_posts(fake, record.thread_id), "the turn post in the new thread")
    assert thread_posts(fake, record.thread_id)[0].splitlines() == [
        f"ann moved game #{wire.game_id} to this thread. It goes on here.",
        "To act: bob",
    ]
    assert fake.world.members[record.thread_id] >= {11, 12}  # the seated players follow it
    await move(fake, 8034, BOB, 4)  # played in the new thread
    await until(lambda: "bob added 4." in thread_posts(fake, record.thread_id)[-1], "bob's move")
    assert await wire.service.post_failure(wire.game_id) is None


async def test_a_server_that_removed_the_bot_has_its_games_paused(connect) -> None:
    wire = await connect()
    await wire.fake.remove_bot()
    await until(lambda: wire.bot.get_guild(GUILD_ID) is None, "GUILD_DELETE")
    await settled(wire.fake)
    assert (await wire.service.store.game(wire.game_id)).paused
    failure = await wire.service.post_failure(wire.game_id)
    assert failure is not None and failure.kind == "removed"


async def test_a_late_success_does_not_clear_a_deleted_thread(db_path) -> None:
    """A post that succeeded just before its thread was deleted may be stored after the
    deletion: it clears a refusal, never the thread's loss (only a new thread does)."""
    service = GameService(Store(db_path))
    try:
        game_id = await open_game(service, THREAD_ID)
        await service.post_failed(game_id, "gone", 10003)
        await service.post_succeeded(game_id)
        assert (await service.post_failure(game_id)).kind == "gone"
        await service.store.move_thread(game_id, CHANNEL_ID, 4242)
        assert await service.post_failure(game_id) is None
        await service.post_failed(game_id, "permission", 50013, "Embed Links")
        await service.post_succeeded(game_id)
        assert await service.post_failure(game_id) is None
    finally:
        service.store.close()
