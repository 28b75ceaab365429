"""A small Discord stand-in on loopback for the wire tests, telling the truth about how Discord
answers, refuses and fails: the REST routes railchat uses and a gateway websocket, so that
discord.py's own HTTP client and gateway code run unchanged.

- `server`: the aiohttp app (REST, gateway, failures injected) and what tests do to Discord;
- `world`: channels, threads, messages, permissions, DMs, the server, the clock, and their rules;
- `interactions`: the answer window, acknowledgements, follow-ups and their token;
- `events`: INTERACTION_CREATE payloads (commands, components, autocomplete);
- `payloads`: Discord's JSON objects; `limits`: its size rules; `refusals`: its error answers;
- `rate_limits`: its per-route, global and invalid-request limits; `http_io`: requests read,
  answers written.
"""

from tests.fake_discord.events import (
    AUTOCOMPLETE,
    BUTTON,
    COMMAND,
    COMPONENT,
    STRING_SELECT,
    attachment_option,
    command_interaction,
    component_interaction,
    user_option,
)
from tests.fake_discord.interactions import Interaction
from tests.fake_discord.limits import check_commands, check_limits
from tests.fake_discord.payloads import (
    APP_ID,
    CHANNEL_ID,
    EPHEMERAL,
    FORUM_ID,
    GUILD_ID,
    THREAD_ID,
    UPLOAD_LIMIT,
    Posted,
    Upload,
    channel_data,
    forum_data,
    thread_data,
    user,
)
from tests.fake_discord.server import FakeDiscord, Request
from tests.fake_discord.world import Clock

__all__ = [
    "APP_ID",
    "AUTOCOMPLETE",
    "BUTTON",
    "CHANNEL_ID",
    "COMMAND",
    "COMPONENT",
    "EPHEMERAL",
    "FORUM_ID",
    "GUILD_ID",
    "STRING_SELECT",
    "THREAD_ID",
    "UPLOAD_LIMIT",
    "Clock",
    "FakeDiscord",
    "Interaction",
    "Posted",
    "Request",
    "Upload",
    "attachment_option",
    "channel_data",
    "forum_data",
    "check_commands",
    "check_limits",
    "command_interaction",
    "component_interaction",
    "thread_data",
    "user",
    "user_option",
]
