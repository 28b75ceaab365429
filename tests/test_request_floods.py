"""No floods: asking the same person again and again (deals, undo votes, seat offers) keeps
one request open per requester and pings (mentions, direct messages) them at most once per
cooldown for each kind of request from the same requester; the later requests are shown,
without a ping. The time is the service's clock, set here."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.base import PING_COOLDOWN
from tests.discord_world import Sent, make_world, posts, three_players
from tests.test_service import ANN, BOB, CY, add, started, stored
from tests.test_service_deals import take

NOON = datetime(2030, 1, 7, 12, tzinfo=UTC)
DAN, EVA = Caller(13, "Dan"), Caller(14, "Eva")


class Clock:
    """The service's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def service(make_store, clock):
    return GameService(make_store(), new_seed=lambda: 4242, clock=clock)  # Ann 6, Bob 2, Cy 0


def pinged(result) -> list[int]:
    """Whom the front end mentions and messages about the request (or seat offer) a result
    asks (a seat offer's `notify` are those to act, mentioned once a turn)."""
    asked = result.notify if result.vote is not None else result.invited
    return [u for u in asked if u not in result.hushed]


async def test_twenty_deal_proposals_ping_the_other_player_once_per_cooldown(service, clock):
    gid = await started(service, ANN, BOB, CY)
    asked = [await service.act(gid, ANN, take(1, 2, 1 + n % 2)) for n in range(20)]
    assert all(r.ok and r.vote_kind == "deal" and r.notify == (BOB.user_id,) for r in asked)
    assert [pinged(r) for r in asked] == [[BOB.user_id]] + [[]] * 19
    assert asked[5].replaces == (asked[4].vote,)
    assert asked[5].text.endswith(f"(It replaces Ann's deal #{asked[4].vote}.)")
    open_now = await service.open_requests(gid)
    assert open_now == [(20, "deal #20 from Ann: Ann took 2 from Bob.")]  # one open at a time

    clock.now += PING_COOLDOWN  # the cooldown is over: the next one pings again
    again = await service.act(gid, ANN, take(1, 2, 1))
    assert pinged(again) == [BOB.user_id]
    assert pinged(await service.act(gid, ANN, take(1, 2, 2))) == []

    accepted = await service.vote(again.vote + 1, BOB, True)  # the honest flow is unchanged
    assert accepted.ok and accepted.text == "Bob accepted deal #22: Ann took 2 from Bob."
    assert await stored(service, gid) == [take(1, 2, 2)]


async def test_the_same_deal_proposed_again_is_refused_naming_the_open_one(service):
    gid = await started(service, ANN, BOB, CY)
    first = await service.act(gid, ANN, take(1, 2, 2))
    again = await service.act(gid, ANN, take(1, 2, 2))
    assert again.error == "your deal #1 (Ann took 2 from Bob.) is already waiting for Bob's answer"
    assert await service.open_requests(gid) == [(1, "deal #1 from Ann: Ann took 2 from Bob.")]
    assert first.ok and (await service.vote(1, BOB, True)).ok


async def test_the_cooldown_is_per_requester_and_kind_of_request(service, clock):
    gid = await started(service, ANN, BOB, CY)
    await service.act(gid, ANN, add(1))
    assert pinged(await service.act(gid, BOB, take(2, 1, 1))) == [ANN.user_id]
    for who in (BOB, CY, ANN):
        await service.act(gid, who, add(who.user_id - 9))
    undo = await service.undo(gid, BOB)  # another kind of request from Bob: pinged
    assert undo.vote_kind == "undo" and pinged(undo) == [CY.user_id, ANN.user_id]
    assert (await service.vote(undo.vote, ANN, False)).ok
    again = await service.undo(gid, BOB)  # the same kind again: shown, nobody pinged
    assert again.ok and again.vote == undo.vote + 1 and pinged(again) == []
    assert pinged(await service.act(gid, BOB, take(2, 1, 1))) == []
    cy_asks = await service.undo(gid, CY)  # another requester: pinged
    assert pinged(cy_asks) == [ANN.user_id]
    clock.now += PING_COOLDOWN
    assert pinged(await service.act(gid, BOB, take(2, 1, 2))) == [ANN.user_id]


