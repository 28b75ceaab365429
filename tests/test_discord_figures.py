"""Every figure in a thread post's images agrees with the turn prompt posted with them: a
recorded 1830 game's operating rounds are played through the bot, and after each change the
newest post's embed (treasury, trains, cash, certificates of whoever acts) is read back and
compared with the state each of its images was drawn from. The stand-in renderer's picture
changes exactly when what its view shows changes (as the real one's does), so an image kept
from an older version of the post is caught."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.core.results import Caller
from engine.eighteen import io as game_files
from tests.discord_world import HEADER, fake_renderer, make_world, posts
from tests.reference_games import game_path


class Recorder:
    """The harness's renderer (its picture changes exactly when what the view shows
    changes), remembering the snapshot each picture was drawn from."""

    def __init__(self) -> None:
        self.drawn: dict[bytes, tuple[str, dict[str, Any]]] = {}

    def __call__(self, game: Any, view: str, *focus: object) -> bytes:
        png = fake_renderer(game, view, *focus)
        self.drawn[png] = (view, game.snapshot())
        return png


def money(text: str) -> int:
    return int(text.replace("$", "").replace(",", ""))


def disagreements(embed: Any, snapshot: dict[str, Any]) -> list[str]:
    """What the prompt's fields say that the snapshot does not."""
    players = {p["name"]: p for p in snapshot["players"]}
    corporations = snapshot["corporations"]
    out = []
    for field in embed.fields:
        for fact in field.value.split("\n"):
            corp = corporations.get(field.name)
            if corp is not None and (m := re.fullmatch(r"treasury (\S+)", fact)):
                if money(m[1]) != corp["cash"]:
                    out.append(f"{field.name} {fact}: drawn {corp['cash']}")
            elif corp is not None and (m := re.fullmatch(r"trains (.+) \(limit \d+\)", fact)):
                trains = ", ".join(corp["trains"]) or "none"
                if m[1] != trains:
                    out.append(f"{field.name} {fact}: drawn {trains}")
            elif m := re.fullmatch(r"(.+) has (\S+)", fact):
                if money(m[2]) != players[m[1]]["cash"]:
                    out.append(f"{fact}: drawn {players[m[1]]['cash']}")
            elif m := re.fullmatch(r"cash (\S+)", fact):
                if money(m[1]) != players[field.name]["cash"]:
                    out.append(f"{field.name} {fact}: drawn {players[field.name]['cash']}")
    return out


@pytest.mark.parametrize("first, last", [(37, 130)])
async def test_the_images_of_each_post_agree_with_its_prompt(db_path, first, last):
    recorder = Recorder()
    world = await make_world(db_path, renderer=recorder)
    service = world.bot.service
    data = json.loads(game_path("1830", "29133").read_text())
    moves = [(n, a) for n, a in game_files.effective_actions(data["actions"])]
    thread = await world._create_thread(name="figures")
    opened = await service.import_game(
        Caller(1, "user1", guild_id=500),
        {**data, "actions": data["actions"][: moves[first][0]]},
        [1, 2, 3, 4],
        guild_id=500,
        thread_id=thread.id,
        offer=False,
    )
    assert opened.ok, opened.error
    checked = kept = 0
    for _, action in moves[first:last]:
        user = (await service.prompt(opened.game_id, choices=False)).notify[0]
        move = {k: v for k, v in action.items() if k not in ("id", "user", "created_at")}
        result = await service.act(opened.game_id, Caller(user, f"user{user}", guild_id=500), move)
        assert result.ok, (action, result.error)
        world.bot.poster.queue(result)
        await world.bot.poster.drain()
        post = posts(thread)[-1]
        if post.embed is None:
            continue
        headers = set()
        for name, png in post.files.items():
            view, snapshot = recorder.drawn[png]
            assert name == f"{view}.png"
            if view != "focus":
                headers.add(json.dumps([snapshot[k] for k in HEADER]))
            if view == "sheet":
                assert disagreements(post.embed, snapshot) == [], (action, name)
            checked += 1
            kept += post.edits > 0
        assert len(headers) == 1, (action, sorted(post.files))  # one round, bank, who acts
    assert checked > 100 and kept > 20  # edited posts, with their images, were checked
