"""Plain-English sentences about 18xx actions and positions, for the game thread."""

from __future__ import annotations

import re
from typing import Any

from engine.eighteen import house_programs as house
from engine.eighteen.board.hexgrid import Orientation, neighbour_id
from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.ledger import IPO, MARKET, Flows, take

PAID_IN_EVENT = re.compile(r"^(?P<who>.+) wins the pick for \D(?P<price>\d+)\.$")
SIDE_NAMES = {
    Orientation.POINTY: ("SW", "W", "NW", "NE", "E", "SE"),
    Orientation.FLAT: ("S", "SW", "NW", "N", "NE", "SE"),
}


def a_or_an(symbol: str) -> str:
    """The article before a company's initials as they are read aloud: an IOW, an NYC, an
    S&C (letters said with a leading vowel sound), a PRR, a C&N."""
    return "an" if symbol[:1].upper() in "AEFHILMNORSX" else "a"


def _name(game: Any, entity: Any) -> str:
    if isinstance(entity, Player):
        return entity.name
    if isinstance(entity, (Corporation, Company)):
        return entity.sym
    return str(entity)


def _place(game: Any, hex_id: Any) -> str:
    name = game.hex_names().get(hex_id)
    return f"{hex_id} ({name})" if name else str(hex_id)


def _city_place(game: Any, ref: Any) -> str:
    try:
        hex_id, city = game.token_fields({"type": "place_token", "city": ref})
    except Exception:  # the sentence still names what the player typed
        return str(ref)
    several = len(game.board.tile_on(hex_id).cities) > 1
    return _place(game, hex_id) + (f", city {city}" if several else "")


def exit_words(game: Any, hex_id: str, side: int, *, short: bool = False) -> str:
    """One side of a hex in words: its compass direction and the place beyond it
    ("E toward Pittsburgh (H12)"; short: "E to Pittsburgh")."""
    board = game.board
    direction = SIDE_NAMES[board.orientation][side]
    beyond = neighbour_id(board.orientation, hex_id, side)
    if beyond is None or beyond not in board.hexes:
        return f"{direction} off the map"
    name = board.hexes[beyond].name
    if short:
        return f"{direction} to {name or beyond}"
    return f"{direction} toward {name} ({beyond})" if name else f"{direction} toward {beyond}"


def exits_text(
    game: Any, hex_id: str, tile_name: str, rotation: int, *, short: bool = False
) -> str:
    """Where a tile laid with this rotation leads, e.g. "W toward H8, E toward Pittsburgh
    (H12)": the form players read instead of a bare rotation number."""
    tile = game.board.tile_defs[tile_name]
    sides = sorted(tile.exits(rotation))
    return ", ".join(exit_words(game, hex_id, s, short=short) for s in sides) or "no track"


def _kind(copy_id: Any) -> str:
    """The tile or train name of a copy id: '57-3' -> '57', 'D-0' -> 'D'."""
    return str(copy_id or "").split("-")[0]


def _shares_text(action: dict[str, Any]) -> str:
    shares = action.get("shares") or []
    corp = shares[0].rpartition("_")[0] if shares else "?"
    return f"{action.get('percent') or 10 * len(shares)}% of {corp}"


def _flows(game: Any, action: dict[str, Any]) -> Flows | None:
    """Cash and price changes of `action`, when it is the one the game applied last (the
    ledger before it is kept by the game); None for an older action."""
    before = getattr(game, "ledger_before", None)
    last = game.actions[-1] if getattr(game, "actions", None) else None
    if (
        before is None
        or last is None
        or any(last.get(k) != action.get(k) for k in ("type", "entity", "id"))
    ):
        return None
    return Flows(before, take(game))


def describe_action(game: Any, action: dict[str, Any]) -> str:
    """The action's sentence with its money story, then what it set off (floats, phases,
    rusting...), private income, share price moves and any other cash that moved."""
    flows = _flows(game, action)
    if flows is None:
        main = _main_sentence(game, action, Flows(take(game), take(game)))
        return " ".join([main, *[e for e in getattr(game, "events", []) if e != main]])
    income = flows.income()  # first: its amounts are known, the action's are what remains
    main = _main_sentence(game, action, flows)
    autos = [
        _programmed(game, a, flows)
        for a in action.get("auto_actions") or []
        if not _is_order(game, a)
    ]
    flows.floats()
    flows.privates_bought()
    extra = [e for e in getattr(game, "events", []) if e != main]
    for event in extra:  # a price an event names is told there (1860's pick won)
        if (paid := PAID_IN_EVENT.match(event)) and flows.untold(paid["who"]) < 0:
            flows.take(paid["who"], -int(paid["price"]))
    dividend_by = action.get("entity") if action["type"] == "dividend" else None
    tail = [
        flows.idle_runs(dividend_by, " ".join(extra), subsidy=bool(_halt_subsidy(game))),
        income,
        flows.price_moves({sym: "no revenue this turn" for sym in flows.idle(dividend_by)}),
        flows.rest(),
    ]
    return " ".join([main, *autos, *extra, *filter(None, tail)])


