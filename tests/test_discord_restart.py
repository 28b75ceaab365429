"""The thread poster across a restart of the bot (Discord offline): the turn's post is stored,
so a new bot process on the same database goes on editing it, re-uploads no image that did
not change, and starts a new post only when the stored one was deleted."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from tests.discord_world import World, make_world, posts

ADD = '{"type": "add", "amount": %d, "entity": %d, "entity_type": "player"}'


def still_renderer(game, view: str, *focus: object) -> bytes:
    """The same picture whatever the position (so an unchanged image can be recognised)."""
    buffer = BytesIO()
    Image.new("RGB", (3, 3), (10, 20, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


async def restarted(world: World, db_path, **kwargs) -> World:
    """A new bot process on the same database and the same Discord threads."""
    again = await make_world(db_path, **kwargs)
    again.threads.update(world.threads)
    return again


async def both_acting(world: World):
    """A started two-seat Tally game where both seats act at once (one long turn)."""
    await world.run("new", world.interaction(1), title="tally", seats=2, options="free_for_all")
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    del thread.messages[:-1]  # the start's post (the turn's) is the thread's last
    return thread


async def act(world: World, thread, user: int, amount: int) -> None:
    sent = await world.run(
        "act", world.interaction(user, where=thread.id), game=None, action=ADD % (amount, user)
    )
    assert sent[-1].text.startswith("Done"), sent


async def test_a_restarted_bot_goes_on_editing_the_turns_post(db_path):
    world = await make_world(db_path, renderer=still_renderer)
    thread = await both_acting(world)
    await act(world, thread, 1, 4)
    [message] = thread.messages
    assert message.edits == 1 and message.uploads == [("board.png", len(still_renderer(0, "")))]

    world = await restarted(world, db_path, renderer=still_renderer)
    await act(world, thread, 2, 3)
    assert thread.messages == [message]  # no new post: the stored one was edited
    assert message.edits == 2
    assert message.content.endswith("user1 added 4.\nuser2 added 3.\nTo act: user1, user2")
    assert message.pinged == [1, 2]  # the start's mention, not repeated
    assert len(message.uploads) == 1 and list(message.files) == ["board.png"]  # kept, not resent


async def test_a_changed_image_is_uploaded_again_after_a_restart(db_path):
    world = await make_world(db_path)  # the board's picture changes with every move
    thread = await both_acting(world)
    world = await restarted(world, db_path)
    await act(world, thread, 1, 4)
    [message] = thread.messages
    assert [name for name, _ in message.uploads] == ["board.png", "board.png"]
    assert list(message.files) == ["board.png"] and message.files["board.png"] != b""


async def test_a_deleted_turn_post_is_replaced_by_a_new_one(db_path):
    world = await make_world(db_path)
    thread = await both_acting(world)
    thread.messages.clear()  # deleted by a moderator while the bot was down
    world = await restarted(world, db_path)
    await act(world, thread, 1, 4)
    [post] = posts(thread)[-1:]
    assert len(thread.messages) == 1 and post.edits == 0
    assert post.text.startswith("user1 added 4.") and "board.png" in post.files


async def test_the_turn_post_is_stored_in_the_database(db_path):
    world = await make_world(db_path)
    thread = await both_acting(world)
    await act(world, thread, 1, 4)
    message_id, state = await world.bot.service.store.turn_post(1)
    assert message_id == thread.messages[0].id
    assert state["lines"][-1] == "user1 added 4." and state["owners"] == [1, 2]
    assert set(state["files"]) == {"board.png"} and set(state["drawn"]) == {"board"}
