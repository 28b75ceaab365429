"""The `railchat` command line and its settings (environment and .env)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import discord
import pytest

import bot.discord_ui.app
from bot import cli
from bot.cli.hotseat import images_dir_for
from bot.core.config import ConfigError, load_settings, read_dotenv
from bot.core.shards import Shards


def test_dotenv_is_read_and_the_environment_wins(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\n\nDISCORD_TOKEN='abc.def'\nexport RAILCHAT_GUILD=123\n"
        'RAILCHAT_DB="/data/x.db"\n'
    )
    assert read_dotenv(dotenv) == {
        "DISCORD_TOKEN": "abc.def",
        "RAILCHAT_GUILD": "123",
        "RAILCHAT_DB": "/data/x.db",
    }
    settings = load_settings({"RAILCHAT_DB": "mine.db"}, dotenv)
    assert (settings.token, settings.guild_id, settings.db_path) == ("abc.def", 123, "mine.db")
    assert "abc" not in repr(settings)  # the token never reaches a log line
    defaults = load_settings({}, tmp_path / "missing.env")
    assert (defaults.token, defaults.db_path, defaults.guild_id) == (None, "railchat.db", None)


def test_reminder_hours_setting(tmp_path):
    none = tmp_path / "none"
    assert load_settings({}, none).remind_hours == 24
    assert load_settings({"RAILCHAT_REMIND_HOURS": "0"}, none).remind_hours == 0
    assert load_settings({"RAILCHAT_REMIND_HOURS": " 1.5 "}, none).remind_hours == 1.5
    for bad in ("soon", "-2", "nan"):
        with pytest.raises(ConfigError, match=r"RAILCHAT_REMIND_HOURS must be 0 \(no reminders\)"):
            load_settings({"RAILCHAT_REMIND_HOURS": bad}, none)


def test_bad_settings_are_named(tmp_path):
    with pytest.raises(ConfigError, match="RAILCHAT_GUILD must be a server id"):
        load_settings({"RAILCHAT_GUILD": "my server"}, tmp_path / "none")
    broken = tmp_path / ".env"
    broken.write_text("DISCORD_TOKEN\n")
    with pytest.raises(ConfigError, match=r"\.env:1: expected KEY=VALUE"):
        read_dotenv(broken)


def test_run_starts_the_bot_when_a_token_is_set(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    monkeypatch.setenv("RAILCHAT_GUILD", "42")
    started = []
    monkeypatch.setattr(bot.discord_ui.app, "run_bot", lambda s, shards: started.append(s))
    assert cli.main(["run", "--db", "other.db"]) == 0
    assert [(s.token, s.guild_id, s.db_path) for s in started] == [("secret", 42, "other.db")]
    assert cli.main([]) == 0 and len(started) == 2  # bare `railchat` means `run`


def test_run_serves_the_shards_it_is_given_and_refuses_bad_ones(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    served = []
    monkeypatch.setattr(bot.discord_ui.app, "run_bot", lambda s, shards: served.append(shards))
    assert cli.main(["run", "--shards", "2-3", "--shard-count", "4"]) == 0
    assert cli.main(["run", "--shards", "1", "--shard-count", "2"]) == 0
    assert cli.main(["run", "--shard-count", "2"]) == 0
    assert cli.main(["run"]) == 0
    assert served == [Shards((2, 3), 4), Shards((1,), 2), Shards((0, 1), 2), None]
    for args, why in [
        (["--shards", "0-1"], "--shards needs --shard-count"),
        (["--shards", "1-4", "--shard-count", "4"], "shard ids go from 0 to 3"),
        (["--shards", "x", "--shard-count", "4"], "must be a shard id or a range A-B"),
        (["--shard-count", "0"], "--shard-count must be 1 to 4096"),
    ]:
        assert cli.main(["run", *args]) == 2
        assert why in capsys.readouterr().err
    assert len(served) == 4  # nothing started for a refused one
    monkeypatch.delenv("DISCORD_TOKEN")
    assert cli.main(["run", "--shard-count", "2"]) == 2
    assert "--shards serves Discord: set DISCORD_TOKEN" in capsys.readouterr().err


def test_run_without_a_token_refuses_but_bare_railchat_plays_here(monkeypatch, tmp_path, capsys):
    """A detached container running `railchat run` must not end in a console nobody sees and
    exit 0: the bot was asked for, so no token is an error. Bare `railchat` still plays here."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    played = []
    monkeypatch.setattr(cli, "_local", lambda settings: played.append(settings.db_path) or 0)
    assert cli.main(["run"]) == 2
    assert (
        "`railchat run` starts the Discord bot and needs DISCORD_TOKEN" in capsys.readouterr().err
    )
    assert played == []
    assert cli.main([]) == 0 and len(played) == 1


def test_local_on_a_missing_folder_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "nowhere" / "games.db"
    assert cli.main(["local", "--db", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err == f"railchat: no folder {missing.parent} for the database {missing}\n"
    assert not missing.parent.exists()


def test_console_images_of_a_postgres_database_name_only_the_database():
    folder = images_dir_for("postgresql://bob:hunter2@db.example:5432/rail%20games?password=x")
    assert folder == Path("railchat-rail_20games-images")
    assert images_dir_for("games/one.db") == Path("games/one-images")


def test_a_bad_setting_stops_with_a_message(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAILCHAT_GUILD", "abc")
    assert cli.main(["local"]) == 2
    assert (
        "railchat: RAILCHAT_GUILD must be a server id (digits), not 'abc'"
        in capsys.readouterr().err
    )


def test_help_lists_the_sub_commands(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "run" in out and "local" in out


@pytest.mark.parametrize(
    "error, message",
    [
        (discord.LoginFailure("Improper token has been passed."), "Discord refused DISCORD_TOKEN"),
        (OSError("Name or service not known"), "cannot reach Discord: Name or service not known"),
    ],
)
def test_bot_start_failures_are_explained(monkeypatch, tmp_path, capsys, error, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "wrong")

    def fail(settings, shards):
        raise error

    monkeypatch.setattr(bot.discord_ui.app, "run_bot", fail)
    assert cli.main(["run"]) == 1
    err = capsys.readouterr().err
    assert message in err and "wrong" not in err


def test_compose_runs_processes_that_serve_every_shard_once():
    """compose.yaml's bot processes take shard options the command accepts, all with one
    shard count, and together serve each shard exactly once."""
    text = (Path(__file__).resolve().parents[1] / "compose.yaml").read_text()
    commands = [json.loads(found) for found in re.findall(r"command: (\[.*\])", text)]
    assert len(commands) == 2
    served = []
    for argv in commands:
        assert argv[:2] == ["railchat", "run"]
        served.append(cli._shards(cli.build_parser().parse_args(argv[1:])))
    counts = {s.count for s in served if s is not None}
    assert len(counts) == 1 and None not in served
    assert sorted(i for s in served if s is not None for i in s.ids) == list(range(counts.pop()))


def test_the_one_process_compose_file_serves_every_shard_on_the_shared_database():
    root = Path(__file__).resolve().parents[1]
    one = (root / "compose.one.yaml").read_text()
    commands = [json.loads(found) for found in re.findall(r"command: (\[.*\])", one)]
    assert commands == [["railchat", "run"]]
    assert cli._shards(cli.build_parser().parse_args(commands[0][1:])) is None  # every shard
    for name in ("compose.yaml", "compose.one.yaml"):
        assert "include:\n  - compose.db.yaml" in (root / name).read_text()
    database = (root / "compose.db.yaml").read_text()
    assert "\n  db:\n" in database and "railchat-db:/var/lib/postgresql/data" in database
