"""Settings from the environment, with a `.env` file in the working directory as a fallback."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "railchat.db"
DEFAULT_REMIND_HOURS = 24.0
MAX_REMIND_HOURS = 8760.0  # a year: the longest reminder period


class ConfigError(ValueError):
    """A setting is present but unusable; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: str
    guild_id: int | None
    log_level: str | None  # None: each mode picks its own default
    remind_hours: float = DEFAULT_REMIND_HOURS

    def __repr__(self) -> str:  # never let the token reach a log line
        token = "set" if self.token else "unset"
        return (
            f"Settings(token={token}, db_path={self.db_path!r}, guild_id={self.guild_id}, "
            f"log_level={self.log_level!r}, remind_hours={self.remind_hours})"
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
    if not 0 <= remind_hours <= MAX_REMIND_HOURS:  # also refuses nan
        raise ConfigError(
            f"RAILCHAT_REMIND_HOURS must be a number of hours from 0 (no "
            f"reminders) to {MAX_REMIND_HOURS:g}, not {remind!r}"
        )
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=env.get("RAILCHAT_DB", "").strip() or DEFAULT_DB,
        guild_id=int(guild) if guild else None,
        log_level=env.get("RAILCHAT_LOG_LEVEL", "").strip().upper() or None,
        remind_hours=remind_hours,
    )
