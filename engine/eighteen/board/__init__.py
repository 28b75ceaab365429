"""The 18xx board: hex map, tiles, station tokens, track graph, route checking and best routes."""

from engine.eighteen.board.board import Board, CityView, Tile
from engine.eighteen.board.hexgrid import Orientation
from engine.eighteen.board.routes import Distance

__all__ = ["Board", "CityView", "Distance", "Orientation", "Tile"]
