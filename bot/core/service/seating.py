"""Who holds a seat once a game runs: an admin hands a seat over (to themselves at once, to
anyone else as an offer), and a user offered a seat accepts or declines it. Nobody is seated,
and so nobody is ever pinged for a game, without having said yes."""

from __future__ import annotations

from dataclasses import replace

from bot.core.names import plain_name
from bot.core.results import Caller, Refused, Result
from bot.core.service.base import seat_of
from bot.core.service.playing import Playing
from bot.core.store import ACTIVE, SEAT, GameRecord, SeatRecord


class Seating(Playing):
    async def replace_seat(
        self,
        game_id: int,
        caller: Caller,
        seat: int,
        user_id: int,
        name: str,
        interaction_id: int | None = None,
        *,
        offer: bool = True,
    ) -> Result:
        """Take a seat (with everything its player owns) from its holder: an admin naming
        themselves holds it at once; anyone else is offered it and holds it once they accept
        (until then the seat is unclaimed and its moves wait). `offer=False`: the front end
        has that user's agreement already (players at one keyboard), so they hold it at once."""
        name = plain_name(name)

        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "replace a player")
            if not 0 < user_id < 2**63:
                raise Refused(f"{user_id} is not a user id")
            seats = await self._seats(record.id)
            target = next((s for s in seats if s.seat == seat), None)
            if target is None:
                raise Refused(f"game #{record.id} has seats 1 to {len(seats)}, not {seat}")
            holder = seat_of(seats, user_id)
            if holder is not None:
                raise Refused(
                    f"{holder.name} already holds seat {holder.seat} of game #{record.id}"
                )
            offered = [i for i in await self.store.open_invitations(record.id) if i.seat == seat]
            if offered and offered[-1].user_id == user_id:
                raise Refused(
                    f"seat {seat} is already offered to {name}; it is theirs once they accept"
                )
            record = await self._orders_leave_with(record, target)
            if user_id == caller.user_id or not offer:
                lapsing = await self.store.open_requests(record.id)
                await self.store.hand_seat(record.id, seat, user_id, name, interaction_id)
                self._seats_changed(record.id)
                text = (
                    f"{caller.name} took seat {seat} ({target.name}) of game #{record.id}."
                    if user_id == caller.user_id
                    else f"{caller.name} gave seat {seat} ({target.name}) of game #{record.id} "
                    f"to {name}."
                )
                text += await self._lapsed(record, lapsing)
                return await self._seat_changed(record, text)
            lapsing = await self.store.open_requests(record.id)
            invitation = await self.store.invite(
                record.id, seat, user_id, caller.user_id, interaction_id
            )
            self._seats_changed(record.id)
            text = (
                f"{caller.name} offers seat {seat} ({target.name}) of game #{record.id} to "
                f"{name}; it is theirs once they accept, and until then its moves wait."
                + await self._lapsed(record, lapsing)
            )
            changed = await self._seat_changed(record, text)
            return replace(
                changed,
                invitations=(invitation.id,),
                invited=(user_id,),
                hushed=await self._hushed(SEAT, caller.user_id, (user_id,)),
            )

        return await self._run(game_id, interaction_id, body, caller.guild_id)

    async def answer_invitation(
        self,
        invitation_id: int,
        caller: Caller,
        accept: bool,
        interaction_id: int | None = None,
    ) -> Result:
        """The offered user takes the seat (under their own name) or declines it."""
        found = await self.store.invitation(invitation_id)
        if found is None or await self._visible(found.game_id, caller.guild_id) is None:
            return Result(error=f"there is no seat offer #{invitation_id}")

        async def body(record: GameRecord) -> Result:
            offer = await self.store.invitation(invitation_id)
            assert offer is not None
            if caller.user_id != offer.user_id:
                raise Refused("this seat is offered to someone else; only they can answer")
            if offer.status != "open":
                raise Refused(f"this offer is {_CLOSED[offer.status]}")
            seats = await self._seats(record.id)
            held = seat_of(seats, caller.user_id)
            if accept and held is not None:
                raise Refused(f"you already hold seat {held.seat} of game #{record.id}")
            await self.store.answer_invitation(invitation_id, accept, caller.name, interaction_id)
            self._seats_changed(record.id)
            if not accept:
                text = f"{caller.name} declined seat {offer.seat} of game #{record.id}."
                return await self._changed(record, text)
            text = f"{caller.name} took seat {offer.seat} of game #{record.id}. Welcome!"
            return await self._seat_changed(record, text)

        return await self._run(found.game_id, interaction_id, body, caller.guild_id)

    async def _orders_leave_with(self, record: GameRecord, seat: SeatRecord) -> GameRecord:
        """A person's programmed moves are theirs, not their seat's: before the seat goes to
        someone else (or is offered), its holder's are cancelled and they are told; the record
        as it is after."""
        if record.status != ACTIVE or seat.user_id <= 0 or seat.player_id is None:
            return record
        game = await self._live(record)
        mine = game.standing_orders(seat.player_id)
        reason = "your seat was given to someone else"
        return await self._cancel_orders(record, game, seat, [(o, reason) for o in mine])

    async def _seat_changed(self, record: GameRecord, text: str) -> Result:
        """The answer to a change of seats: the new position's pings, for a game in play."""
        self._forget(record.id)
        if record.status != ACTIVE:
            return await self._changed(record, text)
        return await self._changed(record, text, await self._live(await self._fresh(record)))


_CLOSED = {"accepted": "already accepted", "declined": "declined", "void": "no longer open"}
