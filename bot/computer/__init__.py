"""Computer players: a seat that picks its own moves from the engine's legal choices.

`levels.Computer` is what a service calls per move (a `MoveBuilder`); each title and level has
its strategy module (`random_level`, `g1830_standard`, `g1860_standard`, `strings_standard`),
whose decisions are small named functions with a one-line reason a player would give. A
computer judges moves on `Game.player_view()`: what any seated player can see, nothing more.
"""
