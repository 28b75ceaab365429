"""Settings from the environment, with a `.env` file in the working directory as a fallback."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.core.db_url import shown

DEFAULT_DB = "railchat.db"
DEFAULT_REMIND_HOURS = 24.0
MAX_REMIND_HOURS = 8760.0  # a year: the longest reminder period
DEFAULT_GAME_CAPS = (50, 10)  # games not yet over: per server, per user who opened them
MIN_REMIND_HOURS = 1.0  # the shortest: a reminder is a ping, never a flood
REMIND_RANGE = f"0 (no reminders) or {MIN_REMIND_HOURS:g} to {MAX_REMIND_HOURS:g} (a year)"


def valid_remind_hours(hours: float) -> bool:
    """0 (no reminders) or a period from an hour to a year (nan and inf are neither)."""
    return hours == 0 or MIN_REMIND_HOURS <= hours <= MAX_REMIND_HOURS


class ConfigError(ValueError):
    """A setting is present but unusable; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: str  # a SQLite file, or a postgresql:// URL
    guild_id: int | None
    log_level: str | None  # None: each mode picks its own default
    remind_hours: float = DEFAULT_REMIND_HOURS
    game_caps: tuple[int, int] = DEFAULT_GAME_CAPS

    def __repr__(self) -> str:  # never let the token reach a log line
        token = "set" if self.token else "unset"
        return (
            f"Settings(token={token}, db_path={shown(self.db_path)!r}, guild_id={self.guild_id}, "
            f"log_level={self.log_level!r}, remind_hours={self.remind_hours}, "
            f"game_caps={self.game_caps})"
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments ignored; optional surrounding quotes."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{path}:{number}: expected KEY=VALUE")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path = Path(".env")
) -> Settings:
    """The process environment wins over `.env`."""
    env = {**read_dotenv(dotenv), **(os.environ if environ is None else environ)}
    guild = env.get("RAILCHAT_GUILD", "").strip()
    if guild and not (guild.isdigit() and int(guild) < 2**63):
        raise ConfigError(f"RAILCHAT_GUILD must be a server id (digits), not {guild!r}")
    remind = env.get("RAILCHAT_REMIND_HOURS", "").strip()
    try:
        remind_hours = float(remind) if remind else DEFAULT_REMIND_HOURS
    except ValueError:
        remind_hours = -1.0
    if not valid_remind_hours(remind_hours):
        raise ConfigError(f"RAILCHAT_REMIND_HOURS must be {REMIND_RANGE} hours, not {remind!r}")
    caps = tuple(
        _count(env, name, default)
        for name, default in zip(
            ("RAILCHAT_MAX_GAMES_PER_SERVER", "RAILCHAT_MAX_GAMES_PER_USER"), DEFAULT_GAME_CAPS
        )
    )
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=env.get("RAILCHAT_DB", "").strip() or DEFAULT_DB,
        guild_id=int(guild) if guild else None,
        log_level=env.get("RAILCHAT_LOG_LEVEL", "").strip().upper() or None,
        remind_hours=remind_hours,
        game_caps=(caps[0], caps[1]),
    )


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isdigit() and 1 <= int(raw) <= 100_000):
        raise ConfigError(f"{name} must be a whole number from 1 to 100000, not {raw!r}")
    return int(raw)
