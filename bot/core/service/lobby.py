"""A game as people outside it see it: its public lobby (kept up to date by the front end), the
games a user may join or means when they name one (lists and suggestions), and where the lobby
message is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.core.lobby import GameEntry, Lobby, entry_state
from bot.core.results import Refused, Result
from bot.core.service.base import ServiceBase, status_word
from bot.core.store import ACTIVE, FINISHED, OPEN, GameRecord, SeatRecord
from engine.errors import GameError
from engine.titles import find_title

LISTED = 50  # games `list_games` names at most
SUGGESTED = 25  # suggestions Discord shows at most


class Lobbies(ServiceBase):
    async def lobby(self, game_id: int) -> Lobby | None:
        """What the game's lobby shows now (for a game id the service itself answered with;
        None when it does not exist)."""
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            if record is None:
                return None
            seats = await self._seats(game_id)
            creator = next((s.name for s in seats if s.user_id == record.creator_id), None)
            lobby = Lobby(
                record.id,
                record.title,
                record.status,
                record.seat_limit,
                find_title(record.title).min_players,
                tuple(s.name for s in seats),
                creator or "its creator",
                tuple(sorted(record.options.items())),
                record.thread_id,
                record.channel_id,
                record.paused,
                record.abandoned,
                clock=await self.clock_left(record),
            )
            if record.status == OPEN:
                return lobby
            try:
                game = await self._live(record)
            except (Refused, GameError):
                return lobby
            ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
            return replace(
                lobby,
                round=game.round_name(),
                to_act=tuple(game.player_name(p) for p in game.active_players()),
                ranking=tuple((game.player_name(p), v) for p, v in ranking)
                if game.finished
                else (),
            )

    async def lobby_post(self, game_id: int) -> tuple[int, int] | None:
        return await self.store.lobby_post(game_id)

    async def remember_lobby_post(self, game_id: int, where: tuple[int, int] | None) -> None:
        await self.store.set_lobby_post(game_id, where)

    async def game_entries(
        self, user_id: int, *, guild_id: int | None = None, limit: int = SUGGESTED
    ) -> list[GameEntry]:
        """The games of server `guild_id` a user may mean: theirs (in play first) and the
        others open to join, each with how it stands for them. Whose turn it is comes from the
        store (who must act is kept with every change): no game is rebuilt for a list."""
        listed = await self.store.game_listing(user_id, guild_id, limit)
        return [
            GameEntry(
                record.id,
                record.title,
                entry_state(record, seats, self._acting(record, seats), user_id),
                any(s.user_id == user_id for s in seats),
                record.thread_id,
            )
            for record, seats in listed
        ]

    @staticmethod
    def _acting(record: GameRecord, seats: list[SeatRecord]) -> tuple[int, ...]:
        """The users who must act: as stored with the game's last change, else (a game stored
        before that was kept) who was last told to act in its thread."""
        if record.status != ACTIVE:
            return ()
        if record.acting is None:
            return record.mentioned
        return tuple(s.user_id for s in seats if s.seat in record.acting and s.user_id > 0)

    async def game_choices(
        self, user_id: int, current: str, *, guild_id: int | None = None
    ) -> list[tuple[int, str]]:
        """(game id, label) suggestions for a `game:` option, matching what was typed (a
        number, or words of the title or state)."""
        typed = current.strip().lstrip("#").casefold()

        def matches(entry: GameEntry) -> bool:
            if typed.isdigit():  # a game number, as far as it is typed
                return str(entry.game_id).startswith(typed)
            return typed in entry.label.casefold()

        return [
            (e.game_id, e.label)
            for e in await self.game_entries(user_id, guild_id=guild_id, limit=LISTED)
            if matches(e)
        ][:SUGGESTED]

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        user_id: int | None = None,
        include_finished: bool = False,
        link: Callable[[int], str] | None = None,
    ) -> Result:
        """The user's games here and the others open to join (`user_id` None: every game of
        the server with its players, as the console lists its database); `link` names a
        game's thread."""
        if user_id is None:
            return await self._every_game(guild_id, include_finished)
        entries = [
            e
            for e in await self.game_entries(user_id, guild_id=guild_id, limit=LISTED)
            if include_finished or e.state not in ("finished", "abandoned")
        ]

        if not entries:
            return Result(text="No games here yet. Start one with /game new.")

        won = await self._winners([e.game_id for e in entries if e.state == "finished"])

        def line(e: GameEntry) -> str:
            label = e.label + won.get(e.game_id, "")
            where = link(e.thread_id) if link is not None and e.thread_id is not None else ""
            return f"{label} · {where}" if where else label

        mine = [line(e) for e in entries if e.mine]
        others = [line(e) for e in entries if not e.mine]
        lines = ["Your games:", *mine] if mine else []
        if others:
            lines += ["Open to join:", *others]
        else:
            lines.append("No other game is open to join here; open one with /game new.")
        return Result(text="\n".join(lines))

    async def _every_game(self, guild_id: int | None, include_finished: bool) -> Result:
        statuses = (OPEN, ACTIVE, FINISHED) if include_finished else (OPEN, ACTIVE)
        records = await self.store.games(guild_id=guild_id, statuses=statuses, limit=LISTED)
        if not records:
            return Result(text="No games here yet. Start one with /game new.")
        won = await self._winners([r.id for r in records if status_word(r) == "finished"])
        lines = []
        for r in records:
            names = ", ".join(s.name for s in await self.store.seats(r.id)) or "nobody seated"
            lines.append(f"#{r.id} · {r.title} · {status_word(r)}{won.get(r.id, '')} · {names}")
        return Result(text="\n".join(lines))

    async def _winners(self, game_ids: list[int]) -> dict[int, str]:
        """' · won by Ann' for each finished game: as rated when it ended, or (a game that
        ended before games were rated) from its replayed result."""
        found = await self.store.winners(game_ids)
        for game_id in game_ids:
            if game_id in found:
                continue
            async with self._holding(game_id):
                record = await self.store.game(game_id)
                try:
                    game = await self._live(record) if record is not None else None
                except (Refused, GameError):
                    continue
            if game is not None:
                best = max(game.result().values(), default=None)
                found[game_id] = [
                    game.player_name(p) for p, v in game.result().items() if v == best
                ]
        return {g: " · won by " + " and ".join(names) for g, names in found.items() if names}
