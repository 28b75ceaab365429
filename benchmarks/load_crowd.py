"""The crowd of `benchmarks/load.py`: simulated users sending each game's next move from its
file, and the fake Discord noting when each interaction was first answered and when each move
first shows in its thread."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load_files import Source
from bot.core.store import Store
from tests.fake_discord import FakeDiscord, user

TIMEOUT = 30.0  # seconds a user waits for their move to show before looking at the game
DEAL_OFFER = re.compile(r"proposes deal #\d+ to ")


def shown(content: str, sentence: str) -> int:
    """How often a move's sentence is told done in a post: an offered deal carries the
    sentence of the move it would make ("P4 proposes deal #1 to P2: NYC buys CA ..."), but
    that move is not made until the seller agrees."""
    offered = len(re.findall(DEAL_OFFER.pattern + r"[^\n]*?: " + re.escape(sentence), content))
    return content.count(sentence) - offered


@dataclass
class Pending:
    iid: int
    kind: str  # "move", "press", "read"
    sent: float
    index: int = -1  # the move's place in the file
    seen: dict[int, int] = field(default_factory=dict)  # message id: the sentence's count


@dataclass
class Table:
    game_id: int
    guild: int
    thread: dict[str, Any]
    source: Source
    users: list[int]  # by seat
    done: int  # moves of the file stored (as far as the crowd knows)
    told: int = 0  # moves of the file the bot told their user were done
    pending: Pending | None = None
    stuck: str | None = None  # why the crowd stopped playing it

    def actor_user(self) -> dict[str, Any]:
        player = self.source.actors[self.done]
        seat = [p["id"] for p in self.source.data["players"]].index(player)
        return user(self.users[seat], f"u{self.users[seat]}")


# -- the world ----------------------------------------------------------------------------------
class TimedFake(FakeDiscord):
    """The fake Discord, noting when each interaction was first answered and when each
    move's sentence first shows in its thread."""

    crowd: Crowd

    def _callback(self, method: str, body: Any, files: Any, iid: str, token: str) -> Any:
        out = super()._callback(method, body, files, iid, token)
        self.crowd.answered(int(iid), body)
        return out

    def _webhook(self, method: str, body: Any, files: Any, token: str, target: Any) -> Any:
        out = super()._webhook(method, body, files, token, target)
        self.crowd.followed_up(token, body)
        return out

    def _post(self, method: str, body: Any, files: Any, cid: str) -> Any:
        out = super()._post(method, body, files, cid)
        self.crowd.thread_post(int(cid), int(out["id"]), (body or {}).get("content") or "")
        return out

    def _message(self, method: str, body: Any, files: Any, cid: str, mid: str) -> Any:
        out = super()._message(method, body, files, cid, mid)
        if method == "PATCH" and body and "content" in body:
            self.crowd.thread_post(int(cid), int(mid), body["content"] or "")
        return out


