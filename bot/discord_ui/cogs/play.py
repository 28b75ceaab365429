"""The `/play` command group: any move of any title (`move`, suggested from the engine's legal
choices or typed), the common ones at hand (pass, lay by picture, run, a String Railway rail
shown before it is laid), programmed moves (`auto`: set, list, cancel; only the player sees
them), answers to what others ask (`answer`) and hints.

The commands only gather what the user typed; `bot.core.any_move` and `bot.core.moves` turn it
into one legal action and the service applies it, so nothing here knows a rule.
"""

from __future__ import annotations

import io
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.any_move import resolve_any, suggest_any
from bot.core.moves import MAX_PICTURED, MOVES, choice_key, resolve
from bot.core.parsing import parse_request
from bot.core.results import Refused
from bot.core.routes_input import routes_from_text
from bot.discord_ui.buttons import confirm_view, pick_view, show_orders
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import (
    caller_of,
    fit,
    follow_thread,
    game_or_refuse,
    reply,
    reply_files,
    resolve_game,
)
from bot.discord_ui.suggestions import COMPUTER_LEVELS, GAME_HELP, LIMIT, within_budget

ANSWERS = [app_commands.Choice(name=n, value=n) for n in ("yes", "no")]
AUTO_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("set", "list", "cancel")]


