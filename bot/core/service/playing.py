"""Commands that add to a running game's log: moves, and deals another player must accept
(taking it back is `undoing`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from bot.core.results import Caller, Refused, Result
from bot.core.service.base import (
    ALREADY_HANDLED,
    MoveBuilder,
    ServiceBase,
    acting_seats,
    deal_refusal,
    move_digest,
    player_of,
    seat_of,
    seat_players,
)
from bot.core.store import DEAL, GameRecord, Request, SeatRecord
from engine.errors import GameError
from engine.game import Action, Choice, Game, PlayerId, Standing

MAX_MESSAGES = 5  # a player's messages in a row in the game's log, between two moves
MAX_ORDER_SETS = 5  # standing orders a player sets in one round (cancelling one is never capped)


@dataclass(frozen=True)
class Stored:
    """One action processed and stored: as recorded, its sentence, the requests it made lapse;
    what it did to standing orders, told to the one who asked (`aside`) and by notes to the
    users `noted`; `quiet` when it only set one, so nobody else is told."""

    action: Action
    text: str
    lapsing: list[Request]
    aside: str
    noted: tuple[int, ...]
    quiet: bool


class Playing(ServiceBase):
    # -- playing -------------------------------------------------------------------------------
    async def act(
        self, game_id: int, caller: Caller, action: Action, interaction_id: int | None = None
    ) -> Result:
        """Apply one action the caller typed, for their seat: checked against the title's
        shape of that kind of move first (no internal fields); without an `entity` it acts
        for whatever the caller acts for now (their seat, or the company they run). A standing
        order (`Game.any_time`) may be sent off turn. On any refusal nothing is stored. The
        same action sent again before the first was seen applied is applied once."""
        seen = await self.store.version(game_id)

        async def body(record: GameRecord) -> Result:
            seat = await self._playing_seat(record, caller)
            game = await self._live(record)
            game.check_submission(action)
            digest = move_digest(action)
            if await self._repeated(record, seen, caller, digest):
                return Result(duplicate=True, game_id=record.id, text=ALREADY_HANDLED)
            move = action
            player = player_of(seat)
            if game.any_time(action):  # e.g. a standing order: for their seat, turn or not
                if "entity" not in action:
                    move = {**action, "entity": player, "entity_type": "player"}
            else:
                self._require_turn(record, game, seat)
                if "entity" not in action:
                    move = _acting_for(action, player, await self._legal(record, game, player))
            record = await self._before_move(record, game, move, player)
            return await self._submit(record, game, seat, caller, move, interaction_id, digest)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def play(
        self,
        game_id: int,
        caller: Caller,
        build: MoveBuilder,
        *,
        version: int | None = None,
        interaction_id: int | None = None,
    ) -> Result:
        """Apply the move `build` picks from the caller's legal choices. A `version` (from a
        button) must still be the game's: a button from an older turn is refused (pressed
        again after its move was made: already handled). A move sent twice before the first
        was seen applied is applied once."""
        seen = await self.store.version(game_id) if version is None else version

        async def body(record: GameRecord) -> Result:
            if version is not None and version < record.moved:
                if await self._repeated(record, version, caller, None):
                    return Result(duplicate=True, game_id=record.id, text=ALREADY_HANDLED)
                raise Refused(
                    f"this button is from an earlier turn of game #{record.id}; the "
                    "game has moved on. Use the newest post's buttons or /play"
                )
            seat = await self._playing_seat(record, caller)
            game = await self._live(record)
            self._require_turn(record, game, seat)
            choices = await self._legal(record, game, seat.player_id)
            action = await asyncio.to_thread(build, game, choices)
            digest = move_digest(action)
            if await self._repeated(record, seen, caller, digest):
                return Result(duplicate=True, game_id=record.id, text=ALREADY_HANDLED)
            record = await self._before_move(record, game, action, seat.player_id)
            return await self._submit(record, game, seat, caller, action, interaction_id, digest)

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def _repeated(
        self, record: GameRecord, seen: int | None, caller: Caller, digest: str | None
    ) -> bool:
        """Whether the caller's move (`digest`; None: any move), sent when the game was at
        version `seen`, was already stored since."""
        return (
            seen is not None
            and seen != record.version
            and await self.store.repeated(record.id, seen, caller.user_id, digest)
        )

    async def _submit(
        self,
        record: GameRecord,
        game: Game,
        seat: SeatRecord,
        caller: Caller,
        action: Action,
        interaction_id: int | None,
        digest: str,
    ) -> Result:
        """Apply the caller's move, unless it takes another player's property at a negotiated
        price: then that player is asked first (see `vote`)."""
        if action.get("type") == "message" and _messages_since_move(game, seat) >= MAX_MESSAGES:
            raise Refused(
                f"you have left {MAX_MESSAGES} messages in the log since the last move; talk in "
                "the thread until the game moves on"
            )
        check_order_cap(game, player_of(seat), action)
        other = _counterparty(game, action)
        if other is None or other == seat.player_id:
            return await self._apply(
                record, game, caller, action, interaction_id, by=player_of(seat), digest=digest
            )
        seats = await self._seats(record.id)
        refusal = deal_refusal(game, seats, other)
        if refusal is not None:
            raise Refused(refusal)
        seller = next(s for s in seats if s.player_id == other)
        # the engine judges the move first, so nobody is asked to agree to an illegal one
        sentence = await asyncio.to_thread(_sentence_if_done, game, action, player_of(seat))
        for same in await self.store.open_requests(record.id):
            if (same.kind, same.requested_by, same.action) == (DEAL, caller.user_id, action):
                raise Refused(
                    f"your deal #{same.id} ({same.text}) is already waiting for "
                    f"{seller.name}'s answer"
                )
        request, replaced = await self.store.open_deal(
            record.id, record.version, caller.user_id, action, sentence, interaction_id
        )
        lines = [
            f"{seat.name} proposes deal #{request.id} to {seller.name}: {sentence}",
            f"{seller.name}, do you agree? Until you answer nothing changes; the deal "
            "lapses if the game moves on first.",
        ]
        if replaced:
            lines.append(
                f"(It replaces {seat.name}'s deal {', '.join(f'#{r.id}' for r in replaced)}.)"
            )
        return Result(
            text="\n".join(lines),
            game_id=record.id,
            thread_id=record.thread_id,
            changed=True,
            notify=(seller.user_id,),
            vote=request.id,
            vote_kind=DEAL,
            hushed=await self._hushed(DEAL, caller.user_id, (seller.user_id,)),
            replaces=tuple(r.id for r in replaced),
        )

    async def _apply(
        self,
        record: GameRecord,
        game: Game,
        caller: Caller,
        action: Action,
        interaction_id: int | None,
        *,
        by: PlayerId,
        answers: int | None = None,
        head: str = "",
        digest: str | None = None,
        asker: int | None = None,
    ) -> Result:
        """Process and store one action the caller's player `by` makes (`answers`: the deal
        it carries out); the requests still open lapse, and the result says so. What it did to
        standing orders is told to their players alone: to the one who asked (`asker`, by
        default the caller) in `aside`, to the others by notes stored with it. A standing order
        set that makes no move at once is quiet: nobody else is told of it."""
        stored = await self._store_move(
            record,
            game,
            caller.user_id,
            action,
            by=by,
            interaction_id=interaction_id,
            answers=answers,
            digest=digest,
            asker=caller.user_id if asker is None else asker,
        )
        if stored.quiet:
            return Result(
                text=stored.aside, game_id=record.id, thread_id=record.thread_id, noted=stored.noted
            )
        places = game.changed_places()
        changed = await self._changed(
            record, head + stored.text + await self._lapsed(record, stored.lapsing), game
        )
        places += tuple(p for p in changed.places if p not in places)  # the computers' too
        return replace(
            changed, action=stored.action, places=places, aside=stored.aside, noted=stored.noted
        )

    async def _cancel_orders(
        self, record: GameRecord, game: Game, seat: SeatRecord, ended: list[tuple[Standing, str]]
    ) -> GameRecord:
        """Cancel standing orders of the seat's player, each a move of theirs (as 18xx.games'
        program_disable) stored with the reason given and told to the seat's holder alone (a
        note); the record as it is after."""
        assert seat.player_id is not None
        owner = Caller(seat.user_id, seat.name, guild_id=record.guild_id)
        for order, reason in ended:
            cancel = {**order.cancel, "reason": reason}
            await self._apply(record, game, owner, cancel, None, by=seat.player_id, asker=0)
            record = await self._fresh(record)
        return record

    async def _store_move(
        self,
        record: GameRecord,
        game: Game,
        user_id: int,
        action: Action,
        *,
        by: PlayerId,
        interaction_id: int | None = None,
        answers: int | None = None,
        digest: str | None = None,
        asker: int = 0,
        computer: str | None = None,
    ) -> Stored:
        """Process one action of player `by` and append it to the log at the record's
        version, for `user_id` (made by the `computer` level, if it is the computer's), with
        what it did to standing orders (told to `asker` in `aside`, to the other players by
        notes stored with it)."""
        recorded = await asyncio.to_thread(game.process, action, by)
        text = self._describe(game, recorded)
        aside, notes = await self._told(record, game.order_news(), asker)
        quiet = game.order_text(recorded) is not None and not recorded.get("auto_actions")
        try:
            lapsing = await self.store.append_action(
                record.id,
                len(game.actions),
                user_id,
                recorded,
                finished=game.finished,
                interaction_id=interaction_id,
                text=text,
                answers=answers,
                version=record.version,
                digest=digest,
                quiet=quiet,
                notes=notes,
                acting=acting_seats(game, seat_players(await self._seats(record.id))),
                computer=computer,
            )
        except BaseException:
            self._forget(record.id)  # the live game is ahead of the log: rebuild next time
            raise
        await self._remember(record.id, game, record.version + 1)
        noted = tuple(dict.fromkeys(user for user, _ in notes))
        return Stored(recorded, text, lapsing, aside, noted, quiet)

    async def _answer_deal(
        self,
        record: GameRecord,
        request: Request,
        caller: Caller,
        accept: bool,
        interaction_id: int | None,
    ) -> Result:
        """The other owner accepts (the move is applied for its proposer, as if just
        submitted) or declines; the proposer may withdraw it and a game admin decline it."""
        assert request.action is not None
        game = await self._live(record)
        seats = await self._seats(record.id)
        proposer = seat_of(seats, request.requested_by)
        other = _counterparty(game, request.action)
        seller = next((s for s in seats if other is not None and s.player_id == other), None)
        if proposer is None or seller is None:
            await self.store.close_request(request.id, "void")
            raise Refused(
                f"deal #{request.id} no longer stands: the seats changed since it was proposed"
            )
        if not accept:
            if caller.user_id not in (seller.user_id, proposer.user_id) and not self._is_admin(
                record, caller
            ):
                raise Refused(
                    f"only {seller.name} (whose property deal #{request.id} takes), "
                    f"{proposer.name} (who proposed it) or a game admin can decline "
                    "it"
                )
            await self.store.close_request(request.id, "rejected")
            who = next(
                (s.name for s in (seller, proposer) if s.user_id == caller.user_id), caller.name
            )
            verb = "withdrew" if caller.user_id == proposer.user_id else "declined"
            return await self._changed(
                record, f"{who} {verb} deal #{request.id} ({request.text}); nothing changed."
            )
        if caller.user_id != seller.user_id:
            raise Refused(
                f"only {seller.name} can accept deal #{request.id}: it takes their property"
            )
        actor = Caller(proposer.user_id, proposer.name, guild_id=record.guild_id)
        await self._playing_seat(record, actor)
        self._require_turn(record, game, proposer)
        try:
            return await self._apply(
                record,
                game,
                actor,
                request.action,
                interaction_id,
                by=player_of(proposer),
                answers=request.id,
                head=f"{seller.name} accepted deal #{request.id}: ",
                asker=caller.user_id,
            )
        except GameError as exc:
            await self.store.close_request(request.id, "void")
            raise Refused(f"deal #{request.id} cannot be made any more: {exc}") from None


def _messages_since_move(game: Game, seat: SeatRecord) -> int:
    """The player's messages at the end of the log, since its last move."""
    count = 0
    for action in reversed(game.actions):
        if action.get("type") != "message":
            break
        count += action.get("entity") == seat.player_id
    return count


def check_order_cap(game: Game, player: PlayerId, action: Action) -> None:
    """Refuse a standing order set past the round's cap: each is an action in the log, and a
    flood of them would make the game too long to import. Cancelling is never refused, so no
    player is stuck with an order."""
    if (
        game.order_text(action) is not None
        and not game.cancels_order(action)
        and game.orders_set(player) >= MAX_ORDER_SETS
    ):
        raise Refused(
            f"you have set {MAX_ORDER_SETS} programmed moves in this round; set the next one "
            "when a new round begins (you may still cancel yours)"
        )


def _counterparty(game: Game, action: Action) -> PlayerId | None:
    """The other player whose property the action takes at a negotiated price (18xx: privates
    and trains), who must agree first."""
    if not isinstance(action, dict):
        return None  # a malformed action is left to the engine to refuse
    return game.counterparty(action)


def _sentence_if_done(game: Game, action: Action, by: PlayerId) -> str:
    """What the action would do, told by the engine after trying it on the game and putting the
    game back (an illegal action raises the engine's GameError; the live game is untouched)."""
    return game.try_out(action, by, ServiceBase._describe)


def _acting_for(action: Action, player: PlayerId, legal: list[Choice]) -> Action:
    """The typed action with the entity the player acts for now filled in: that of their
    legal moves of the same type (else of any legal move; else their own seat)."""
    same = [c.action for c in legal if c.action.get("type") == action.get("type")]
    model = next(iter(same or [c.action for c in legal]), None)
    if model is None or "entity" not in model:
        return {**action, "entity": player, "entity_type": "player"}
    return {**action, "entity": model["entity"], "entity_type": model.get("entity_type")}
