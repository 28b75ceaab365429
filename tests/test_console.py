"""Console play: scripted sessions through the same service and store as the bot."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.console import (
    BUTTON_STANDINS,
    CONSOLE_OPTIONS,
    GAME_COMMANDS,
    GROUPS,
    TOP_LEVEL,
    Console,
    ConsoleInputError,
    parse_arguments,
)
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot

ROOT = Path(__file__).resolve().parents[1]
ADD = '{"type": "add", "amount": %d, "entity": %d, "entity_type": "player"}'


@pytest.fixture
def console(db_path):
    return Console(GameService(Store(db_path), new_seed=lambda: 3), io.StringIO())


async def session(console: Console, *lines: str) -> list[str]:
    """Run lines; return what the console printed for them."""
    console.out.seek(0)
    console.out.truncate()
    await console.run(lines)
    return console.out.getvalue().splitlines()


async def test_a_hot_seat_game(console):
    out = await session(
        console,
        "as 1: /game new tally seats:2 options:target=30",
        "as 2: /game join",
        "as 1: /game start",
        "/game-admin act " + ADD % (4, 1),
    )
    assert out == [
        "player 1 opened game #1 of tally for up to 2 players. Join with /game join; player 1 "
        "starts it with /game start once at least 2 are seated.",
        "player 2 joined game #1 at seat 2 (2/2 seated).",
        "Game #1 of tally has started. Seat order: 1. player 1, 2. player 2.",
        "To act: player 1",
        "player 1 added 4.",
        "To act: player 2",
    ]
    out = await session(
        console,
        "as 2: /game status",
        "as 2: /game-admin act action:" + ADD % (2, 2) + " game:1",
        "as 2: /game undo game:1",
        "/game list",
    )
    assert out[0] == "Game #1 · tally · in play"
    assert out[1] == "Total 16 of 30: player 1 7, player 2 9. To act: player 2"  # seeds 3, 9
    assert out[2:] == [
        "player 2 added 2.",
        "To act: player 1",
        "player 2 undid action 2: player 2 added 2.",
        "To act: player 2",
        "#1 · tally · in play · player 1, player 2",
    ]


async def test_undo_then_redo_in_the_console(console):
    out = await session(
        console,
        "as 1: /game new tally seats:2 options:target=30",
        "as 2: /game join",
        "as 1: /game start",
        "/game-admin act " + ADD % (4, 1),
        "/game undo",
        "/game redo",
        "/game redo",
    )
    assert out[-5:] == [
        "player 1 undid action 1: player 1 added 4.",
        "To act: player 1",
        "player 1 redid action 1: player 1 added 4.",
        "To act: player 2",
        "Refused: nothing undone in game #1 is left to redo (every undo was redone, or "
        "nothing was undone)",
    ]


async def test_a_short_game_is_played_to_its_end(console):
    out = await session(
        console,
        "as 1: /game new tally seats:2 options:target=22",
        "as 2: /game join",
        "as 1: /game start",
        "/game-admin act " + ADD % (3, 1),
        "as 2: /game-admin act " + ADD % (3, 2),
        "as 2: /game view moves",
        "as 1: /game-admin act " + ADD % (4, 1),
        "/game status",
        "/game view moves",
        "/game-admin act " + ADD % (1, 1),
    )
    assert out[4:] == [  # the starting scores 3 and 9 come from seed 3
        "player 1 added 3.",
        "To act: player 2",
        "player 2 added 3.",
        "To act: player 1",
        "You have no move to make now.",
        "player 1 added 4.",
        "The game is over. /game status shows the result.",
        "Game #1 · tally · finished",
        "Total 22 of 22: player 1 10, player 2 12. To act: nobody",
        "Result: player 2 12, player 1 10",
        "You have no move to make now.",
        "Refused: game #1 is over",
    ]


async def test_refusals_and_unknown_commands_change_nothing(console):
    await session(console, "as 1: /game new tally seats:2")
    store = console.service.store
    before = (await store.games(), await store.seats(1), await store.actions(1))
    out = await session(
        console,
        "/game fly",
        "hello",
        "as bob: /game join",
        "as 2: /game join game:x",
        "/game new",
        "/game status 1 game:1",
        "/game join game:1 game:2",
        "/game join game:7",
        "/play fly",
        '/game-admin act {"type": ',
        "/game-admin act " + ADD % (1, 1),
        "/game new tally options:=3",
        "as 3: /game leave",
    )
    assert out == [
        "Refused: unknown command '/game fly'; /game help lists the commands",
        "Refused: unknown command 'hello'; /game help lists the commands",
        "Refused: 'as' takes a player number, e.g. as 2: /game status (not 'bob')",
        "Refused: game must be a whole number, not 'x'",
        "Refused: title is missing; usage: /game new title:<text> [seats:<number>] "
        "[options:<text>] [computers:<number>] [level:<text>] [clock:<text>] "
        "[deadline:<text>] [vacation:<number>]",
        "Refused: cannot read '1'; usage: /game status [game:<number>]",
        "Refused: game is given twice; usage: /game join [game:<number>]",
        "Refused: there is no game #7",
        "Refused: unknown command '/play fly'; did you mean /play lay? /game help lists the commands",
        "Refused: the action is not valid JSON (Expecting value at column 9); write it like "
        '{"type": "pass"}',
        "Refused: game #1 has not started yet; its creator starts it with /game start",
        "Refused: cannot read option '=3'; write name or name=value, separated by commas",
        "Refused: you are not seated in game #1",
    ]
    assert (await store.games(), await store.seats(1), await store.actions(1)) == before


async def test_which_game_when_none_is_chosen(db_path):
    service = GameService(Store(db_path), new_seed=lambda: 3)

    def fresh() -> Console:  # a new session: no game shown yet
        return Console(service, io.StringIO())

    assert await session(fresh(), "/game status") == [
        "Refused: which game? no game is open or in play here; start one with /game new (see "
        "/game list)"
    ]
    await session(fresh(), "as 1: /game new tally seats:2", "as 2: /game join", "as 1: /game start")
    assert (await session(fresh(), "as 7: /game status"))[0] == "Game #1 · tally · in play"
    await session(fresh(), "as 3: /game new tally seats:2")
    # two games: each player's own game, when they play in only one
    assert (await session(fresh(), "as 2: /game status"))[0] == "Game #1 · tally · in play"
    assert (await session(fresh(), "as 3: /game status"))[0].startswith(
        "Game #2 · tally · waiting for players"
    )
    assert await session(fresh(), "as 7: /game status") == [
        "Refused: which game? several games are open or in play here: #2 (tally), #1 (tally); "
        "give game:<number> (see /game list)"
    ]
    assert await session(fresh(), "as 1: /game join game:2", "/game status") == [
        "player 1 joined game #2 at seat 2 (2/2 seated).",
        "Game #2 · tally · waiting for players (2/2 seated: 1. player 3, 2. player 1). Needs 2 "
        "to start.",
    ]  # the session's last game
    assert await session(fresh(), "as 1: /game status") == [
        "Refused: which game? you play in several games here: #2 (tally), #1 (tally); give "
        "game:<number> (see /game list)"
    ]
    await session(fresh(), "as 3: /game-admin abandon 2")  # a finished game: no candidate
    assert (await session(fresh(), "as 1: /game status"))[0] == "Game #1 · tally · in play"


async def test_a_deal_is_answered_with_approve_or_reject(console):
    take = '{"type": "take", "entity": 1, "entity_type": "player", "from": 2, "amount": %d}'
    out = await session(
        console,
        "as 1: /game new tally seats:2",
        "as 2: /game join",
        "as 1: /game start",
        "/game-admin act " + take % 4,
    )
    assert out[-3:] == [
        "player 1 proposes deal #1 to player 2: player 1 took 4 from player 2.",
        "player 2, do you agree? Until you answer nothing changes; the deal lapses if the game "
        "moves on first.",
        "To answer: player 2 (/play answer request:1 answer:yes, or answer:no)",
    ]
    out = await session(
        console,
        "as 1: /play answer 1 yes",
        "as 2: /play answer 1 no",
        "as 1: /game-admin act " + take % 5,
        "/play answer 2 yes",  # by whoever it was put to: player 2
        "/game status",
    )
    assert out == [
        "Refused: only player 2 can accept deal #1: it takes their property",
        "player 2 declined deal #1 (player 1 took 4 from player 2.); nothing changed.",
        "player 1 proposes deal #2 to player 2: player 1 took 5 from player 2.",
        "player 2, do you agree? Until you answer nothing changes; the deal lapses if the game "
        "moves on first.",
        "To answer: player 2 (/play answer request:2 answer:yes, or answer:no)",
        "player 2 accepted deal #2: player 1 took 5 from player 2.",
        "To act: player 2",
        "Game #1 · tally · in play",
        "Total 12 of 100: player 1 8, player 2 4. To act: player 2",
    ]


async def test_help_lists_every_command(console):
    out = "\n".join(await session(console, "help"))
    for group in GROUPS.values():
        for command in group.values():
            assert command.usage in out
    assert "/turns [page:<number>]" in out and "/settings turn-dm dm:<text> [game:<number>]" in out
    assert "Titles: " in out and "tally" in out
    title_help = "\n".join(await session(console, "/game help 1830"))
    assert title_help.startswith(
        "1830: Railways & Robber Barons\nSix private companies are auctioned first"
    )
    assert "/play lay H14 — pick a tile for H14 by picture (or /play lay H14 57 2)" in title_help


def test_arguments_are_read_by_name_and_position():
    act = GROUPS["/game-admin"]["act"]
    assert parse_arguments('{"type": "a b", "x": 1} game:4', act) == {
        "action": '{"type": "a b", "x": 1}',
        "game": 4,
    }
    assert parse_arguments('game: 4 action:"{}"', act) == {"action": "{}", "game": 4}
    new = GAME_COMMANDS["new"]
    assert parse_arguments("1830 options:a, b=2 seats:4", new) == {
        "title": "1830",
        "options": "a, b=2",
        "seats": 4,
    }
    with pytest.raises(ConsoleInputError, match="cannot read 'extra'"):
        parse_arguments("yes extra", GAME_COMMANDS["list"])
    with pytest.raises(ConsoleInputError, match="finished is yes or no, not 'extra'"):
        parse_arguments("extra", GAME_COMMANDS["list"])
    # without names, a one-word option takes one word and free text the rest, as in Discord
    play = GROUPS["/play"]
    assert parse_arguments("H14 57 2", play["lay"]) == {"hex": "H14", "tile": "57", "rotation": "2"}
    assert parse_arguments("H14 game:2", play["lay"]) == {"hex": "H14", "game": 2}
    assert parse_arguments("bid CS 50", play["move"]) == {"move": "bid CS 50"}
    assert parse_arguments("r:3 yes", play["answer"]) == {"request": "r:3", "answer": "yes"}
    assert parse_arguments("routes B&O Reading", GAME_COMMANDS["view"]) == {
        "what": "routes",
        "detail": "B&O Reading",
    }
    assert parse_arguments("routes:2: E19 F20; 3: F20 G19", GROUPS["/play"]["run"]) == {
        "routes": "2: E19 F20; 3: F20 G19"
    }
    assert parse_arguments("hours:1.5", GROUPS["/game-admin"]["remind"]) == {"hours": 1.5}


async def test_console_and_discord_offer_the_same_commands(db_path):
    bot = RailchatBot(GameService(Store(db_path)))
    await bot.load_cogs()
    discord_side, console_side = {}, {}
    for top in bot.tree.get_commands():
        subcommands = getattr(top, "commands", None)
        for c in subcommands if subcommands is not None else [top]:
            path = f"/{top.name} {c.name}" if subcommands is not None else f"/{c.name}"
            discord_side[path] = sorted((p.name, p.required) for p in c.parameters)
    for group, commands in GROUPS.items():
        for c in commands.values():
            console_side[f"{group} {c.name}"] = sorted((p.name, p.required) for p in c.params)
    for c in TOP_LEVEL.values():
        console_side[f"/{c.name}"] = sorted((p.name, p.required) for p in c.params)
    for standin in BUTTON_STANDINS:
        del console_side[standin]
    for path, names in CONSOLE_OPTIONS.items():
        console_side[path] = [p for p in console_side[path] if p[0] not in names]
    assert console_side == discord_side
    assert len(discord_side) > 25


def _railchat(
    args: list[str], stdin: str, tmp_path: Path, register_tally: bool = False, **env: str
) -> subprocess.CompletedProcess:
    """Run the real entry point in a new process, as a user would."""
    code = (
        "import sys\n"
        + ("from tests.titles_for_tests import register\nregister()\n" if register_tally else "")
        + f"from bot.cli import main\nsys.exit(main({args!r}))\n"
    )
    environment = {"PATH": "/usr/bin:/bin", "RAILCHAT_DB": str(tmp_path / "cli.db"), **env}
    return subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )


def test_railchat_local_reads_a_script_from_stdin(tmp_path):
    script = "\n".join(
        [
            "as 1: /game new tally seats:2",
            "as 2: /game join",
            "as 1: /game start",
            "/game-admin act " + ADD % (5, 1),
            "/game teleport",
            "quit",
            "/game status",
        ]
    )
    done = _railchat(["local"], script, tmp_path, register_tally=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"railchat console on {tmp_path / 'cli.db'}")
    assert "> as 2: /game join" in lines
    assert "player 1 added 5." in lines
    assert (
        "Refused: unknown command '/game teleport'; did you mean /game export? /game help "
        "lists the commands" in lines
    )
    assert lines[-2:] == [
        "> quit",
        f"Saved in {tmp_path / 'cli.db'}: `railchat local` takes up where you left off.",
    ]  # nothing after quit runs
    again = _railchat([], "/game status 1\n", tmp_path, register_tally=True)
    assert "player 1 added 5." not in again.stdout and "Game #1 · tally · in play" in again.stdout


def test_bare_railchat_without_token_plays_in_the_console(tmp_path):
    done = _railchat([], "/game list\n/game new chess\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "No games here yet. Start one with /game new." in done.stdout
    assert "Refused: unknown title 'chess'" in done.stdout
    assert (tmp_path / "cli.db").exists()


async def test_an_internal_error_is_reported_and_the_session_goes_on(console, monkeypatch, caplog):
    await session(console, "as 1: /game new tally seats:2", "as 2: /game join")

    async def broken(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(console.service, "start", broken)
    out = await session(console, "as 1: /game start", "/game status")
    assert out[0].startswith("Something went wrong on my side")
    assert out[1].startswith("Game #1 · tally · waiting for players (2/2 seated")
    assert "engine bug" in caplog.text


def _png(colour: str) -> bytes:
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", (4, 3), colour).save(buffer, format="PNG")
    return buffer.getvalue()


async def test_changes_write_their_images_and_print_the_paths(db_path, tmp_path):
    drawn = []

    def renderer(game, view):
        drawn.append((view, sum(game.scores.values())))
        return _png("red")

    console = Console(
        GameService(Store(db_path), new_seed=lambda: 3),
        io.StringIO(),
        images_dir=tmp_path / "img",
        renderer=renderer,
    )
    out = await session(console, "as 1: /game new tally seats:2", "as 2: /game join")
    assert drawn == [] and not any(line.startswith("Images") for line in out)
    out = await session(console, "as 1: /game start", "/game-admin act " + ADD % (4, 1))
    path = tmp_path / "img" / "game-1-board.png"
    assert out == [
        "Game #1 of tally has started. Seat order: 1. player 1, 2. player 2.",
        f"Images in {tmp_path / 'img'}: game-1-board.png",
        "To act: player 1",
        "player 1 added 4.",
        f"Images in {tmp_path / 'img'}: game-1-board.png",
        "To act: player 2",
    ]
    assert drawn == [("board", 12), ("board", 16)]  # each drawn from the state after the change
    assert path.read_bytes() == _png("red")
    refused = await session(console, "/game-admin act " + ADD % (4, 1))
    assert refused == ["Refused: it is not your turn in game #1; waiting for player 2"]
    assert len(drawn) == 2


async def test_each_database_keeps_its_images_beside_it(tmp_path):
    """Game #1 of two databases: each session writes into its own folder, so neither
    overwrites the other's pictures."""
    from bot.cli.console import play

    for name, colour in (("first", "red"), ("second", "blue")):
        db = tmp_path / f"{name}.db"
        out = io.StringIO()
        lines = ["/game new tally seats:2", "as 2: /game join", "as 1: /game start"]
        await play(
            GameService(Store(str(db)), new_seed=lambda: 3),
            str(db),
            renderer=lambda game, view, colour=colour: _png(colour),
            stream=io.StringIO("\n".join(lines)),
            out=out,
        )
        assert f"Images in {tmp_path / f'{name}-images'}: game-1-board.png" in out.getvalue()
    assert (tmp_path / "first-images" / "game-1-board.png").read_bytes() == _png("red")
    assert (tmp_path / "second-images" / "game-1-board.png").read_bytes() == _png("blue")


