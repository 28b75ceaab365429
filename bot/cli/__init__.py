"""The `railchat` command: the bot, console play, and sub-commands other packages register.

`railchat` alone starts the Discord bot when DISCORD_TOKEN is set (environment or `.env`),
otherwise console play on the same database. `railchat run` asks for the bot and refuses to
start without a token: a detached container must not end quietly in a console nobody sees.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import logging
import sys
from pathlib import Path

from bot.core.config import ConfigError, Settings, load_settings
from bot.core.db_url import OPTION_HELP, is_postgres, shown
from bot.core.shards import ShardError, Shards

log = logging.getLogger(__name__)

# Modules exposing `add_parser(subparsers) -> None`, each registering one sub-command whose
# handler is set with `set_defaults(func=...)` and takes the parsed arguments.
EXTRA_COMMAND_MODULES: tuple[str, ...] = (
    "bot.cli.replay",
    "bot.cli.routes",
    "render.cli",
    "bot.cli.export",
    "bot.cli.fuzz",
    "bot.cli.arena",
    "bot.cli.db",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="railchat",
        description="Play railway board games by chat: the Discord bot, console play and tools.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="start the Discord bot (needs DISCORD_TOKEN); `railchat` alone plays in the "
        "console when no token is set",
    )
    run.set_defaults(func=cmd_run)
    run.add_argument(
        "--shards",
        metavar="A-B",
        help="serve only Discord shards A to B (or one shard A) of --shard-count; run one "
        "process per range, all on one PostgreSQL database",
    )
    run.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="how many shards the bot's servers are split into (all N in this process "
        "unless --shards says which)",
    )
    local = commands.add_parser(
        "local", help="play hot-seat in this terminal (or from a script on standard input)"
    )
    local.set_defaults(func=cmd_local)
    sync = commands.add_parser(
        "sync",
        help="upload the slash commands to Discord now (the bot uploads them by itself only "
        "when they changed)",
    )
    sync.set_defaults(func=cmd_sync)
    for sub in (run, local, sync):
        sub.add_argument("--db", help=OPTION_HELP)
    for name in EXTRA_COMMAND_MODULES:
        importlib.import_module(name).add_parser(commands)
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings()
    if getattr(args, "db", None):
        settings = dataclasses.replace(settings, db_path=args.db)
    return settings


def _configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )


def _shards(args: argparse.Namespace) -> Shards | None:
    """The shards `run` serves (None: one process, as many shards as Discord advises)."""
    if args.shards is None and args.shard_count is None:
        return None
    if args.shard_count is None:
        raise ShardError("--shards needs --shard-count: how many shards there are in all")
    return Shards.parse(args.shards or f"0-{args.shard_count - 1}", args.shard_count)


def cmd_run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    try:
        shards = _shards(args)
    except ShardError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 2
    if settings.token is None:
        if shards is not None:
            print("railchat: --shards serves Discord: set DISCORD_TOKEN", file=sys.stderr)
            return 2
        if not getattr(args, "bare", False):
            print(
                "railchat: `railchat run` starts the Discord bot and needs DISCORD_TOKEN (in the "
                "environment or .env); `railchat local` plays in this terminal",
                file=sys.stderr,
            )
            return 2
        return _local(settings)
    import aiohttp  # discord.py and its HTTP client load only when the bot runs
    import discord

    from bot.discord_ui.app import run_bot

    _configure_logging(settings.log_level or "INFO")
    log.info(
        "starting the Discord bot on %s (%s)",
        shown(settings.db_path),
        shards or "every shard Discord advises",
    )
    try:
        run_bot(settings, shards)
    except discord.LoginFailure:
        print(
            "railchat: Discord refused DISCORD_TOKEN; copy the bot token again from the "
            "Developer Portal",
            file=sys.stderr,
        )
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        print(f"railchat: cannot reach Discord: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if settings.token is None:
        print("railchat: sync needs DISCORD_TOKEN (in the environment or .env)", file=sys.stderr)
        return 2
    import discord

    from bot.discord_ui.app import sync_now

    _configure_logging(settings.log_level or "INFO")
    try:
        sync_now(settings)
    except discord.LoginFailure:
        print("railchat: Discord refused DISCORD_TOKEN", file=sys.stderr)
        return 1
    print("railchat: commands uploaded")
    return 0


def cmd_local(args: argparse.Namespace) -> int:
    return _local(_settings(args))


def _local(settings: Settings) -> int:
    import asyncio

    from bot.cli.console import play
    from bot.core.rendering import render_view
    from bot.core.service import GameService
    from bot.core.store import Store

    _configure_logging(settings.log_level or "WARNING")
    if not is_postgres(settings.db_path) and settings.db_path not in ("", ":memory:"):
        folder = Path(settings.db_path).parent
        if not folder.is_dir():
            print(
                f"railchat: no folder {folder} for the database {settings.db_path}", file=sys.stderr
            )
            return 2
    store = Store(settings.db_path)
    try:
        service = GameService(
            store, remind_hours=settings.remind_hours, game_caps=settings.game_caps
        )
        asyncio.run(play(service, shown(settings.db_path), renderer=render_view))
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        args = parser.parse_args(["run"])
        args.bare = True
    try:
        return args.func(args) or 0
    except ConfigError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 2
