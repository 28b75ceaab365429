"""How many pings and moves by hand programmed moves save in a 4-player 1830 game.

A recorded game's decisions (tests/data/fixtures/1830/26855.json, a real 4-player game) are
played through the service twice, as the bot plays them:
- without programs: every move is sent by its player;
- with programs: two players program "pass in the stock round until another player's move
  changes things" (18xx.games' share pass) whenever all they still do in the stock round is
  pass (again after it stopped, if that still holds), and one player programs "buy <company>
  from the IPO until it floats" just after parring it, whenever all they do in that round until
  it floats is buy its IPO shares.
The game is the same in both: each programmed move must be the recorded one (checked), and is
not sent again. Counted: the moves sent by hand (the programs' settings besides), and the pings:
a user is pinged when the turn passes to them (the thread's turn post @mentions whoever must act
now and was not to act before).

Run: nice -n 19 python benchmarks/bench_programmed_pings.py [--game PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.replay_live import NOT_SENT, LiveRefused, _sender  # noqa: E402
from bot.core.results import Caller, Result  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import DEAL, Store  # noqa: E402
from engine.eighteen import io  # noqa: E402

GAME = ROOT / "tests" / "data" / "fixtures" / "1830" / "26855.json"
HOST = Caller(1, "host")
SHARE_PASS = {"type": "program_share_pass", "unconditional": False, "indefinite": False}


@dataclass
class Tally:
    by_hand: int = 0  # moves sent by their players
    settings: int = 0  # programs set (commands without a ping)
    programmed: dict[str, int] = field(default_factory=dict)  # moves programs made, by kind
    pings: int = 0
    per_user: dict[int, int] = field(default_factory=dict)  # pings per user


@dataclass
class Plan:
    """Who programs what: `passers` program share passes, `buyer` buys until floated."""

    passers: tuple[Any, ...] = ()
    buyer: Any = None


def moves_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The recorded decisions: the effective moves (no chat, no undone moves), as sent."""
    return [
        {k: v for k, v in a.items() if k not in NOT_SENT}
        for _, a in io.effective_actions(data["actions"])
        if a["type"] != "message"
    ]


@dataclass
class Record:
    """The recorded moves, and before each: the stock round under way (None: another round)
    and the companies floated."""

    moves: list[dict[str, Any]]
    rounds: list[int | None]
    floated: list[frozenset[str]]


def record_of(data: dict[str, Any]) -> Record:
    moves = moves_of(data)
    game = io.new_game(data)
    rounds: list[int | None] = []
    floated: list[frozenset[str]] = []
    for move in moves:
        rounds.append(game.turn if game.round.kind == "stock" else None)
        floated.append(frozenset(c.sym for c in game.corporations if c.floated))
        game.process(io.imported(move), atomic=False)
    return Record(moves, rounds, floated)


def _theirs(record: Record, i: int, who: Any) -> list[tuple[int, dict[str, Any]]]:
    """`who`'s moves from move i to the end of the stock round under way."""
    return [
        (j, m)
        for j, (m, r) in enumerate(zip(record.moves[i:], record.rounds[i:]), start=i)
        if r == record.rounds[i] and m.get("entity") == who
    ]


def only_passes(record: Record, i: int, who: Any) -> bool:
    """Whether all `who` still does in the stock round of move i is pass (and they do)."""
    theirs = _theirs(record, i, who)
    return bool(theirs) and all(m["type"] == "pass" for _, m in theirs)


def buys_until_float(record: Record, i: int, who: Any, corp: str) -> bool:
    """Whether, after parring `corp` at move i, each of `who`'s moves in that stock round
    until it floats buys one of its IPO shares (what 18xx.games' buy program would make)."""
    for j, m in _theirs(record, i + 1, who):
        if corp in record.floated[j]:
            return True
        if m["type"] != "buy_shares" or not str(m["shares"][0]).startswith(corp + "_"):
            return False
    return True


