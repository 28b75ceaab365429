"""The fake Discord tells the truth: each refusal Discord documents happens, seen through
discord.py's own client (a plain `discord.Client` on the fake), with the exception class,
status and code discord.py gives for Discord's answer, so the fake cannot silently drift."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord
import pytest
from discord.webhook.async_ import async_context, interaction_response_params

from tests.fake_discord import (
    CHANNEL_ID,
    EPHEMERAL,
    FORUM_ID,
    GUILD_ID,
    THREAD_ID,
    UPLOAD_LIMIT,
    FakeDiscord,
    command_interaction,
)
from tests.wire_bot import ANN, BOB, started_fake, until

WINDOW = 0.3  # seconds to answer an interaction (Discord's 3, shortened)


class Client(discord.Client):
    """discord.py's client, keeping the interactions it receives for the test to answer."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.received: asyncio.Queue[discord.Interaction] = asyncio.Queue()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.received.put_nowait(interaction)


@pytest.fixture
async def connected(monkeypatch):
    fake = await started_fake(monkeypatch, WINDOW)
    client = Client()
    client._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(client.start("not-a-real-token"))
    await until(client.is_ready, "the client to be ready")
    yield fake, client
    await client.close()
    await asyncio.wait_for(runner, 10)
    await fake.stop()


async def received(client: Client) -> discord.Interaction:
    return await asyncio.wait_for(client.received.get(), 5)


