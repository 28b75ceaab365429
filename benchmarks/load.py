"""The bot under load: the fake Discord (tests/fake_discord) with many servers and games, real
bot processes (`benchmarks/load_bot.py`, the real RailchatBot on its shards) and a crowd of
simulated users making the games' next moves (typed, or a button when the post offers it) and
reading them, at a set rate. Scenarios: (a) one process on SQLite; (b) two processes on
PostgreSQL, the shards split between them; (c) as (b), one process SIGKILLed mid-run and
started again.

The games are imported straight into the store before the bots start: each is a prefix of a
recorded or fuzzed game file (../shared/fixtures beside the checkout, or --fixtures), whose next moves the crowd
then sends as the player who made them. A user whose move got no answer (its process died)
looks at the game after a while (reads its log, as /game view history would) and sends what
is still missing. Afterwards every game's log must be contiguous and exactly the file's moves
in order (none lost, none doubled), every move a user saw done must be there, and every game
changed in the run must export a file that replays.

Reports: moves per second stored over the measured window, p50/p99 from an interaction to its
first response and from a move to the thread post showing it, CPU (cores used) and memory per
bot process and for this process (the fake and the crowd), and the load average.

Run (small first):
    nice -n 19 python -m benchmarks.load --scenario a --guilds 20 --games 40 --seconds 30
    nice -n 19 python -m benchmarks.load --scenario b --postgres postgresql://... (or
        RAILCHAT_TEST_POSTGRES; `source .ci/postgres.sh && start_postgres` starts one)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load_crowd import Crowd, Table, TimedFake  # noqa: E402
from benchmarks.load_files import Source, fixture_files, load_sources  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import Store  # noqa: E402
from bot.discord_ui.thread_posts import TurnPost  # noqa: E402
from engine.eighteen import io as game_files  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures"  # the shared folder beside the checkout
USERS = 10_000_000  # simulated users' ids start here
SHARDS = 2


# -- processes ----------------------------------------------------------------------------------
@dataclass
class Bot:
    shards: str
    proc: subprocess.Popen[bytes]
    cpu0: float = 0.0
    log: Path | None = None


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory, MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    return rss / 1024, hwm / 1024


def start_bot(db: str, port: int, shards: str, renderer: str, logs: Path) -> Bot:
    log = logs / f"bot-{shards}-{time.monotonic_ns()}.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.load_bot", db, str(port), "--shards", shards,
         "--shard-count", str(SHARDS), "--renderer", renderer],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )  # fmt: skip
    return Bot(shards, proc, log=log)


async def until_ready(fake: TimedFake, sessions: int, seconds: float = 120.0) -> None:
    """Every shard identified and its servers sent (a bot answers once it has them)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        live = [s for s in fake.sessions.values() if s.live is not None]
        if len(live) >= sessions:
            await asyncio.sleep(3.0)  # discord.py waits for its servers' GUILD_CREATE
            return
        await asyncio.sleep(0.2)
    raise RuntimeError("the bots did not connect")


async def until_identified(fake: TimedFake, identifies: int, started: float) -> float:
    """When (seconds into the window) a new process identified to the fake."""
    while fake.identifies <= identifies:
        await asyncio.sleep(0.2)
    return round(time.monotonic() - started, 1)


# -- setting up and checking -------------------------------------------------------------------
def fresh_database(scenario: str, postgres: str | None, tmp: Path) -> str:
    if scenario == "a":
        return str(tmp / "railchat.db")
    if not postgres:
        raise SystemExit("scenarios b and c need --postgres or RAILCHAT_TEST_POSTGRES")
    import psycopg

    schema = f"load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in postgres else "?"
    return f"{postgres}{sep}options=-csearch_path%3D{schema}"


async def setup(
    store: Store,
    fake: TimedFake,
    sources: list[Source],
    guilds: int,
    games: int,
    rng: random.Random,
) -> list[Table]:
    tables = []
    channels = []
    for n in range(guilds):
        guild = ((n + 1) << 22) + 17  # on shard (n + 1) % SHARDS
        channels.append((guild, fake.world.add_guild(guild)))
    for g in range(games):
        guild, channel = channels[g % guilds]
        source = sources[g % len(sources)]
        thread = fake.world.add_thread(f"game {g}", parent=int(channel["id"]))
        longest = max(len(source.moves) - 80, 11)
        done = rng.randint(10, min(longest, 400))
        users = [USERS + g * 10 + seat for seat in range(len(source.data["players"]))]
        seats = [(u, p["name"], p["id"]) for u, p in zip(users, source.data["players"])]
        record = await store.import_game(
            title=source.title,
            options=source.options,
            seed=source.seed,
            creator_id=users[0],
            seats=seats,
            actions=source.moves[:done],
            texts=source.texts[:done],
            finished=False,
            guild_id=guild,
            channel_id=int(channel["id"]),
            thread_id=int(thread["id"]),
        )
        # the turn post a bot made when the game was imported (not drawn here: 2,000 posts)
        post = fake.put_message(int(thread["id"]), content=f"Game #{record.id} imported.")
        shown = TurnPost(None, (), "", version=record.version).state()
        await store.set_turn_post(record.id, post.id, {**shown, "drawn": {}})
        tables.append(Table(record.id, guild, thread, source, users, done))
    fake.world.outbox.clear()  # made before any bot connected
    return tables