async def test_turns_and_settings_are_the_named_players(console):
    """`/turns` and `/settings` as in Discord, for the player `as N:` last named."""
    await session(console, "as 1: /game new tally seats:2", "as 2: /game join", "as 1: /game start")
    assert (await session(console, "as 2: /turns"))[0] == "Your games: 1 (your turn in none):"
    assert (
        (await session(console, "as 1: /turns"))[:2]
        == [
            "Your games: 1 (your turn in 1):",
            "your turn · #1 · tally · waiting 0 min",  # plain text: a terminal would print Discord's bold stars
        ]
    )
    await session(console, "/settings timezone Europe/Paris", "/settings turn-dm on")
    shown = await session(console, "/settings show")
    assert any(line.startswith("• Time zone: Europe/Paris, where it is ") for line in shown)
    assert "• Direct message when it is your turn: in all your games (/settings turn-dm)" in shown
    assert "• Time zone: UTC (not set)" in " ".join(await session(console, "as 2: /settings show"))
    assert await session(console, "/settings reminder-dm maybe") == [
        "Refused: dm is on or off, not 'maybe'"
    ]


async def test_answers_that_name_nothing_are_refused(console):
    await session(console, "as 1: /game new tally seats:2", "as 2: /game join", "as 1: /game start")
    assert await session(console, "/play answer x yes", "/play answer 1 maybe") == [
        "Refused: 'x' names no request: give its number (3) or pick a suggestion",
        "Refused: answer is yes or no, not 'maybe'",
    ]
    assert await session(console, "/play answer preview yes") == [
        "Refused: no move is shown to player 1 to confirm; preview one first (e.g. /play rail "
        "short B1 S1)"
    ]