@dataclass
class Crowd:
    fake: TimedFake
    tables: list[Table]
    rate: float  # interactions per second
    rng: random.Random
    by_thread: dict[int, Table] = field(default_factory=dict)
    by_iid: dict[int, Table] = field(default_factory=dict)
    first: dict[str, list[float]] = field(
        default_factory=lambda: {"move": [], "press": [], "read": []}
    )
    to_post: list[float] = field(default_factory=list)
    posted: int = 0
    refused: list[str] = field(default_factory=list)
    timeouts: int = 0
    resent: int = 0
    sent: dict[str, int] = field(default_factory=lambda: {"move": 0, "press": 0, "read": 0})
    unanswered_reads: int = 0
    deals: int = 0  # games stopped on a deal offered to a seller the crowd does not play
    last_post: dict[int, int] = field(default_factory=dict)  # thread: its newest message
    next_iid: int = 10**12
    last_change: float = 0.0  # when a thread post last changed
    measuring: bool = False

    def __post_init__(self) -> None:
        self.by_thread = {int(t.thread["id"]): t for t in self.tables}

    # what the fake saw
    def answered(self, iid: int, body: Any) -> None:
        table = self.by_iid.get(iid)
        if table is None or table.pending is None or table.pending.iid != iid:
            return
        pending = table.pending
        if self.measuring:
            self.first[pending.kind].append(time.monotonic() - pending.sent)
        if pending.kind == "read":
            table.pending = None
        self._reply(table, ((body or {}).get("data") or {}).get("content") or "")

    def followed_up(self, token: str, body: Any) -> None:
        iid = int(found.group(1)) if (found := re.fullmatch(r"tok(\d+)", token)) else None
        table = self.by_iid.get(iid) if iid is not None else None
        if table is not None and table.pending is not None and table.pending.iid == iid:
            self._reply(table, (body or {}).get("content") or "")

    def _reply(self, table: Table, content: str) -> None:
        """A move told done counts as made (it must be in the log after the run): "Done:"
        and its sentence. A purchase from another player is only offered ("Done: ... proposes
        deal ..."): the crowd answers no deals, so that game's play stops there. A refused
        move stops the game's play too."""
        pending = table.pending
        if pending is not None and pending.kind != "read" and content.startswith("Done"):
            said = content.split(": ", 1)[-1]
            if DEAL_OFFER.search(content):
                table.stuck = "a deal awaits its seller"
                self.deals += 1
                table.pending = None
                return
            if said.startswith(table.source.texts[pending.index].splitlines()[0]):
                table.told = max(table.told, pending.index + 1)
        if content.startswith("Refused") and table.pending is not None:
            if table.pending.kind != "read":
                table.stuck = content[:200]
                self.refused.append(f"game {table.game_id} move {table.done + 1}: {content[:160]}")
            table.pending = None

    def thread_post(self, thread: int, message: int, content: str) -> None:
        self.last_post[thread] = message
        self.last_change = time.monotonic()
        table = self.by_thread.get(thread)
        if table is None or table.pending is None or table.pending.kind == "read":
            return
        pending = table.pending
        sentence = table.source.texts[pending.index]
        if shown(content, sentence) > pending.seen.get(message, 0):
            if self.measuring:
                self.to_post.append(time.monotonic() - pending.sent)
                self.posted += 1
            table.done = pending.index + 1
            table.pending = None

    # what the users do
    async def run(self, seconds: float, store: Store) -> None:
        interval = 1.0 / self.rate
        start = time.monotonic()
        tick = start
        while time.monotonic() - start < seconds:
            tick += interval
            await self._one(store)
            self.fake.requests.clear()  # the fake keeps every request; not needed here
            await asyncio.sleep(max(0.0, tick - time.monotonic()))

    async def _one(self, store: Store) -> None:
        now = time.monotonic()
        for table in self.tables:  # moves unanswered too long: the user looks at the game
            if (
                table.pending
                and table.pending.kind != "read"
                and now - table.pending.sent > TIMEOUT
            ):
                self.timeouts += 1
                table.done = await store.action_count(table.game_id)
                table.pending = None
            elif (
                table.pending
                and table.pending.kind == "read"
                and now - table.pending.sent > TIMEOUT
            ):
                self.unanswered_reads += 1
                table.pending = None
        free = [t for t in self.tables if t.pending is None and t.stuck is None]
        if not free:
            return
        table = self.rng.choice(free)
        if table.done >= len(table.source.moves):
            table.stuck = "the file's moves are all made"
            return
        self.next_iid += 1
        iid = self.next_iid
        self.by_iid[iid] = table
        roll = self.rng.random()
        if roll < 0.2:
            reader = user(table.users[0], f"u{table.users[0]}")
            table.pending = Pending(iid, "read", time.monotonic())
            self.sent["read"] += self.measuring
            await self.fake.command(iid, reader, "game", "status", where=table.thread)
            return
        action = table.source.moves[table.done]
        who = table.actor_user()
        last = self.last_post.get(int(table.thread["id"]))
        pending = Pending(iid, "move", time.monotonic(), table.done)
        sentence = table.source.texts[table.done]
        if last is not None and last in self.fake.messages:
            pending.seen[last] = shown(self.fake.messages[last].content, sentence)
        button = self._pass_button(table, last) if action.get("type") == "pass" else None
        table.pending = pending
        if button is not None:
            pending.kind = "press"
            self.sent["press"] += self.measuring
            await self.fake.press(iid, who, last, button)  # type: ignore[arg-type]
            return
        self.sent["move"] += self.measuring
        move = table.source.sent[table.done]
        await self.fake.command(
            iid, who, "game-admin", "act", where=table.thread, action=json.dumps(move)
        )

    def _pass_button(self, table: Table, last: int | None) -> str | None:
        message = self.fake.messages.get(last) if last is not None else None
        if message is None:
            return None
        for row in message.components:
            for item in row.get("components", []):
                cid = str(item.get("custom_id", ""))
                if re.fullmatch(rf"rc:m:{table.game_id}:\d+:pass", cid):
                    return cid
        return None
