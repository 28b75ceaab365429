"""The frontend-neutral service layer: store, migrations, game service, moves and parsing."""
