"""1860: Railways on the Isle of Wight (title package: data, market, auction, rounds)."""

from engine.g1860.game import Game1860

__all__ = ["Game1860"]
