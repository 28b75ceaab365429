"""Which Discord servers one bot process serves: Discord splits a bot's servers into shards
by id, `(guild_id >> 22) % shard_count`, and a process started with `--shards A-B
--shard-count N` holds shards A to B. Work found by a sweep (reminders, programmed or
computer moves) goes to the process serving the game's server, which alone posts to its
thread."""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096  # far more than a bot of this size needs; a typo's 10**9 is refused


class ShardError(ValueError):
    """The shard options cannot be served; the message says which and why."""


@dataclass(frozen=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    @classmethod
    def parse(cls, span: str, count: int) -> Shards:
        """`A-B` (or one id `A`) of `count` shards."""
        if not 1 <= count <= MAX_SHARDS:
            raise ShardError(f"--shard-count must be 1 to {MAX_SHARDS}, not {count}")
        first, dash, last = span.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ShardError(f"--shards must be a shard id or a range A-B, not {span!r}")
        low, high = int(first), int(last if dash else first)
        if low > high:
            raise ShardError(f"--shards {span}: the range must go upwards")
        if high >= count:
            raise ShardError(
                f"--shards {span}: shard ids go from 0 to {count - 1} with --shard-count {count}"
            )
        return cls(tuple(range(low, high + 1)), count)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process serves the server (a console game, no server: never)."""
        return guild_id is not None and shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        span = f"{self.ids[0]}-{self.ids[-1]}" if len(self.ids) > 1 else str(self.ids[0])
        return f"shards {span} of {self.count}"


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends a server's events to (Discord's sharding formula)."""
    return (guild_id >> 22) % count
