"""INTERACTION_CREATE payloads as Discord sends them (receiving-and-responding.mdx, "Interaction
Object"): a typed slash command (type 2), a button pressed or a menu picked (type 3, carrying
the message the component was on), and an autocomplete request (type 4, the option being typed
marked `focused`, with the options typed so far)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.fake_discord.payloads import (
    APP_ID,
    GUILD_ID,
    PERMISSIONS,
    UPLOAD_LIMIT,
    member,
    thread_data,
)

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
BUTTON, STRING_SELECT = 2, 3  # component types


@dataclass(frozen=True)
class Resolved:
    """An option naming a user (type 6) or an attachment (11): Discord sends its id as the
    value and the object itself in the interaction's `resolved` data."""

    type: int
    id: str
    kind: str  # "users" or "attachments"
    data: dict[str, Any]


def user_option(who: dict[str, Any]) -> Resolved:
    return Resolved(6, who["id"], "users", who)


def attachment_option(attachment: dict[str, Any]) -> Resolved:
    return Resolved(11, attachment["id"], "attachments", attachment)


def option_type(value: Any) -> int:
    if isinstance(value, Resolved):
        return value.type
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3


def interaction(
    iid: int,
    who: dict[str, Any],
    kind: int,
    data: dict[str, Any],
    where: dict[str, Any] | None,
    permissions: str = PERMISSIONS,
) -> dict[str, Any]:
    """The common fields; `where` is the channel or thread as Discord describes it (default:
    the game thread), `permissions` the bot's there."""
    where = where or thread_data()
    guild = where.get("guild_id", str(GUILD_ID))  # the server of the channel
    return {
        "id": str(iid),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"tok{iid}",
        "version": 1,
        "guild_id": guild,
        "channel_id": where["id"],
        "channel": where,
        "app_permissions": permissions,
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": UPLOAD_LIMIT,
        "authorizing_integration_owners": {"0": guild},
        "context": 0,
        "member": member(who),
        "data": data,
    }


def command_interaction(
    iid: int,
    who: dict[str, Any],
    group: str,
    sub: str | None,
    options: dict[str, Any],
    where: dict[str, Any] | None = None,
    *,
    focused: str | None = None,
    permissions: str = PERMISSIONS,
) -> dict[str, Any]:
    """`/group sub option:value...` (`sub` None: a command without subcommands); with
    `focused`, the autocomplete request sent while that option is being typed."""
    typed = [
        {"name": k, "type": option_type(v), "value": v.id if isinstance(v, Resolved) else v}
        | ({"focused": True} if k == focused else {})
        for k, v in options.items()
    ]
    data: dict[str, Any] = {"id": "1", "name": group, "type": 1}
    data["options"] = typed if sub is None else [{"name": sub, "type": 1, "options": typed}]
    resolved: dict[str, dict[str, Any]] = {}
    for value in options.values():
        if isinstance(value, Resolved):
            resolved.setdefault(value.kind, {})[value.id] = value.data
    if resolved:
        data["resolved"] = resolved
    kind = COMMAND if focused is None else AUTOCOMPLETE
    return interaction(iid, who, kind, data, where, permissions)


def component_interaction(
    iid: int,
    who: dict[str, Any],
    message: dict[str, Any],
    custom_id: str,
    component_type: int,
    values: list[str] | None = None,
    where: dict[str, Any] | None = None,
    permissions: str = PERMISSIONS,
) -> dict[str, Any]:
    """A button pressed (`component_type` 2) or options picked from a string select (3, with
    `values`) on `message`."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type == STRING_SELECT:
        data["values"] = values or []
    return interaction(iid, who, COMPONENT, data, where, permissions) | {"message": message}


def find_component(components: list[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
    """The component of a message (in its action rows) with this custom id."""
    for row in components:
        for item in row.get("components", []):
            if item.get("custom_id") == custom_id:
                return item
    return None
