"""A title costs only itself: creating or replaying an 1830 or 1860 game loads nothing of String
Railway (its geometry needs numpy and shapely), and listing the titles loads no title's rules.
Each check runs in a fresh interpreter, since this test process has loaded everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reference_games import game_path

ROOT = Path(__file__).resolve().parent.parent
STRING_RAILWAY = ("engine.strings", "numpy", "shapely")


def _loaded_after(script: str) -> list[str]:
    """The modules a fresh interpreter holds after running `script` from the repository root."""
    code = script + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def _of(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in prefixes or m.startswith(prefixes)]


@pytest.mark.parametrize("title", ["1830", "1860"])
def test_replaying_an_18xx_game_loads_no_string_railway(title: str) -> None:
    path = game_path(title, {"1830": "29133", "1860": "19354"}[title])
    loaded = _loaded_after(
        "from engine.eighteen import io\n"
        f"loaded = io.load(io.read_file({str(path)!r}))\n"
        "assert loaded.game.finished\n"
    )
    assert f"engine.g{title}" in loaded or f"engine.g{title}.game" in loaded
    assert _of(loaded, STRING_RAILWAY) == []


def test_the_replay_command_loads_no_string_railway() -> None:
    path = game_path("1830", "29133")
    loaded = _loaded_after(
        "import runpy, sys\n"
        f"sys.argv = ['railchat', 'replay', {str(path)!r}, '--json']\n"
        "try:\n"
        "    runpy.run_module('bot.cli', run_name='__main__')\n"
        "except SystemExit as done:\n"
        "    assert done.code == 0, done.code\n"
    )
    assert "engine.g1830" in loaded
    assert _of(loaded, STRING_RAILWAY + ("engine.g1860",)) == []
    # nor the event loop and its network stack, which only the bot, the console and
    # `railchat db` need (every command builds the parser that imports their modules)
    assert _of(loaded, ("asyncio", "ssl", "discord", "PIL")) == []


def test_creating_an_1860_game_loads_neither_other_title() -> None:
    loaded = _loaded_after(
        "from engine import PlayerInfo, create_game\n"
        "create_game('1860', [PlayerInfo(1, 'a'), PlayerInfo(2, 'b')])\n"
    )
    assert "engine.g1860.game" in loaded
    assert _of(loaded, STRING_RAILWAY + ("engine.g1830",)) == []


def test_listing_titles_loads_no_title() -> None:
    loaded = _loaded_after(
        "from engine import title_names\n"
        "assert title_names() == ['1830', '1860', 'string_railway'], title_names()\n"
    )
    assert _of(loaded, STRING_RAILWAY + ("engine.g1830", "engine.g1860", "engine.eighteen")) == []


def test_string_railway_is_loaded_when_asked_for() -> None:
    """The counterpart: the table does reach String Railway (and its geometry) on demand."""
    loaded = _loaded_after("from engine import find_title\nfind_title('String_Railway')\n")
    assert "engine.strings.game" in loaded and "shapely" in loaded


def test_a_title_is_found_as_printed() -> None:
    from engine import find_title
    from engine.errors import InvalidAction

    for name in ("String Railway", "string-railway", " STRING_RAILWAY "):
        assert find_title(name).title == "string_railway"
    with pytest.raises(InvalidAction, match="unknown title 'String Rail'"):
        find_title("String Rail")
