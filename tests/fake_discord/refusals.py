"""The refusals the fake Discord answers with, as Discord answers them: an HTTP status and the
JSON body `{"message": ..., "code": ...}`, so that discord.py raises the same exception class
(403 Forbidden, 404 NotFound, any other status HTTPException) with the same `.code`.

Codes and messages: the "JSON Error Codes" table of Discord's developer docs
(discord/discord-api-docs, docs/topics/opcodes-and-status-codes.md). Statuses are those the
docs give ("HTTP Response Codes" there: 404 for what does not exist, 403 for what the token
may not do, 401 for a bad token) or, where the docs name none, the one seen in the field, cited
next to the refusal.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Refusal(NamedTuple):
    status: int
    code: int
    message: str


UNKNOWN_CHANNEL = Refusal(404, 10003, "Unknown Channel")
UNKNOWN_GUILD = Refusal(404, 10004, "Unknown Guild")
UNKNOWN_MESSAGE = Refusal(404, 10008, "Unknown Message")
UNKNOWN_USER = Refusal(404, 10013, "Unknown User")
# Following up or editing `@original` before the interaction was answered: "Unknown Webhook"
# (seen through discord.py forks, Pycord-Development/pycord#1118 and #918; DPP issue #427).
UNKNOWN_WEBHOOK = Refusal(404, 10015, "Unknown Webhook")
# Answering after the 3 s window (docs/interactions/receiving-and-responding.mdx, "Interaction
# Callback": "you must send an initial response within 3 seconds of receiving the event. If
# the 3 second deadline is exceeded, the token will be invalidated").
UNKNOWN_INTERACTION = Refusal(404, 10062, "Unknown interaction")
# Sent with 429 and a retry-after, like any rate limit (aikaterna/aikaterna-cogs#302:
# "HTTPException: 429 Too Many Requests (error code: 30046)").
OLD_MESSAGE_EDITS = Refusal(
    429, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later"
)
TOO_LARGE = Refusal(413, 40005, "Request entity too large")
# A post in a forum whose REQUIRE_TAG flag is set, made without `applied_tags` (channel.mdx,
# "Channel Flags": "whether a tag is required to be specified when creating a thread in a
# GUILD_FORUM"); the status as seen in the field ("400 Bad Request (error code: 40067)").
TAG_REQUIRED = Refusal(400, 40067, "A tag is required to create a forum post in this channel")
ALREADY_ACKNOWLEDGED = Refusal(400, 40060, "Interaction has already been acknowledged")
MISSING_ACCESS = Refusal(403, 50001, "Missing Access")
CANNOT_DM = Refusal(403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = Refusal(403, 50013, "Missing Permissions")
# Interaction tokens "are valid for 15 minutes" (receiving-and-responding.mdx, "Followup
# Messages"); a webhook route with a token past that is 401 Invalid Webhook Token.
INVALID_WEBHOOK_TOKEN = Refusal(401, 50027, "Invalid Webhook Token")
INVALID_FORM = Refusal(400, 50035, "Invalid Form Body")
# A message sent to a channel that holds none (a forum: only its posts do). The docs give the
# code, not the status: 400, as for the other refusals of a request's content.
NON_TEXT = Refusal(400, 50008, "Cannot send messages in a non-text channel")
# channel.mdx, "Start Thread from Message": "a message can only have a single thread created
# from it"; the code is in the JSON Error Codes table.
THREAD_EXISTS = Refusal(400, 160004, "A thread has already been created for this message")
# "Tried to perform an operation on an archived thread, such as editing a message or adding a
# user to the thread"; the message Discord sends is "Thread is archived"
# (discord/discord-api-docs#6884, #6928).
ARCHIVED = Refusal(400, 50083, "Thread is archived")
# Discord's answer to a route it does not have.
NO_ROUTE = Refusal(404, 0, "404: Not Found")


class Rejected(Exception):
    """A request Discord refuses; `detail` goes after the message (what was wrong in a form)."""

    def __init__(self, refusal: Refusal, detail: str = "", **extra: Any) -> None:
        self.refusal = refusal
        self.message = f"{refusal.message}: {detail}" if detail else refusal.message
        self.extra = extra  # more fields of the body (a rate limit's retry_after)
        super().__init__(self.message)

    @property
    def status(self) -> int:
        return self.refusal.status

    @property
    def code(self) -> int:
        return self.refusal.code

    def body(self) -> dict[str, Any]:
        return {"message": self.message, "code": self.code, **self.extra}
