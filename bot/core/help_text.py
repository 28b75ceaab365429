"""The help: every command with what it does, and for a title how its moves are made, with that
title's own examples. Shared by Discord (as embeds with clickable commands) and the console (as
text), so both explain the same commands the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.routes_input import route_example
from engine.errors import GameError
from engine.titles import find_title, title_names


@dataclass(frozen=True)
class Command:
    name: str  # as typed after the slash: "game new"
    usage: str  # its options
    what: str


PLAYING = (
    Command("play move", "move", "any move: pick a suggestion, or type it (bid CS 50, par PRR 67)"),
    Command("play pass", "", "pass, or finish the current step of your turn"),
    Command(
        "play lay", "hex [tile] [rotation]", "lay a tile; without a rotation, pick it by picture"
    ),
    Command("play run", "[routes]", "run your trains: the best routes, or yours as hexes"),
    Command("play rail", "path", "String Railway: lay a rail; you see it and its score first"),
    Command(
        "play auto",
        "[set|list|cancel] [program] [until]",
        "your programmed moves, made for you when due (only you see them)",
    ),
    Command(
        "play answer", "request yes|no", "answer a deal, an undo vote or a seat offered to you"
    ),
    Command("play hint", "", "the best moves for you now (only to you)"),
    Command("play away", "[level]", "the computer plays your seat until you are back"),
    Command("play back", "", "play your seat again after /play away"),
)
YOURS = (
    Command("turns", "[page]", "your games in every server, your turns first, with links"),
    Command("settings show", "", "your settings"),
    Command("settings turn-dm", "on|off [game]", "a direct message on your turn: all games or one"),
    Command("settings reminder-dm", "on|off", "reminders after the first by direct message"),
    Command("settings timezone", "zone", "your time zone, for quiet hours"),
    Command("settings quiet-hours", "from-to|off", "no DM and no reminder ping then (23-8)"),
    Command("settings away", "day|off", "away until a day: others see it, reminders wait"),
)
GAMES = (
    Command(
        "game new",
        "title [seats] [options] [computers] [level]",
        "open a game: a lobby here and its thread; seat 1, the computer the next `computers`",
    ),
    Command("game join", "", "take a seat before the start, or the seat offered to you"),
    Command("game leave", "", "give up your seat before the start"),
    Command("game start", "", "start the game (its creator or an admin)"),
    Command("game list", "[finished]", "your games here and the games open to join"),
    Command("game status", "", "where the game stands; its creator gets its controls there"),
    Command(
        "game view",
        "what [detail]",
        "map, market, sheet, chart, history, since (what you missed), routes, info or moves",
    ),
    Command("game undo", "[confirm]", "take back your last move (others approve if they moved)"),
    Command("game redo", "", "put back what the undos took back, while nobody moved since"),
    Command("game import", "file [players]", "open an 18xx.games file; players are offered seats"),
    Command("game export", "", "the game as an 18xx.games JSON file"),
    Command("game help", "[title]", "this help, or a title's moves with examples"),
)
ADMIN = (
    Command("game-admin pause", "", "stop the game: no moves, no reminders"),
    Command("game-admin resume", "", "let a paused game go on"),
    Command("game-admin abandon", "", "end the game without a result (the log is kept)"),
    Command("game-admin replace", "seat user", "offer a seat, with all it owns, to a member"),
    Command("game-admin computer", "seat level|off", "the computer plays a seat, or stops"),
    Command("game-admin rewind", "action", "take the game back to just after that action"),
    Command("game-admin remind", "hours", "idle hours before a reminder (0: none; at least 1)"),
    Command("game-admin act", "action", "a move as JSON, for what no other command makes"),
)
SECTIONS = (("Playing", PLAYING), ("Games", GAMES), ("Yours, everywhere", YOURS), ("Admins", ADMIN))
# Where `game:` is left out: the thread's game, or your only game here.
GAME_DEFAULT = "Without game: a command means the game of its thread, or your only game here."
DEALS = (
    "A move that takes another player's private or train at an agreed price waits for that "
    "player to accept it."
)

TITLE_NOTES = {
    "1830": (
        "Six private companies are auctioned first (the cheapest can be bought outright, the "
        "others take bids), then stock rounds (buy, sell, par) alternate with operating "
        "rounds (track, token, trains, dividends). Most money at the end wins."
    ),
    "1860": (
        "The Isle of Wight, 2-4 players. Six auctions first: bid for the pick, then the winner "
        "takes a private or a director's certificate; nobody bidding gives the opener a free "
        "pick. Stock rounds: sell, then buy one certificate; exchange a private for its share "
        "with a buy. Operating rounds: two yellow tiles, or one city, or one upgrade; trains "
        "are a+b (big stops + towns or halts; halts pay a £10 subsidy); a company without a "
        "train becomes insolvent and leases one. After the 9+5 the Southern Railway forms and "
        "nationalisation ends the game."
    ),
    "string_railway": (
        "2-5 players (two play two companies each). Each turn draw a station (a Village draws "
        "one more), place it by its centre (x y in cm, or a map cell like D4), then lay a short "
        "(30) or long (60) rail from your base or a station you reach: stations by label, free "
        "points as x y or a cell. Stations score when first reached, crossings cost 1 (on a "
        "station free). Before the first station the river's and mountain's seats may roll "
        "them again or lay them by hand through points x y."
    ),
}
# Each title's moves as a player types them, with what they do.
EXAMPLES = {
    "1830": (
        ("/play move bid CS 50", "bid on a private (or buy the cheapest at its price)"),
        ("/play move par PRR 67", "start a company at a par price"),
        ("/play move buy PRR IPO", "buy a share from the IPO (or NYC market)"),
        ("/play move sell NYC 20%", "sell shares"),
        ("/play lay H14", "pick a tile for H14 by picture (or /play lay H14 57 2)"),
        ("/play move token H12", "place a station token"),
        ("/play run 2: E19 F20 F22", "run a 2-train on your route (no routes: the best)"),
        ("/play move payout", "pay the run out (or withhold)"),
        ("/play move train 3", "buy the next train"),
    ),
    "1860": (
        ("/play move bid pick 20", "bid for the pick in an auction"),
        ("/play move bid RPSC", "the winner takes a private..."),
        ("/play move par C&N 90", "...or a director's certificate at a par price"),
        ("/play move buy C&N", "buy a certificate (or exchange a private for its share)"),
        ("/play move sell IOW 10%", "sell shares (all of one company at once)"),
        ("/play lay F4", "pick a tile for F4 by picture"),
        (
            f"/play run {route_example('1860')}",
            "run a 2+1-train on your route (no routes: the best)",
        ),
        ("/play move train 3+2", "buy the next train"),
    ),
    "string_railway": (
        ("/play move station 20 20", "place the station you drew by its centre (or a cell: D4)"),
        (
            "/play rail short B1 S1",
            "lay a short rail from your base to S1; Confirm after seeing it",
        ),
        ("/play move forfeit short", "give up a rail you cannot lay"),
        ("/play move reroll river", "before the first station: another river (or mountain)"),
        ("/play move reroll river 10 20, 40 35, 70 50", "...or yours, laid by hand through points"),
        ("/play hint", "the best rails for you now (while placing: the best spots)"),
    ),
}


def help_text(title: str | None = None) -> str:
    """The help as text (the console's)."""
    if title is not None:
        return title_help(title)
    lines = []
    for section, commands in SECTIONS:
        lines.append(f"{section}:")
        lines += [f"  /{c.name} {c.usage}".rstrip() + f" — {c.what}" for c in commands]
    lines += [GAME_DEFAULT, DEALS, "Titles: " + ", ".join(title_names()) + "."]
    return "\n".join(lines)


def title_help(title: str) -> str:
    """A title's rules in brief, its moves with examples and its options."""
    try:
        cls = find_title(title)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    lines = [
        getattr(cls, "full_name", cls.title),
        TITLE_NOTES.get(cls.title, f"{cls.min_players} to {cls.max_players} players."),
    ]
    examples = EXAMPLES.get(cls.title)
    if examples:
        lines.append("Moves, with examples (the turn post's buttons make the common ones):")
        lines += [f"  {typed} — {what}" for typed, what in examples]
    else:
        lines.append("Moves: /play move, its suggestions list your legal moves.")
    if cls.option_names:
        lines.append("Options for /game new: " + ", ".join(cls.option_names))
    return "\n".join(lines)
