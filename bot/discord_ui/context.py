"""What the Discord front end's pieces need of the running bot, as protocols, so that the
commands, buttons and posting code are written against these and never import the bot module
(which imports them): the service, the poster of thread messages and of lobbies, the renderer and Discord's
lookups."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import discord

from bot.core.results import Result
from bot.core.service import GameService
from bot.core.service.base import Renderer
from bot.discord_ui.dm_gate import DmGate


class Poster(Protocol):
    async def publish(self, interaction: discord.Interaction, result: Result) -> None: ...

    def queue(self, result: Result) -> object: ...

    def moved(self, game_id: int) -> None: ...


class Lobbies(Protocol):
    async def place(self, game_id: int, table: Any) -> None: ...

    async def refresh(self, game_id: int) -> None: ...


class BotContext(Protocol):
    @property
    def service(self) -> GameService: ...

    @property
    def poster(self) -> Poster: ...

    @property
    def lobbies(self) -> Lobbies: ...

    @property
    def dms(self) -> DmGate: ...

    @property
    def renderer(self) -> Renderer | None: ...

    @property
    def command_ids(self) -> dict[str, int]: ...

    @property
    def closing(self) -> bool: ...

    def working(self, task: asyncio.Task[object] | None) -> None: ...

    def get_channel(self, channel_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, user_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...