async def refused(call: Awaitable[Any], kind: type[discord.HTTPException]) -> tuple[int, int]:
    """The status and code of the refusal, raised as exactly `kind`."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    assert type(caught.value) is kind, caught.value
    return caught.value.status, caught.value.code


async def thread(client: Client) -> discord.Thread:
    found = client.get_channel(THREAD_ID)
    assert isinstance(found, discord.Thread)
    return found


# -- interactions ---------------------------------------------------------------------------------
async def test_an_answer_after_the_window_is_an_unknown_interaction(connected) -> None:
    fake, client = connected
    await fake.command(1, ANN, "game", "status")
    interaction = await received(client)
    await asyncio.sleep(WINDOW + 0.1)
    assert await refused(interaction.response.defer(), discord.NotFound) == (404, 10062)
    assert await refused(interaction.followup.send("late"), discord.NotFound) == (404, 10015)
    assert fake.interaction(1).late == [5] and fake.interaction(1).answer is None


async def test_a_second_acknowledgement_is_refused(connected) -> None:
    fake, client = connected
    payload = command_interaction(2, ANN, "game", "status", {})
    await fake.dispatch("INTERACTION_CREATE", payload)
    await fake.dispatch("INTERACTION_CREATE", payload)  # replayed: the same interaction
    first, again = await received(client), await received(client)
    await first.response.defer(ephemeral=True, thinking=True)
    assert await refused(again.response.send_message("again"), discord.HTTPException) == (
        400,
        40060,
    )
    assert fake.interaction(2).answer == 5


async def test_the_original_answer_cannot_be_edited_before_it_is_given(connected) -> None:
    fake, client = connected
    await fake.command(3, ANN, "game", "status")
    interaction = await received(client)
    edit = interaction.edit_original_response(content="too soon")
    assert await refused(edit, discord.NotFound) == (404, 10015)
    await interaction.response.send_message("now")
    await interaction.edit_original_response(content="edited")
    [answer] = fake.posts("tok3")
    assert answer.content == "edited" and answer.edits == 1


async def test_the_first_follow_up_fills_in_a_deferred_answer(connected) -> None:
    fake, client = connected
    await fake.command(4, ANN, "game", "status")
    interaction = await received(client)
    await interaction.response.defer(ephemeral=True, thinking=True)
    [thinking] = fake.posts("tok4")
    assert thinking.loading and thinking.flags & EPHEMERAL and thinking.content == ""
    await interaction.followup.send("first", ephemeral=False)  # the deferral's flag is kept
    later = await interaction.followup.send("second", ephemeral=True, wait=True)
    first, second = fake.posts("tok4")
    assert first is thinking and not first.loading and first.edits == 0
    assert first.content == "first" and first.flags & EPHEMERAL
    assert second.content == "second" and second.id == later.id
    await fake.delete_message(later.id)
    edit = interaction.followup.edit_message(later.id, content="gone")
    assert await refused(edit, discord.NotFound) == (404, 10008)


async def test_follow_ups_work_for_15_minutes(connected) -> None:
    fake, client = connected
    await fake.command(5, ANN, "game", "status")
    interaction = await received(client)
    await interaction.response.send_message("answered")
    await interaction.followup.send("within the quarter of an hour")
    fake.clock.advance(15 * 60 + 1)
    late = interaction.followup.send("too late")
    assert await refused(late, discord.HTTPException) == (401, 50027)
    edit = interaction.edit_original_response(content="too late")
    assert await refused(edit, discord.HTTPException) == (401, 50027)
    assert [m.content for m in fake.posts("tok5")] == ["answered", "within the quarter of an hour"]


async def test_components_carry_their_message_and_are_answered_as_discord_allows(connected):
    fake, client = connected
    menu = [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}]
    row = {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}],
    }
    picks = {"type": 1, "components": [{"type": 3, "custom_id": "pick", "options": menu}]}
    posted = fake.put_message(THREAD_ID, content="choose", components=[row, picks])
    await fake.press(10, ANN, posted.id, "go")
    pressed = await received(client)
    assert pressed.type is discord.InteractionType.component
    assert pressed.message is not None and pressed.message.id == posted.id
    assert pressed.data == {"custom_id": "go", "component_type": 2}
    await pressed.response.defer()  # a deferred update of the message: type 6
    assert fake.interaction(10).answer == 6
    await pressed.edit_original_response(content="going")  # `@original` is the message
    assert posted.content == "going" and posted.edits == 1
    await fake.press(11, BOB, posted.id, "pick", "b")
    picked = await received(client)
    assert picked.data == {"custom_id": "pick", "component_type": 3, "values": ["b"]}
    await picked.response.edit_message(content="picked b")  # an update of the message: 7
    assert posted.content == "picked b" and fake.interaction(11).answer == 7


async def test_callback_types_must_fit_the_interaction(connected) -> None:
    """Deferred update (6) and update (7) only answer components; autocomplete only 8."""
    fake, client = connected
    await fake.command(12, ANN, "game", "status")
    interaction = await received(client)
    for kind in (6, 7, 8):
        answer = async_context.get().create_interaction_response(
            interaction.id,
            interaction.token,
            session=interaction._session,
            params=interaction_response_params(kind, {"choices": []} if kind == 8 else {}),
        )
        assert await refused(answer, discord.HTTPException) == (400, 50035)
    await interaction.response.send_message("a message is fine")
    assert fake.interaction(12).answer == 4


async def test_autocomplete_sends_the_typed_options_and_takes_25_choices(connected) -> None:
    fake, client = connected
    await fake.autocomplete(20, ANN, "play", "bid", "company", company="C", price=5)
    typing = await received(client)
    assert typing.type is discord.InteractionType.autocomplete
    [sub] = typing.data["options"]
    assert [(o["name"], o["value"], o.get("focused", False)) for o in sub["options"]] == [
        ("company", "C", True),
        ("price", 5, False),
    ]
    choices = [discord.app_commands.Choice(name=f"c{n}", value=f"{n}") for n in range(26)]
    too_many = typing.response.autocomplete(choices)
    assert await refused(too_many, discord.HTTPException) == (400, 50035)
    too_long = [discord.app_commands.Choice(name="n" * 101, value="v")]
    assert await refused(typing.response.autocomplete(too_long), discord.HTTPException) == (
        400,
        50035,
    )
    longest = [discord.app_commands.Choice(name="n" * 100, value="v" * 100)] * 25
    await typing.response.autocomplete(longest)
    assert fake.interaction(20).choices == [{"name": "n" * 100, "value": "v" * 100}] * 25


# -- threads --------------------------------------------------------------------------------------
async def test_an_archived_thread_refuses_edits_and_is_unarchived_by_a_post(connected) -> None:
    fake, client = connected
    message = await (await thread(client)).send("hello")
    await fake.archive(THREAD_ID)
    await until(lambda: client.get_channel(THREAD_ID) is None, "THREAD_UPDATE (archived)")
    assert await refused(message.edit(content="x"), discord.HTTPException) == (400, 50083)
    fetched = await client.fetch_channel(THREAD_ID)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    join = fetched.add_user(discord.Object(11))
    assert await refused(join, discord.HTTPException) == (400, 50083)
    await fetched.send("wake up")  # unarchives the thread
    await until(lambda: client.get_channel(THREAD_ID) is not None, "THREAD_UPDATE (active)")
    assert not fake.threads[THREAD_ID]["thread_metadata"]["archived"]
    await message.edit(content="edited")
    assert [m.content for m in fake.posts(THREAD_ID)] == ["edited", "wake up"]


async def test_a_locked_archived_thread_refuses_posts(connected) -> None:
    fake, client = connected
    await fake.archive(THREAD_ID, locked=True)
    fetched = await client.fetch_channel(THREAD_ID)
    assert isinstance(fetched, discord.Thread) and fetched.locked
    assert await refused(fetched.send("hello"), discord.HTTPException) == (400, 50083)
    assert fake.threads[THREAD_ID]["thread_metadata"]["archived"]


async def test_unarchiving_needs_manage_threads_only_when_the_thread_is_locked(connected):
    """Modify Channel: "When setting archived to false, when locked is also false, only the
    SEND_MESSAGES permission is required"; otherwise Manage Threads."""
    fake, client = connected
    await fake.archive(THREAD_ID)
    fetched = await client.fetch_channel(THREAD_ID)
    assert isinstance(fetched, discord.Thread)
    await fetched.edit(archived=False)
    await fetched.add_user(discord.Object(11))
    assert not fake.threads[THREAD_ID]["thread_metadata"]["archived"]
    assert fake.world.members[THREAD_ID] == {11}
    await fake.archive(THREAD_ID, locked=True)
    fake.world.permissions.discard("manage_threads")
    locked = await client.fetch_channel(THREAD_ID)
    assert isinstance(locked, discord.Thread)
    assert await refused(locked.edit(archived=False), discord.Forbidden) == (403, 50013)
    assert fake.threads[THREAD_ID]["thread_metadata"]["archived"]


