"""Which direct messages may go now: Discord refuses a user who closed their direct messages
(50007) every time, and too many DMs opened too fast (40003) are refused for a while, and
each refusal counts towards the invalid requests that get a bot banned (10,000 in 10
minutes). So a closed user is not tried again for CLOSED_SECONDS, DMs stop for a pause after
40003 (doubled at each new refusal, up to the longest), and DMs go at most one per GAP."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

CANNOT_DM = 50007
TOO_FAST = 40003
CLOSED_SECONDS = 86400.0  # a day: a user who closed their DMs rarely opens them within one
PAUSES = (60.0, 3600.0)  # the first and the longest pause after 40003
GAP = 0.5  # seconds between two direct messages


class DmGate:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.gap = GAP
        self._closed: dict[int, float] = {}  # user id: until when they are not tried
        self._paused_until = -math.inf
        self._pause = PAUSES[0]
        self._next = -math.inf  # when the next DM may go
        self._lock = asyncio.Lock()

    def shut(self, user_id: int) -> str | None:
        """Why no DM goes to this user now (None: one may)."""
        now = self.clock()
        if self._closed.get(user_id, -math.inf) > now:
            return "their direct messages are closed"
        self._closed.pop(user_id, None)
        if self._paused_until > now:
            return f"direct messages paused {self._paused_until - now:.0f} s after 40003"
        return None

    async def turn(self) -> None:
        """Wait for this DM's turn (one every `gap` seconds)."""
        async with self._lock:
            wait = self._next - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            self._next = self.clock() + self.gap

    def refused(self, user_id: int, code: int | None) -> None:
        """Discord refused a DM: remember a closed user; pause after 40003."""
        now = self.clock()
        if code == CANNOT_DM:
            self._closed[user_id] = now + CLOSED_SECONDS
        elif code == TOO_FAST:
            self._paused_until = now + self._pause
            log.warning("opening DMs too fast (40003): pausing them %.0f s", self._pause)
            self._pause = min(self._pause * 2, PAUSES[1])

    def sent(self) -> None:
        self._pause = PAUSES[0]
