"""Ratings per server and title, and what each finished game changed in them.

A game is rated in one transaction that first checks it is still finished at the version it
was rated from and was not rated yet, so two processes that both see it end rate it once. The
store computes no rating: the service passes the function that does (`Rater`). An undo that
takes a rated game back from its end takes back exactly the change the game made
(`take_back`, inside the same transaction as the undo), so finishing it again rates it anew.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.store.base import StoreBase, chunks, marks, now
from bot.core.store.caps import RATINGS, fold
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import FINISHED

Skill = tuple[float, float]  # openskill's mu and sigma
# From each entrant's rating before the game and their places (1: first; equal on a tie),
# their ratings after it.
Rater = Callable[[list[Skill], list[int]], list[Skill]]


@dataclass(frozen=True)
class Entrant:
    """Who a seat's result counts for: a person (`computer` '') or a computer level (user 0)."""

    seat: int
    user_id: int
    computer: str
    place: int


@dataclass(frozen=True)
class Standing:
    """An entrant's rating in one title, with their record in the games rated."""

    title: str
    mu: float
    sigma: float
    games: int
    wins: int
    average_place: float


@dataclass(frozen=True)
class RatedGame:
    """One entrant's result in one rated game, with the rating before and after it."""

    game_id: int
    seat: int
    title: str
    place: int
    before: Skill
    after: Skill
    rated_at: str


class StandingTables(StoreBase):
    @writing
    def rate_game(
        self,
        conn: Conn,
        game_id: int,
        version: int,
        entrants: Sequence[Entrant],
        rate: Rater,
        fresh: Skill,
    ) -> bool:
        """Rate a finished game once (an entrant never rated starts at `fresh`): whether this
        call rated it (not when it was rated already, or is no longer finished at `version`).
        The server's ratings are locked meanwhile, so two games ending at once with a player in
        common both count."""
        conn.lock(game_id)
        record = self._game(conn, game_id)
        if record.version != version or record.status != FINISHED:
            return False
        if conn.one("SELECT 1 AS x FROM game_ratings WHERE game_id = ?", [game_id]):
            return False
        guild = record.guild_id or 0
        conn.lock_in(RATINGS, fold(guild))
        key = "guild_id = ? AND title = ? AND user_id = ? AND computer = ?"
        before: list[Skill] = []
        for e in entrants:
            row = conn.one(
                f"SELECT mu, sigma FROM ratings WHERE {key}",
                [guild, record.title, e.user_id, e.computer],
            )
            before.append(fresh if row is None else (row["mu"], row["sigma"]))
        after = rate(before, [e.place for e in entrants])
        when = now()
        for e, old, new in zip(entrants, before, after, strict=True):
            win = int(e.place == 1)
            conn.execute(
                "INSERT INTO ratings (guild_id, title, user_id, computer, mu, sigma, games, "
                "wins) VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, title, user_id, "
                "computer) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "games = ratings.games + 1, wins = ratings.wins + excluded.wins",
                [guild, record.title, e.user_id, e.computer, *new, win],
            )
            conn.execute(
                "INSERT INTO game_ratings (game_id, seat, guild_id, title, user_id, computer, "
                "place, mu_before, sigma_before, mu_after, sigma_after, rated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [game_id, e.seat, guild, record.title, e.user_id, e.computer, e.place]
                + [*old, *new, when],
            )
        return True

    @reading
    def standings(
        self, conn: Conn, guild_id: int | None, user_id: int, computer: str = ""
    ) -> list[Standing]:
        """An entrant's ratings in one server (None: the console), a title each."""
        rows = conn.all(
            "SELECT r.title, r.mu, r.sigma, r.games, r.wins, (SELECT avg(g.place) FROM "
            "game_ratings g WHERE g.guild_id = r.guild_id AND g.title = r.title AND g.user_id "
            "= r.user_id AND g.computer = r.computer) AS average_place FROM ratings r WHERE "
            "r.guild_id = ? AND r.user_id = ? AND r.computer = ? ORDER BY r.title",
            [guild_id or 0, user_id, computer],
        )
        return [Standing(**{**r, "average_place": float(r["average_place"])}) for r in rows]

    @reading
    def rated_games(
        self,
        conn: Conn,
        guild_id: int | None,
        user_id: int,
        title: str,
        *,
        computer: str = "",
        limit: int,
    ) -> list[RatedGame]:
        """An entrant's newest rated games of one title in one server, newest first."""
        rows = conn.all(
            "SELECT * FROM game_ratings WHERE guild_id = ? AND user_id = ? AND computer = ? "
            "AND title = ? ORDER BY id DESC LIMIT ?",
            [guild_id or 0, user_id, computer, title, limit],
        )
        return [_rated(r) for r in rows]

    @reading
    def winners(self, conn: Conn, game_ids: Sequence[int]) -> dict[int, list[str]]:
        """The names of the seats placed first in each rated game among `game_ids`."""
        found: dict[int, list[str]] = {}
        for part in chunks(game_ids):
            rows = conn.all(
                "SELECT r.game_id, s.name FROM game_ratings r JOIN seats s ON s.game_id = "
                f"r.game_id AND s.seat = r.seat WHERE r.place = 1 AND r.game_id IN ({marks(part)}) "
                "ORDER BY r.game_id, r.seat",
                list(part),
            )
            for r in rows:
                found.setdefault(r["game_id"], []).append(r["name"])
        return found

    @reading
    def move_times(self, conn: Conn, game_ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
        """Who made each action of those games, in order (user 0 for the computer's or an
        imported file's), and when: enough to tell how long each player took."""
        found: dict[int, list[tuple[int, str]]] = {g: [] for g in game_ids}
        for part in chunks(game_ids):
            rows = conn.all(
                "SELECT game_id, CASE WHEN computer IS NULL AND user_id > 0 THEN user_id "
                "ELSE 0 END AS who, created_at FROM actions "
                f"WHERE game_id IN ({marks(part)}) ORDER BY game_id, seq",
                list(part),
            )
            for r in rows:
                found[r["game_id"]].append((r["who"], r["created_at"]))
        return found


def take_back(conn: Conn, game_id: int) -> None:
    """Undo a rated game's change to its entrants' ratings (the game's log is leaving its
    end). Exact when nothing rated them since; otherwise the game's share of the change is
    subtracted from what they have now."""
    rows = conn.all("SELECT * FROM game_ratings WHERE game_id = ?", [game_id])
    if not rows:
        return
    conn.lock_in(RATINGS, fold(rows[0]["guild_id"]))
    for r in rows:
        key = [r["guild_id"], r["title"], r["user_id"], r["computer"]]
        conn.execute(
            "UPDATE ratings SET mu = mu - ?, sigma = sigma - ?, games = games - 1, "
            "wins = wins - ? WHERE guild_id = ? AND title = ? AND user_id = ? AND computer = ?",
            [
                r["mu_after"] - r["mu_before"],
                r["sigma_after"] - r["sigma_before"],
                int(r["place"] == 1),
                *key,
            ],
        )
        conn.execute(
            "DELETE FROM ratings WHERE guild_id = ? AND title = ? AND user_id = ? AND "
            "computer = ? AND games <= 0",
            key,
        )
    conn.execute("DELETE FROM game_ratings WHERE game_id = ?", [game_id])


def _rated(row: dict[str, Any]) -> RatedGame:
    return RatedGame(
        row["game_id"],
        row["seat"],
        row["title"],
        row["place"],
        (row["mu_before"], row["sigma_before"]),
        (row["mu_after"], row["sigma_after"]),
        row["rated_at"],
    )
