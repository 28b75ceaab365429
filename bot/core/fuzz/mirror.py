"""A second copy of a fuzzed game that follows its export: after every move, the game's new
actions are written as its exported file writes them (through JSON) and applied to the copy,
as an import of that file would apply them. Replaying a file is applying its actions in order,
so the copy is the export replayed, checked after every move for the price of one move instead
of a whole replay. An undo or rewind changes the file's past: the copy is then rebuilt from
the whole exported file."""
from __future__ import annotations

import json

from bot.core.fuzz.invariants import public_state
from engine.eighteen import io as game_files
from engine.errors import GameError
from engine.game import Game


class ExportMirror:
    def __init__(self) -> None:
        self.copy: Game | None = None

    def forget(self) -> None:
        """The game's past changed (undo, rewind): rebuild from the whole file next time."""
        self.copy = None

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
        if self.copy is None or len(self.copy.actions) > len(game.actions):
            data = json.loads(json.dumps(game_files.export(game)))
            self.copy = game_files.load(data).game
            return
        for n in range(len(self.copy.actions), len(game.actions)):
            written = json.loads(json.dumps(game_files.exported_action(game.actions[n], n + 1)))
            try:
                self.copy.process(game_files.imported(written), atomic=False)
            except GameError as exc:
                raise game_files.ReplayError(n, written, str(exc)) from exc