def _is_order(game: Any, action: dict[str, Any]) -> bool:
    return action["type"] in game.PROGRAM_TYPES or action["type"] in house.FIELDS


def _programmed(game: Any, action: dict[str, Any], flows: Flows) -> str:
    """A move a program made for its player, said so ("Bob passes (programmed).")."""
    if action["type"] == "pass":  # the step of the last move is not this pass's
        return f"{_who(game, action)} passes (programmed)."
    return _main_sentence(game, action, flows).removesuffix(".") + " (programmed)."


def _who(game: Any, action: dict[str, Any]) -> str:
    try:
        return _name(game, game.resolve_entity(action))
    except Exception:  # a message from someone no longer in the game still gets a sentence
        return str(action.get("entity"))


def _payer(game: Any, action: dict[str, Any]) -> str:
    """Whose treasury pays for a company's move: a private acts for its owning corporation."""
    try:
        entity = game.resolve_entity(action)
    except Exception:
        return str(action.get("entity"))
    if isinstance(entity, Company) and entity.owner is not None:
        return _name(game, entity.owner)
    return _name(game, entity)


def _main_sentence(game: Any, action: dict[str, Any], flows: Flows) -> str:
    t = action["type"]
    who = _who(game, action)
    if t == "bid":
        company = next((c for c in game.companies if c.sym == action.get("company")), None)
        if (
            company is not None
            and company.owner is not None
            and _name(game, company.owner) == who
            and f"{who} buys {company.sym} for {game.money(action.get('price'))}." in game.events
        ):
            flows.take(who)
            return f"{who} buys {company.sym} for {game.money(action.get('price'))}."
        if action.get("company") is None:  # 1860: a bid for the right to take the next item
            return f"{who} bids {game.money(action.get('price'))} for the pick."
        price = action.get("price")
        over = ""
        if company is not None and isinstance(price, int) and price > company.value > 0:
            over = f" ({game.money(price - company.value)} over its face value)"
        return f"{who} bids {game.money(price)} on {action.get('company')}{over}."
    if _is_order(game, action):  # what the order is, only its player is told (orders.py)
        return f"{who} changed their programmed moves."
    if t == "pass":
        step = getattr(game, "last_step_description", None)
        return f"{who} passes ({step})." if step else f"{who} passes."
    if t == "par":
        price = str(action.get("share_price", "")).split(",")[0]
        paid = flows.spent(who)
        cost = f", paying {game.money(paid)} for the {game.LEADER}'s certificate" if paid else ""
        return f"{who} pars {action.get('corporation')} at {game.money(price)}{cost}."
    if t == "buy_shares":
        return _buy_shares(game, who, action, flows)
    if t == "sell_shares":
        got = flows.take(who) if flows.untold(who) > 0 else 0
        proceeds = f" to the market for {game.money(got)}" if got else ""
        return f"{who} sells {_shares_text(action)}{proceeds}."
    if t == "buy_company":
        return _buy_company(game, who, action, flows)
    if t == "lay_tile":
        return _lay_sentence(game, who, action, flows)
    if t == "place_token":
        payer = _payer(game, action)
        paid = flows.spent(payer)
        by = "" if payer == who else f" ({payer} pays)"
        cost = f" for {game.money(paid)}{by}" if paid else ""
        return f"{who} places a station token in {_city_place(game, action.get('city'))}{cost}."
    if t == "run_routes":
        routes = action.get("routes") or []
        revenues = game.last_route_revenues
        parts = ", ".join(
            f"{_kind(r.get('train', '?'))}-train {game.money(rev)}"
            for r, rev in zip(routes, revenues)
        )
        ran = f"{who} runs for {game.money(sum(revenues))}" + (f" ({parts})." if parts else ".")
        if sum(revenues) and _holders_paid(flows, who):  # paid out at once (1860's end game)
            payout = {"entity": action.get("entity"), "kind": "payout"}
            return f"{ran} {_dividend(game, who, payout, flows)}"
        return ran
    if t == "dividend":
        return _dividend(game, who, action, flows)
    if t == "buy_train":
        return _buy_train(game, who, action, flows)
    if t == "discard_train":
        return f"{who} discards a {_kind(action.get('train'))}-train."
    if t == "bankrupt":
        return f"{who} declares bankruptcy."
    if t == "message":
        return f"{who}: {action.get('message', '')}"
    return f"{who}: {t.replace('_', ' ')}."