@app_commands.guild_only()
class PlayCog(commands.GroupCog, group_name="play", group_description="Make your move"):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    async def _play(
        self, interaction: discord.Interaction, game: int | None, build: Any
    ) -> int | None:
        """Apply the move `build` picks from the caller's legal choices; the game's id."""
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return None
        result = await self.service.play(
            game_id, caller_of(interaction), build, interaction_id=interaction.id
        )
        await self.bot.poster.publish(interaction, result)
        return game_id

    # -- any move ------------------------------------------------------------------------------
    @app_commands.command(name="move", description="Any move: pick a suggestion, or type it")
    @app_commands.describe(
        move="Suggestions are your legal moves; or type one, e.g. bid CS 50, par PRR 67",
        game=GAME_HELP,
    )
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, 1000],
        game: int | None = None,
    ) -> None:
        await self._play(
            interaction, game, lambda g, choices: resolve_any(move, choices, g, routes_from_text)
        )

    @move.autocomplete("move")
    @within_budget
    async def _moves(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        choices = await self.service.legal_actions(
            game_id, interaction.user.id, guild_id=interaction.guild_id
        )
        return [
            app_commands.Choice(name=shown, value=value)
            for shown, value in suggest_any(choices, current, LIMIT)
        ]

    @app_commands.command(name="pass", description="Pass, or finish the current step of your turn")
    @app_commands.describe(game=GAME_HELP)
    async def pass_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(
            interaction, game, lambda g, choices: resolve(MOVES["pass"], {}, choices, g)
        )

    # -- 18xx: track and trains ----------------------------------------------------------------
    @app_commands.command(name="lay", description="Lay or upgrade a tile: pick it by picture")
    @app_commands.describe(
        hex="The hex, e.g. H14",
        tile="The tile, e.g. 57 (suggestions: the tiles that fit)",
        rotation="The rotation (suggestions name each by its exits)",
        game=GAME_HELP,
    )
    async def lay(
        self,
        interaction: discord.Interaction,
        hex: app_commands.Range[str, 1, 10],
        tile: app_commands.Range[str, 0, 20] | None = None,
        rotation: app_commands.Range[int, 0, 5] | None = None,
        game: int | None = None,
    ) -> None:
        args = {"hex": hex, "tile": tile, "rotation": rotation}
        by_options = lambda g, choices: resolve(MOVES["lay"], args, choices, g)  # noqa: E731
        if rotation is not None or self.bot.renderer is None:
            await self._play(interaction, game, by_options)
            return
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        from bot.core.rendering import draw_lays  # render/ loads on first drawing

        try:
            version, lays, png = await self.service.lay_picture(
                game_id,
                interaction.user.id,
                hex.strip().upper(),
                (tile or "").strip() or None,
                draw_lays,
                guild_id=interaction.guild_id,
            )
        except Refused:  # the move's own refusal says what is possible instead
            lays = []
        if len(lays) <= 1 or len(lays) > MAX_PICTURED:
            await self._play(interaction, game_id, by_options)
            return
        buttons = [
            (choice_key(lay.action), f"{n}: {lay.words}") for n, lay in enumerate(lays, start=1)
        ]
        text = (
            f"{len(lays)} ways to lay on {hex.strip().upper()}; pick one (numbered as drawn):\n"
            + "\n".join(label for _, label in buttons)
        )
        await interaction.followup.send(
            fit(text),
            ephemeral=True,
            files=[discord.File(io.BytesIO(png), filename="lays.png")],
            view=pick_view(game_id, version, buttons),
        )

    @lay.autocomplete("hex")
    @within_budget
    async def _lay_hex(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "lay", "hex", current)

    @lay.autocomplete("tile")
    @within_budget
    async def _lay_tile(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "lay", "tile", current)

    @lay.autocomplete("rotation")
    @within_budget
    async def _lay_rotation(self, interaction: discord.Interaction, current: str):
        found = await self._suggest(interaction, "lay", "rotation", str(current or ""))
        return [
            app_commands.Choice(name=c.name, value=int(c.value))
            for c in found
            if str(c.value).isdigit()
        ]

    @app_commands.command(name="run", description="Run your trains: the best routes, or yours")
    @app_commands.describe(
        routes="Your routes, every hex passed: 2: E19 F20 F22; 3: F20 G19 (none: the best)",
        game=GAME_HELP,
    )
    async def run(
        self,
        interaction: discord.Interaction,
        routes: app_commands.Range[str, 0, 1000] | None = None,
        game: int | None = None,
    ) -> None:
        args = {"routes": routes}
        await self._play(
            interaction,
            game,
            lambda g, choices: resolve(MOVES["run"], args, choices, g, routes_from_text),
        )

    # -- String Railway ------------------------------------------------------------------------
    @app_commands.command(name="rail", description="Lay a rail: see it and its score, then confirm")
    @app_commands.describe(
        path="Rail and stops, e.g. short B1 S1 (stations by label, free points x y)",
        game=GAME_HELP,
    )
    async def rail(
        self,
        interaction: discord.Interaction,
        path: app_commands.Range[str, 1, 500],
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        drawer = None
        if self.bot.renderer is not None:
            from bot.core.rendering import render_snapshot

            drawer = render_snapshot
        result = await self.service.preview(
            game_id,
            caller_of(interaction),
            lambda g, choices: resolve(MOVES["rail"], {"path": path}, choices, g),
            drawer,
            interaction_id=interaction.id,
        )
        if result.ok and result.confirm is not None:
            await reply_files(
                interaction, result.text, result.files, view=confirm_view(result.confirm)
            )
        else:
            await self.bot.poster.publish(interaction, result)

    @rail.autocomplete("path")
    @within_budget
    async def _rail_path(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "rail", "path", current)

    # -- programmed moves ------------------------------------------------------------------------
    @app_commands.command(
        name="auto", description="Your programmed moves: set, list or cancel (only you see them)"
    )
    @app_commands.describe(
        what="set one, list yours (with menus), or cancel one",
        program="The programmed move (suggestions: those you may set now, or yours to cancel)",
        until="For away: the date it ends, e.g. 2030-06-01 (UTC)",
        game=GAME_HELP,
    )
    @app_commands.choices(what=AUTO_CHOICES)
    async def auto(
        self,
        interaction: discord.Interaction,
        what: str = "list",
        program: app_commands.Range[str, 0, 200] | None = None,
        until: app_commands.Range[str, 0, 40] | None = None,
        game: int | None = None,
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        if what == "list":
            await show_orders(self.bot, interaction, game_id)
            return
        if not (program or "").strip():
            await reply(interaction, f"Refused: which programmed move to {what}? pick a suggestion")
            return
        caller = caller_of(interaction)
        result = (
            await self.service.set_order(
                game_id, caller, program or "", until=until, interaction_id=interaction.id
            )
            if what == "set"
            else await self.service.cancel_order(game_id, caller, program or "", interaction.id)
        )
        await self.bot.poster.publish(interaction, result)

    @auto.autocomplete("program")
    @within_budget
    async def _programs(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        found = await self.service.order_suggestions(
            game_id,
            interaction.user.id,
            current,
            guild_id=interaction.guild_id,
            cancel=getattr(interaction.namespace, "what", None) == "cancel",
            limit=LIMIT,
        )
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    # -- answers and hints ---------------------------------------------------------------------
    @app_commands.command(
        name="answer", description="Answer a deal, an undo vote or a seat offered to you"
    )
    @app_commands.describe(request="What is asked (suggestions: the open ones)", answer="yes or no")
    @app_commands.choices(answer=ANSWERS)
    async def answer(
        self, interaction: discord.Interaction, request: app_commands.Range[str, 1, 20], answer: str
    ) -> None:
        try:
            kind, number = parse_request(request)
        except ValueError as exc:
            await reply(interaction, f"Refused: {exc}")
            return
        caller, approve = caller_of(interaction), answer == "yes"
        if kind == "i":
            result = await self.service.answer_invitation(number, caller, approve, interaction.id)
            if result.changed and approve:
                await follow_thread(self.bot, result.thread_id, interaction.user)
        else:
            result = await self.service.vote(number, caller, approve, interaction.id)
        await self.bot.poster.publish(interaction, result)

    @answer.autocomplete("request")
    @within_budget
    async def _open_requests(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        asked = await self.service.asked_of(
            interaction.user.id, guild_id=interaction.guild_id, thread_id=interaction.channel_id
        )
        return [
            app_commands.Choice(name=fit(label, 100), value=value)
            for value, label in asked
            if current.strip().casefold() in label.casefold()
        ][:LIMIT]

    @app_commands.command(name="hint", description="The best moves for you now (only to you)")
    @app_commands.describe(game=GAME_HELP)
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """The suggestions only to the caller, each listed move with a button that makes it."""
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.hints(game_id, caller_of(interaction))
        if not result.offered or result.version is None:
            await self.bot.poster.publish(interaction, result)
            return
        buttons = [(choice_key(c.action), f"{n}. {c.label}") for n, c in result.offered]
        await reply_files(interaction, result.text, (), pick_view(game_id, result.version, buttons))

    # -- away ----------------------------------------------------------------------------------
    @app_commands.command(
        name="away", description="The computer plays your seat until you are back (/play back)"
    )
    @app_commands.describe(
        level="How the computer plays (default: the best it can)", game=GAME_HELP
    )
    @app_commands.choices(level=COMPUTER_LEVELS)
    async def away(
        self, interaction: discord.Interaction, level: str | None = None, game: int | None = None
    ) -> None:
        await self._computer(interaction, game, True, level)

    @app_commands.command(name="back", description="Play your seat again after /play away")
    @app_commands.describe(game=GAME_HELP)
    async def back(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._computer(interaction, game, False)

    async def _computer(
        self, interaction: discord.Interaction, game: int | None, on: bool, level: str | None = None
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        result = await self.service.computer_seat(
            game_id, caller_of(interaction), None, on, level, interaction.id
        )
        await self.bot.poster.publish(interaction, result)

    async def _suggest(
        self, interaction: discord.Interaction, name: str, option: str, current: str
    ) -> list[app_commands.Choice[str]]:
        from bot.core.moves import suggest

        game_id = (await resolve_game(self.bot, interaction, interaction.namespace.game)).game_id
        if game_id is None:
            return []
        move = MOVES[name]
        typed = {o.name: getattr(interaction.namespace, o.name, None) for o in move.options}
        choices = await self.service.legal_actions(
            game_id, interaction.user.id, guild_id=interaction.guild_id, kinds=move.types
        )
        return [
            app_commands.Choice(name=shown, value=value)
            for shown, value in suggest(move, option, typed, choices, current, LIMIT)
        ]


async def setup(bot: commands.Bot) -> None:
    context = cast(BotContext, bot)
    await bot.add_cog(PlayCog(context))