async def test_play_auto_sets_lists_and_cancels_a_players_programs(console):
    await session(
        console,
        "as 1: /game new 1830 seats:3",
        "as 2: /game join",
        "as 3: /game join",
        "as 1: /game start",
    )
    out = await session(
        console, "as 2: /play auto what:set program:pass in the auction until it ends"
    )
    assert out == ["[player 2] Programmed: you pass in the auction until it ends."]
    out = await session(console, "as 2: /play auto")
    assert out == [
        "[player 2] Your programmed moves in game #1 (only you see them):",
        "- you pass in the auction until it ends",
    ]
    out = await session(console, "as 2: /play auto what:cancel program:all")
    assert out == [
        "[player 2] Cancelled your programmed move: you pass in the auction until it ends."
    ]
    out = await session(console, "/play auto")  # whoever must act: player 1
    assert out[0].startswith("[player 1] You have no programmed moves in game #1.")
    out = await session(console, "as 2: /play auto what:stop")
    assert out == ["Refused: what is set, list or cancel, not 'stop'"]


async def test_as_n_names_the_player_of_its_line_only(console):
    await session(console, "/game new tally seats:2", "as 2: /game join", "/game start")
    alone = await session(console, "as 3: /turns")
    after = await session(console, "/turns")
    assert alone != after and "player 1" not in " ".join(alone)
    assert after == await session(console, "as 1: /turns")  # a bare line is still player 1's
    await session(console, "as 3:")  # alone, it switches who types from now on
    assert await session(console, "/turns") == alone


