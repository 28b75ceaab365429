"""String Railway through the bot: typed stations and rails, the rail preview with Confirm and
Cancel (Discord, offline) and the hint; the service stays title-neutral (it only calls the
engine's typed_action / preview / hints)."""

from __future__ import annotations

import pytest

from bot.cli.console import Console
from bot.core.moves import MOVES, resolve
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from tests.discord_world import make_world, posts

OPTIONS = (
    "river=-5 50 30 50, mountain=50 50 65 50 65 65 50 65, "
    "station_order=central village regional central central central"
)


@pytest.fixture
async def world(db_path):
    from bot.core.rendering import render_view

    return await make_world(db_path, renderer=render_view)


async def started(world):
    await world.run("new", world.interaction(1), title="string_railway", seats=2, options=OPTIONS)
    thread = list(world.threads.values())[-1]
    await world.run("join", world.interaction(2, where=thread.id), game=None)
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    return thread


async def test_stations_rails_with_preview_and_hint_in_discord(world):
    thread = await started(world)
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    assert "map.png" in posts(thread)[-1].files
    suggestions = await world.suggest_move(world.interaction(1, where=thread.id), "d3")
    names = [c.name for c in suggestions]  # every typed word starts a word of the label
    assert names == ["place Central at D3 (25 25)"]
    for x_y in ("20 20", "40 40", "60 20"):
        sent = await world.play("station", at(1), game=None, at=x_y)
        assert sent[-1].text.startswith("Done: user1 (B1) placed"), sent
    refused = await world.play("station", at(1), game=None, at="40 40")
    assert refused[-1].text.startswith("Refused: you cannot station now: every drawn station")
    hint = await world.play("hint", at(1), game=None)
    assert hint[-1].ephemeral and "1. long rail B1 S1 S2: +4 VP" in hint[-1].text
    count = len(posts(thread))
    shown = await world.play("rail", at(1), game=None, path="short B1 S1")
    assert shown[-1].ephemeral and shown[-1].files == ["preview.png"]
    assert "would lay a short rail B1–S1 (24.0 of 30): +3 Central S1; +3 VP" in shown[-1].text
    assert [label for _, label in shown[-1].buttons] == ["Confirm", "Cancel"]
    assert len(posts(thread)) == count  # nothing posted, nothing changed
    confirm, cancel = (cid for cid, _ in shown[-1].buttons)
    assert (await world.press(confirm, at(2)))[-1].text.startswith("Refused: only the player")
    cancelled = await world.press(cancel, at(1))
    assert cancelled[-1].text == "Cancelled; nothing changed."
    assert (await world.press(confirm, at(1)))[-1].text.startswith("Refused: this preview has")
    shown = await world.play("rail", at(1), game=None, path="B1 S1")
    confirm = shown[-1].buttons[0][0]
    done = await world.press(confirm, at(1))
    assert done[-1].text.startswith("Done: user1 (B1) laid a short rail B1–S1")
    assert "map.png" in posts(thread)[-1].files
    bad = await world.play("rail", at(2), game=None, path="B2 S9")
    assert bad[-1].text.startswith("Refused: you cannot rail now: first place the drawn Central")


async def test_the_mountain_seat_rerolls_it_before_the_first_station(world):
    thread = await started(world)
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    before = posts(thread)[-1].files["map.png"]
    # two people: seats 3 and 4 (their second companies) lay the river and the mountain
    rolled = await world.play("reroll", at(2), game=None, what="mountain")
    assert rolled[-1].text.startswith("Done: user2 rolled a new mountain (2 more allowed)")
    assert posts(thread)[-1].files["map.png"] != before
    refused = await world.play("reroll", at(2), game=None, what="river")
    assert refused[-1].text == "Refused: user1 (B3) lays the river"  # seat 3 does


def _typed(name, text):
    """A typed move as `/play name` with its pick option sent as `text`."""
    return lambda g, c: resolve(MOVES[name], {MOVES[name].pick[0]: text}, c, g)


async def _two_stations_placed(db_path):
    """A 2-seat String Railway game in which Ann has placed two stations (S1, S2)."""
    service = GameService(Store(db_path), new_seed=lambda: 1)
    ann, bo = Caller(1, "ann"), Caller(2, "bo")
    created = await service.create_game(
        ann,
        "string_railway",
        seats=2,
        options={
            "station_order": "central central central central",
            "river": "-5 50 30 50",
            "mountain": "50 50 65 50 65 65 50 65",
        },
    )
    game_id = created.game_id
    await service.join(game_id, bo)
    await service.start(game_id, ann)
    for spot in ("20 20", "50 20"):
        assert (await service.play(game_id, ann, _typed("station", spot))).ok
    return service, game_id, ann, bo


async def test_a_preview_goes_stale_when_the_game_moves_on(db_path):
    service, game_id, ann, bo = await _two_stations_placed(db_path)
    first = await service.preview(game_id, ann, _typed("rail", "B1 S1"))
    second = await service.preview(game_id, ann, _typed("rail", "long B1 S2"))
    assert first.confirm and second.confirm and not first.files  # no drawer: text only
    assert "+3 Central S2" in second.text
    assert (await service.confirm(second.confirm, ann, True)).ok
    stale = await service.confirm(first.confirm, ann, True)
    assert "moved on since this preview" in stale.error
    bad = await service.play(game_id, bo, _typed("station", "forty 2"))
    assert bad.error.startswith("give the station's centre as two numbers")


