"""Discord's rate limits (docs/topics/rate-limits.md), counted on the fake's clock.

- Per-route buckets: each route (method and path) with its top-level resource (a channel, a
  server, a webhook or an interaction) has its own count; every answer carries the bucket's
  `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After` and `-Bucket`
  headers, which discord.py reads to wait before it is refused. Creating messages is limited
  to 5 per 5 s per channel; Discord documents no number for the other routes (they "should not
  be hard coded"): the fake gives each ROUTE.
- The global limit: 50 requests per second over all routes but the interaction endpoints
  ("Interaction endpoints are not bound to the bot's Global Rate Limit").
- Past a limit: 429 with `{"message", "retry_after", "global"}`, `Retry-After` and
  `X-RateLimit-Scope` (`user` for a route, `global`, `shared` for a limit on the resource).
- The invalid-request limit: 401, 403 and 429 answers (not those scoped `shared`) are counted;
  10,000 in 10 minutes and Cloudflare bans the bot for a while: every request is answered 429
  with a text body and no `Via` header (discord.py raises at once).
- Opening direct messages too fast: DM_OPENS per window, then 403 with 40003.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.fake_discord.refusals import Refusal, Rejected


@dataclass(frozen=True)
class Quota:
    count: int
    per: float  # seconds


MESSAGES = Quota(5, 5.0)  # message creation, per channel
ROUTE = Quota(10, 1.0)  # any other route, per resource (the fake's own number)
GLOBAL = Quota(50, 1.0)
INVALID = Quota(10_000, 600.0)
BAN_SECONDS = 3600.0  # Cloudflare's temporary ban (the docs say "temporary")
# Seen in the field as 403 (davidhozic/discord-advertisement-framework#82); Discord gives no
# number: the fake's own.
DM_OPENS = Quota(10, 60.0)
TOO_FAST_DMS = Refusal(403, 40003, "You are opening direct messages too fast.")
MESSAGE_ROUTE = "POST /channels/{}/messages"
INTERACTION_ROUTES = ("POST /interactions/", "/webhooks/")  # not bound to the global limit


class Limited(Exception):
    """A request refused with 429 (or banned): its body and headers."""

    def __init__(self, body: dict[str, object] | str, headers: dict[str, str]) -> None:
        super().__init__(str(body))
        self.body = body
        self.headers = headers


@dataclass
class Bucket:
    """A fixed window: it opens with its first request and resets `per` seconds later."""

    quota: Quota
    name: str
    used: int = 0
    reset_at: float = -math.inf

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.used, self.reset_at = 0, now + self.quota.per
        if self.used >= self.quota.count:
            return False
        self.used += 1
        return True

    def headers(self, now: float) -> dict[str, str]:
        after = max(self.reset_at - now, 0.0)
        return {
            "X-RateLimit-Limit": str(self.quota.count),
            "X-RateLimit-Remaining": str(max(self.quota.count - self.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


@dataclass
class RateLimits:
    clock: Callable[[], float]
    messages: Quota = MESSAGES
    route: Quota = ROUTE
    global_limit: Quota = GLOBAL
    invalid_limit: Quota = INVALID
    dm_opens: Quota = DM_OPENS
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    invalid: deque[float] = field(default_factory=deque)  # when each invalid answer was given
    banned_until: float = -math.inf
    limited: int = 0  # 429s answered for a limit

    def __post_init__(self) -> None:
        self.everything = Bucket(self.global_limit, "global")
        self.opened = Bucket(self.dm_opens, "dm-opens")

    @property
    def invalid_count(self) -> int:
        """The invalid requests (401, 403, 429 not shared) of the last 10 minutes."""
        self._forget(self.clock())
        return len(self.invalid)

    def take(self, route: str, resource: str) -> dict[str, str]:
        """Count one request of `route` ("POST /channels/{}/messages") on `resource`; the
        headers of its answer, or Limited (429) when a limit is reached."""
        now = self.clock()
        if now < self.banned_until:
            raise Limited("error code: 1015", {"Retry-After": str(int(self.banned_until - now))})
        if not route.startswith(INTERACTION_ROUTES) and not self.everything.take(now):
            self._refuse(now, self.everything, "global")
        quota = self.messages if route == MESSAGE_ROUTE else self.route
        name = hashlib.sha1(route.encode()).hexdigest()[:16]
        bucket = self.buckets.setdefault((route, resource), Bucket(quota, name))
        if not bucket.take(now):
            self._refuse(now, bucket, "user")
        return bucket.headers(now)

    def open_dm(self) -> None:
        """A DM channel opened: 40003 once too many were opened in the window."""
        if not self.opened.take(self.clock()):
            raise Rejected(TOO_FAST_DMS)

    def answered(self, status: int, headers: dict[str, str]) -> None:
        """Count an invalid answer; at the limit, the ban starts."""
        if status not in (401, 403, 429) or headers.get("X-RateLimit-Scope") == "shared":
            return
        now = self.clock()
        self.invalid.append(now)
        self._forget(now)
        if len(self.invalid) >= self.invalid_limit.count:
            self.banned_until = now + BAN_SECONDS

    def _refuse(self, now: float, bucket: Bucket, scope: str) -> None:
        self.limited += 1
        after = max(bucket.reset_at - now, 0.0)
        body = {"message": "You are being rate limited.", "retry_after": round(after, 3)}
        headers = {
            **bucket.headers(now),
            "Retry-After": str(math.ceil(after)),
            "X-RateLimit-Scope": scope,
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        raise Limited(body | {"global": scope == "global"}, headers)

    def _forget(self, now: float) -> None:
        while self.invalid and self.invalid[0] <= now - self.invalid_limit.per:
            self.invalid.popleft()


def bucket_of(method: str, path: str) -> tuple[str, str]:
    """The route of a request with its ids left out, and its top-level resource (a channel,
    server, webhook with its token, or interaction; "" for none)."""
    parts = path.split("/")
    top = parts[1] if len(parts) > 1 else ""
    resource = ""
    if top in ("channels", "guilds", "interactions"):
        resource = "/".join(parts[1:3])
    elif top == "webhooks":
        resource = "/".join(parts[1:4])
    template = re.sub(r"/(?:\d+|tok[^/]*)(?=/|$)", "/{}", path)
    return f"{method} {template}", resource
