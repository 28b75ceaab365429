"""The lobby at the wire: the real bot on the fake Discord opens games in a text channel and in a
forum channel, its lobby buttons are pressed by the creator and by strangers (before and after
a restart), and the lobby message is edited in place, or let go when Discord says its channel
is gone; what users see is checked."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests.fake_discord import (
    CHANNEL_ID,
    EPHEMERAL,
    FORUM_ID,
    THREAD_ID,
    FakeDiscord,
    Posted,
    channel_data,
)
from tests.wire_bot import (
    ANN,
    BOB,
    Wire,
    answered,
    bots,
    settled,
    started_fake,
    thread_posts,
    until,
)

CY = {**BOB, "id": "13", "username": "cy", "global_name": "cy"}


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


async def answer_of(fake: FakeDiscord, iid: int) -> str:
    await until(lambda: answered(fake, iid), f"the answer to interaction {iid}")
    [answer] = answered(fake, iid)
    assert answer.flags & EPHEMERAL  # only the user who acted sees it
    return answer.content


def buttons(post: Posted) -> dict[str, str]:
    """The post's buttons by label (not its menu)."""
    return {
        i["label"]: i["custom_id"]
        for row in post.components
        for i in row["components"]
        if i["type"] == 2
    }


async def forum_game(wire: Wire, iid: int) -> tuple[int, int]:
    """A three-seat game ann opens from a post of the forum: its post's id and its number,
    once its lobby shows its buttons."""
    fake = wire.fake
    post = await fake.forum_post(ANN, "tables", "new table")
    await fake.command(iid, ANN, "game", "new", where=post, title="tally", seats=3)
    await answer_of(fake, iid)
    [tid] = [t for t, data in fake.threads.items() if data["name"] == "tally · ann's game"]
    record = await wire.service.store.game_by_thread(tid)
    assert record is not None
    await until(lambda: buttons(fake.messages[tid]), "the lobby's buttons")
    return tid, record.id


async def test_a_game_in_a_forum_is_a_post_whose_first_message_is_its_lobby(connect) -> None:
    wire = await connect()
    fake = wire.fake
    post = await fake.forum_post(ANN, "looking for players", "anyone for tally?")
    await fake.command(7801, ANN, "game", "new", where=post, title="tally", seats=2)
    answer = await answer_of(fake, 7801)
    [made] = fake.calls("POST", rf"/channels/{FORUM_ID}/threads")
    assert made.body["name"] == "tally · ann's game" and made.body["message"]["content"]
    [tid] = [t for t, data in fake.threads.items() if data["name"] == "tally · ann's game"]
    game_id = (await wire.service.store.game_by_thread(tid)).id
    assert answer == f"Game #{game_id} is open in <#{tid}>."
    assert fake.threads[tid]["parent_id"] == str(FORUM_ID)
    lobby = fake.messages[tid]  # the post's first message, with the post's id
    await until(lambda: buttons(lobby), "the lobby's buttons")
    assert lobby.content.splitlines()[0] == (
        f"**Game #{game_id} · tally** · open: 1 of 2 seats taken (2 needed to start)"
    )
    assert list(buttons(lobby)) == ["Join", "Leave", "Start"]
    assert (await wire.service.store.game(game_id)).channel_id == FORUM_ID
    # a stranger joins from the lobby, then tries to start: refused, privately
    await fake.press(7802, BOB, lobby.id, buttons(lobby)["Join"])
    assert (await answer_of(fake, 7802)).startswith("Done: bob joined game")
    await until(lambda: "2 of 2 seats" in lobby.content, "the lobby showing bob's seat")
    assert fake.calls("PUT", rf"/channels/{tid}/thread-members/12")  # bob follows the post
    await fake.press(7803, BOB, lobby.id, buttons(lobby)["Start"])
    assert await answer_of(fake, 7803) == (
        f"Refused: only the creator of game #{game_id} or a server admin can start it"
    )
    await fake.press(7804, CY, lobby.id, buttons(lobby)["Join"])
    assert await answer_of(fake, 7804) == f"Refused: game #{game_id} is full (2/2 seats taken)"
    await fake.press(7805, ANN, lobby.id, buttons(lobby)["Start"])
    assert (await answer_of(fake, 7805)).startswith("Done: Game #")
    await until(lambda: "in play" in lobby.content, "the lobby showing the game started")
    assert lobby.components == []
    # the game is played in the post: turn posts and their buttons work there
    act = json.dumps({"type": "add", "amount": 2})
    await fake.command(7806, ANN, "game-admin", "act", where=fake.threads[tid], action=act)
    await until(lambda: any("ann added 2." in p for p in thread_posts(fake, tid)), "the move")
    await until(lambda: "To act: bob" in lobby.content, "the lobby naming who acts")
    turn = next(p for p in fake.posts(tid) if "ann added 2." in p.content)
    await fake.press(7807, BOB, turn.id, buttons(turn)["pass"])
    assert await answer_of(fake, 7807) == "Done: bob passed."
    await until(lambda: "To act: ann" in lobby.content, "the lobby after bob's pass")
    await settled(fake)
    assert fake.posts(FORUM_ID) == [] and not fake.refused(50008)
    assert lobby.edits >= 4  # edited in place each time, never posted again
    assert [p.id for p in fake.posts(tid)][0] == tid


