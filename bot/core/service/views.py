"""Read-only commands: finding a game, its status, legal choices and turn prompt, images and
history.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.core.results import AdminControls, Caller, Prompt, Refused, Result
from bot.core.service.base import (
    HISTORY_LIMIT,
    GameMoved,
    Renderer,
    ServiceBase,
    T,
    acting_seats,
    seat_of,
    seat_players,
    status_word,
    version_key,
)
from bot.core.service.computers import MARK, played_by_computer
from bot.core.service.images import Still
from bot.core.service.posting import unposted_line
from bot.core.service.turns import away_notes
from bot.core.store import ACTIVE, DEAL, FINISHED, OPEN, ActionRecord, GameRecord
from engine.errors import GameError
from engine.game import Choice, Game
from engine.titles import find_title, title_names

log = logging.getLogger(__name__)
DEFAULT_LOOKUP = 10  # candidate games named when a command's game is ambiguous
MISSED_LINES = 30  # the moves made while the bot was away that its catch-up post tells


class Views(ServiceBase):
    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def titles() -> list[str]:
        return title_names()

    async def visible(self, game_id: int, guild_id: int | None) -> bool:
        """Whether game `game_id` exists for a command from server `guild_id`."""
        return await self._visible(game_id, guild_id) is not None

    async def game_for_thread(self, thread_id: int, *, guild_id: int | None = None) -> int | None:
        record = await self.store.game_by_thread(thread_id)
        return record.id if record and record.guild_id == guild_id else None

    async def default_game(self, user_id: int, *, guild_id: int | None = None) -> Result:
        """The game a command without a game number means outside a game thread: the only
        open or running game of the server (None: the console's games), else the only one of
        those the user is seated in. Otherwise `error` names the candidates."""
        found = await self.store.games_in_play(user_id, guild_id, limit=DEFAULT_LOOKUP + 1)
        mine = [r for r, seated in found if seated]
        records = [r for r, _ in found]
        for candidates in (records, mine):
            if len(candidates) == 1:
                return Result(game_id=candidates[0].id, thread_id=candidates[0].thread_id)
        if not records:
            return Result(
                error="which game? no game is open or in play here; start one with /game new"
            )
        listing = ", ".join(f"#{r.id} ({r.title})" for r in (mine or records)[:DEFAULT_LOOKUP])
        where = "you play in several games" if mine else "several games are open or in play"
        return Result(error=f"which game? {where} here: {listing}; give game:<number>")

    async def peek(
        self, game_id: int, question: Callable[[Game], T], *, guild_id: int | None = None
    ) -> T | None:
        """A quick read-only look at the live game of server `guild_id` for suggestions (None
        before it starts)."""
        async with self._holding(game_id):
            record = await self._visible(game_id, guild_id)
            if record is None or record.status == OPEN:
                return None
            try:
                return question(await self._live(record))
            except (Refused, GameError):
                return None

    async def status(
        self, game_id: int, *, guild_id: int | None = None, viewer: int | None = None
    ) -> Result:
        """Where the game stands; for a seated `viewer` (the user asking, who alone reads the
        answer), their own programmed moves too."""

        async def body(record: GameRecord) -> Result:
            seats = await self._seats(record.id)
            head = f"Game #{record.id} · {record.title} · {status_word(record)}"
            failure = await self.store.post_failure(record.id)
            unposted = [unposted_line(failure)] if failure is not None else []
            if record.status == OPEN:
                names = ", ".join(f"{s.seat}. {s.name}" for s in seats) or "nobody"
                cls = find_title(record.title)
                clock = await self.clock_left(record)
                return Result(
                    text="\n".join(
                        [
                            f"{head} ({len(seats)}/{record.seat_limit} seated: {names}). "
                            f"Needs {cls.min_players} to start."
                            + (f" Clock: {clock}." if clock else ""),
                            *unposted,
                        ]
                    ),
                    game_id=record.id,
                    thread_id=record.thread_id,
                )
            game = await self._live(record)
            lines = [head, game.status_text()]  # the title's summary says who acts
            lines += unposted
            lines += [line for line in (played_by_computer(seats),) if line]
            lines += [f"Clock: {c}." for c in [await self.clock_left(record)] if c]
            lines += await self._away(record, game)
            lines += [
                f"Awaiting an answer: {label}"
                for _, label in await self.open_requests(record.id, guild_id=guild_id)
            ]
            seat = seat_of(seats, viewer) if viewer is not None else None
            if seat is not None and seat.player_id is not None and not game.finished:
                lines += [
                    f"You {o.text} (programmed)." for o in game.standing_orders(seat.player_id)
                ]
            if game.finished:
                lines.append(
                    "Result: " + ", ".join(f"{n} {game.score_text(v)}" for n, v in game.ranking())
                )
            return Result(
                text="\n".join(lines),
                game_id=record.id,
                thread_id=record.thread_id,
                notify=await self._to_notify(record, game),
            )

        return await self._run(game_id, None, body, guild_id)

    async def legal_actions(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        kinds: Collection[str] | None = None,
    ) -> list[Choice]:
        """What this user may do now in the game of server `guild_id` (empty for spectators,
        paused and closed games); `kinds` limits it to those action types (an autocomplete
        computes only what its command offers). Cached per game version, so autocomplete asks
        the engine once per turn."""
        async with self._holding(game_id):
            record = await self._visible(game_id, guild_id)
            if record is None or record.status != ACTIVE or record.paused:
                return []
            seat = seat_of(await self._seats(game_id), user_id)
            if seat is None:
                return []
            try:
                game = await self._live(record)
            except Refused:
                return []
            return await self._offered(record, game, seat.player_id, kinds)

    async def prompt(self, game_id: int, *, choices: bool = True) -> Prompt:
        """Who must act now and (unless `choices` is False) the first of them's legal choices,
        for the turn buttons. For a game id the service itself answered with (no server
        check)."""
        async with self._holding(game_id):
            record = await self._record(game_id, await self._guild_of(game_id))
            if record.status == OPEN:
                return Prompt(record.id, record.thread_id, record.version)
            game = await self._live(record)
            seats = await self._seats(record.id)
            ranking = (
                tuple((n, game.score_text(v)) for n, v in game.ranking()) if game.finished else ()
            )
            acting = acting_seats(game, seat_players(seats))
            if record.status == ACTIVE and record.acting is None:  # stored before it was kept
                await self.store.set_acting(record.id, record.version, acting)
            prompt = Prompt(
                record.id,
                record.thread_id,
                record.version,
                notify=await self._to_notify(record, game),
                away=await self._away(record, game),
                mentioned=record.mentioned,
                names=tuple(game.player_name(p) for p in game.active_players()),
                turn=tuple(game.turn_info()),
                player_names={s.player_id: s.name + (MARK if s.computer else "") for s in seats},
                round=game.round_name(),
                moved=record.moved,
                finished=game.finished,
                ranking=ranking,
                views=tuple(game.views()),
                close_ups=type(game).changed_places is not Game.changed_places,
                orders=type(game).order_choices is not Game.order_choices and not game.finished,
                programmed=tuple(
                    f"{game.player_name(p)} automatically {words}"
                    for p, words in game.public_orders()
                ),
                clock=await self.clock_left(record),
            )
            if record.status != ACTIVE or record.paused or not game.active_players() or not choices:
                return prompt
            legal = await self._offered(record, game, game.active_players()[0])
            return replace(prompt, choices=tuple(legal))

    async def _away(self, record: GameRecord, game: Game) -> tuple[str, ...]:
        """Who of the players to act is away, as the others read it."""
        seats = await self._seats(record.id)
        to_act = [s for s in seats if s.seat in acting_seats(game, seat_players(seats))]
        users = [s.user_id for s in to_act if s.user_id > 0]
        if not users:
            return ()
        return away_notes(to_act, await self.store.user_settings(users), self.clock())

    async def open_requests(
        self, game_id: int, *, guild_id: int | None = None
    ) -> list[tuple[int, str]]:
        """(id, label) of the game's requests awaiting answers (for /play answer and
        the status); none for a game of another server."""
        record = await self._visible(game_id, guild_id)
        if record is None:
            return []
        out = []
        for r in await self.store.open_requests(game_id):
            who = await self._seat_name(record, r.requested_by)
            out.append(
                (
                    r.id,
                    f"deal #{r.id} from {who}: {r.text}"
                    if r.kind == DEAL
                    else f"undo request #{r.id} from {who}",
                )
            )
        return out

    async def asked_of(
        self, user_id: int, *, guild_id: int | None, thread_id: int | None = None
    ) -> list[tuple[str, str]]:
        """(value, label) of what the user may answer now: seats offered to them, and the open
        requests of the thread's game (else of their games here)."""
        here = await self.game_for_thread(thread_id, guild_id=guild_id) if thread_id else None
        games = [here] if here else [g.id for g, mine in
                                     await self.store.games_in_play(user_id, guild_id, 25) if mine]  # fmt: skip
        out = [
            (f"i:{i.id}", f"seat {i.seat} of game #{i.game_id}, offered to you")
            for i in await self.store.invitations_for(user_id)
            if await self._visible(i.game_id, guild_id) is not None
        ]
        for game_id in games:
            out += [
                (f"r:{n}", label)
                for n, label in await self.open_requests(game_id, guild_id=guild_id)
            ]
        return out

    async def admin_controls(self, game_id: int, caller: Caller) -> AdminControls | None:
        """What the caller may administer in the game now (None: they may not)."""
        record = await self._visible(game_id, caller.guild_id)
        if record is None or not self._is_admin(record, caller):
            return None
        running = record.status == ACTIVE and not record.abandoned
        actions: tuple[tuple[int, str], ...] = ()
        if running:
            async with self._holding(game_id):
                logged = await self.store.actions(game_id)
                game = await self._live(record)
                kept = [(0, "the start")]
                kept += [(a.seq, self._sentence(game, a)) for a in logged[:-1]]
            actions = tuple(kept[-25:])
        stored = await self.store.seats(game_id)
        seats = tuple((s.seat, s.name) for s in stored)
        hours = self.remind_hours if record.remind_hours is None else record.remind_hours
        return AdminControls(
            running=running,
            paused=record.paused,
            over=record.status == FINISHED,
            remind=hours,
            actions=actions,
            seats=seats if record.status == ACTIVE else (),
            computers=tuple(s.seat for s in stored if s.computer),
        )

    async def mark_mentioned(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Remember who was just @mentioned as having to act (see `Prompt.mentioned`)."""
        await self.store.set_mentioned(game_id, user_ids)

    async def turn_post(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The message id and state of the game's stored turn post (see `remember_turn_post`)."""
        return await self.store.turn_post(game_id)

    async def unposted(self) -> list[Result]:
        """For each game of this process's servers whose turn post is behind its stored
        version, the moves it does not show yet: to post now (a process stored them and
        stopped before posting)."""
        return [
            Result(
                text="\n".join(_newest(lines))
                or f"Game #{record.id} changed while the bot was away.",
                game_id=record.id,
                thread_id=record.thread_id,
                changed=True,
                version=record.version,
            )
            for record, lines in await self.store.posts_behind(self.shards)
        ]

    async def remember_turn_post(
        self, game_id: int, message_id: int, state: dict[str, Any]
    ) -> None:
        """Store the thread post of the turn under way, so a restart goes on editing it."""
        await self.store.set_turn_post(game_id, message_id, state)

    async def draw(
        self, game_id: int, views: Sequence[str], renderer: Renderer, *, version: int | None = None
    ) -> dict[str, bytes]:
        """Images of the game's current state by view name (none before it starts); drawing
        runs off the event loop while the game's lock keeps the state still; GameMoved when
        it is no longer at `version`. For a game id the service itself answered with (no
        server check)."""
        async with self._holding(game_id):
            record = await self._record(game_id, await self._guild_of(game_id))
            _still_at(record, version)
            if record.status == OPEN:
                return {}
            game = await self._live(record)
            return await asyncio.to_thread(lambda: {v: renderer(game, v) for v in views})

    async def draw_focus(
        self,
        game_id: int,
        places: Sequence[str],
        runs: Sequence[Any],
        renderer: Renderer,
        *,
        version: int | None = None,
    ) -> bytes | None:
        """A close-up of the map where these places changed and these runs went. For a game
        id the service itself answered with (no server check)."""
        async with self._holding(game_id):
            record = await self._record(game_id, await self._guild_of(game_id))
            _still_at(record, version)
            game = await self._live(record)
            return await asyncio.to_thread(renderer, game, "focus", tuple(places), tuple(runs))

    async def lay_picture(
        self,
        game_id: int,
        user_id: int,
        hex_id: str,
        tile: str | None,
        draw: Callable[[Game, list[Any]], bytes],
        *,
        guild_id: int | None = None,
    ) -> tuple[int, list[Any], bytes]:
        """The caller's legal lays on one hex (of one tile when given), drawn by `draw`:
        (game version, the lays, the picture). Refused when there is none."""
        async with self._holding(game_id):
            record = await self._record(game_id, guild_id)
            seat = seat_of(await self._seats(record.id), user_id)
            if record.status != ACTIVE or record.paused or seat is None:
                raise Refused("you have no move in this game now")
            game = await self._live(record)
            options = getattr(game, "lay_options", None)
            if options is None:
                raise Refused(f"{record.title} has no tiles to lay")
            lays = await asyncio.to_thread(options, seat.player_id, hex_id, tile)
            if not lays:
                raise Refused(f"no tile can be laid on {hex_id} by you now")
            return record.version, lays, await asyncio.to_thread(draw, game, lays)

    async def reference(
        self, game_id: int, topic: str | None = None, *, guild_id: int | None = None
    ) -> Result:
        """The title's rules reference (`/game view info`), all of it or one topic."""

        def look(game: Game) -> str:
            try:
                return game.reference(topic.strip().casefold() if topic else None)
            except ValueError as exc:
                raise Refused(str(exc)) from None

        return await self.inspect(game_id, look, guild_id=guild_id)

    async def view(
        self, game_id: int, view: str, renderer: Renderer | None, *, guild_id: int | None = None
    ) -> Result:
        """One image of the game for a spectator (`files` holds it as `<view>.png`); "map" is
        the title's board whatever the title calls it. Anyone may ask, as often as they like,
        so the game's lock is held only to copy the state (`Still`): the drawing runs outside
        it, once per version and view (`ImageCache`), and a player's move never waits for it."""
        pending: list[tuple[str, asyncio.Future[bytes]]] = []  # drawn outside the lock

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            view_name = view
            if view_name == "map" and "map" not in game.views() and game.views():
                view_name = game.views()[0]
            if view_name not in game.views():
                shown = ", ".join(game.views()) or "none"
                raise Refused(f"{record.title} has no {view_name} image (it has: {shown})")
            if renderer is None:
                raise Refused("images are not available here (no renderer installed)")
            at = version_key(record.version, await self._seats(record.id))
            image = (record.id, at, view_name, renderer)
            drawing = self._images.drawn(image)
            if drawing is None:
                still = await asyncio.to_thread(Still, game)
                drawing = self._images.draw(image, partial(renderer, still, view_name))
            pending.append((view_name, drawing))
            return Result(
                text=f"Game #{record.id} · {view_name}",
                game_id=record.id,
                thread_id=record.thread_id,
            )

        result = await self._run(game_id, None, body, guild_id)
        for view_name, drawing in pending:  # none when refused
            result = replace(result, files=((f"{view_name}.png", await drawing),))
        return result

    async def history(
        self,
        game_id: int,
        last: int = 10,
        *,
        guild_id: int | None = None,
        viewer: int | None = None,
    ) -> Result:
        """The last `last` actions, numbered as /game-admin rewind takes them; what a standing
        order of the `viewer`'s (the user asking, who alone reads the answer) is, is told
        them (the others read only that one was set)."""

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            if not 1 <= last <= HISTORY_LIMIT:
                raise Refused(f"history shows 1 to {HISTORY_LIMIT} actions, not {last}")
            actions = await self.store.actions(record.id)
            if not actions:
                return Result(text=f"Game #{record.id} has no actions yet.", game_id=record.id)
            game = await self._live(record)
            lines = [
                f"{a.seq}. {_own_order(game, a) if a.user_id == viewer else ''}"
                f"{self._sentence(game, a)}"
                for a in actions[-last:]
            ]
            head = (
                f"Game #{record.id}: actions {actions[-last:][0].seq}-{actions[-1].seq} "
                f"of {len(actions)}"
            )
            return Result(
                text="\n".join([head, *lines]), game_id=record.id, thread_id=record.thread_id
            )

        return await self._run(game_id, None, body, guild_id)

    async def inspect(
        self, game_id: int, question: Callable[[Game], str], *, guild_id: int | None = None
    ) -> Result:
        """Answer a read-only question about the live game (e.g. a company's best routes)."""

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            game = await self._live(record)
            text = await asyncio.to_thread(question, game)
            return Result(text=text, game_id=record.id, thread_id=record.thread_id)

        return await self._run(game_id, None, body, guild_id)


def _still_at(record: GameRecord, version: int | None) -> None:
    if version is not None and record.version != version:
        raise GameMoved(f"game {record.id} is at version {record.version}, not {version}")


def _own_order(game: Game, action: ActionRecord) -> str:
    """What a standing order its viewer set is, before the sentence all players read."""
    said = game.order_text(action.payload)
    return f"{said} " if said else ""


def _newest(lines: list[str]) -> list[str]:
    """The newest MISSED_LINES of the moves made while the bot was away, after a line counting
    the others: a long absence is not hundreds of lines in a burst of posts."""
    if len(lines) <= MISSED_LINES:
        return lines
    earlier = len(lines) - MISSED_LINES
    return [f"… {earlier} earlier moves: /game view what:history", *lines[-MISSED_LINES:]]