async def test_alternating_seat_offers_ping_each_user_once_per_cooldown(service, clock):
    gid = await started(service, ANN, BOB, CY)
    offers = [
        await service.replace_seat(gid, ANN, 2, who.user_id, who.name) for who in (DAN, EVA) * 5
    ]
    assert all(o.ok for o in offers)
    assert [pinged(o) for o in offers] == [[DAN.user_id], [EVA.user_id]] + [[]] * 8
    open_offers = await service.store.open_invitations(gid)
    assert [(i.seat, i.user_id) for i in open_offers] == [(2, EVA.user_id)]  # one per seat
    clock.now += PING_COOLDOWN
    assert pinged(await service.replace_seat(gid, ANN, 2, DAN.user_id, "Dan")) == [DAN.user_id]
    taken = await service.answer_invitation(offers[-1].invitations[0], EVA, True)
    assert taken.error == "this offer is no longer open"
    latest = (await service.store.open_invitations(gid))[-1]
    assert (await service.answer_invitation(latest.id, DAN, True)).ok  # honest: unchanged


def deal(amount: int) -> str:
    return take(1, 2, amount).__repr__().replace("'", '"')


async def test_twenty_proposals_on_discord_make_one_post_one_ping_one_dm(db_path):
    world = await make_world(db_path)  # seed 7: user1 5 points, user2 2, user3 6
    world.bot.service.clock = Clock()
    thread = await three_players(world)
    await world.run("turn-dm", world.interaction(2), group="settings", dm="on", game=None)
    thread.send.reset_mock()
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    for n in range(20):
        sent = await world.run("act", at(1), game=None, action=deal(1 + n % 2))
        assert sent[-1].text.startswith(f"Done: user1 proposes deal #{n + 1} to user2")
    [post] = posts(thread)
    assert post.pinged == [2] and post.edits == 19
    assert post.text.startswith("user1 proposes deal #20 to user2: user1 took 2 from user2.")
    assert "(It replaces user1's deal #19.)\nTo answer: <@2>" in post.text
    assert post.buttons[:2] == [("rc:d:20:yes", "Accept deal"), ("rc:d:20:no", "Decline deal")]
    assert world.dms == [(2, f"A request awaits your answer in game #1: {thread.jump_url}")]
    sent = await world.press("rc:d:19:yes", at(2))  # a replaced deal's button, if kept
    assert sent[-1] == Sent("Refused: this deal was declined or withdrawn", True)
    sent = await world.press("rc:d:20:yes", at(2))
    assert sent[-1] == Sent("Done: user2 accepted deal #20: user1 took 2 from user2.", True)
    assert [a.payload["amount"] for a in await world.bot.service.store.actions(1)] == [2]


async def test_a_proposal_after_the_cooldown_pings_again_in_a_new_post(db_path):
    world = await make_world(db_path)
    clock = world.bot.service.clock = Clock()
    thread = await three_players(world)
    thread.send.reset_mock()
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    await world.run("act", at(1), game=None, action=deal(1))
    await world.run("act", at(1), game=None, action=deal(2))
    clock.now += PING_COOLDOWN
    await world.run("act", at(1), game=None, action=deal(1))
    first, second = posts(thread)
    assert first.pinged == [2] and first.edits == 2 and first.buttons == []  # stripped
    assert second.pinged == [2] and second.text.startswith("user1 proposes deal #3")


async def test_alternating_seat_offers_on_discord_ping_each_user_once(db_path):
    world = await make_world(db_path)
    world.bot.service.clock = Clock()
    thread = await three_players(world)
    thread.send.reset_mock()
    for user in (8, 9) * 5:
        named = SimpleNamespace(id=user, display_name=f"user{user}")
        await world.run(
            "replace", world.interaction(1, where=thread.id), seat=3, user=named, game=None
        )
    offers = [p for p in posts(thread) if "a seat in this game is offered to you" in p.text]
    assert len(offers) == 10
    assert [p.pinged for p in offers] == [[8], [9]] + [[]] * 8
    assert sum(p.pinged != [] for p in posts(thread)) == 2
