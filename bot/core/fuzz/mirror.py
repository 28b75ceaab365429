"""A second copy of a fuzzed game that follows its export: after every move, the game's new
actions are written as its exported file writes them (through JSON) and applied to the copy,
as an import of that file would apply them. Replaying a file is applying its actions in order,
so the copy is the export replayed, checked after every move for the price of one move instead
of a whole replay. An undo or rewind changes the file's past: the copy is then taken back to
the last action both files share (`Game.rewind_to`) and follows again from there."""

from __future__ import annotations

import json

from bot.core.fuzz.invariants import public_state
from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Game


class ExportMirror:
    def __init__(self) -> None:
        self.copy: Game | None = None
        self.past_changed = False

    def forget(self) -> None:
        """The game's past changed (undo, rewind): the copy is taken back to the last action
        the file still has, as a file ending there would replay."""
        self.past_changed = True

    def problems(self, game: Game, state: str) -> list[str]:
        """`state`: the game's public state, which its replayed export must show too."""
        try:
            self._follow(game)
        except GameError as exc:
            self.copy = None
            return [f"the exported game does not replay: {exc}"]
        assert self.copy is not None
        if public_state(self.copy) != state:
            self.copy = None
            return ["the exported game replays to a different public state"]
        return []

    def _follow(self, game: Game) -> None:
        if self.copy is not None and self.past_changed:
            self.copy.rewind_to(_common_past(self.copy, game))
        self.past_changed = False
        if self.copy is None:
            data = json.loads(json.dumps(game_files.export(game)))
            self.copy = game_files.load(data).game
            return
        for n in range(len(self.copy.actions), len(game.actions)):
            written = json.loads(json.dumps(game_files.exported_action(game.actions[n], n + 1)))
            try:
                self.copy.process(game_files.imported(written), atomic=False)
            except GameError as exc:
                raise game_files.ReplayError(n, written, str(exc)) from exc


def _common_past(copy: Game, game: Game) -> int:
    """How many first actions the two games' files have in common."""
    n = 0
    for n, (ours, theirs) in enumerate(zip(copy.actions, game.actions)):
        if game_files.exported_action(ours, n + 1) != game_files.exported_action(theirs, n + 1):
            return n
    return min(len(copy.actions), len(game.actions))
