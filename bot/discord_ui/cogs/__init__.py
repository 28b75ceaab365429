"""Discord command groups, each a thin layer over the game service."""