async def play(data: dict[str, Any], record: Record, plan: Plan) -> Tally:
    moves = record.moves
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="railchat-pings-") as tmp:
        store = Store(Path(tmp) / "pings.db", durable=False)
        service = GameService(store)
        players = data["players"]
        seats = {p["id"]: Caller(100 + n, str(p["name"])) for n, p in enumerate(players)}
        opened = await service.import_game(
            HOST, {**data, "actions": []}, [c.user_id for c in seats.values()], offer=False
        )
        gid = opened.game_id or 0
        acting: set[int] = set((await service.prompt(gid, choices=False)).notify)
        made: list[dict[str, Any]] = []  # moves the programs made, not yet met in the record
        armed: set[Any] = set()
        for i, move in enumerate(moves):
            who = await service.peek(gid, lambda g, m=move: _sender(g, m))
            if made:
                expected = {k: v for k, v in made.pop(0).items() if not k.startswith("_")}
                if expected != move:
                    raise LiveRefused(i, move, f"the programs made {expected} instead")
                continue
            # a player who is done for the stock round programs passes (once, until it stops)
            for passer in plan.passers:
                if passer in armed and not await has_program(service, gid, seats[passer]):
                    armed.discard(passer)
                if passer not in armed and record.rounds[i] and only_passes(record, i, passer):
                    acting = await send(service, gid, seats[passer], SHARE_PASS, tally, acting)
                    tally.settings += 1
                    armed.add(passer)
                    made += autos(await last_action(service, gid))
            if made:  # the program passed at once for its player, whose move this is
                expected = {k: v for k, v in made.pop(0).items() if not k.startswith("_")}
                if expected != move:
                    raise LiveRefused(i, move, f"the programs made {expected} instead")
                continue
            acting = await send(service, gid, seats[who], move, tally, acting)
            tally.by_hand += 1
            made += autos(await last_action(service, gid))
            if who == plan.buyer and move["type"] == "par":
                corp = move["corporation"]
                if buys_until_float(record, i, who, corp):
                    program = {
                        "type": "program_buy_shares",
                        "corporation": corp,
                        "until_condition": "float",
                        "from_market": False,
                        "auto_pass_after": False,
                    }
                    acting = await send(service, gid, seats[who], program, tally, acting)
                    tally.settings += 1
                    made += autos(await last_action(service, gid))
        for stored in await store.actions(gid):
            for auto in autos(stored.payload):
                tally.programmed[auto["type"]] = tally.programmed.get(auto["type"], 0) + 1
        store.close()
    return tally


async def send(
    service: GameService,
    gid: int,
    caller: Caller,
    move: dict[str, Any],
    tally: Tally,
    acting: set[int],
) -> set[int]:
    """Send one move as its player (a deal is accepted by its other side, as it was); count
    the users the turn passed to: each is pinged."""
    result: Result = await service.act(gid, caller, move)
    if result.ok and result.vote is not None and result.vote_kind == DEAL:
        owner = Caller(result.notify[0], "owner")
        result = await service.vote(result.vote, owner, True)
    if not result.ok:
        raise LiveRefused(-1, move, result.error or "")
    if not result.changed:  # a program set quietly: nobody's turn changed
        return acting
    now = set(result.notify)
    for user in now - acting:
        tally.pings += 1
        tally.per_user[user] = tally.per_user.get(user, 0) + 1
    return now


async def last_action(service: GameService, gid: int) -> dict[str, Any]:
    return (await service.store.actions(gid))[-1].payload


def autos(action: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves programs made after an action (their settings and stops left out)."""
    return [
        a
        for a in action.get("auto_actions") or []
        if not str(a["type"]).startswith(("program_", "railchat_program"))
    ]


async def has_program(service: GameService, gid: int, caller: Caller) -> bool:
    return bool(await service.standing_of(gid, caller.user_id))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", type=Path, default=GAME)
    args = parser.parse_args()
    data = json.loads(args.game.read_text())
    ids = [p["id"] for p in data["players"]]
    started = time.monotonic()
    record = record_of(data)
    before = asyncio.run(play(data, record, Plan()))
    after = asyncio.run(play(data, record, Plan(passers=(ids[1], ids[3]), buyer=ids[0])))
    seconds = time.monotonic() - started
    names = {p["id"]: p["name"] for p in data["players"]}
    users = {100 + n: p["name"] for n, p in enumerate(data["players"])}
    print(f"{args.game.name}: {len(record.moves)} recorded moves, {len(ids)} players")
    print(
        f"  programs: {names[ids[1]]} and {names[ids[3]]} pass until something changes, "
        f"{names[ids[0]]} buys until floated"
    )
    for label, t in (("without programs", before), ("with programs", after)):
        print(
            f"  {label}: {t.pings} pings ({', '.join(f'{users[u]} {n}' for u, n in sorted(t.per_user.items()))}), {t.by_hand} moves by hand, "
            f"{t.settings} program settings, programmed moves {t.programmed or 'none'}"
        )
    print(
        f"  saved: {before.pings - after.pings} pings "
        f"({100 * (before.pings - after.pings) / before.pings:.1f}%), "
        f"{before.by_hand - after.by_hand} moves by hand "
        f"({before.by_hand - after.by_hand - after.settings} net of the settings); {seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