async def test_a_thread_archives_after_its_auto_archive_duration(connected) -> None:
    fake, client = connected
    message = await (await thread(client)).send("hello")
    fake.clock.advance(10080 * 60)  # a week without activity
    assert await refused(message.edit(content="x"), discord.HTTPException) == (400, 50083)
    assert fake.events[-1]["t"] == "THREAD_UPDATE"
    assert fake.events[-1]["d"]["thread_metadata"]["archived"]


async def test_a_deferred_answer_in_an_archived_thread_is_refused(connected) -> None:
    fake, client = connected
    await fake.command(21, ANN, "game", "status")
    interaction = await received(client)
    await interaction.response.defer(thinking=True)  # seen by everyone in the thread
    await fake.archive(THREAD_ID, locked=True)
    late = interaction.followup.send("answer")
    assert await refused(late, discord.HTTPException) == (400, 50083)


# -- messages -------------------------------------------------------------------------------------
async def test_edits_of_old_messages_past_the_limit_are_refused(connected) -> None:
    fake, client = connected
    message = await (await thread(client)).send("an hour ago")
    fake.limit_old_edits(message.id)
    assert await refused(message.edit(content="x"), discord.HTTPException) == (429, 30046)
    assert len(fake.refused(30046)) == 5  # discord.py waits its retry-after and tries again
    assert fake.posts(THREAD_ID)[0].content == "an hour ago"


