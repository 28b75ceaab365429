"""Where the store lives (`RAILCHAT_DB`): a SQLite file path, or a PostgreSQL URL. Kept apart
from the store so that settings and command lines can tell and show one without loading it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
OPTION_HELP = "SQLite file or postgresql:// URL (default: RAILCHAT_DB or ./railchat.db)"


def is_postgres(target: str) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(POSTGRES_SCHEMES)


def shown(target: str) -> str:
    """The target as it may appear in a log line or a message: a URL's password hidden
    (after the user name or as a `password=` parameter)."""
    if not is_postgres(target):
        return target
    parts = urlsplit(target)
    query = re.sub(r"(^|&)password=[^&]*", r"\1password=***", parts.query)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = f"{parts.username or ''}:***@{netloc.rpartition('@')[2]}"
    return urlunsplit(parts._replace(netloc=netloc, query=query))
