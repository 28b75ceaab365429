"""The `/play` command group (one command per kind of move, options suggested from the
engine's legal choices) and `/notify` (direct messages when it is your turn).

The commands only gather what the user typed; `bot.core.moves` turns it into one legal action and
the service applies it, so nothing here knows a rule.
"""

from __future__ import annotations

import io
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.moves import MAX_PICTURED, MOVES, choice_key, resolve, suggest
from bot.core.results import Refused
from bot.core.routes_input import routes_from_text
from bot.discord_ui.buttons import confirm_view, lay_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import caller_of, fit, game_or_refuse, reply, reply_files, resolve_game
from bot.discord_ui.suggestions import within_budget

AUTOCOMPLETE_LIMIT = 25
GAME_HELP = "Game number (default: this thread's game, or your only game here)"
Price = app_commands.Range[int, 0, 1_000_000]


def _described(name: str) -> Any:
    """`app_commands.describe` for a move's options (descriptions kept in bot.core.moves)."""
    return app_commands.describe(
        **{o.name: o.description for o in MOVES[name].options}, game=GAME_HELP
    )


def _command(name: str) -> Any:
    return app_commands.command(name=name, description=MOVES[name].description)


@app_commands.guild_only()
class PlayCog(
    commands.GroupCog, group_name="play", group_description="Make your move in a railway game"
):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    async def _play(
        self, interaction: discord.Interaction, name: str, game: int | None, **args: Any
    ) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self._submit(interaction, game_id, name, args)

    async def _submit(
        self, interaction: discord.Interaction, game_id: int, name: str, args: dict[str, Any]
    ) -> None:
        move = MOVES[name]
        result = await self.service.play(
            game_id,
            caller_of(interaction),
            lambda g, choices: resolve(move, args, choices, g, routes_from_text),
            interaction_id=interaction.id,
        )
        await self.bot.poster.publish(interaction, result)

    async def _suggest(
        self, interaction: discord.Interaction, name: str, option: str, current: str
    ) -> list[app_commands.Choice[str]]:
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
            for shown, value in suggest(move, option, typed, choices, current, AUTOCOMPLETE_LIMIT)
        ]

    # -- the auction and stock rounds ----------------------------------------------------------
    @_command("bid")
    @_described("bid")
    async def bid(
        self,
        interaction: discord.Interaction,
        company: str,
        price: Price | None = None,
        game: int | None = None,
    ) -> None:
        await self._play(interaction, "bid", game, company=company, price=price)

    @bid.autocomplete("company")
    @within_budget
    async def _bid_company(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "bid", "company", current)

    @_command("pass")
    @app_commands.describe(game=GAME_HELP)
    async def pass_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, "pass", game)

    @_command("par")
    @_described("par")
    async def par(
        self,
        interaction: discord.Interaction,
        company: str,
        price: Price | None = None,
        game: int | None = None,
    ) -> None:
        await self._play(interaction, "par", game, company=company, price=price)

    @par.autocomplete("company")
    @within_budget
    async def _par_company(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "par", "company", current)

    @_command("buy")
    @_described("buy")
    async def buy(
        self, interaction: discord.Interaction, share: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "buy", game, share=share)

    @buy.autocomplete("share")
    @within_budget
    async def _buy_share(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "buy", "share", current)

    @_command("sell")
    @_described("sell")
    async def sell(
        self, interaction: discord.Interaction, shares: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "sell", game, shares=shares)

    @sell.autocomplete("shares")
    @within_budget
    async def _sell_shares(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "sell", "shares", current)

    @_command("private")
    @_described("private")
    async def private(
        self,
        interaction: discord.Interaction,
        company: str,
        price: Price | None = None,
        game: int | None = None,
    ) -> None:
        await self._play(interaction, "private", game, company=company, price=price)

    @private.autocomplete("company")
    @within_budget
    async def _private_company(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "private", "company", current)

    # -- the operating rounds ------------------------------------------------------------------
    @_command("lay")
    @_described("lay")
    async def lay(
        self,
        interaction: discord.Interaction,
        hex: str,
        tile: str | None = None,
        rotation: app_commands.Range[int, 0, 5] | None = None,
        game: int | None = None,
    ) -> None:
        args = {"hex": hex, "tile": tile, "rotation": rotation}
        if rotation is not None or self.bot.renderer is None:
            await self._play(interaction, "lay", game, **args)
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
            await self._submit(interaction, game_id, "lay", args)
            return
        if len(lays) == 1 or len(lays) > MAX_PICTURED:
            await self._submit(interaction, game_id, "lay", args)
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
            view=lay_view(game_id, version, buttons),
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

    @_command("token")
    @_described("token")
    async def token(
        self, interaction: discord.Interaction, city: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "token", game, city=city)

    @token.autocomplete("city")
    @within_budget
    async def _token_city(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "token", "city", current)

    @_command("run")
    @_described("run")
    async def run(
        self, interaction: discord.Interaction, routes: str | None = None, game: int | None = None
    ) -> None:
        await self._play(interaction, "run", game, routes=routes)

    @_command("payout")
    @app_commands.describe(game=GAME_HELP)
    async def payout(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, "payout", game)

    @_command("withhold")
    @app_commands.describe(game=GAME_HELP)
    async def withhold(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, "withhold", game)

    @_command("train")
    @_described("train")
    async def train(
        self,
        interaction: discord.Interaction,
        train: str,
        price: Price | None = None,
        game: int | None = None,
    ) -> None:
        await self._play(interaction, "train", game, train=train, price=price)

    @train.autocomplete("train")
    @within_budget
    async def _train_train(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "train", "train", current)

    @_command("discard")
    @_described("discard")
    async def discard(
        self, interaction: discord.Interaction, train: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "discard", game, train=train)

    @discard.autocomplete("train")
    @within_budget
    async def _discard_train(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "discard", "train", current)

    @_command("bankrupt")
    @app_commands.describe(game=GAME_HELP)
    async def bankrupt(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, "bankrupt", game)

    # -- String Railway (and any title with typed moves and previews) ------------------------
    @_command("station")
    @_described("station")
    async def station(
        self, interaction: discord.Interaction, at: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "station", game, at=at)

    @station.autocomplete("at")
    @within_budget
    async def _station_at(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "station", "at", current)

    @_command("rail")
    @_described("rail")
    async def rail(
        self, interaction: discord.Interaction, path: str, game: int | None = None
    ) -> None:
        """Shows the rail and its score only to the caller, with Confirm and Cancel."""
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        move = MOVES["rail"]
        drawer = None
        if self.bot.renderer is not None:
            from bot.core.rendering import render_snapshot

            drawer = render_snapshot
        result = await self.service.preview(
            game_id,
            caller_of(interaction),
            lambda g, choices: resolve(move, {"path": path}, choices, g),
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

    @_command("forfeit")
    @_described("forfeit")
    async def forfeit(
        self, interaction: discord.Interaction, rail: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "forfeit", game, rail=rail)

    @forfeit.autocomplete("rail")
    @within_budget
    async def _forfeit_rail(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "forfeit", "rail", current)

    @_command("reroll")
    @_described("reroll")
    async def reroll(
        self, interaction: discord.Interaction, what: str, game: int | None = None
    ) -> None:
        await self._play(interaction, "reroll", game, what=what)

    @reroll.autocomplete("what")
    @within_budget
    async def _reroll_what(self, interaction: discord.Interaction, current: str):
        return await self._suggest(interaction, "reroll", "what", current)

    @app_commands.command(name="hint", description="The best moves for you now (only to you)")
    @app_commands.describe(game=GAME_HELP)
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if (game_id := await game_or_refuse(self.bot, interaction, game)) is None:
            return
        await self.bot.poster.publish(
            interaction, await self.service.hints(game_id, caller_of(interaction))
        )


class NotifyCog(commands.Cog):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot

    @app_commands.command(
        name="notify", description="Get a direct message when it is your turn (on or off)"
    )
    @app_commands.describe(dm="on: a direct message too; off: only the thread mention")
    @app_commands.choices(
        dm=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def notify(self, interaction: discord.Interaction, dm: str) -> None:
        result = await self.bot.service.set_notify(caller_of(interaction), dm == "on")
        await reply(interaction, result.text)


async def setup(bot: commands.Bot) -> None:
    context = cast(BotContext, bot)
    await bot.add_cog(PlayCog(context))
    await bot.add_cog(NotifyCog(context))