async def test_deleted_messages_threads_and_servers_are_unknown(connected) -> None:
    fake, client = connected
    where = await thread(client)
    message = await where.send("soon gone")
    await fake.delete_message(message.id)
    assert await refused(message.edit(content="x"), discord.NotFound) == (404, 10008)
    assert await refused(where.fetch_message(message.id), discord.NotFound) == (404, 10008)
    assert await refused(message.delete(), discord.NotFound) == (404, 10008)
    await fake.delete_channel(THREAD_ID)
    await until(lambda: client.get_channel(THREAD_ID) is None, "THREAD_DELETE")
    assert await refused(where.send("x"), discord.NotFound) == (404, 10003)
    assert await refused(client.fetch_channel(THREAD_ID), discord.NotFound) == (404, 10003)
    assert await refused(where.add_user(discord.Object(11)), discord.NotFound) == (404, 10003)
    await fake.delete_guild()
    await until(lambda: client.get_guild(GUILD_ID) is None, "GUILD_DELETE")
    assert await refused(client.fetch_channel(CHANNEL_ID), discord.NotFound) == (404, 10003)
    assert await refused(client.fetch_guild(GUILD_ID), discord.NotFound) == (404, 10004)


async def test_a_forum_takes_posts_made_with_their_first_message_and_nothing_else(
    connected,
) -> None:
    fake, client = connected
    forum = client.get_channel(FORUM_ID)
    assert isinstance(forum, discord.ForumChannel)
    message = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=FORUM_ID)
    hello = client.http.request(message, json={"content": "hello"})
    assert await refused(hello, discord.HTTPException) == (400, 50008)
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=FORUM_ID)
    bare = client.http.request(route, json={"name": "no message", "auto_archive_duration": 60})
    assert await refused(bare, discord.HTTPException) == (400, 50035)
    empty = forum.create_thread(name="empty", content="")
    assert await refused(empty, discord.HTTPException) == (400, 50035)
    assert await refused(forum.create_thread(name="", content="x"), discord.HTTPException) == (
        400,
        50035,
    )
    made = await forum.create_thread(name="a post", content="first", auto_archive_duration=60)
    post, first = made.thread, made.message
    assert first.id == post.id and first.channel.id == post.id and first.content == "first"
    assert post.parent_id == FORUM_ID and post.type is discord.ChannelType.public_thread
    await until(lambda: client.get_channel(post.id) is not None, "THREAD_CREATE")
    assert isinstance(client.get_channel(post.id).parent, discord.ForumChannel)
    await post.send("second")  # the post is a thread: it takes messages
    edited = await post.get_partial_message(first.id).edit(content="first, edited")
    assert edited.content == "first, edited"
    assert [m.content for m in fake.posts(post.id)] == ["first, edited", "second"]
    assert fake.posts(FORUM_ID) == []
    fake.deny(FORUM_ID, "send_messages")  # a post needs Send Messages, not Create Threads
    denied = forum.create_thread(name="denied", content="x")
    assert await refused(denied, discord.Forbidden) == (403, 50013)
    fake.allow(FORUM_ID)
    fake.deny(FORUM_ID, "create_public_threads")
    await forum.create_thread(name="allowed", content="x")
    fake.require_tags(FORUM_ID)
    untagged = forum.create_thread(name="untagged", content="x")
    assert await refused(untagged, discord.HTTPException) == (400, 40067)
    await fake.archive(post.id)
    starter = post.get_partial_message(first.id).edit(content="x")
    assert await refused(starter, discord.HTTPException) == (400, 50083)
    await fake.delete_channel(FORUM_ID)  # its posts go with it
    assert await refused(post.send("x"), discord.NotFound) == (404, 10003)


async def test_a_thread_started_from_a_message_has_its_id_once(connected) -> None:
    fake, client = connected
    channel = client.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    lobby = await channel.send("lobby")
    made = await channel.create_thread(name="game", message=lobby, auto_archive_duration=60)
    assert made.id == lobby.id and made.parent_id == CHANNEL_ID
    again = channel.create_thread(name="again", message=lobby)
    assert await refused(again, discord.HTTPException) == (400, 160004)
    fake.deny(CHANNEL_ID, "create_public_threads")
    other = await channel.send("other")
    denied = channel.create_thread(name="denied", message=other)
    assert await refused(denied, discord.Forbidden) == (403, 50013)
    await fake.archive(made.id)
    await lobby.edit(content="the starter is in the channel: still editable")
    assert fake.messages[lobby.id].content.startswith("the starter")


