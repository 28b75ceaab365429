"""Buttons, menus and autocomplete at the wire: the real bot on the fake Discord, its turn posts'
buttons pressed and menus picked as component interactions carrying the post they are on, its
request buttons answered, and its suggestions asked for while a user types, as Discord sends
them; what the user sees is checked (the answer only they see, the thread's posts, the
suggestions)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fake_discord import EPHEMERAL, THREAD_ID, FakeDiscord, Posted, channel_data
from tests.wire_bot import ANN, BOB, answered, bots, move, red_of, settled, thread_posts, until


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


def items(post: Posted) -> list[dict[str, Any]]:
    return [item for row in post.components for item in row["components"]]


def button(post: Posted, label: str) -> str:
    [found] = [i["custom_id"] for i in items(post) if i["type"] == 2 and i["label"] == label]
    return found


def menu(post: Posted) -> tuple[str, dict[str, str]]:
    """The custom id of the post's menu of moves, and its options' values by label."""
    [found] = [i for i in items(post) if i["type"] == 3]
    return found["custom_id"], {o["label"]: o["value"] for o in found["options"]}


async def answer_of(fake: FakeDiscord, iid: int) -> str:
    """The answer only the user sees, after the bot deferred it ("thinking")."""
    await until(lambda: answered(fake, iid), f"the answer to interaction {iid}")
    [answer] = answered(fake, iid)
    assert answer.flags & EPHEMERAL and fake.interaction(iid).answer == 5
    return answer.content


async def test_the_turn_posts_button_and_menu_make_moves(connect) -> None:
    wire = await connect()
    fake = wire.fake
    await move(fake, 7701, ANN, 3)
    await until(lambda: thread_posts(fake), "the post of ann's move")
    [first] = fake.posts(THREAD_ID)
    assert first.content.endswith("To act: <@12>")
    await fake.press(7702, BOB, first.id, button(first, "pass"))
    assert await answer_of(fake, 7702) == "Done: bob passed."
    await until(lambda: len(fake.posts(THREAD_ID)) == 2, "the post of bob's pass")
    second = fake.posts(THREAD_ID)[1]
    assert second.content.splitlines() == ["bob passed.", "To act: <@11>"]
    custom_id, options = menu(second)
    assert list(options) == [f"add {n}" for n in range(1, 10)]  # pass is a button, not repeated
    await fake.press(7703, ANN, second.id, custom_id, options["add 4"])
    assert await answer_of(fake, 7703) == "Done: ann added 4."
    await until(lambda: len(fake.posts(THREAD_ID)) == 3, "the post of ann's pick")
    third = fake.posts(THREAD_ID)[2]
    assert third.content.splitlines()[0] == "ann added 4."
    [board] = [a for a in third.attachments if a.filename == "board.png"]
    assert red_of(board.data) == 7
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 3


async def test_a_button_of_an_earlier_turn_is_refused(connect) -> None:
    """Presses that race the turn's end (a double click, a stale menu) are refused, and once
    the turn has passed its post keeps no button to press."""
    wire = await connect()
    fake = wire.fake
    await move(fake, 7711, ANN, 3)
    await until(lambda: thread_posts(fake), "the post of ann's move")
    [first] = fake.posts(THREAD_ID)
    custom_id, options = menu(first)  # the menu of bob's turn
    await fake.press(7712, BOB, first.id, button(first, "pass"))
    await fake.press(7713, BOB, first.id, button(first, "pass"))  # a double click
    await fake.press(7714, ANN, first.id, custom_id, options["add 2"])  # not hers, then stale
    bobs = sorted([await answer_of(fake, 7712), await answer_of(fake, 7713)])
    assert bobs[0].startswith("Done: bob passed") and bobs[1] == "That command was already handled."
    assert (await answer_of(fake, 7714)).startswith(
        ("Refused: this button is from an earlier turn of game #1", "Refused: it is not your turn")
    )
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 2
    assert first.components == []  # the turn passed: its post lost its buttons


async def test_an_undo_of_anothers_move_is_confirmed_on_the_answer_only_its_asker_sees(
    connect,
) -> None:
    wire = await connect()
    fake = wire.fake
    await move(fake, 7721, ANN, 3)
    await move(fake, 7722, BOB, 5)
    await until(lambda: "bob added 5." in "".join(thread_posts(fake)), "both moves' posts")
    await fake.command(7723, ANN, "game", "undo")  # ann created the game: she administers it
    await until(lambda: answered(fake, 7723), "the answer to /game undo")
    [asked] = answered(fake, 7723)
    assert asked.flags & EPHEMERAL and asked.content == (
        "This takes back bob's move (action 2): bob added 5. Confirm to take it back."
    )
    await fake.press(7724, ANN, asked.id, button(asked, "Confirm undo"))
    assert (await answer_of(fake, 7724)).startswith("Done: ann undid action 2")
    await until(lambda: "ann undid action 2" in "".join(thread_posts(fake)), "the undo's post")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_an_undo_request_is_answered_with_its_buttons(connect) -> None:
    wire = await connect()
    fake = wire.fake
    for iid, (who, amount) in enumerate([(ANN, 3), (BOB, 5), (ANN, 1)], start=7731):
        await move(fake, iid, who, amount)
        await until(lambda: answered(fake, iid), f"the answer to interaction {iid}")
    await until(lambda: "ann added 1." in "".join(thread_posts(fake)), "the moves' posts")
    count = len(fake.posts(THREAD_ID))
    await fake.command(7734, BOB, "game", "undo")
    await until(lambda: answered(fake, 7734), "the answer to /game undo")
    assert answered(fake, 7734)[0].content.startswith("Done: bob asks to take back")
    await until(lambda: len(fake.posts(THREAD_ID)) > count, "the request's post")
    request = fake.posts(THREAD_ID)[-1]
    assert "To answer: <@11>" in request.content
    await fake.press(7735, ANN, request.id, button(request, "Approve undo"))
    assert (await answer_of(fake, 7735)).startswith("Done: ann approved")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_autocomplete_suggests_the_moves_of_whoever_types(connect) -> None:
    wire = await connect()
    fake = wire.fake
    await fake.autocomplete(7801, ANN, "play", "move", "move", move="add")
    await until(lambda: fake.interaction(7801).answer, "ann's suggestions")
    suggested = fake.interaction(7801).choices or []
    assert [c["name"] for c in suggested] == [f"add {n}" for n in range(1, 10)]
    assert all(c["value"].startswith("~") for c in suggested)  # each one legal move by its key
    await fake.autocomplete(7802, BOB, "play", "move", "move", move="")
    await until(lambda: fake.interaction(7802).answer, "bob's suggestions")
    assert fake.interaction(7802).choices == []  # not bob's turn
    # outside the game's thread the game typed in another option decides
    where = channel_data()
    await fake.autocomplete(
        7803, ANN, "play", "move", "move", where=where, move="pa", game=wire.game_id
    )
    await until(lambda: fake.interaction(7803).answer, "the suggestions for the game typed")
    [passing] = fake.interaction(7803).choices or []
    assert passing["name"] == "pass"
    await fake.command(
        7804, ANN, "play", "move", where=where, move=passing["value"], game=wire.game_id
    )
    assert (await answer_of(fake, 7804)).startswith(f"Done (posted in <#{THREAD_ID}>)")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_1830_suggestions_and_menu_over_the_wire(connect) -> None:
    wire = await connect(title="1830")
    fake = wire.fake
    await fake.autocomplete(7811, ANN, "play", "move", "move", move="bid camden")
    await until(lambda: fake.interaction(7811).answer, "ann's suggestions")
    [camden] = fake.interaction(7811).choices or []
    assert camden["name"] == "Bid CA (Camden & Amboy) for $165"
    await fake.command(7812, ANN, "play", "move", move=camden["value"])
    assert (await answer_of(fake, 7812)).startswith("Done: ann bids $165 on CA")
    await until(lambda: thread_posts(fake), "the post of ann's bid")
    post = fake.posts(THREAD_ID)[-1]
    assert post.content.endswith("To act: <@12>")
    custom_id, options = menu(post)
    buy = "Buy SV (Schuylkill Valley) for $20"
    assert buy in options and len(options) <= 25
    await fake.press(7813, BOB, post.id, custom_id, options[buy])
    assert (await answer_of(fake, 7813)).startswith("Done: bob buys SV")
    await until(lambda: any("bob buys SV" in p for p in thread_posts(fake)), "bob's purchase")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 2