def same_move(stored: dict[str, Any], sent: dict[str, Any]) -> bool:
    return all(stored.get(k) == v for k, v in sent.items())


async def verify(
    store: Store, fake: TimedFake, tables: list[Table], before: dict[int, int], changed: set[int]
) -> dict[str, Any]:
    gaps, wrong, missing_from_log = [], [], []
    for table in tables:
        actions = await store.actions(table.game_id)
        if [a.seq for a in actions] != list(range(1, len(actions) + 1)):
            gaps.append(table.game_id)
        moves = table.source.sent
        if len(actions) > len(moves) or not all(
            same_move(a.payload, m) for a, m in zip(actions, moves)
        ):
            at = next(
                (n for n, (a, m) in enumerate(zip(actions, moves)) if not same_move(a.payload, m)),
                len(moves),
            )
            stored = actions[at].payload if at < len(actions) else None
            wrong.append(
                f"{table.game_id}: move {at + 1} of {len(actions)} stored is {stored}, "
                f"the file's {moves[at] if at < len(moves) else None}"
            )
        if len(actions) < table.told:
            missing_from_log.append(
                f"{table.game_id}: {len(actions)} stored, {table.told} told done; the last "
                f"told: {table.source.texts[table.told - 1][:120]!r}"
            )
    service = GameService(store)
    unreplayable = []
    started = time.monotonic()
    for table in tables:
        if table.game_id not in changed:
            continue
        exported = await service.export(table.game_id, guild_id=table.guild)
        try:
            ((_, data),) = exported.files
            await asyncio.to_thread(game_files.load, game_files.parse(data))
        except Exception as exc:
            unreplayable.append(f"{table.game_id}: {exc}")
    return {
        "games with a gap in their log": gaps,
        "games whose log is not the file's moves in order (lost or doubled)": wrong,
        "games missing a move its user was told was done": missing_from_log,
        "changed games whose export does not replay": unreplayable,
        "exports replayed": len(changed),
        "export check seconds": round(time.monotonic() - started, 1),
    }


async def quiet(crowd: Crowd, still: float = 20.0, cap: float = 240.0) -> float:
    """Wait until the threads have not changed for `still` seconds (the posts queued during
    the run are out), at most `cap`; how long that took."""
    started = time.monotonic()
    while time.monotonic() - started < cap and time.monotonic() - crowd.last_change < still:
        await asyncio.sleep(1.0)
    return round(time.monotonic() - started, 1)


async def unshown(
    store: Store, fake: TimedFake, tables: list[Table], before: dict[int, int]
) -> list[str]:
    """Moves stored in the run whose sentence is not in their thread (game: sentence)."""
    out = []
    for table in tables:
        made = table.source.texts[before[table.game_id] : await store.action_count(table.game_id)]
        thread = "\n".join(m.content for m in fake.posts(int(table.thread["id"])))
        for sentence in set(made):
            missing = made.count(sentence) - thread.count(sentence)
            out += [f"{table.game_id}: {sentence[:120]!r}"] * max(0, missing)
    return out


async def stop(bots: list[Bot]) -> None:
    for b in bots:
        b.proc.send_signal(signal.SIGTERM)
    for b in bots:
        try:
            await asyncio.to_thread(b.proc.wait, 30)
        except subprocess.TimeoutExpired:
            b.proc.kill()


