"""Reference at hand for players: the privates and their powers, the phases, each player's
certificates against the limit, and what the stock market's colours mean."""

from __future__ import annotations

from engine.eighteen.market import ABOVE_60_ZONES, MULTIPLE_BUY_ZONES, NO_CERT_LIMIT_ZONES
from engine.eighteen.rounds import EighteenHost

TOPICS = ("privates", "phases", "certificates", "market")


def reference(game: EighteenHost, topic: str | None = None) -> str:
    """One topic, or all of them (each a few lines, for a 2000-character message)."""
    parts = {
        "privates": _privates,
        "phases": _phases,
        "certificates": _certificates,
        "market": _market,
    }
    if topic is not None and topic not in parts:
        raise ValueError(f"no topic {topic!r}; topics: {', '.join(TOPICS)}")
    return "\n\n".join(parts[t](game) for t in (TOPICS if topic is None else (topic,)))


def _privates(game: EighteenHost) -> str:
    lines = ["**Private companies** (value, income; owner)"]
    for c in game.companies:
        owner = "closed" if c.closed else game.entity_name(c.owner) if c.owner else "unsold"
        power = f" — {c.description}" if c.description else ""
        lines.append(
            f"{c.sym} {c.name}: {game.money(c.value)}, {game.money(c.revenue)}; {owner}{power}"
        )
    return "\n".join(lines)


def _phases(game: EighteenHost) -> str:
    lines = ["**Phases** (starts with, tiles, train limit, operating rounds per set)"]
    for i, phase in enumerate(game.phases.phases):
        now = " ← now" if i == game.phases.index else ""
        starts = f"first {phase.on}-train" if phase.on else "the start"
        lines.append(
            f"{phase.name}: {starts}; {', '.join(phase.tiles)}; limit {phase.train_limit}; "
            f"{phase.operating_rounds} OR{'s' if phase.operating_rounds > 1 else ''}{now}"
        )
    return "\n".join(lines)


def _certificates(game: EighteenHost) -> str:
    lines = [
        f"**Certificates** (limit {game.cert_limit}; at most {game.max_ownership_percent}% "
        "of a company unless its price is in the orange or brown zone)"
    ]
    for p in game.player_list:
        lines.append(f"{p.name}: {game.num_certs(p)}/{game.cert_limit}")
    return "\n".join(lines)


def _market(game: EighteenHost) -> str:
    zones: dict[str, None] = {}  # first word of each zone, in the order the grid meets them
    for row in game.data["stock_market"]["grid"]:
        for cell in row:
            if cell:
                zones.setdefault(str(cell.get("zone", "white")).split(" ")[0])
    lines = ["**Stock market colours**"]
    for zone in zones:
        rules = []
        if zone in NO_CERT_LIMIT_ZONES:
            rules.append("shares do not count toward the certificate limit")
        if zone in ABOVE_60_ZONES:
            rules.append(f"a player may hold more than {game.max_ownership_percent}%")
        if zone in MULTIPLE_BUY_ZONES:
            rules.append("several shares may be bought in one turn")
        lines.append(f"{zone}: " + ("; ".join(rules) if rules else "no special rule"))
    moves = game.data["stock_market"].get("moves", {})
    if moves:
        lines.append(
            "Price moves: " + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in moves.items())
        )
    return "\n".join(lines)
