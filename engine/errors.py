"""One error family: every refusal a player can see is a GameError with a readable message."""


class GameError(Exception):
    """Base of every refusal; the message is meant for the player."""


class InvalidAction(GameError):
    """The action is malformed: unknown type, missing field, unknown hex or company."""


class IllegalAction(GameError):
    """The action is well formed but the rules forbid it now."""


class NotYourTurn(IllegalAction):
    """Somebody else must act now."""


class GameOver(IllegalAction):
    """The game has ended; nothing more can be done."""