async def test_a_forum_that_requires_tags_is_refused_clearly(connect) -> None:
    wire = await connect()
    fake = wire.fake
    post = await fake.forum_post(ANN, "tables", "new table")
    fake.require_tags(FORUM_ID)
    await fake.command(7851, ANN, "game", "new", where=post, title="tally", seats=2)
    assert await answer_of(fake, 7851) == (
        "Refused: this forum requires a tag on every post and I set none; an admin can turn "
        'off its "Require tags to post" setting'
    )
    assert [r.code for r in fake.calls("POST", rf"/channels/{FORUM_ID}/threads -> 400")] == [40067]
    assert len(fake.threads) == 2 and len(await wire.service.store.games()) == 1


async def test_the_lobby_buttons_work_after_a_restart(db_path, monkeypatch) -> None:
    fake = await started_fake(monkeypatch)

    async def running() -> tuple[RailchatBot, asyncio.Task[None], Store]:
        store = Store(db_path)
        bot = RailchatBot(GameService(store), post_delay=0.01)
        bot._connection.guild_ready_timeout = 0.05
        runner = asyncio.create_task(bot.start("not-a-real-token"))
        await until(bot.is_ready, "the bot to be ready")
        return bot, runner, store

    bot, runner, store = await running()
    await fake.command(7901, ANN, "game", "new", where=channel_data(), title="tally", seats=2)
    await answer_of(fake, 7901)
    [lobby] = fake.posts(CHANNEL_ID)
    await until(lambda: buttons(lobby), "the lobby's buttons")
    await bot.close()
    await asyncio.wait_for(runner, 10)
    store.close()
    bot, runner, store = await running()  # a new process: nothing of the lobby in memory
    try:
        await fake.press(7902, BOB, lobby.id, buttons(lobby)["Join"])
        assert (await answer_of(fake, 7902)).startswith("Done (posted in <#")
        await until(lambda: "2 of 2 seats" in lobby.content, "the lobby edited after the restart")
        await fake.press(7903, ANN, lobby.id, buttons(lobby)["Start"])
        await until(lambda: "in play" in lobby.content, "the start in the lobby")
        await settled(fake)
        assert fake.posts(CHANNEL_ID) == [lobby]  # the same message, edited
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)
        await fake.stop()
        store.close()


async def test_a_lobby_whose_channel_was_deleted_is_let_go(connect) -> None:
    """A moderator deletes the forum post a game's lobby is in; the next change's edit is
    refused (Unknown Channel), so the lobby is let go: nothing is posted anywhere instead, and
    the game goes on (bob's join is stored and answered, and he is told the thread is gone)."""
    wire = await connect()
    fake = wire.fake
    tid, game_id = await forum_game(wire, 7951)
    fake.world.delete_channel(tid)
    held = fake.world.outbox.pop()  # its THREAD_DELETE is late: the bot still knows the post
    assert held[0] == "THREAD_DELETE"
    await fake.command(7952, BOB, "game", "join", where=fake.threads[THREAD_ID], game=game_id)
    await until(lambda: len(answered(fake, 7952)) == 2, "bob told that the thread is gone")
    done, gone = [a.content for a in answered(fake, 7952)]
    assert done.startswith("Done (posted in <#")
    assert gone.startswith("But I could not post it in the game's thread: it was deleted")
    edit = rf"/channels/{tid}/messages/{tid} -> 404"
    await until(lambda: fake.calls("PATCH", edit), "Discord refusing the lobby's edit")
    assert [r.code for r in fake.calls("PATCH", edit)] == [10003]
    await fake.dispatch(*held)
    await settled(fake)
    assert await wire.service.lobby_post(game_id) is None
    assert [s.name for s in await wire.service.store.seats(game_id)] == ["ann", "bob"]
    before = len(fake.requests)
    await fake.command(7953, CY, "game", "join", where=fake.threads[THREAD_ID], game=game_id)
    await until(lambda: len(answered(fake, 7953)) == 2, "cy told that the thread is gone")
    await settled(fake)
    later = [r for r in fake.requests[before:] if r.path.startswith(f"/channels/{tid}/messages")]
    assert [r for r in later if r.method == "PATCH"] == []  # no more edits of the lost lobby


