"""Reference at hand for players: the privates and their powers, the phases, each player's
certificates against the limit, and what the stock market's colours mean."""

from __future__ import annotations

from engine.eighteen.market import ABOVE_60_ZONES, MULTIPLE_BUY_ZONES, NO_CERT_LIMIT_ZONES
from engine.eighteen.rounds import EighteenHost

TOPICS = ("privates", "phases", "certificates", "market")
PAR_RULE = "the par prices a company may start at"
NO_LIMIT = 999  # a certificate limit this high is none (1860 from the first 8+4-train)


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
    if game.max_ownership_percent >= 100:
        holding = "a player may hold all of a company"
    else:
        zones = sorted(z for z in _zones(game) if z in ABOVE_60_ZONES)
        holding = f"at most {game.max_ownership_percent}% of a company" + (
            f" unless its price is in the {_either(zones)} zone" if zones else ""
        )
    free = sorted(z for z in _zones(game) if z in NO_CERT_LIMIT_ZONES)
    if game.cert_limit >= NO_LIMIT:
        counted = "no limit any more"
    else:
        counted = (
            f"limit {game.cert_limit}, counting each private and each {game.LEADER}'s "
            "certificate as one"
            + (f", not shares priced in the {_either(free)} zone" if free else "")
        )
    lines = [f"**Certificates** ({counted}; {holding})"]
    for p in game.player_list:
        limit = "" if game.cert_limit >= NO_LIMIT else f"/{game.cert_limit}"
        lines.append(f"{p.name}: {game.num_certs(p)}{limit}")
    return "\n".join(lines)


def _either(words: list[str]) -> str:
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _zones(game: EighteenHost) -> dict[str, list[int]]:
    """The prices of each zone (its first word), in the order the grid meets them."""
    zones: dict[str, list[int]] = {}
    for row in game.data["stock_market"]["grid"]:
        for cell in row:
            if cell:
                zone = str(cell.get("zone", "white")).split(" ")[0]
                zones.setdefault(zone, []).append(int(cell["price"]))
    return zones


def _prices(game: EighteenHost, prices: list[int]) -> str:
    """A zone's prices: each when few, else the runs of neighbouring prices (£7-£36)."""
    ordered = sorted(set(prices))
    if len(ordered) <= 8:
        return ", ".join(game.money(p) for p in ordered)
    every = sorted({int(c["price"]) for row in game.data["stock_market"]["grid"] for c in row if c})
    runs: list[list[int]] = []
    for price in ordered:
        if runs and every.index(price) == every.index(runs[-1][-1]) + 1:
            runs[-1].append(price)
        else:
            runs.append([price])
    return ", ".join(
        game.money(r[0]) if len(r) == 1 else f"{game.money(r[0])}-{game.money(r[-1])}" for r in runs
    )


def _market(game: EighteenHost) -> str:
    own: dict[str, tuple[str, str]] = getattr(game, "MARKET_ZONE_RULES", {})
    lines = ["**Stock market zones**"]
    for zone, prices in _zones(game).items():
        name, rule = own.get(zone, (zone, PAR_RULE if zone == "par" else ""))
        rules = [rule] if rule else []
        if zone in NO_CERT_LIMIT_ZONES:
            rules.append("shares do not count toward the certificate limit")
        if zone in ABOVE_60_ZONES:
            rules.append(f"a player may hold more than {game.max_ownership_percent}%")
        if zone in MULTIPLE_BUY_ZONES:
            rules.append("several shares may be bought in one turn")
        lines.append(
            f"{name} ({_prices(game, prices)}): " + ("; ".join(rules) or "no special rule")
        )
    moves = game.data["stock_market"].get("moves", {})
    told: str | None = getattr(game, "MARKET_MOVES", None)
    if told:
        lines.append(f"Price moves: {told}")
    elif moves:
        lines.append(
            "Price moves: " + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in moves.items())
        )
    return "\n".join(lines)
