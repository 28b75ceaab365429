"""Interactions as Discord runs them (docs/interactions/receiving-and-responding.mdx):

- the first answer (the callback: a message, a deferral, an update of a component's message, an
  autocomplete result, a modal) must come within the window after INTERACTION_CREATE was sent
  (3 s), else 404 Unknown interaction (10062); a second one is 400 already acknowledged (40060);
- follow-ups and edits of `@original` go through the interaction's webhook, which exists once
  the interaction is answered (before: 404 Unknown Webhook) and for 15 minutes (after: 401
  Invalid Webhook Token);
- the first follow-up after a deferred message fills in the "thinking" message instead of
  posting a new one, keeping the deferral's ephemeral flag ("Create Followup Message").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.fake_discord.events import AUTOCOMPLETE, COMMAND, COMPONENT, MODAL_SUBMIT
from tests.fake_discord.limits import check_choices, check_modal
from tests.fake_discord.payloads import EPHEMERAL, Posted, Upload, message_data
from tests.fake_discord.refusals import (
    ALREADY_ACKNOWLEDGED,
    INVALID_FORM,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    Rejected,
)
from tests.fake_discord.world import World

MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 4, 5, 6, 7, 8, 9
# The callback types each interaction type may answer with ("Interaction Callback Type": 6
# and 7 "Only valid for component-based interactions", 8 is the autocomplete result, 9 "Not
# available for MODAL_SUBMIT and PING interactions").
ALLOWED = {
    COMMAND: {MESSAGE, DEFERRED, MODAL},
    COMPONENT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE},
}
WINDOW = 3.0  # seconds to answer
TOKEN_LIFE = 15 * 60.0  # seconds the interaction's webhook works


@dataclass
class Interaction:
    id: int
    token: str
    kind: int  # COMMAND, COMPONENT, AUTOCOMPLETE or MODAL_SUBMIT
    channel: int
    created: float  # clock time INTERACTION_CREATE was sent
    message: int | None = None  # a component's: the message it is on
    answer: int | None = None  # the callback type it was answered with
    original: int | None = None  # the message `@original` names
    choices: list[dict[str, Any]] | None = None  # an autocomplete answer
    modal: dict[str, Any] | None = None
    late: list[int] = field(default_factory=list)  # callback types refused as too late


@dataclass
class Desk:
    """The interactions sent to the bot, and their answers."""

    world: World
    window: float = WINDOW
    token_life: float = TOKEN_LIFE
    interactions: dict[int, Interaction] = field(default_factory=dict)

    def register(self, payload: dict[str, Any]) -> None:
        """An interaction sent on the gateway; sent again (a replay on resume), it is the same
        interaction with the same token and window."""
        iid = int(payload["id"])
        who = payload["member"]["user"]
        self.world.users.setdefault(int(who["id"]), who)
        if iid not in self.interactions:
            message = payload.get("message")
            self.interactions[iid] = Interaction(
                iid,
                payload["token"],
                payload["type"],
                int(payload["channel_id"]),
                self.world.clock(),
                int(message["id"]) if message else None,
            )

    def callback(
        self, iid: int, token: str, body: dict[str, Any], files: list[Upload]
    ) -> dict[str, Any]:
        found = self.interactions.get(iid)
        if found is None or found.token != token:
            raise Rejected(UNKNOWN_INTERACTION)
        kind, data = body["type"], body.get("data") or {}
        if found.answer is not None:
            raise Rejected(ALREADY_ACKNOWLEDGED)
        if self.world.clock() - found.created > self.window:
            found.late.append(kind)
            raise Rejected(UNKNOWN_INTERACTION)
        if kind not in ALLOWED[found.kind]:
            raise Rejected(INVALID_FORM, f"callback type {kind} for interaction type {found.kind}")
        message: Posted | None = None
        if kind == MESSAGE:
            message = self.world.post(token, found.channel, data, files)
        elif kind == DEFERRED:
            message = self.world.post(token, found.channel, {"flags": data.get("flags", 0)}, [])
            message.loading = True
        elif kind == UPDATE:
            message = self.world.edit(self._pressed(found), data, files)
        elif kind == CHOICES:
            check_choices(data.get("choices") or [])
            found.choices = data.get("choices") or []
        elif kind == MODAL:
            check_modal(data)
            found.modal = data
        found.answer = kind
        found.original = message.id if message else found.message
        interaction: dict[str, Any] = {"id": str(iid), "type": found.kind}
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            interaction |= {
                "response_message_id": str(message.id),
                "response_message_loading": message.loading,
                "response_message_ephemeral": bool(message.flags & EPHEMERAL),
            }
            if kind in (MESSAGE, UPDATE):
                resource["message"] = message_data(message, self.world.base)
        return {"interaction": interaction, "resource": resource}

    def webhook(
        self, method: str, token: str, target: str | None, body: Any, files: list[Upload]
    ) -> dict[str, Any] | None:
        """`/webhooks/<app>/<token>` (POST: a follow-up) and `.../messages/<@original|id>`."""
        found = next((i for i in self.interactions.values() if i.token == token), None)
        if found is None:
            raise Rejected(UNKNOWN_WEBHOOK)
        if self.world.clock() - found.created > self.token_life:
            raise Rejected(INVALID_WEBHOOK_TOKEN)
        if found.answer not in (MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE):
            raise Rejected(UNKNOWN_WEBHOOK)  # not answered (yet), or answered with no message
        body = body or {}
        original = self.world.messages.get(found.original or 0)
        if target is None and method == "POST":
            if original is not None and original.loading:  # fills in the thinking message
                self._check_thread(found, original.flags)
                fill = {k: v for k, v in body.items() if k != "flags"}
                return message_data(self.world.edit(original, fill, files), self.world.base)
            self._check_thread(found, body.get("flags", 0))
            posted = self.world.post(token, found.channel, body, files)
            return message_data(posted, self.world.base)
        if target == "@original":
            if original is None:
                raise Rejected(UNKNOWN_MESSAGE)
            message = original
        else:
            message = self.world.message(token, int(target or 0))
        if method == "DELETE":
            del self.world.messages[message.id]
            return None
        if method == "PATCH":
            self._check_thread(found, message.flags)
            message = self.world.edit(message, body, files)
        return message_data(message, self.world.base)

    def _pressed(self, found: Interaction) -> Posted:
        message = self.world.messages.get(found.message or 0)
        if message is None:
            raise Rejected(UNKNOWN_MESSAGE)
        return message

    def _check_thread(self, found: Interaction, flags: int) -> None:
        """A message everyone sees, written by an interaction in a thread archived since, is
        refused like an edit there (discord/discord-api-docs#6884: a deferred answer given
        after a moderator locked the thread, 50083)."""
        if not flags & EPHEMERAL and found.channel in self.world.threads:
            self.world.check_thread_write(found.channel)
