"""Commands that take a running game's log back: undo (at once, or asked of the players whose
moves it takes back, who vote), redo, and an admin's rewind; and the answers to what others
ask (undo votes, deals).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.core.results import Caller, Refused, Result
from bot.core.service.base import IMPORTED_BY, acting_seats, seat_of, seat_players
from bot.core.service.playing import Playing
from bot.core.store import (
    DEAL,
    UNDO,
    ActionRecord,
    GameRecord,
    Request,
    SeatRecord,
    StaleGame,
)
from engine.errors import GameError
from engine.game import Game

log = logging.getLogger(__name__)


class Undoing(Playing):
    async def undo(
        self,
        game_id: int,
        caller: Caller,
        interaction_id: int | None = None,
        *,
        confirmed: int | None = None,
    ) -> Result:
        """Take back the caller's last action. At once when nobody but the computer acted
        since; an admin may take back the game's last action of another player after
        confirming it (`confirmed`: the game version the confirmation was asked at; until then
        `confirm` names the move); otherwise the players whose own later actions would be
        taken back too are asked to approve (see `vote`), and every other player when an
        action taken back drew what was hidden (`Game.revealed`): its player would replay
        knowing it. Programmed moves other players set since are no action of theirs to
        approve: they are set again after the undo (`_rewind`)."""

        async def body(record: GameRecord) -> Result:
            self._require_playable(record)
            game = await self._live(record)
            actions = _counted(game, await self.store.actions(record.id), caller.user_id)
            if not actions:
                raise Refused(f"game #{record.id} has no action to undo")
            last = actions[-1]
            mine = [a for a in actions if a.user_id == caller.user_id]
            seats = await self._seats(record.id)
            taken = [a for a in actions if mine and a.seq >= mine[-1].seq]
            drew = _drew(game, taken)
            if mine and last.user_id != caller.user_id and drew is None:
                if not _affected(taken, caller.user_id):  # only the computer since
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
                return Result(
                    text=f"This takes back {await self._seat_name(record, last.user_id)}'s "
                    f"move (action {last.seq}): {self._sentence(game, last)} "
                    "Confirm to take it back.",
                    game_id=record.id,
                    thread_id=record.thread_id,
                    confirm_undo=record.version,
                )
            if (last.user_id == caller.user_id and drew is None) or (
                admin and last.user_id != caller.user_id
            ):
                return await self._rewind(
                    record,
                    last.seq - 1,
                    caller,
                    f"{caller.name} undid action {last.seq}: ",
                    interaction_id,
                )
            if not mine:
                raise Refused(
                    "only the player who made the last action, or a game admin, can undo it"
                )
            if any(a.user_id == IMPORTED_BY for a in taken):
                raise Refused(
                    "actions imported from a game file can only be undone by a game admin"
                )
            affected = _approvers(game, taken, caller.user_id, seats)
            if not affected:  # it drew, and the computer plays every other seat
                raise Refused(
                    f"taking back action {drew} would take back what it drew, which every "
                    "player has seen since; only the other players could allow that, and "
                    "the computer plays every other seat"
                )
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
            names = ", ".join([await self._seat_name(record, u) for u in affected])
            why = "" if drew is None else f"Action {drew} drew what was hidden until then, so "
            return Result(
                text=(
                    f"{caller.name} asks to take back actions {mine[-1].seq}-{last.seq}, "
                    f"from their own: {self._sentence(game, mine[-1])} "
                    f"{why}{names} must approve; a game admin can decide alone."
                ),
                game_id=record.id,
                thread_id=record.thread_id,
                changed=True,
                notify=tuple(u for u in affected if u > 0),
                vote=request.id,
                vote_kind=UNDO,
                hushed=await self._hushed(UNDO, caller.user_id, affected),
                replaces=tuple(r.id for r in asked),
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
            if request.status == "open" and request.version < record.moved:
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
        game = await self._live(record)
        later = _counted(game, actions[request.keep :], request.requested_by)
        affected = _approvers(game, later, request.requested_by, await self._seats(record.id))
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
            keeper=request.requested_by,
        )

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
        self,
        record: GameRecord,
        keep: int,
        caller: Caller,
        head: str,
        interaction_id: int | None,
        *,
        keeper: int | None = None,
    ) -> Result:
        """Take the log back to `keep` actions. The programmed moves that players other than
        the one whose undo it is (`keeper`, by default the caller) set quietly in what is
        taken back are set again after it, each for its player: a standing order is not part
        of the position an undo goes back to, and nobody else is told of it."""
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
        keeper = caller.user_id if keeper is None else keeper
        moved = await self._set_again(fresh, game, [a for a in undone if _quiet(game, a, keeper)])
        shown = [a for a in undone if not _quiet(game, a, keeper)]
        more = f" ({len(shown)} actions)" if len(shown) > 1 else ""
        return await self._changed(
            await self.store.game(record.id) or record,
            f"{head}{what}{more}{await self._lapsed(record, lapsing)}{moved}",
            game,
        )

    async def _set_again(self, record: GameRecord, game: Game, orders: list[ActionRecord]) -> str:
        """Set these standing orders again, each for the player who set it (told to them
        alone, as when they set it); the moves any of them makes at once, for the thread."""
        seats = await self._seats(record.id)
        said = []
        for order in orders:
            seat = seat_of(seats, order.user_id)
            if seat is None or seat.player_id is None:
                continue
            owner = Caller(seat.user_id, seat.name, guild_id=record.guild_id)
            try:
                done = await self._apply(
                    record, game, owner, order.payload, None, by=seat.player_id, asker=0
                )
            except GameError as exc:  # it means nothing in the position gone back to
                log.info("game %s: order %s not set again: %s", record.id, order.payload, exc)
                continue
            if done.changed:
                said.append(done.text)
            record = await self._fresh(record)
        return "".join(f"\n{text}" for text in said)


_CLOSED = {  # why a request can no longer be answered, by kind and status
    (UNDO, "done"): "this undo request is already done",
    (UNDO, "rejected"): "this undo request was rejected",
    (UNDO, "void"): "the game has moved on since this undo was asked; ask again with /game undo",
    (DEAL, "done"): "this deal was already accepted and made",
    (DEAL, "rejected"): "this deal was declined or withdrawn",
    (DEAL, "void"): "this deal lapsed: the game moved on (or the seats changed) since it was "
    "proposed; propose it again with /play",
}


def _quiet(game: Game, action: ActionRecord, keeper: int) -> bool:
    """Whether the action is a standing order another player than `keeper` set quietly."""
    payload = action.payload
    return (
        action.user_id != keeper
        and game.order_text(payload) is not None
        and not payload.get("auto_actions")
    )


def _counted(game: Game, actions: list[ActionRecord], keeper: int) -> list[ActionRecord]:
    """The actions an undo of `keeper`'s weighs: other players' quiet standing orders are
    set again after it, so they count as no one's move."""
    return [a for a in actions if not _quiet(game, a, keeper)]


def _affected(actions: list[ActionRecord], requester: int) -> list[int]:
    """Users (other than the requester) whose own actions an undo would take back, in order,
    whoever plays their seat now. The moves the computer made are nobody's to approve (it has
    no say, and would only hold the vote up), on a seat its holder plays again too."""
    out: list[int] = []
    for a in actions:
        if a.computer is None and a.user_id != requester and a.user_id not in out:
            out.append(a.user_id)
    return out


def _drew(game: Game, actions: list[ActionRecord]) -> int | None:
    """The first of the actions that drew what was hidden until then (None: none did)."""
    return next((a.seq for a in actions if game.revealed(a.seq)), None)


def _approvers(
    game: Game, actions: list[ActionRecord], requester: int, seats: list[SeatRecord]
) -> list[int]:
    """Who must approve an undo of `requester`'s that takes back `actions`: the players whose
    own actions they are and, when one of them drew what was hidden (String Railway's next
    station), every other player playing their seat: undone for free, it would let its
    player replay knowing the draw."""
    out = _affected(actions, requester)
    if _drew(game, actions) is not None:
        out += [s.user_id for s in seats if s.human and s.user_id not in (requester, *out)]
    return out