async def test_the_game_option_is_suggested_over_the_wire(connect) -> None:
    wire = await connect()
    fake = wire.fake
    await fake.command(7971, CY, "game", "new", where=channel_data(), title="tally", seats=4)
    await answer_of(fake, 7971)
    [open_id] = [g.id for g in await wire.service.store.games() if g.id != wire.game_id]
    for iid, who, typed, expected in (
        (
            7972,
            ANN,
            "",
            [f"#{wire.game_id} · tally · your turn", f"#{open_id} · tally · open, 1 of 4 seats"],
        ),
        (
            7973,
            BOB,
            "",
            [
                f"#{wire.game_id} · tally · waiting for ann",
                f"#{open_id} · tally · open, 1 of 4 seats",
            ],
        ),
        (7974, BOB, str(open_id), [f"#{open_id} · tally · open, 1 of 4 seats"]),
    ):
        await fake.autocomplete(iid, who, "game", "join", "game", where=channel_data(), game=typed)
        await until(lambda iid=iid: fake.interaction(iid).answer, "the suggestions")
        choices = fake.interaction(iid).choices or []
        assert [c["name"] for c in choices] == expected
    [pick] = fake.interaction(7974).choices or []
    await fake.command(7975, BOB, "game", "join", where=channel_data(), game=pick["value"])
    assert (await answer_of(fake, 7975)).startswith("Done (posted in <#")
    await settled(fake)
    assert len(await wire.service.store.seats(open_id)) == 2


async def test_a_locked_thread_is_left_locked_when_a_player_joins(connect) -> None:
    """A moderator locked the archived post: the bot does not try to open it (only moderators
    may); bob is seated all the same, his joining the thread refused is logged, and he is told
    that the post of his join could not be made there (the thread is locked)."""
    wire = await connect()
    fake = wire.fake
    tid, game_id = await forum_game(wire, 7991)
    await settled(fake)
    await fake.archive(tid, locked=True)
    await fake.command(7992, BOB, "game", "join", where=fake.threads[THREAD_ID], game=game_id)
    await until(lambda: len(answered(fake, 7992)) == 2, "bob told that the thread is locked")
    done, locked = [a.content for a in answered(fake, 7992)]
    assert done.startswith("Done") and "it is locked; a moderator can unlock it" in locked
    await settled(fake)
    assert not [r for r in fake.requests if r.method == "PATCH" and r.path == f"/channels/{tid}"]
    assert fake.threads[tid]["thread_metadata"]["locked"] and 12 not in fake.world.members.get(
        tid, set()
    )
    assert len(await wire.service.store.seats(game_id)) == 2


async def test_a_lobby_in_an_archived_post_is_kept_up_to_date(connect) -> None:
    """The game's post archived (a week without a message): bob's join opens it again (an
    archived thread takes no members: 50083) and adds him, so its pings reach him; the lobby
    is then edited in place."""
    wire = await connect()
    fake = wire.fake
    tid, game_id = await forum_game(wire, 7981)
    lobby = fake.messages[tid]
    await settled(fake)
    await fake.archive(tid)
    await fake.command(7982, BOB, "game", "join", where=fake.threads[THREAD_ID], game=game_id)
    await answer_of(fake, 7982)
    await until(lambda: "2 of 3 seats" in lobby.content, "the lobby edited")
    await settled(fake)
    assert [r.path for r in fake.refused(50083)] == [f"/channels/{tid}/thread-members/12 -> 400"]
    assert not fake.threads[tid]["thread_metadata"]["archived"]
    assert 12 in fake.world.members[tid]
    assert [p.id for p in fake.posts(tid) if p.content.startswith("**Game")] == [tid]
    assert await wire.service.lobby_post(game_id) == (tid, tid)
