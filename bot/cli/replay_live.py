"""`railchat replay --live`: play an 18xx.games file through the service as live play would.

Every recorded `auto_actions` is dropped; each remaining action (programs and their
`program_disable` included) is sent by the seat of its player, undo and redo as that player's
undo and redo, so railchat makes the programmed moves itself as they fall due. The game it
ends with is written back as a file (with railchat's `auto_actions`) to compare with the one
18xx.games wrote. A throwaway database in a temporary folder holds the game meanwhile.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import DEAL, Store
from engine.game import Action, Game

# what 18xx.games writes on an action that a player does not send
NOT_SENT = ("id", "created_at", "user", "auto_actions")
HOST = Caller(1, "railchat replay")  # imports the game, so is its admin (a rewind is theirs)


@dataclass(frozen=True)
class LiveReplay:
    summary: dict[str, Any]  # the `--json` line: title, result, game_end_reason, actions
    status: str  # the game's status text
    exported: dict[str, Any]  # the game as a file, with railchat's auto_actions


class LiveRefused(Exception):
    """An action of the file that the service refused (nothing after it was played)."""

    def __init__(self, index: int, action: Action, reason: str) -> None:
        super().__init__(
            f"illegal action at index {index} (id {action.get('id')}, {action.get('type')}): "
            f"{reason}"
        )


async def replay_live(data: dict[str, Any]) -> LiveReplay:
    with tempfile.TemporaryDirectory(prefix="railchat-live-") as tmp:
        store = Store(Path(tmp) / "live.db", durable=False)
        try:
            return await _play(GameService(store), data)
        finally:
            store.close()


async def _play(service: GameService, data: dict[str, Any]) -> LiveReplay:
    players = data["players"]
    seats = {p["id"]: Caller(100 + n, str(p.get("name", p["id"]))) for n, p in enumerate(players)}
    opened = await service.import_game(  # each player is there, so seated without asking
        HOST, {**data, "actions": []}, [c.user_id for c in seats.values()], offer=False
    )
    if not opened.ok:
        raise LiveRefused(-1, {}, opened.error or "")
    gid = opened.game_id
    assert gid is not None
    played: list[tuple[int, Caller]] = []  # file index and sender of each action in the game
    undone: list[list[tuple[int, Caller]]] = []
    actions = data["actions"]
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "message":  # a chat line: not a move
            continue
        if kind == "undo":
            if not played:
                raise LiveRefused(index, action, "an undo before any move: nothing to take back")
            keep = _kept_after_undo(actions, action, played)
            undone.append(played[keep:])
            sender = played[-1][1]
            result = await (
                service.undo(gid, sender)
                if keep == len(played) - 1
                else service.rewind(gid, HOST, keep)
            )
            del played[keep:]
        elif kind == "redo":
            if not undone:
                raise LiveRefused(index, action, "a redo with no undo before it: nothing to redo")
            group = undone.pop()
            result = await service.redo(gid, group[0][1] if len(group) == 1 else HOST)
            played += group
        else:
            undone.clear()
            move = {k: v for k, v in action.items() if k not in NOT_SENT}
            who = await service.peek(gid, lambda g: _sender(g, move))
            if who not in seats:
                raise LiveRefused(index, action, f"no player acts for {action.get('entity')!r}")
            sender = seats[who]
            result = await service.act(gid, sender, move)
            if result.ok and result.vote is not None and result.vote_kind == DEAL:
                # another player's property at a price: its owner agreed on 18xx.games
                owner = next(c for c in seats.values() if c.user_id in result.notify)
                result = await service.vote(result.vote, owner, True)
            played.append((index, sender))
        if not result.ok:
            raise LiveRefused(index, action, result.error or result.text)
    exported = await service.export(gid)
    [(_, payload)] = exported.files
    out = json.loads(payload)
    summary = {
        "title": out["title"],
        "result": out.get("result"),
        "game_end_reason": out.get("game_end_reason"),
        "actions": len(out["actions"]),
    }
    status = await service.status(gid)
    return LiveReplay(summary, status.text, out)


def _sender(game: Game, move: Action) -> Any:
    """The player who sends a move: its entity's controller, or (a company nobody presides)
    the first player who may act for it now."""
    owner = game.acting_player(move)
    return owner if owner is not None else game.active_players()[0]


def _kept_after_undo(actions: list[Action], undo: Action, played: list[tuple[int, Caller]]) -> int:
    """How many of the game's actions an undo keeps: all but the last, or those up to and
    including the action it names (`action_id`, 0: none)."""
    target = undo.get("action_id")
    if target is None:
        return len(played) - 1
    if target == 0:
        return 0
    named = [n + 1 for n, (index, _) in enumerate(played) if actions[index].get("id") == target]
    if not named:
        raise LiveRefused(-1, undo, f"the undo names action {target}, which is not in play")
    return named[0]