async def caught_up(
    db: str, store: Store, fake: TimedFake, crowd: Crowd, before: dict[int, int], tmp: Path
) -> list[str]:
    """Start one process on every shard (text only, to be quick), let it post what the
    stopped ones stored but did not show, stop it: the moves still not shown."""
    identified = fake.identifies
    again = start_bot(db, fake.port, f"0-{SHARDS - 1}", "none", tmp)
    await asyncio.wait_for(until_identified(fake, identified + SHARDS - 1, 0.0), 180)
    crowd.last_change = time.monotonic()
    await quiet(crowd)
    await stop([again])
    return await unshown(store, fake, crowd.tables, before)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    files = fixture_files(Path(args.fixtures))
    sources = [s for s in load_sources(files) if len(s.moves) > 100]
    print(f"{len(sources)} game files replayed in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    tmp = Path(tempfile.mkdtemp(prefix="railchat-load-"))
    db = fresh_database(args.scenario, args.postgres, tmp)
    store = Store(db)
    fake = TimedFake(window=3.0)
    await fake.start()
    crowd = Crowd(fake, [], args.rate, rng)
    fake.crowd = crowd
    t0 = time.monotonic()
    crowd.tables = await setup(store, fake, sources, args.guilds, args.games, rng)
    crowd.__post_init__()
    print(f"{args.games} games imported in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    spans = ["0-1"] if args.scenario == "a" else ["0", "1"]
    bots = [start_bot(db, fake.port, s, args.renderer, tmp) for s in spans]
    await until_ready(fake, SHARDS)
    before = {t.game_id: await store.action_count(t.game_id) for t in crowd.tables}
    await crowd.run(args.warmup, store)  # caches, imports and first posts settle
    counted0 = sum([await store.action_count(t.game_id) for t in crowd.tables])
    crowd.measuring = True
    for b in bots:
        b.cpu0 = cpu_seconds(b.proc.pid)
    me0 = time.process_time()
    load0 = os.getloadavg()
    started = time.monotonic()
    killed_at = reconnected_at = None
    if args.scenario == "c":
        half = args.seconds / 2
        await crowd.run(half, store)
        victim = bots[1]
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait()
        killed_at = round(time.monotonic() - started, 1)
        print(f"killed the bot of shard {victim.shards} at {killed_at} s", file=sys.stderr)
        await crowd.run(args.down, store)
        bots[1] = start_bot(db, fake.port, victim.shards, args.renderer, tmp)
        bots[1].cpu0 = 0.0
        identified = fake.identifies
        back = asyncio.create_task(until_identified(fake, identified, started))
        await crowd.run(args.seconds - half - args.down, store)
        if back.done():
            reconnected_at = back.result()
        else:
            back.cancel()
    else:
        await crowd.run(args.seconds, store)
    elapsed = time.monotonic() - started
    counted1 = sum([await store.action_count(t.game_id) for t in crowd.tables])
    per_bot = []
    for b in bots:
        rss, peak = memory_mb(b.proc.pid)
        per_bot.append(
            {
                "shards": b.shards,
                "cores used": round((cpu_seconds(b.proc.pid) - b.cpu0) / elapsed, 2),
                "rss MB": round(rss),
                "peak rss MB": round(peak),
            }
        )
    me = round((time.process_time() - me0) / elapsed, 2)
    load1 = os.getloadavg()
    crowd.measuring = False
    drained = await quiet(crowd)
    await stop(bots)
    behind = await unshown(store, fake, crowd.tables, before)
    still = await caught_up(db, store, fake, crowd, before, tmp) if behind else []
    after = {t.game_id: await store.action_count(t.game_id) for t in crowd.tables}
    changed = {g for g in after if after[g] != before[g]}
    checks = await verify(store, fake, crowd.tables, before, changed)
    store.close()
    await fake.stop()
    answered = {k: len(v) for k, v in crowd.first.items()}
    first_all = [x for v in crowd.first.values() for x in v]
    return {
        "scenario": args.scenario,
        "guilds": args.guilds,
        "games": args.games,
        "offered interactions per s": args.rate,
        "renderer": args.renderer,
        "measured s": round(elapsed, 1),
        "killed at s": killed_at,
        "restarted process connected at s": reconnected_at,
        "moves stored per s": round((counted1 - counted0) / elapsed, 2),
        "interactions sent (measured)": crowd.sent,
        "first responses seen": answered,
        "first response p50/p99 ms (all)": (pct(first_all, 0.5), pct(first_all, 0.99)),
        "first response p50/p99 ms (moves)": (pct(crowd.first["move"], 0.5), pct(crowd.first["move"], 0.99)),
        "first response p50/p99 ms (buttons)": (pct(crowd.first["press"], 0.5), pct(crowd.first["press"], 0.99)),
        "first response p50/p99 ms (reads)": (pct(crowd.first["read"], 0.5), pct(crowd.first["read"], 0.99)),
        "move to thread post p50/p99 ms": (pct(crowd.to_post, 0.5), pct(crowd.to_post, 0.99)),
        "moves seen posted": crowd.posted,
        "seconds until the threads were quiet after the window": drained,
        "moves stored but not shown when the bots stopped": len(behind),
        "of those, not shown after the next start": len(still),
        "not shown after the next start (game: sentence)": still[:10],
        "moves timed out (looked up by the user)": crowd.timeouts,
        "reads unanswered": crowd.unanswered_reads,
        "undelivered events (no process on the shard)": len(fake.undelivered),
        "refused moves": crowd.refused[:10],
        "refused count": len(crowd.refused),
        "games stopped on a deal (the crowd answers none)": crowd.deals,
        "bots": per_bot,
        "fake and crowd cores used": me,
        "load average before/after": (round(load0[0], 1), round(load1[0], 1)),
        **checks,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=("a", "b", "c"), default="a")
    parser.add_argument("--guilds", type=int, default=500)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=10.0, help="interactions per second")
    parser.add_argument("--seconds", type=float, default=120.0, help="measured")
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--down", type=float, default=10.0, help="(c) seconds before restart")
    parser.add_argument("--renderer", choices=("real", "none"), default="real")
    parser.add_argument("--postgres", default=os.environ.get("RAILCHAT_TEST_POSTGRES"))
    parser.add_argument("--fixtures", default=str(FIXTURES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="also write the report here (JSON)")
    args = parser.parse_args()
    report = asyncio.run(run(args))
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