def _buy_shares(game: Any, who: str, action: dict[str, Any], flows: Flows) -> str:
    shares = action.get("shares") or []
    corp = shares[0].rpartition("_")[0] if shares else "?"
    moved = flows.moved_shares(corp)
    source = next((h for h, pct in moved.items() if pct < 0 and h != who), None)
    paid = flows.spent(who)
    if source is not None and source not in (IPO, MARKET):
        flows.take(source)  # a share bought from another holder pays that holder
    where = f" from {source}" if source else ""
    if action.get("entity_type") == "company":  # a private exchanged: its owner takes the share
        taker = next((h for h, pct in moved.items() if pct > 0), who)
        return f"{taker} exchanges {who} for {_shares_text(action)}{where}."
    cost = f" for {game.money(paid)}" if paid else ""
    return f"{who} buys {_shares_text(action)}{where}{cost}."


def _buy_company(game: Any, who: str, action: dict[str, Any], flows: Flows) -> str:
    sym = action.get("company")
    seller = next((name for name, gain in flows.gains(exclude=who)), None)
    paid = flows.spent(who)
    if seller is not None:
        flows.take(seller, paid)
    from_whom = f" from {seller}" if seller else ""
    told = [e for e in getattr(game, "events", []) if e.startswith(f"{who} buys {sym} from ")]
    if seller is None and told:  # the title's own sentence names the seller (1860: the bank)
        return told[0]
    return f"{who} buys {sym}{from_whom} for {game.money(paid or action.get('price'))}."


def _lay_sentence(game: Any, who: str, action: dict[str, Any], flows: Flows) -> str:
    hex_id = action.get("hex")
    tile = _kind(action.get("tile"))
    where = _place(game, hex_id)
    try:
        exits = exits_text(game, str(hex_id), tile, int(action.get("rotation", 0)))
        track = f", track {exits}"
    except (KeyError, ValueError, TypeError):  # an unknown tile still gets its sentence
        track = ""
    payer = _payer(game, action)
    paid = flows.spent(payer)
    by = "" if payer == who else f" {payer}"
    cost = f",{by} paying {game.money(paid)} for terrain" if paid else ""
    return f"{who} lays tile {tile} on {where}{track}{cost}."


def _halt_subsidy(game: Any) -> int:
    """The subsidy a halt stop pays the company (1860), 0 in titles without halts."""
    return int(getattr(game, "HALT_SUBSIDY", 0))


def _holders_paid(flows: Flows, corp: str) -> bool:
    """Some holder of the company's shares was paid in this action (a payout made with it)."""
    return any(
        flows.untold(h) > 0 for (h, sym), pct in flows.after.holdings.items() if sym == corp and pct
    )


def _dividend(game: Any, who: str, action: dict[str, Any], flows: Flows) -> str:
    """The run's money, every part named so that they add up: each player's dividend for
    the percent they hold, the company's for the market's shares where the title pays them
    (1830), the shares paid nothing (the IPO's; the market's in 1860), and a halt subsidy,
    which the company keeps whatever it pays out (1860)."""
    corp = game.corporation(action.get("entity"))
    revenue = corp.last_revenue or 0
    if action.get("kind") != "payout":
        flows.take(who, revenue)
        subsidy = flows.take(who) if _halt_subsidy(game) and flows.untold(who) > 0 else 0
        kept = f" and its {game.money(subsidy)} halt subsidy" if subsidy else ""
        return (
            f"{who} withholds {game.money(revenue)}{kept} (treasury now {game.money(corp.cash)})."
        )
    held = {h: pct for (h, sym), pct in flows.after.holdings.items() if sym == who and pct}
    paid = []
    for name, gain in flows.gains(exclude=who):
        if name in held and flows.take(name, gain):
            paid.append(f"{name} {game.money(gain)} for {held.pop(name)}%")
    unpaid = []
    for holder in (MARKET, IPO):
        pct = held.pop(holder, 0)
        if not pct:
            continue
        if holder == MARKET and game.MARKET_PAYS_COMPANY:
            gain = flows.take(who, min(flows.untold(who), int(revenue * pct / 100)))
            paid.append(f"{who} {game.money(gain)} for the market's {pct}%")
        else:
            unpaid.append(f"{holder}'s {pct}%".removeprefix("the "))
    parts = ", ".join(paid) + ("; nothing for the " + " and the ".join(unpaid) if unpaid else "")
    subsidy = flows.take(who) if _halt_subsidy(game) and flows.untold(who) > 0 else 0
    kept = f" {who} also keeps its {game.money(subsidy)} halt subsidy." if subsidy else ""
    per = game.money(revenue / 10)
    return f"{who} pays out {game.money(revenue)} ({per} a share): {parts}.{kept}"