async def test_missing_permissions_and_access_are_forbidden(connected) -> None:
    fake, client = connected
    where = await thread(client)
    message = await where.send("before")
    fake.deny(CHANNEL_ID, "send_messages_in_threads")  # the channel's threads inherit it
    assert await refused(where.send("x"), discord.Forbidden) == (403, 50013)
    await message.edit(content="edited")  # editing its own message needs no more
    fake.deny(CHANNEL_ID, "attach_files", "embed_links")
    upload = message.edit(attachments=[discord.File(io.BytesIO(b"png"), "board.png")])
    assert await refused(upload, discord.Forbidden) == (403, 50013)
    embed = message.edit(embed=discord.Embed(title="To act"))
    assert await refused(embed, discord.Forbidden) == (403, 50013)
    assert await refused(where.delete(), discord.Forbidden) == (403, 50013)  # Manage Threads
    await fake.command(30, ANN, "game", "status")
    assert not (await received(client)).app_permissions.attach_files
    assert await client.fetch_channel(THREAD_ID)  # still visible
    fake.deny(THREAD_ID, "view_channel")
    assert await refused(client.fetch_channel(THREAD_ID), discord.Forbidden) == (403, 50001)
    assert await refused(message.edit(content="x"), discord.Forbidden) == (403, 50001)
    fake.allow(CHANNEL_ID)
    fake.allow(THREAD_ID)
    await where.send("after")
    assert [m.content for m in fake.posts(THREAD_ID)] == ["edited", "after"]


async def test_closed_dms_refuse_the_message(connected) -> None:
    fake, client = connected
    fake.add_user(ANN)
    fake.add_user(BOB)
    fake.close_dms(12)
    ann, bob = await client.fetch_user(11), await client.fetch_user(12)
    await ann.send("your move")
    assert await refused(bob.send("your move"), discord.Forbidden) == (403, 50007)
    assert await refused(client.fetch_user(99), discord.NotFound) == (404, 10013)
    assert [m.content for m in fake.messages.values()] == ["your move"]


async def test_a_bot_removed_from_its_server_is_told_and_refused(connected) -> None:
    fake, client = connected
    where = await thread(client)
    await fake.remove_bot()
    await until(lambda: client.get_guild(GUILD_ID) is None, "GUILD_DELETE")
    assert await refused(where.send("x"), discord.Forbidden) == (403, 50001)
    assert await refused(client.fetch_channel(THREAD_ID), discord.Forbidden) == (403, 50001)
    assert await refused(client.fetch_guild(GUILD_ID), discord.Forbidden) == (403, 50001)


async def test_the_fake_refuses_what_discord_refuses() -> None:
    """The limits the other tests rely on: over 2000 characters, 25 menu options or 10 MiB of
    uploads, or a command with a required option after an optional one, Discord answers 400
    or 413."""
    fake = FakeDiscord()
    await fake.start()
    url = f"{fake.base}/api/v10/channels/{THREAD_ID}/messages"
    menu = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "m",
                "options": [{"label": str(n), "value": str(n)} for n in range(26)],
            }
        ],
    }
    try:
        async with aiohttp.ClientSession() as session:
            for payload in ({"content": "x" * 2001}, {"content": "x", "components": [menu]}):
                async with session.post(url, json=payload) as answer:
                    assert answer.status == 400
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "big"}))
            form.add_field("files[0]", b"\0" * (UPLOAD_LIMIT + 1), filename="big.png")
            async with session.post(url, data=form) as answer:
                assert answer.status == 413
            async with session.post(url, json={"content": "x" * 2000}) as answer:
                assert answer.status == 200
            command = {
                "name": "game",
                "description": "d",
                "options": [
                    {"name": "a", "description": "d", "type": 3},
                    {"name": "b", "description": "d", "type": 3, "required": True},
                ],
            }
            async with session.put(
                f"{fake.base}/api/v10/applications/900/commands", json=[command]
            ) as answer:
                assert answer.status == 400
                assert "a required option after an optional one" in (await answer.json())["message"]
    finally:
        await fake.stop()
    assert len(fake.posts(THREAD_ID)) == 1
