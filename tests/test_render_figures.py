"""Every figure in the images agrees with the text posted with them: the map, both markets and
the sheet read the bank from the one snapshot field, and every amount of money, in an image or
in the engine's words, is written one way: currency sign, thousands separated ("$12,345")."""

from __future__ import annotations

import json
import re

import pytest

from engine.eighteen import io as game_io
from render import drawer_for
from render.snapshot import money
from tests.drawn_text import drawn_text
from tests.reference_games import game_path

UNSEPARATED = re.compile(r"[$£]\d{4}")  # an amount of four digits or more without a comma
GAMES = [("1830", "26855", 400), ("1860", "19354", 350)]


def _game(title: str, stem: str, upto: int):
    return game_io.load(json.loads(game_path(title, stem).read_text()), upto=upto).game


@pytest.mark.parametrize(("title", "stem", "upto"), GAMES, ids=[g[0] for g in GAMES])
def test_every_image_shows_the_bank_from_the_snapshot_in_one_format(title, stem, upto) -> None:
    game = _game(title, stem, upto)
    snapshot = {**game.snapshot(), "bank": 12345}  # a figure no other field holds
    bank = f"Bank {money(title, 12345)}"
    assert money(title, 12345) == game.money(12345)  # the images write it as the text does
    for view in (*game.views(), "market_compact"):
        with drawn_text() as seen:
            drawer_for(title, view)(snapshot, ())  # type: ignore[misc]
        texts = [text for *_, text in seen]
        assert any(bank in t for t in texts), (view, [t for t in texts if "Bank" in t])
        assert not [t for t in texts if UNSEPARATED.search(t)], view


@pytest.mark.parametrize(("title", "stem", "upto"), GAMES, ids=[g[0] for g in GAMES])
def test_the_engine_writes_money_as_the_images_do(title, stem, upto) -> None:
    data = json.loads(game_path(title, stem).read_text())
    said: list[str] = []
    game_io.load(data, on_state=lambda _i, action, g: said.append(g.describe(action)))
    game = _game(title, stem, upto)
    said.append(game.status_text())
    assert f"bank {money(title, game.bank.cash)}" in game.status_text()
    assert [s for s in said if re.search(r"[$£]\d,\d{3}", s)], "no amount over 999 was seen"
    assert not [s for s in said if UNSEPARATED.search(s)]
