"""A player's own settings (`/settings`): direct messages when it is their turn (in all their
games, none, or chosen game by game), reminders by direct message, their time zone, quiet hours
and an absence. Each is checked as typed and refused with what is accepted; nothing is stored
then. A game is named by its number, and only a game the player is seated in."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot.core.results import Caller, Result
from bot.core.service.base import ServiceBase, storage_refusal
from bot.core.store import StaleGame, StoreBusy
from bot.core.user_settings import (
    UserSettings,
    check_zone,
    clock_label,
    day_label,
    parse_away,
    parse_quiet_hours,
    zone_suggestions,
)

TURN_DM_CHOICES = ("on", "off", "default")  # default: a game as the player's other games
GAMES_SHOWN = 10  # games named in /settings show as set apart; more are counted


class Settings(ServiceBase):
    async def show_settings(self, caller: Caller, *, now: datetime | None = None) -> Result:
        now = now or self.clock()

        async def body() -> str:
            mine = await self._settings_of(caller.user_id)
            apart = await self.store.game_dms(caller.user_id)
            return "\n".join(["Your settings:", *_describe(mine, apart, now)])

        return await self._setting(body)

    async def set_turn_dm(self, caller: Caller, dm: str, game_id: int | None = None) -> Result:
        """Direct messages when it is the caller's turn: "on" or "off" in all their games, or
        in game `game_id` alone ("default": that game as the others)."""
        choice = dm.strip().casefold()
        if choice not in TURN_DM_CHOICES:
            return Result(error=f"dm is on, off or default, not {dm[:20]!r}")
        if game_id is None:
            if choice == "default":
                return Result(
                    error="default is for one game (give game:<number>): it then follows "
                    "your choice for all your games"
                )
            return await self.set_notify(caller, choice == "on")

        async def body() -> str:
            seats = [s for s in await self.store.seats(game_id) if s.user_id == caller.user_id]
            if not seats:
                raise _Refusal(f"you have no seat in a game #{game_id}")
            chosen = None if choice == "default" else choice == "on"
            await self.store.set_game_dm(caller.user_id, game_id, chosen)
            if chosen is None:
                everywhere = (await self._settings_of(caller.user_id)).turn_dm
                return (
                    f"Game #{game_id} follows your choice for all your games now: "
                    f"direct messages {'on' if everywhere else 'off'}."
                )
            if chosen:
                return f"I will send you a direct message when it is your turn in game #{game_id}."
            return (
                f"No direct messages for your turns in game #{game_id}; you are still "
                "mentioned in its thread."
            )

        return await self._setting(body)

    async def set_notify(self, caller: Caller, dm: bool) -> Result:
        """Direct messages when it is the caller's turn, in all their games (those set apart
        one by one keep their own choice)."""

        async def body() -> str:
            await self.store.save_settings(caller.user_id, {"turn_dm": int(dm)})
            apart = await self.store.game_dms(caller.user_id)
            except_ = [g for g, on in apart.items() if on != dm]
            tail = f" (game {_games(except_)} keeps its own choice)" if except_ else ""
            if dm:
                return f"I will also send you a direct message when it is your turn{tail}."
            return f"No more direct messages; you are still mentioned in the game's thread{tail}."

        return await self._setting(body)

    async def set_reminder_dm(self, caller: Caller, dm: bool) -> Result:
        async def body() -> str:
            await self.store.save_settings(caller.user_id, {"reminder_dm": int(dm)})
            if dm:
                return (
                    "After a reminder in the game's thread, the next ones come to you by direct "
                    "message."
                )
            return "Reminders mention you in the game's thread only."

        return await self._setting(body)

    async def set_time_zone(
        self, caller: Caller, zone: str, *, now: datetime | None = None
    ) -> Result:
        now = now or self.clock()

        async def body() -> str:
            name = _checked(check_zone, zone)
            before = await self._settings_of(caller.user_id)
            await self.store.save_settings(caller.user_id, {"time_zone": name})
            await self._settings_changed(caller.user_id, before)
            local = UserSettings(caller.user_id, time_zone=name).local(now)
            return f"Your time zone is {name} (it is {local:%H:%M} there now)."

        return await self._setting(body)

    async def set_quiet_hours(self, caller: Caller, hours: str) -> Result:
        async def body() -> str:
            quiet = _checked(parse_quiet_hours, hours)
            start, end = quiet if quiet is not None else (None, None)
            before = await self._settings_of(caller.user_id)
            await self.store.save_settings(caller.user_id, {"quiet_start": start, "quiet_end": end})
            await self._settings_changed(caller.user_id, before)
            if quiet is None:
                return "No quiet hours: direct messages and reminders come when they are due."
            zone = (await self._settings_of(caller.user_id)).time_zone
            where = zone or "UTC (set your time zone with /settings timezone)"
            return (
                f"Quiet hours {clock_label(start or 0)}-{clock_label(end or 0)}, in {where}: no "
                "direct message and no reminder ping then; what falls due waits until "
                f"{clock_label(end or 0)}."
            )

        return await self._setting(body)

    async def set_away(self, caller: Caller, until: str, *, now: datetime | None = None) -> Result:
        now = now or self.clock()

        async def body() -> str:
            mine = await self._settings_of(caller.user_id)
            today = mine.local(now).date()
            back = _checked(parse_away, until, today)
            await self.store.save_settings(
                caller.user_id, {"away_until": back.isoformat() if back else None}
            )
            await self._settings_changed(caller.user_id, mine)
            if back is None:
                return "Welcome back: reminders reach you again."
            return (
                f"You are away until {day_label(back, today)}: the others see it when it is "
                "your turn, and your reminders wait until you are back (your programmed moves "
                "still run)."
            )

        return await self._setting(body)

    @staticmethod
    def time_zones(typed: str, limit: int) -> list[str]:
        """Time zone names matching what was typed (for suggestions)."""
        return zone_suggestions(typed, limit)

    async def _settings_of(self, user_id: int) -> UserSettings:
        return (await self.store.user_settings([user_id]))[user_id]

    async def _setting(self, body: Callable[[], Awaitable[str]]) -> Result:
        try:
            return Result(text=await body())
        except _Refusal as exc:
            return Result(error=str(exc))
        except (StaleGame, StoreBusy) as exc:
            return Result(error=storage_refusal(exc, None))


class _Refusal(Exception):
    """A setting as typed that is not accepted; the message says what is."""


def _checked(parse: Callable[..., Any], *args: Any) -> Any:
    try:
        return parse(*args)
    except ValueError as exc:
        raise _Refusal(str(exc)) from None


def _describe(mine: UserSettings, apart: dict[int, bool], now: datetime) -> list[str]:
    on = [g for g, dm in apart.items() if dm and not mine.turn_dm]
    off = [g for g, dm in apart.items() if not dm and mine.turn_dm]
    if mine.turn_dm:
        turns = "in all your games" + (f" but game {_games(off)}" if off else "")
    else:
        turns = f"only in game {_games(on)}" if on else "none"
    local = mine.local(now)
    zone = mine.time_zone or "UTC (not set)"
    if mine.quiet is None:
        quiet = "none"
    else:
        quiet = f"{clock_label(mine.quiet[0])}-{clock_label(mine.quiet[1])}"
        quiet += " (now: quiet)" if mine.quiet_at(now) else ""
    away = (
        f"until {day_label(mine.away_until, local.date())}"
        if mine.away_until is not None and mine.away_at(now)
        else "no"
    )
    return [
        f"• Direct message when it is your turn: {turns} (/settings turn-dm)",
        f"• Reminders by direct message: {'on' if mine.reminder_dm else 'off'} "
        "(/settings reminder-dm)",
        f"• Time zone: {zone}, where it is {local:%H:%M} (/settings timezone)",
        f"• Quiet hours: {quiet} (/settings quiet-hours)",
        f"• Away: {away} (/settings away)",
    ]


def _games(ids: list[int]) -> str:
    shown = ", ".join(f"#{g}" for g in ids[:GAMES_SHOWN])
    return shown + (f" and {len(ids) - GAMES_SHOWN} more" if len(ids) > GAMES_SHOWN else "")
