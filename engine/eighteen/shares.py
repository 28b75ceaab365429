"""Moving certificates: buying, selling, and the presidency changes they cause (18xx.games order)."""

from __future__ import annotations

from engine.eighteen.entities import CashHolder, Corporation, Holder, Player, Pool, Share, spend
from engine.eighteen.rounds import EighteenHost


def move_share(share: Share, to: Holder) -> None:
    share.owner.give(share)
    to.take(share)
    share.owner = to


def bundle_price(shares: list[Share], percent: int, corp: Corporation) -> int:
    """Price of `percent` out of these certificates at the price of where they sit now."""
    owner = shares[0].owner
    cell = corp.par_price if owner is corp else corp.share_price
    assert cell is not None
    return cell.price * percent // 10


def transfer(
    game: EighteenHost,
    shares: list[Share],
    percent: int,
    to: Holder,
    *,
    spender: CashHolder | None = None,
    receiver: CashHolder | None = None,
    price: int = 0,
    allow_president_change: bool = True,
) -> None:
    corp = shares[0].corp
    owner = shares[0].owner
    previous_president = corp.owner
    partial_diff = sum(s.percent for s in shares) - percent
    if spender is not None and receiver is not None and price > 0:
        spend(spender, receiver, price)
    for s in shares:
        move_share(s, to)
    if not allow_president_change:
        return

    def pct(h: Holder) -> int:
        p = h.percent_of(corp)
        if h is owner:
            p += partial_diff
        if h is to:
            p -= partial_diff
        return p

    holders = [p for p in game.player_list if pct(p) > 0]
    max_pct = max((pct(p) for p in holders), default=0)
    bundle_has_pres = any(s.president for s in shares)
    if game.president_sales_to_market:
        if bundle_has_pres and to is game.pool and max_pct < game.presidents_percent:
            corp.owner = None  # nobody can take over: the company has no director
            game.note(
                f"{corp.sym}'s director's certificate is in the market: {corp.sym} has no director."
            )
            for _ in range(partial_diff // 10):
                move_share(next(s for s in game.pool.shares_of(corp) if not s.president), owner)
            return
        if bundle_has_pres and owner is game.pool and isinstance(to, Player):
            corp.owner = to  # a shareholder swaps a share for the certificate in the market
            for _ in range(partial_diff // 10):
                move_share(next(s for s in to.shares_of(corp) if not s.president), game.pool)
            return
        if max_pct < game.presidents_percent:
            return
    majority = [p for p in holders if pct(p) == max_pct]
    if previous_president in majority:
        return
    president_share = (
        corp.shares[0]
        if corp.shares and corp.shares[0].president
        else next(
            s for h in [*game.player_list, game.pool] for s in h.shares_of(corp) if s.president
        )
    )
    president: Player | None = None
    if previous_president is None:
        president = next((p for p in majority if p is president_share.owner), None)
    if president is None:
        cands = [p for p in majority if pct(p) >= game.presidents_percent]
        if cands:
            president = min(cands, key=lambda p: game.player_distance(previous_president, p))
    if president is None:
        return
    corp.owner = president
    if previous_president is not None:
        game.note(f"{president.name} becomes {game.LEADER} of {corp.sym}.")
    if to is president and previous_president is owner and bundle_has_pres and not partial_diff:
        return
    prev_holder: Holder | None = previous_president
    if prev_holder is None and any(s.president for s in game.pool.shares_of(corp)):
        prev_holder = game.pool  # a company without a director: its certificate is in the market
    if owner is corp and not bundle_has_pres:
        prev_holder = prev_holder or corp
    if owner is president or prev_holder is None:
        return
    pres_share = next((s for s in shares if s.president), None) or next(
        (s for s in prev_holder.shares_of(corp) if s.president), None
    )
    if pres_share is None:
        return
    if isinstance(owner, Player) and isinstance(to, Player) and bundle_has_pres:
        transfer_to: Holder = to
        swap_to: Holder = to
    else:
        transfer_to = game.pool
        swap_to = prev_holder if pct(prev_holder) >= pres_share.percent else transfer_to
    num = pres_share.percent // 10
    for s in [s for s in president.shares_of(corp) if not s.president][:num]:
        move_share(s, swap_to)
    move_share(pres_share, president)
    if partial_diff:
        for _ in range(partial_diff // 10):
            move_share(transfer_to.shares_of(corp)[0], owner)


def buy(game: EighteenHost, buyer: Player, shares: list[Share], *, free: bool = False) -> None:
    corp = shares[0].corp
    owner = shares[0].owner
    was_floated = corp.floated
    if any(s.president for s in shares) or (corp.owner is not None):
        corp.ipoed = True
    percent = sum(s.percent for s in shares)
    if free:
        transfer(game, shares, percent, buyer)
    else:
        price = bundle_price(shares, percent, corp)
        receiver: CashHolder = owner if isinstance(owner, Player) else game.bank
        transfer(game, shares, percent, buyer, spender=buyer, receiver=receiver, price=price)
    game.check_float(corp, was_floated)


def sell(game: EighteenHost, seller: Player, shares: list[Share], percent: int) -> None:
    corp = shares[0].corp
    price = game.sale_price(shares, percent, corp)
    transfer(game, shares, percent, game.pool, spender=game.bank, receiver=seller, price=price)
    game.move_price_on_sale(corp, percent // 10)


def sellable_bundles(
    game: EighteenHost, player: Player, corp: Corporation
) -> list[tuple[list[Share], int]]:
    """Every (certificates, percent) the player could offer for sale, smallest first."""
    if not corp.ipoed:
        return []
    own = sorted(player.shares_of(corp), key=lambda s: (1 if s.president else 0, s.percent))
    out: list[tuple[list[Share], int]] = []
    bundle: list[Share] = []
    total = 0
    for s in own:
        bundle.append(s)
        total += s.percent
        out.append((list(bundle), total))
    if own and own[-1].president:
        for n in range(1, (own[-1].percent - 10) // 10 + 1):
            out.append((list(bundle), total - 10 * n))
    return sorted(out, key=lambda b: b[1])


def bundle_problem(player: Player, shares: list[Share], percent: int) -> str | None:
    """Why these certificates cannot be sold as `percent`: the sale is all of them, or, when it
    holds the director's certificate with all the player's other shares of the company, that
    total less up to the certificate's extra (the shares swapped when the presidency passes)."""
    corp, total = shares[0].corp, sum(s.percent for s in shares)
    if percent <= 0 or percent % 10 or percent > total:
        return f"{percent}% cannot be sold out of certificates making {total}%"
    director = next((s for s in shares if s.president), None)
    if director is not None and len(shares) != len(player.shares_of(corp)):
        return (
            f"a sale with the {corp.sym} director's certificate includes all of "
            f"{player.name}'s {corp.sym} shares"
        )
    if percent != total and (director is None or total - percent >= director.percent):
        return (
            f"{percent}% cannot be sold out of certificates making {total}% (only part of "
            "a director's certificate can be kept back)"
        )
    return None


def can_dump(
    game: EighteenHost, player: Player, corp: Corporation, shares: list[Share], percent: int
) -> bool:
    """A president may sell below the next holder only if somebody can take the presidency."""
    if not any(s.president for s in shares):
        return True
    if game.president_sales_to_market:
        if percent >= game.presidents_percent:
            return True
        others = max((p.percent_of(corp) for p in game.player_list if p is not player), default=0)
        return others > 10 or game.pool.percent_of(corp) > 0
    held = [p.percent_of(corp) for p in game.player_list if p is not player]
    return max(held, default=0) >= game.presidents_percent


def fits_pool(game: EighteenHost, corp: Corporation, percent: int) -> bool:
    return game.pool.percent_of(corp) + percent <= game.market_share_limit


__all__ = [
    "Pool",
    "buy",
    "sell",
    "transfer",
    "bundle_price",
    "sellable_bundles",
    "bundle_problem",
    "can_dump",
    "fits_pool",
]
