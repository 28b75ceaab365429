"""Commands that change a running game's log: moves, deals another player must accept,
undo requests and their votes, and an admin's rewind.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.core.results import Caller, Refused, Result
from bot.core.service.base import (
    ALREADY_HANDLED,
    IMPORTED_BY,
    MoveBuilder,
    ServiceBase,
    acting_seats,
    move_digest,
    player_of,
    seat_of,
    seat_players,
)
from bot.core.store import DEAL, UNDO, ActionRecord, GameRecord, Request, SeatRecord, StaleGame
from engine.errors import GameError
from engine.game import Action, Choice, Game, PlayerId

MAX_MESSAGES = 5  # a player's messages in a row in the game's log, between two moves


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
            if version is not None and version != record.version:
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
        other = _counterparty(game, action)
        if other is None or other == seat.player_id:
            return await self._apply(
                record, game, caller, action, interaction_id, by=player_of(seat), digest=digest
            )
        seller = next((s for s in await self._seats(record.id) if s.player_id == other), None)
        if seller is not None and seller.computer is not None:
            raise Refused(
                f"this deal takes {seller.name}'s property, and the computer plays that seat: "
                "it makes no deals"
            )
        if seller is None or seller.user_id <= 0:
            raise Refused(
                f"this deal takes {game.player_name(other)}'s property and nobody "
                "holds that seat to agree to it; a game admin can give the seat with "
                "/game-admin replace"
            )
        # the engine judges the move first, so nobody is asked to agree to an illegal one
        sentence = await asyncio.to_thread(_sentence_if_done, game, action, player_of(seat))
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
    ) -> Result:
        """Process and store one action the caller's player `by` makes (`answers`: the deal
        it carries out); the requests still open lapse, and the result says so."""
        recorded, text, lapsing = await self._store_move(
            record,
            game,
            caller.user_id,
            action,
            by=by,
            interaction_id=interaction_id,
            answers=answers,
            digest=digest,
        )
        places = game.changed_places()
        changed = await self._changed(
            record, head + text + await self._lapsed(record, lapsing), game
        )
        places += tuple(p for p in changed.places if p not in places)  # the computers' too
        return replace(changed, action=recorded, places=places)

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
    ) -> tuple[Action, str, list[Request]]:
        """Process one action of player `by` and append it to the log at the record's
        version, for `user_id`: the action as recorded, its sentence and the requests it
        made lapse."""
        recorded = await asyncio.to_thread(game.process, action, by)
        text = self._describe(game, recorded)
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
                acting=acting_seats(game, seat_players(await self._seats(record.id))),
            )
        except BaseException:
            self._forget(record.id)  # the live game is ahead of the log: rebuild next time
            raise
        await self._remember(record.id, game, record.version + 1)
        return recorded, text, lapsing

    async def undo(
        self,
        game_id: int,
        caller: Caller,
        interaction_id: int | None = None,
        *,
        confirmed: int | None = None,
    ) -> Result:
        """Take back the caller's last action. At once when nobody acted since; an admin may
        take back the game's last action of another player after confirming it (`confirmed`:
        the game version the confirmation was asked at; until then `confirm` names the move);
        otherwise the players whose later actions would be taken back too are asked to
        approve (see `vote`)."""

        async def body(record: GameRecord) -> Result:
            self._require_playable(record)
            actions = await self.store.actions(record.id)
            if not actions:
                raise Refused(f"game #{record.id} has no action to undo")
            last = actions[-1]
            mine = [a for a in actions if a.user_id == caller.user_id]
            seats = await self._seats(record.id)
            if mine and last.user_id != caller.user_id:
                later = actions[mine[-1].seq :]
                if not _affected(later, caller.user_id, seats):  # only the computer since
                    return await self._rewind(
                        record,
                        mine[-1].seq - 1,
                        caller,
                        f"{caller.name} took back actions {mine[-1].seq}-{last.seq} (the "
                        "computer's since theirs too), from ",
                        interaction_id,
                    )
            admin = self._is_admin(record, caller)
            if admin and last.user_id != caller.user_id and confirmed != record.version:
                if confirmed is not None:
                    raise Refused(
                        "the game has moved on since you were asked to confirm; "
                        "use /game undo again"
                    )
                game = await self._live(record)
                return Result(
                    text=f"This takes back {await self._seat_name(record, last.user_id)}'s "
                    f"move (action {last.seq}): {self._sentence(game, last)} "
                    "Confirm to take it back.",
                    game_id=record.id,
                    thread_id=record.thread_id,
                    confirm_undo=record.version,
                )
            if last.user_id == caller.user_id or admin:
                return await self._rewind(
                    record,
                    len(actions) - 1,
                    caller,
                    f"{caller.name} undid action {last.seq}: ",
                    interaction_id,
                )
            if not mine:
                raise Refused(
                    "only the player who made the last action, or a game admin, can undo it"
                )
            later = actions[mine[-1].seq - 1 :]
            if any(a.user_id == IMPORTED_BY for a in later):
                raise Refused(
                    "actions imported from a game file can only be undone by a game admin"
                )
            affected = _affected(later, caller.user_id, seats)
            asked = [
                r
                for r in await self.store.open_requests(record.id)
                if r.kind == UNDO and r.requested_by == caller.user_id
            ]
            if asked and asked[-1].keep == mine[-1].seq - 1:
                raise Refused(
                    f"your undo request #{asked[-1].id} is already waiting for "
                    f"{', '.join([await self._seat_name(record, u) for u in affected])}"
                )
            request = await self.store.open_undo_request(
                record.id, mine[-1].seq - 1, record.version, caller.user_id, interaction_id
            )
            game = await self._live(record)
            names = ", ".join([await self._seat_name(record, u) for u in affected])
            return Result(
                text=(
                    f"{caller.name} asks to take back actions {mine[-1].seq}-{last.seq}, "
                    f"from their own: {self._sentence(game, mine[-1])} "
                    f"{names} must approve; a game admin can decide alone."
                ),
                game_id=record.id,
                thread_id=record.thread_id,
                changed=True,
                notify=tuple(u for u in affected if u > 0),
                vote=request.id,
                vote_kind=UNDO,
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def redo(self, game_id: int, caller: Caller, interaction_id: int | None = None) -> Result:
        """Put back what the newest undo (or rewind) took back, while nobody has acted
        since; by whoever undid it or a game admin. After undos in a row, redos in a row put
        back each in turn, newest first. Each action is checked by the engine again and made
        for the player who first made it."""

        async def body(record: GameRecord) -> Result:
            self._require_playable(record)
            undone = await self.store.last_undone(record.id)
            if undone is None:
                raise Refused(
                    f"nothing undone in game #{record.id} is left to redo (every undo "
                    "was redone, or nothing was undone)"
                )
            if undone.redo_version != record.version:
                raise Refused(
                    "a redo puts back an undo only while nobody has moved since it; "
                    "a move was made after the last undo, so it cannot be redone"
                )
            if caller.user_id != undone.undone_by and not self._is_admin(record, caller):
                raise Refused(
                    f"only {await self._seat_name(record, undone.undone_by)} (who undid "
                    "it) or a game admin can redo it"
                )
            game = await self._live(record)
            seats = await self._seats(record.id)
            texts = []
            try:
                for action in undone.actions:
                    seat = seat_of(seats, action.user_id)
                    by = seat.player_id if seat is not None else None
                    recorded = await asyncio.to_thread(game.process, action.payload, by)
                    texts.append(self._describe(game, recorded))
            except GameError as exc:
                self._forget(record.id)
                raise Refused(f"the undone action cannot be made again: {exc}") from None
            try:
                await self.store.redo(
                    record.id,
                    undone.actions,
                    texts,
                    finished=game.finished,
                    version=record.version,
                    interaction_id=interaction_id,
                    acting=acting_seats(game, seat_players(seats)),
                )
            except BaseException:
                self._forget(record.id)
                raise
            await self._remember(record.id, game, record.version + 1)
            first = undone.actions[0].seq
            which = (
                f"action {first}"
                if len(undone.actions) == 1
                else f"actions {first}-{undone.actions[-1].seq}"
            )
            return await self._changed(
                await self._fresh(record), f"{caller.name} redid {which}: " + " ".join(texts), game
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def vote(
        self, request_id: int, caller: Caller, approve: bool, interaction_id: int | None = None
    ) -> Result:
        """One player's answer to a request: an undo vote or a proposed deal. Any change to
        the game first makes an open request lapse."""
        found = await self.store.request(request_id)
        if found is None or await self._visible(found.game_id, caller.guild_id) is None:
            return Result(error=f"there is no undo request or deal #{request_id}")

        async def body(record: GameRecord) -> Result:
            request = await self.store.request(request_id)
            assert request is not None
            if request.status == "open" and record.version != request.version:
                await self.store.close_request(request.id, "void")  # a request from before m004
                request = replace(request, status="void")
            if request.status != "open":
                raise Refused(_CLOSED[request.kind, request.status])
            self._require_playable(record)
            if request.kind == DEAL:
                return await self._answer_deal(record, request, caller, approve, interaction_id)
            return await self._vote_undo(record, request, caller, approve, interaction_id)

        return await self._run(found.game_id, interaction_id, body, caller.guild_id)

    async def _vote_undo(
        self,
        record: GameRecord,
        request: Request,
        caller: Caller,
        approve: bool,
        interaction_id: int | None,
    ) -> Result:
        """The last approval of the affected players (or any game admin's) applies the undo;
        one rejection ends it."""
        assert request.keep is not None
        actions = await self.store.actions(record.id)
        affected = _affected(
            actions[request.keep :], request.requested_by, await self._seats(record.id)
        )
        admin = self._is_admin(record, caller)
        if caller.user_id not in affected and not admin:
            names = ", ".join([await self._seat_name(record, u) for u in affected])
            raise Refused(
                f"only the players whose actions would be undone ({names}) or a "
                "game admin vote on this undo"
            )
        if not approve:
            await self.store.close_request(request.id, "rejected")
            return await self._changed(
                record, f"{caller.name} rejected the undo; the game goes on."
            )
        votes = await self.store.vote(request.id, caller.user_id, True, interaction_id)
        waiting = [u for u in affected if not votes.get(u)]
        if waiting and not admin:
            names = ", ".join([await self._seat_name(record, u) for u in waiting])
            return await self._changed(
                record, f"{caller.name} approved the undo; waiting for {names}."
            )
        await self.store.close_request(request.id, "done")
        return await self._rewind(
            record,
            request.keep,
            caller,
            f"{caller.name} approved: the game is back to action {request.keep}, before ",
            None,
        )

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
            )
        except GameError as exc:
            await self.store.close_request(request.id, "void")
            raise Refused(f"deal #{request.id} cannot be made any more: {exc}") from None

    async def rewind(
        self, game_id: int, caller: Caller, keep: int, interaction_id: int | None = None
    ) -> Result:
        """An admin takes the game back to just after action `keep` (0: the start)."""

        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "rewind it")
            self._require_playable(record)
            count = await self.store.action_count(record.id)
            if not 0 <= keep < count:
                raise Refused(
                    f"game #{record.id} has {count} actions; rewind to a number from "
                    f"0 to {count - 1} (see /game view history)"
                    if count
                    else f"game #{record.id} has no action to take back"
                )
            return await self._rewind(
                record,
                keep,
                caller,
                f"{caller.name} rewound game #{record.id} to action {keep}, taking back from ",
                interaction_id,
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def _rewind(
        self, record: GameRecord, keep: int, caller: Caller, head: str, interaction_id: int | None
    ) -> Result:
        game = await self._live(record)
        actions = await self.store.actions(record.id)
        if len(actions) <= keep:  # another process took actions back since `record` was read
            raise StaleGame(f"game {record.id} has {len(actions)} actions, not over {keep}")
        what = self._sentence(game, actions[keep])
        lapsing = await self.store.open_requests(record.id)
        undone = await self.store.rewind(
            record.id, keep, caller.user_id, interaction_id, version=record.version
        )
        fresh = await self._fresh(record)
        self._forget(record.id)
        if len(game.actions) == len(actions):  # the live game is the stored log: take it back
            await asyncio.to_thread(game.rewind_to, keep)  # from its nearest checkpoint
            await self._remember(record.id, game, fresh.version)
        game = await self._live(fresh)
        acting = acting_seats(game, seat_players(await self._seats(record.id)))
        await self.store.set_acting(record.id, fresh.version, acting)
        more = f" ({len(undone)} actions)" if len(undone) > 1 else ""
        return await self._changed(
            await self.store.game(record.id) or record,
            f"{head}{what}{more}{await self._lapsed(record, lapsing)}",
            game,
        )


_CLOSED = {  # why a request can no longer be answered, by kind and status
    (UNDO, "done"): "this undo request is already done",
    (UNDO, "rejected"): "this undo request was rejected",
    (UNDO, "void"): "the game has moved on since this undo was asked; ask again with /game undo",
    (DEAL, "done"): "this deal was already accepted and made",
    (DEAL, "rejected"): "this deal was declined or withdrawn",
    (DEAL, "void"): "this deal lapsed: the game moved on (or the seats changed) since it was "
    "proposed; propose it again with /play",
}


def _affected(actions: list[ActionRecord], requester: int, seats: list[SeatRecord]) -> list[int]:
    """Users (other than the requester) whose actions an undo would take back, in order; a
    seat the computer plays is not asked (it has no say, and would only hold the vote up)."""
    computer = {s.user_id for s in seats if s.computer is not None}
    out: list[int] = []
    for a in actions:
        if a.user_id != requester and a.user_id not in out and a.user_id not in computer:
            out.append(a.user_id)
    return out


def _messages_since_move(game: Game, seat: SeatRecord) -> int:
    """The player's messages at the end of the log, since its last move."""
    count = 0
    for action in reversed(game.actions):
        if action.get("type") != "message":
            break
        count += action.get("entity") == seat.player_id
    return count


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
