"""Standing orders (programmed moves): set, listed and cancelled by each player for their own
seat alone, and told to nobody else. The engine makes the moves when they fall due (as part
of the move that makes them due, so the next human is asked at once); what an order is, and
why one stopped, only its player is told (`Result.aside` now, or a note kept until it reaches
them). An order that ends at a date is cancelled by the first command on its game after it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from bot.core.moves import _by_text, _fit, _listing, _words_match, choice_key
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import player_of, seat_of
from bot.core.service.playing import Playing, check_order_cap
from bot.core.service.turns import wants_dm
from bot.core.store import ACTIVE, GameRecord, Note, SeatRecord
from bot.core.user_settings import MAX_AWAY_DAYS
from engine.eighteen.house_programs import parse_until
from engine.errors import InvalidAction
from engine.game import Action, Choice, Game, PlayerId

ALL = "all"  # cancels every order of the caller's


class Orders(Playing):
    # -- suggestions and listing ---------------------------------------------------------------
    async def order_suggestions(
        self,
        game_id: int,
        user_id: int,
        current: str,
        *,
        guild_id: int | None,
        cancel: bool,
        limit: int = 25,
    ) -> list[tuple[str, str]]:
        """(name shown, value sent) of at most `limit` orders the user may set now (`cancel`:
        of those they have set) whose words the typed ones start, every kind keeping a fair
        share; none for spectators."""
        async with self._holding(game_id):
            record = await self._visible(game_id, guild_id)
            seat = seat_of(await self._seats(game_id), user_id) if record else None
            if record is None or seat is None or record.status != ACTIVE or record.paused:
                return []
            game = await self._live(record)
            player = player_of(seat)
            choices = _cancels(game, player) if cancel else game.order_choices(player)
        typed = current.strip()
        out = []
        if cancel and len(choices) > 1 and _words_match(typed, ALL):
            out.append((f"{ALL}: every programmed move of yours", ALL))
        found = [c for c in choices if _words_match(typed, c.label)]
        out += [(_fit(c.label), choice_key(c.action)) for c in _spread(found, limit - len(out))]
        return out

    async def standing_of(self, game_id: int, user_id: int) -> list[str]:
        """The user's orders in the game, in words, for a message to them alone (a game id
        the service itself answered with: no server check)."""
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            seat = seat_of(await self._seats(game_id), user_id) if record else None
            if record is None or seat is None or record.status != ACTIVE:
                return []
            game = await self._live(record)
            return [f"you {o.text}" for o in game.standing_orders(player_of(seat))]

    async def orders(self, game_id: int, caller: Caller) -> Result:
        """The caller's standing orders in the game, for them alone."""

        async def body(record: GameRecord) -> Result:
            seat = await self._order_seat(record, caller)
            game = await self._live(record)
            mine = game.standing_orders(player_of(seat))
            if not mine:
                return Result(
                    text=f"You have no programmed moves in game #{record.id}. "
                    "/play auto what:set suggests those you may set now.",
                    game_id=record.id,
                )
            lines = [f"Your programmed moves in game #{record.id} (only you see them):"]
            lines += [f"- you {order.text}" for order in mine]
            return Result(text="\n".join(lines), game_id=record.id)

        return await self._run(game_id, None, body, caller.guild_id)

    # -- setting and cancelling ----------------------------------------------------------------
    async def set_order(
        self,
        game_id: int,
        caller: Caller,
        program: str,
        *,
        until: str | None = None,
        interaction_id: int | None = None,
    ) -> Result:
        """Set the order `program` names (a suggestion's key, or words of its label) for the
        caller's seat, ending at the date `until` when given (only an order that lasts until
        cancelled takes one). Setting it tells nobody else; a move it makes at once is told in
        the thread as any move."""

        async def body(record: GameRecord) -> Result:
            seat = await self._order_seat(record, caller)
            game = await self._live(record)
            player = player_of(seat)
            offers = game.order_choices(player)
            if not offers:
                raise Refused(f"you have no programmed move to set in game #{record.id} now")
            action = dict(
                _one(offers, program, "no programmed move you may set", "you may set").action
            )
            if until is not None:
                if "until" not in action:
                    raise Refused(
                        "an end date is only for a programmed move that lasts until you "
                        "cancel it (away)"
                    )
                action["until"] = self._future(until)
            check_order_cap(game, player, action)
            record = await self._before_move(record, game, action, player)
            return await self._apply(record, game, caller, action, interaction_id, by=player)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def cancel_order(
        self, game_id: int, caller: Caller, program: str, interaction_id: int | None = None
    ) -> Result:
        """Cancel the caller's order that `program` names (or all of them: "all")."""

        async def body(record: GameRecord) -> Result:
            seat = await self._order_seat(record, caller)
            game = await self._live(record)
            player = player_of(seat)
            mine = _cancels(game, player)
            if not mine:
                raise Refused(f"you have no programmed moves in game #{record.id}")
            chosen = mine if program.strip().casefold() == ALL else [
                _one(mine, program, "none of your programmed moves", "yours")
            ]  # fmt: skip
            record = await self._before_move(record, game, None, None)
            said, asked = [], interaction_id  # the command's id goes with its first change
            left = [c.action for c in _cancels(game, player)]
            for choice in chosen:
                if choice.action not in left:  # it has just reached its end date
                    said.append(f"It had ended already: you {choice.label}.")
                    continue
                done = await self._apply(
                    record, game, caller, dict(choice.action), asked, by=player
                )
                said.append(done.aside or done.text)
                record, asked = await self._fresh(record), None
            return Result(text=" ".join(said), game_id=record.id)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def _order_seat(self, record: GameRecord, caller: Caller) -> SeatRecord:
        """The caller's seat: only a seated player has orders, and only their own."""
        self._require_playable(record)
        seat = seat_of(await self._seats(record.id), caller.user_id)
        if seat is None:
            raise Refused(
                f"you are not seated in game #{record.id}: only its players program moves, "
                "each for their own seat"
            )
        if record.status != ACTIVE:
            raise Refused(f"game #{record.id} is over")
        return seat

    def _future(self, text: str) -> str:
        """A date (or date and time, UTC) still to come, within a year (as `/settings away`),
        as ISO text."""
        now = self.clock()
        last = now + timedelta(days=MAX_AWAY_DAYS)
        try:
            when = parse_until(text.strip())
        except InvalidAction:
            raise Refused(
                f"{text.strip()[:40]!r} is not a date; give one like 2030-06-01 (UTC), "
                f"after now and by {last:%Y-%m-%d}"
            ) from None
        if when <= now:
            raise Refused(
                f"{when.isoformat(' ', 'minutes')[:16]} UTC has passed; give a date still to come"
            )
        if when > last:
            raise Refused(
                f"{when:%Y-%m-%d} is too far ahead; give a date by {last:%Y-%m-%d} (a year "
                "from now, UTC)"
            )
        return when.isoformat()

    async def _before_move(
        self, record: GameRecord, game: Game, move: Action | None, by: PlayerId | None
    ) -> GameRecord:
        """Cancel the orders whose end date has come (each a move of its player's, told to
        them alone), before the move is made, once it is known to be legal (`move` tried
        first); the record as it is after."""
        now = self.clock()
        due = [
            (seat, order)
            for seat in await self._seats(record.id)
            if seat.player_id is not None
            for order in game.standing_orders(seat.player_id)
            if order.until is not None and datetime.fromisoformat(order.until) <= now
        ]
        if due and move is not None:  # a refused move changes nothing: tried before
            await asyncio.to_thread(game.try_out, move, by, lambda g, a: None)
        for seat, order in due:
            assert order.until is not None
            end = order.until[:16].replace("T", " ")
            record = await self._cancel_orders(
                record, game, seat, [(order, f"its end, {end} UTC, has come")]
            )
        return record

    # -- notes told to one user alone ----------------------------------------------------------
    async def waiting_notes(self, user_id: int, guild_id: int | None) -> list[Note]:
        """The notes waiting for the user, of their games in server `guild_id`."""
        return await self.store.pending_notes(user_id, guild_id)

    async def notes_delivered(self, notes: list[Note]) -> None:
        await self.store.mark_delivered([n.id for n in notes])

    async def wants_dm(self, user_id: int, game_id: int) -> bool:
        """Whether the user takes direct messages of this game (their turns' choice)."""
        settings, chosen = await self.store.dm_choices([user_id], game_id)
        return wants_dm(settings[user_id], chosen)


