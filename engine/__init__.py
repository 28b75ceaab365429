"""Pure, deterministic game logic: a game is a title, options and an ordered list of actions."""

from engine.errors import GameError, GameOver, IllegalAction, InvalidAction, NotYourTurn
from engine.game import Choice, Game, PlayerInfo
from engine.titles import create_game, find_title, register_title, title_names

__all__ = [
    "Choice",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "PlayerInfo",
    "create_game",
    "find_title",
    "register_title",
    "title_names",
]