def _buy_train(game: Any, who: str, action: dict[str, Any], flows: Flows) -> str:
    train = _kind(action.get("train"))
    swap = f", trading in a {_kind(action['exchange'])}" if action.get("exchange") else ""
    source = getattr(game, "last_train_source", None)
    whose = f"{source}'s {train}-train" if source else f"a {train}-train from the bank"
    price = int(action.get("price") or 0)
    if source:
        flows.take(source, price)
    corp_paid = flows.spent(who)
    president = (
        game.corporation(who).owner if any(c.sym == who for c in game.corporations) else None
    )
    added = flows.spent(president.name) if president is not None else 0
    split = (
        f" ({who} {game.money(corp_paid)}, its president {president.name} adds {game.money(added)})"
        if added and president is not None
        else ""
    )
    return f"{who} buys {whose} for {game.money(price)}{swap}{split}."


SKIP_ANNOUNCED = {
    "track": "lay_tile",
    "token": "place_token",
    "route": "run_routes",
    "buy_train": "buy_train",
}


def skip_sentence(game: Any, entity: Any, step: Any) -> str | None:
    """Why a company's turn passes over a step (no token circle free, no train to run, no
    money for a train), in the engine's words; None for steps not worth a line."""
    action_type = SKIP_ANNOUNCED.get(getattr(step, "time_name", None) or "")
    if action_type is None or not isinstance(entity, Corporation):
        return None
    if action_type == "run_routes":
        reason = "it has no train" if not entity.trains else "its trains have no route to run"
    else:
        reason = step.explain(entity, action_type) or "nothing can be done in it now"
    return f"{entity.sym} skips {step.description}: {reason}."


def status(game: Any) -> str:
    r = game.round
    head = f"{game.full_name} — {r.name} {game.turn}" + (
        f".{r.round_num}" if r.name == "Operating Round" else ""
    )
    head += f", phase {game.phases.name}, bank {game.money(game.bank.cash)}"
    if game.finished:
        scores = ", ".join(f"{name} {game.money(v)}" for name, v in game.ranking())
        return f"{head}\nGame over ({game.end_reason_text()}): {scores}"
    lines = [head]
    for info in game.turn_info():
        who = game.player(info.player).name if info.player is not None else "any player"
        acting = f"{who} for {info.acting_for}" if info.acting_for else who
        lines.append(
            f"To act: {acting} — {info.step} ({'; '.join(info.facts)})"
            + (f". Compulsory: {info.compulsory}." if info.compulsory else "")
        )
    bids = _bid_lines(game, r)
    if bids:
        lines.append("Bids: " + "; ".join(bids))
    lines.append(
        "Players: " + "; ".join(f"{p.name} {game.money(p.cash)}" for p in game.player_list)
    )
    floated = [c for c in game.operating_order()]
    if floated:
        lines.append(
            "Companies: "
            + "; ".join(
                f"{c.sym} {game.money(c.share_price.price)} (treasury {game.money(c.cash)}; "
                f"trains: {', '.join(f'{t.name}-train' for t in c.trains) or 'none'})"
                for c in floated
            )
        )
    return "\n".join(lines)


def _bid_lines(game: Any, round_: Any) -> list[str]:
    """Open bids of an auction step: per private ({company: [(player, price)]}, 1830), or the
    players' bids on the item for sale ({player: price}, 1860; negative = no bid yet)."""
    lines: list[str] = []
    for step in getattr(round_, "steps", ()):
        by_player: list[tuple[Any, int]] = []
        for key, entries in (getattr(step, "bids", None) or {}).items():
            if isinstance(entries, list) and entries:
                ranked = sorted(entries, key=lambda e: -e[1])
                lines.append(
                    f"{key.sym} "
                    + ", ".join(f"{p.name} {game.money(price)}" for p, price in ranked)
                )
            elif isinstance(entries, int) and entries > 0:
                by_player.append((key, entries))
        if by_player:
            lines.append(
                ", ".join(
                    f"{p.name} {game.money(price)}"
                    for p, price in sorted(by_player, key=lambda e: -e[1])
                )
            )
    return lines