async def test_console_previews_and_confirms(db_path, tmp_path):
    import io

    out = io.StringIO()
    console = Console(GameService(Store(db_path), new_seed=lambda: 1), out, images_dir=tmp_path)
    await console.run(
        [
            "as 1: /game new string_railway seats:2 options:" + OPTIONS.replace(", ", ","),
            "as 2: /game join",
            "as 1: /game start",
            "/play move station 20 20",
            "/play move station 40 40",
            "/play move station 60 20",
            "/play rail B1 S1 S2",
            "/play answer preview no",
            "/play rail long B1 S1 S2",
            "/play answer preview yes",
            "/game status",
        ]
    )
    text = out.getvalue()
    assert "would lay a long rail B1–S1–S2 (52.3 of 60): +3 Central S1, +1 Village S2" in text
    assert "Cancelled; nothing changed." in text
    assert "player 1 (B1) 7 VP" in text


async def test_a_chat_game_exports_to_a_file_that_replays(db_path):
    from engine.eighteen import io

    service = GameService(Store(db_path), new_seed=lambda: 4)
    ann, bo = Caller(1, "ann"), Caller(2, "bo")
    game_id = (
        await service.create_game(ann, "string_railway", seats=2, options={"river": "-5 50 30 50"})
    ).game_id
    await service.join(game_id, bo)
    await service.start(game_id, ann)
    from bot.core.moves import MOVES, resolve

    for spot in ("20 20", "40 30", "60 20"):
        assert (
            await service.play(
                game_id, ann, lambda g, c, s=spot: resolve(MOVES["station"], {"at": s}, c, g)
            )
        ).ok, spot
    exported = await service.export(game_id)  # by a player: the deck stays hidden
    shown = __import__("json").loads(exported.files[0][1])
    assert shown["settings"]["river"] == [[-5, 50], [30, 50]]
    assert "station_order" not in shown["settings"] and "seed" not in shown["settings"]
    record = await service.store.game(game_id)  # the host's full file (railchat export)
    data = io.export(await service._live(record))
    assert len(data["settings"]["station_order"]) == 38
    game = io.load(data).game
    assert [s.centre for s in game.board.stations.values()][-1] == (60, 20)


async def test_a_preview_is_confirmed_after_a_bot_restart(world, db_path):
    from bot.core.rendering import render_view

    thread = await started(world)
    at = lambda w, user: w.interaction(user, where=thread.id)  # noqa: E731
    for x_y in ("20 20", "40 40", "60 20"):
        await world.play("station", at(world, 1), game=None, at=x_y)
    shown = await world.play("rail", at(world, 1), game=None, path="short B1 S1")
    confirm, cancel = (cid for cid, _ in shown[-1].buttons)
    world.bot.service.store.close()
    # a new process: a new bot and service on the same database; the old buttons still work
    again = await make_world(db_path, renderer=render_view)
    again.threads.update(world.threads)
    assert (await again.press(confirm, at(again, 2)))[-1].text.startswith(
        "Refused: only the player who asked"
    )
    done = await again.press(confirm, at(again, 1))
    assert done[-1].text.startswith("Done: user1 (B1) laid a short rail B1–S1"), done
    gone = await again.press(cancel, at(again, 1))
    assert gone[-1].text.startswith("Refused: this preview has expired")


async def test_stored_previews_go_stale_and_only_the_newest_are_kept(db_path, monkeypatch):
    import bot.core.service.previews as previews

    monkeypatch.setattr(previews, "PREVIEWS_KEPT", 2)
    service, game_id, ann, bo = await _two_stations_placed(db_path)
    tokens = [
        (await service.preview(game_id, ann, _typed("rail", path))).confirm
        for path in ("B1 S1", "long B1 S2", "long B1 S1 S2")
    ]
    service.store.close()
    restarted = GameService(Store(db_path), new_seed=lambda: 1)
    oldest = await restarted.confirm(tokens[0], ann, True)
    assert oldest.error.startswith("this preview has expired")  # only 2 kept
    assert (await restarted.confirm(tokens[2], ann, True)).ok
    stale = await restarted.confirm(tokens[1], ann, True)
    assert "moved on since this preview" in stale.error
    record = await restarted.store.game(game_id)
    assert await restarted.store.action_count(game_id) == 3 and record is not None


async def test_a_station_that_fits_nowhere_is_set_aside_with_the_station_command(db_path):
    from bot.core.moves import moves_text

    service = GameService(Store(db_path), new_seed=lambda: 1)
    callers = [Caller(n, f"u{n}") for n in (1, 2, 3, 4)]
    created = await service.create_game(
        callers[0],
        "string_railway",
        seats=4,
        options={
            "area": "0 0; 20 0; 20 20; 0 20",
            "river": "10 -1; 10 2",
            "mountain": "9.5 9.5; 10.5 9.5; 10 10.5",
            "station_order": "central " * 10,
        },
    )
    game_id = created.game_id
    for caller in callers[1:]:
        await service.join(game_id, caller)
    await service.start(game_id, callers[0])
    early = await service.play(game_id, callers[0], _typed("station", "set aside"))
    assert "still fits in the play area (e.g. centred at (" in early.error
    for turn in range(8):  # place the first suggestion, else forfeit, until none fits
        caller = callers[turn % 4]
        listed = await service.legal_actions(game_id, caller.user_id)
        if any(c.action["type"] == "set_aside_station" for c in listed):
            break
        if listed[0].action["type"] == "place_station":
            assert (await service.play(game_id, caller, lambda g, c: dict(c[0].action))).ok
            listed = await service.legal_actions(game_id, caller.user_id)
            if listed[0].action["type"] == "place_station":
                assert (await service.play(game_id, caller, lambda g, c: dict(c[0].action))).ok
        assert (await service.play(game_id, caller, _typed("forfeit", "short"))).ok
    assert "station: set the Central station aside (it fits nowhere)" in moves_text(listed)
    done = await service.play(game_id, caller, _typed("station", "set aside"))
    assert "set the drawn Central station aside: it fits nowhere" in done.text, done
