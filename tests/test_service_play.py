"""The service's play-in-threads features with the Tally title: moves picked from legal
choices, stale versions, undo votes, admin rewind, pause/abandon, seat replacement, reminders,
DM opt-in, history and images."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.core.results import Caller, Refused
from bot.core.service import GameService
from tests.test_service import ANN, BOB, CY, EVE, add, started, stored

ADMIN = Caller(50, "Mod", is_admin=True)


@pytest.fixture
def service(make_store):
    return GameService(make_store(), new_seed=lambda: 4242, remind_hours=24)


def pick(label: str):
    """A move builder choosing the legal choice with this label."""

    def build(game, choices):
        found = [c for c in choices if c.label == label]
        if not found:
            raise Refused(f"no {label!r}")
        return found[0].action

    return build


async def test_play_picks_from_the_legal_choices_and_checks_the_version(service):
    gid = await started(service, ANN, BOB)
    version = (await service.store.game(gid)).version
    played = await service.play(gid, ANN, pick("add 3"), version=version)
    assert (
        played.ok and played.text == "Ann added 3." and (await stored(service, gid)) == [add(1, 3)]
    )
    stale = await service.play(gid, BOB, pick("add 1"), version=version)
    assert stale.error == (
        "this button is from an earlier turn of game #1; the game has moved "
        "on. Use the newest post's buttons or /play"
    )
    assert (await service.play(gid, BOB, pick("add 12"))).error == "no 'add 12'"
    assert (await service.play(gid, ANN, pick("add 1"))).error == (
        "it is not your turn in game #1; waiting for Bob"
    )
    assert (await service.play(gid, EVE, pick("add 1"))).error == (
        "you are not seated in game #1; spectators can only watch"
    )
    assert (await stored(service, gid)) == [add(1, 3)]


async def test_versions_grow_with_every_change_even_when_the_log_does_not(service):
    gid = await started(service, ANN, BOB)
    versions = [(await service.store.game(gid)).version]
    for call in (
        service.act(gid, ANN, add(1)),
        service.undo(gid, ANN),
        service.act(gid, ANN, add(1)),
    ):
        assert (await call).ok
        versions.append((await service.store.game(gid)).version)
    assert versions == sorted(set(versions))  # strictly growing
    assert await service.store.action_count(gid) == 1


async def test_legal_choices_are_computed_once_per_version(service, monkeypatch):
    gid = await started(service, ANN, BOB)
    game = await service._live(await service.store.game(gid))
    calls = []
    original = type(game).legal_actions

    def counting(self, player, kinds=None):
        calls.append(player)
        return original(self, player, kinds)

    monkeypatch.setattr(type(game), "legal_actions", counting)
    for _ in range(3):
        assert len(await service.legal_actions(gid, ANN.user_id)) == 10
    assert calls == [1]
    assert (await service.act(gid, ANN, add(1))).ok
    await service.legal_actions(gid, BOB.user_id)
    assert calls == [1, 2]


async def test_undo_of_an_own_move_others_followed_needs_their_approval(service):
    gid = await started(service, ANN, BOB, CY)
    for caller, seat in ((ANN, 1), (BOB, 2), (CY, 3)):
        assert (await service.act(gid, caller, add(seat))).ok
    asked = await service.undo(gid, BOB)
    assert asked.ok and asked.vote is not None and asked.notify == (CY.user_id,)
    assert asked.text.startswith(
        "Bob asks to take back actions 2-3, from their own: Bob added 1. Cy must approve"
    )
    assert len(await stored(service, gid)) == 3
    assert (await service.vote(asked.vote, EVE, True)).error == (
        "only the players whose actions would be undone (Cy) or a game admin vote on this undo"
    )
    approved = await service.vote(asked.vote, CY, True)
    assert approved.ok and approved.text.startswith(
        "Cy approved: the game is back to action 1, before Bob added 1. (2 actions)"
    )
    assert (await stored(service, gid)) == [add(1)] and approved.notify == (BOB.user_id,)
    assert (await service.vote(asked.vote, CY, True)).error == ("this undo request is already done")
    assert (await service.vote(999, CY, True)).error == "there is no undo request or deal #999"


async def test_an_undo_vote_can_be_rejected_and_goes_stale(service):
    gid = await started(service, ANN, BOB)  # Ann created the game: she is its admin
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.act(gid, BOB, add(2))).ok
    assert (await service.act(gid, ANN, add(1))).ok
    rejected = await service.undo(gid, BOB)
    assert rejected.notify == (ANN.user_id,)
    assert (await service.vote(rejected.vote, ANN, False)).text == (
        "Ann rejected the undo; the game goes on."
    )
    assert len(await stored(service, gid)) == 3
    stale = await service.undo(gid, BOB)
    assert (await service.act(gid, BOB, add(2))).ok
    assert (await service.vote(stale.vote, ANN, True)).error == (
        "the game has moved on since this undo was asked; ask again with /game undo"
    )
    assert len(await stored(service, gid)) == 4
    asked = await service.undo(gid, ANN)  # the admin takes back Bob's move once confirmed
    assert (
        asked.text == "This takes back Bob's move (action 4): Bob added 1. Confirm to take it back."
    )
    admin_undo = await service.undo(gid, ANN, confirmed=asked.confirm_undo)
    assert admin_undo.text == "Ann undid action 4: Bob added 1." and admin_undo.vote is None


async def test_admins_undo_and_rewind(service):
    gid = await started(service, ANN, BOB)
    for i in range(4):
        assert (await service.act(gid, [ANN, BOB][i % 2], add(i % 2 + 1, i + 1))).ok
    asked = await service.undo(gid, ADMIN)
    assert asked.confirm_undo is not None and len(await stored(service, gid)) == 4  # nothing yet
    assert (await service.act(gid, ANN, add(1, 5))).ok  # the game moves on: confirmation void
    stale = await service.undo(gid, ADMIN, confirmed=asked.confirm_undo)
    assert stale.error == (
        "the game has moved on since you were asked to confirm; use /game undo again"
    )
    assert (await service.undo(gid, ANN)).ok  # Ann takes back her own move at once
    asked = await service.undo(gid, ADMIN)
    assert (
        await service.undo(gid, ADMIN, confirmed=asked.confirm_undo)
    ).text == "Mod undid action 4: Bob added 4."
    assert (await service.rewind(gid, BOB, 1)).error == (
        "only the creator of game #1 or a server admin can rewind it"
    )
    assert (await service.rewind(gid, ANN, 3)).error == (
        "game #1 has 3 actions; rewind to a number from 0 to 2 (see /game view history)"
    )
    rewound = await service.rewind(gid, ANN, 1)
    assert (
        rewound.text == "Ann rewound game #1 to action 1, taking back from Bob added 2. (2 actions)"
    )
    assert (await stored(service, gid)) == [add(1, 1)]
    history = await service.history(gid, 5)
    assert history.text == "Game #1: actions 1-1 of 1\n1. Ann added 1."
    assert (await service.history(gid, 0)).error == "history shows 1 to 50 actions, not 0"


async def test_pause_resume_and_abandon(service):
    gid = await started(service, ANN, BOB)
    assert (await service.pause(gid, BOB, True)).error == (
        "only the creator of game #1 or a server admin can pause or resume it"
    )
    assert (await service.pause(gid, ANN, True)).text == (
        "Ann paused game #1; moves wait until an admin resumes it (/game-admin resume, or "
        "/game status)."
    )
    assert (await service.act(gid, ANN, add(1))).error == (
        "game #1 is paused; nothing changes until a game admin resumes it "
        "with /game-admin resume (its creator: /game status)"
    )
    assert await service.legal_actions(gid, ANN.user_id) == []
    assert "paused" in (await service.list_games()).text
    assert (await service.pause(gid, ANN, True)).error == "game #1 is already paused"
    resumed = await service.pause(gid, ANN, False)
    assert resumed.text == "Ann resumed game #1." and resumed.notify == (ANN.user_id,)
    assert (await service.act(gid, ANN, add(1))).ok
    assert (await service.abandon(gid, ADMIN)).text == (
        "Mod abandoned game #1; its log is kept (/game export)."
    )
    assert (await service.act(gid, BOB, add(2))).error == (
        "game #1 was abandoned; it can only be read now"
    )
    assert (await service.undo(gid, Caller(7, "Gus"))).error == (
        "game #1 was abandoned; it can only be read now"
    )
    assert (await service.status(gid)).text.startswith("Game #1 · tally · abandoned")
    assert (await service.abandon(gid, ADMIN)).error == "game #1 is already over"


async def test_a_seat_changes_hands(service):
    gid = await started(service, ANN, BOB)
    assert (await service.replace_seat(gid, ANN, 2, ANN.user_id, "Ann")).error == (
        "Ann already holds seat 1 of game #1"
    )
    assert (await service.replace_seat(gid, ANN, 3, CY.user_id, "Cy")).error == (
        "game #1 has seats 1 to 2, not 3"
    )
    assert (await service.replace_seat(gid, BOB, 2, CY.user_id, "Cy")).error == (
        "only the creator of game #1 or a server admin can replace a player"
    )
    assert (await service.act(gid, ANN, add(1))).ok
    replaced = await service.replace_seat(gid, ANN, 2, CY.user_id, "Cy")
    assert replaced.text == (
        "Ann offers seat 2 (Bob) of game #1 to Cy; it is theirs once they accept, and until "
        "then its moves wait."
    )
    assert replaced.notify == () and replaced.invited == (CY.user_id,)  # Cy has not agreed yet
    assert (await service.act(gid, BOB, add(2))).error == (
        "you are not seated in game #1; spectators can only watch"
    )
    assert (await service.act(gid, CY, add(2))).error.startswith("you are not seated")
    accepted = await service.answer_invitation(replaced.invitations[0], CY, True)
    assert accepted.notify == (CY.user_id,)
    assert (await service.act(gid, CY, add(2))).ok


async def test_reminders_once_per_idle_period(service):
    gid = await started(service, ANN, BOB)
    start = datetime.fromisoformat((await service.store.game(gid)).turn_since)
    sweep = await service.sweep(start + timedelta(hours=23))
    assert sweep.reminders == () and sweep.next_due == start + timedelta(hours=24)
    [due] = (await service.sweep(start + timedelta(hours=25))).reminders
    assert due.text == "Reminder: game #1 has waited 25 h for Ann." and due.ping == (ANN.user_id,)
    sweep = await service.sweep(start + timedelta(hours=26))  # once per period
    assert sweep.reminders == () and sweep.next_due == start + timedelta(hours=49)
    [again] = (await service.sweep(start + timedelta(hours=50))).reminders
    assert again.text == "Reminder: game #1 has waited 2 days for Ann." and again.in_thread
    assert (await service.set_reminders(gid, ANN, 2)).text == (
        "Game #1 reminds whoever must act after 2 h without a move."
    )
    assert (await service.set_reminders(gid, ANN, -1)).error == (
        "reminder hours are 0 (no reminders) or 1 to 8760 (a year), not -1"
    )
    assert (await service.act(gid, ANN, add(1))).ok  # a move restarts the clock
    moved = datetime.fromisoformat((await service.store.game(gid)).turn_since)
    assert (await service.sweep(moved)).next_due == moved + timedelta(hours=2)
    assert (await service.pause(gid, ANN, True)).ok
    sweep = await service.sweep(moved + timedelta(days=9))
    assert sweep.reminders == () and sweep.next_due is None
    assert (await service.pause(gid, ANN, False)).ok
    assert (await service.set_reminders(gid, ANN, 0)).text == "Game #1 sends no reminders now."
    assert (await service.sweep(moved + timedelta(days=9))).next_due is None


async def test_reminder_state_survives_a_restart(service, make_store):
    gid = await started(service, ANN, BOB)
    start = datetime.fromisoformat((await service.store.game(gid)).turn_since)
    assert len((await service.sweep(start + timedelta(hours=30))).reminders) == 1
    restarted = GameService(make_store(), remind_hours=24)
    sweep = await restarted.sweep(start + timedelta(hours=31))
    assert sweep.reminders == () and sweep.next_due == start + timedelta(hours=54)


async def test_turn_dm_preferences(service):
    gid = await started(service, ANN, BOB)
    assert await service.direct_messages(gid, [ANN.user_id]) == []  # nobody opted in
    assert (await service.set_notify(ANN, True)).ok
    [dm] = await service.direct_messages(gid, [ANN.user_id])
    assert dm.text == "Your move in game #1 (tally)" and dm.user_id == ANN.user_id
    assert (await service.set_notify(ANN, False)).text.startswith("No more direct messages")
    assert await service.direct_messages(gid, [ANN.user_id]) == []


async def test_images_for_spectators(service):
    gid = await started(service, ANN, BOB)
    shown = await service.view(gid, "board", lambda game, view: b"png:" + view.encode())
    assert shown.files == (("board.png", b"png:board"),) and shown.text == "Game #1 · board"
    # "map" is every title's main picture: tally's board
    assert (await service.view(gid, "map", lambda g, v: v.encode())).files == (
        ("board.png", b"board"),
    )
    assert (await service.view(gid, "market", lambda g, v: b"")).error == (
        "tally has no market image (it has: board)"
    )
    assert (await service.view(gid, "board", None)).error == (
        "images are not available here (no renderer installed)"
    )
    open_gid = (await service.create_game(ANN, "tally", seats=2)).game_id
    assert (await service.view(open_gid, "board", lambda g, v: b"")).error == (
        f"game #{open_gid} has not started yet; its creator starts it with /game start"
    )


async def test_prompt_names_who_acts_and_their_choices(service):
    gid = await started(service, ANN, BOB)
    prompt = await service.prompt(gid)
    assert (prompt.notify, prompt.names) == ((ANN.user_id,), ("Ann",))
    assert [c.label for c in prompt.choices][-1] == "pass"
    assert prompt.version == (await service.store.game(gid)).version
    assert (await service.pause(gid, ANN, True)).ok
    assert (await service.prompt(gid)).choices == ()