async def test_a_typo_gets_the_nearest_command(console):
    assert await session(console, "/play mvoe bid CS 50", "/gmae status", "/turn", "/play") == [
        "Refused: unknown command '/play mvoe bid CS 50'; did you mean /play move? /game help "
        "lists the commands",
        "Refused: unknown command '/gmae status'; did you mean /game status? /game help lists "
        "the commands",
        "Refused: unknown command '/turn'; did you mean /turns? /game help lists the commands",
        "Refused: /play needs a command: move, pass, lay, run, rail, answer, auto, hint, away, "
        "back, menu",
    ]


class _Interrupted(io.StringIO):
    """Standard input on which the player presses Ctrl-C after some lines."""

    def __iter__(self):
        while line := self.readline():
            yield line
        raise KeyboardInterrupt


async def test_quit_end_of_input_and_ctrl_c_leave_alike(tmp_path):
    from bot.cli.console import play

    endings = {}
    for how, stream in (
        ("quit", io.StringIO("/game new tally seats:2\nquit\n/game list\n")),
        ("eof", io.StringIO("/game new tally seats:2\n")),
        ("ctrl-c", _Interrupted("/game new tally seats:2\n")),
    ):
        db = str(tmp_path / f"{how}.db")
        out = io.StringIO()
        await play(GameService(Store(db)), db, stream=stream, out=out)
        endings[how] = out.getvalue().rstrip("\n").splitlines()[-1].replace(db, "DB")
        assert "opened game #1" in out.getvalue() and "#1 · tally" not in out.getvalue()
    assert set(endings.values()) == {"Saved in DB: `railchat local` takes up where you left off."}


async def test_computer_seats_go_on_by_themselves_after_a_restart(tmp_path):
    """A game left waiting on a computer seat (the console stopped before it moved) goes on as
    soon as the console starts again, without a pause and resume."""
    from bot.cli.console import play

    db = str(tmp_path / "restart.db")
    first = Console(GameService(Store(db), new_seed=lambda: 3), io.StringIO())
    await session(first, "/game new tally seats:2", "as 2: /game join", "/game start")
    await session(first, "/game-admin act " + ADD % (4, 1))
    await first.service.store.set_computer(1, 2, "random")  # stopped before it could move
    first.service.store.close()
    out = io.StringIO()
    await play(GameService(Store(db), new_seed=lambda: 3), db, stream=io.StringIO(""), out=out)
    said = out.getvalue()
    assert "player 2 added" in said and said.index("player 2 added") < said.index("Saved in")