def _spread(choices: list[Choice], limit: int) -> list[Choice]:
    """At most `limit` choices, every kind (the order, and the company or program it is
    about) keeping a fair share of its first ones, in their order."""
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        a = c.action
        key = repr([a.get(k) for k in ("type", "corporation", "program", "from_market")])
        groups.setdefault(key, []).append(c)
    kept = {key: 0 for key in groups}
    while sum(kept.values()) < limit and any(kept[k] < len(g) for k, g in groups.items()):
        for key, members in groups.items():
            if kept[key] < len(members) and sum(kept.values()) < limit:
                kept[key] += 1
    chosen = {id(c) for key, members in groups.items() for c in members[: kept[key]]}
    return [c for c in choices if id(c) in chosen]


def _cancels(game: Game, player: PlayerId) -> list[Choice]:
    return [Choice(order.text, order.cancel) for order in game.standing_orders(player)]


def _one(choices: list[Choice], typed: str, none: str, listed: str) -> Choice:
    """The one choice the typed words (or a suggestion's key) name."""
    found = _by_text(choices, typed)
    alike = {c.label: c for c in found}
    if len(alike) == 1:
        return next(iter(alike.values()))
    if not found:
        raise Refused(f"{none} matches {typed.strip()[:100]!r}; {listed}: {_listing(choices)}")
    raise Refused(f"{len(alike)} programmed moves match {typed.strip()[:100]!r}: {_listing(found)}")
