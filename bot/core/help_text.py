"""`/game help [title]`: the commands, and for a title how its moves are made, with examples.

Shared by Discord and the console so both explain the same commands the same way.
"""

from __future__ import annotations

from bot.core.moves import MOVES
from bot.core.routes_input import route_example
from engine.eighteen.game import EighteenGame
from engine.errors import GameError
from engine.titles import find_title, title_names

GAME_COMMANDS = (
    ("new title [seats] [options]", "open a game in a new thread; you take seat 1"),
    ("join / leave", "take or give up a seat before the start"),
    ("start", "start the game (its creator or an admin)"),
    ("status", "where the game stands and who must act (only to you)"),
    ("moves", "every move you can make now (only to you)"),
    ("show [view]", "the current map, market or sheet (only to you)"),
    ("info [topic]", "reference: privates, phases, certificates, market colours (only to you)"),
    ("history [last]", "the numbered last actions"),
    ("routes company", "a company's best routes now"),
    (
        "undo [confirm]",
        "take back your last move (others approve if they moved since; an "
        "admin confirms taking back another player's move)",
    ),
    (
        "redo",
        "put back what the last undo took back; redo again for the undo before it, while "
        "nobody has moved since (who undid it, or an admin)",
    ),
    (
        "approve request / reject request",
        "answer a deal offered to you (or withdraw yours), or vote on an undo",
    ),
    ("act action", "a move as JSON (anything the /play commands do not cover)"),
    ("list", "this server's games"),
    ("pause / resume / abandon", "admin: stop the clock, go on, end without a result"),
    ("replace seat user", "admin: give a seat to another player"),
    ("rewind action", "admin: take the game back to just after that action"),
    ("remind hours", "admin: remind the thread after that many idle hours (0: never)"),
    ("import file [players] / export", "a game as an 18xx.games JSON file"),
)

TITLE_NOTES = {
    "1830": (
        "1830: six private companies are auctioned first (the cheapest can be bought "
        "outright, the others take bids), then stock rounds (buy, sell, par) alternate "
        "with operating rounds (track, token, trains, dividends). Most money at the end "
        "wins."
    ),
    "1860": (
        "1860: the Isle of Wight, 2-4 players. Six auctions first: bid for the pick "
        "(/play bid company:pick price:20), the winner takes a private "
        "(/play bid company:RPSC) or a director's certificate (/play par C&N 90); nobody "
        "bidding gives the opener a free pick. Stock rounds: sell, then buy one certificate; "
        "exchange a private for its share with /play buy. Operating rounds: two yellow "
        "tiles, or one city, or one upgrade; trains are a+b (big stops + towns or halts; "
        "halts pay a £10 subsidy); a company without a train becomes insolvent and leases "
        "one. After the 9+5 the Southern Railway forms and nationalisation ends the game."
    ),
    "string_railway": (
        "String Railway: 2-5 players (two play two companies each). Each turn draw a station "
        "(a Village draws one more), place it by its centre (x y in cm, or a map cell like D4), "
        "then lay a short (30) or long (60) rail from your base or a station you reach: stations "
        "by label, free points as x y or a cell. Stations score when first reached, crossings cost 1 "
        "(on a station free); /play hint lists the best rails, or where a drawn station is "
        "reached soonest. Before the first station the river's and mountain's seats may roll "
        "them again or lay them by hand through points x y (/play reroll what:river 10 20, "
        "40 35, 70 50)."
    ),
}
# The /play commands of titles outside the 18xx family (18xx titles use all the others).
TITLE_MOVES = {"string_railway": ("station", "rail", "forfeit", "reroll")}
# An 18xx title's own examples and words where 1830's (the commands' own) would name things
# it lacks, each example a move of its reference games; None: the title has no such move.
# 1860's trains are a+b, its companies have directors, players never go bankrupt and the
# only private for sale after the auction is FFC, from the bank.
TITLE_EXAMPLES: dict[str, dict[str, tuple[str, str] | None]] = {
    "1860": {
        "bid": (
            "/play bid company:pick price:20   or   /play bid company:RPSC",
            "Bid for the pick (the right to take the next private or director's "
            "certificate), or take what your pick won",
        ),
        "par": (
            "/play par company:C&N price:90",
            "Start a company: its director's certificate (20%) at twice the par price",
        ),
        "buy": (
            "/play buy share:C&N IPO",
            "Buy a share (or exchange a private for its company's reserved share)",
        ),
        "sell": ("/play sell shares:IOW 10%", "Sell shares"),
        "private": (
            "/play private company:FFC",
            "Buy FFC from the bank at face value (once the first 6+3-train is bought)",
        ),
        "lay": (
            "/play lay hex:F4   (the lays drawn and numbered)   or   "
            "/play lay hex:F4 tile:742 rotation:3",
            "Lay or upgrade a tile",
        ),
        "token": ("/play token city:G5", "Place a base (station token)"),
        "run": (
            f"/play run   or   /play run routes:{route_example('1860')}",
            "Run trains: the best routes, or your own given as train: hexes",
        ),
        "train": (
            "/play train train:2+1   or   /play train train:IOW's 2+1 price:10",
            "Buy a train: from the bank, or another company's at an agreed price (£10 or "
            "more, in tens)",
        ),
        "discard": ("/play discard train:3+2", "Discard a train over the limit"),
        "bankrupt": None,
    }
}


def help_text(title: str | None = None) -> str:
    if title is None:
        lines = ["Game commands (/game ...):"]
        lines += [f"  /game {usage} — {what}" for usage, what in GAME_COMMANDS]
        lines.append(
            "Moves (/play ...): " + ", ".join(MOVES) + ". Options suggest only "
            "legal moves; /game help title shows examples."
        )
        lines.append(
            "A move that takes another player's private or train at an agreed price "
            "waits for that player to accept it."
        )
        lines.append(
            "Without a game number a command means the game of its thread, or your only game here."
        )
        lines.append(
            "Titles: " + ", ".join(title_names()) + ". /notify on|off: a direct "
            "message when it is your turn."
        )
        return "\n".join(lines)
    try:
        cls = find_title(title)
    except GameError as exc:
        return f"Refused: {exc}"
    lines = [
        TITLE_NOTES.get(cls.title, f"{cls.title}: {cls.min_players} to {cls.max_players} players.")
    ]
    if issubclass(cls, EighteenGame):
        lines.append(
            "Moves, with examples (press the buttons on the turn post for the common ones):"
        )
        own = TITLE_EXAMPLES.get(cls.title, {})
        for m in MOVES.values():
            if any(m.name in names for names in TITLE_MOVES.values()):
                continue
            words = own.get(m.name, (m.example, m.description))
            if words is not None:
                lines.append(f"  {words[0]} — {words[1]}")
    elif cls.title in TITLE_MOVES:
        lines.append("Moves, with examples:")
        lines += [
            f"  {MOVES[name].example} — {MOVES[name].description}"
            for name in TITLE_MOVES[cls.title]
        ]
        lines.append("  /play hint — the best rails for you now (while placing: the best spots)")
    else:
        lines.append(
            "Moves are made with /game act and a JSON action; its suggestions list "
            'your legal moves, e.g. /game act {"type": "pass"}.'
        )
    if cls.option_names:
        lines.append("Options for /game new: " + ", ".join(cls.option_names))
    return "\n".join(lines)
