"""Discord's limits on what an app sends, each refused with 400 Invalid Form Body: slash
commands (names, descriptions, options, choices), messages (content, embeds, components),
autocomplete answers and modals (receiving-and-responding.mdx, "Interaction Callback Data
Structure"; application-commands.mdx; docs/resources/message.md; docs/components/reference)."""

from __future__ import annotations

import re
from typing import Any

from tests.fake_discord.refusals import INVALID_FORM, Rejected


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Discord's rules for slash commands (400 when one is broken): lowercase names of 1-32
    characters, descriptions of 1-100, at most 25 options or subcommands and 25 choices at each
    level, required options before optional ones."""
    problems = []

    def walk(items: list[dict[str, Any]], where: str) -> None:
        if len(items) > 25:
            problems.append(f"{where}: more than 25 options")
        required = [bool(o.get("required")) for o in items if o.get("type", 1) > 2]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: a required option after an optional one")
        for item in items:
            name = f"{where} {item.get('name')}".strip()
            if not re.fullmatch(r"[-_a-z0-9]{1,32}", item.get("name") or ""):
                problems.append(f"{name}: bad name")
            if not 1 <= len(item.get("description") or "") <= 100:
                problems.append(f"{name}: description not 1 to 100 characters")
            if len(item.get("choices") or []) > 25:
                problems.append(f"{name}: more than 25 choices")
            walk(item.get("options") or [], name)

    walk(commands, "")
    if problems:
        raise Rejected(INVALID_FORM, "; ".join(problems))


def check_limits(body: dict[str, Any], files: int = 0) -> None:
    """Discord's limits on a message (400 Invalid Form Body when one is passed); `files`: how
    many it uploads (at most 10)."""
    problems = []
    if len(body.get("content") or "") > 2000:
        problems.append("content over 2000 characters")
    if files > 10:
        problems.append("more than 10 files")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append("more than 10 embeds")
    if sum(embed_size(e) for e in embeds) > 6000:
        problems.append("embeds over 6000 characters together")
    for embed in embeds:
        fields = embed.get("fields") or []
        if (
            len(embed.get("title") or "") > 256
            or len(embed.get("description") or "") > 4096
            or len(fields) > 25
            or any(len(f["name"]) > 256 or len(f["value"]) > 1024 for f in fields)
            or len((embed.get("footer") or {}).get("text") or "") > 2048
            or len((embed.get("author") or {}).get("name") or "") > 256
        ):
            problems.append("an embed over its limits")
    rows = body.get("components") or []
    if len(rows) > 5 or any(len(r.get("components", [])) > 5 for r in rows):
        problems.append("more than 5 rows of components or 5 items in a row")
    items = [i for r in rows for i in r.get("components", [])]
    ids = [i["custom_id"] for i in items if "custom_id" in i]
    if len(ids) != len(set(ids)):
        problems.append("custom_id used twice in one message")
    for item in items:
        options = item.get("options") or []
        if (
            len(item.get("custom_id") or "") > 100
            or len(item.get("label") or "") > 80
            or len(options) > 25
            or any(
                len(o["label"]) > 100
                or len(o["value"]) > 100
                or len(o.get("description") or "") > 100
                for o in options
            )
        ):
            problems.append(f"a component over its limits: {item}")
    if problems:
        raise Rejected(INVALID_FORM, "; ".join(problems))


def embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6,000 of a message's embeds (message.md,
    "Embed Limits": title, description, field names and values, footer text, author name)."""
    fields = embed.get("fields") or []
    return sum(
        len(text or "")
        for text in (
            embed.get("title"),
            embed.get("description"),
            (embed.get("footer") or {}).get("text"),
            (embed.get("author") or {}).get("name"),
            *(f.get("name") for f in fields),
            *(f.get("value") for f in fields),
        )
    )


def check_choices(choices: list[dict[str, Any]]) -> None:
    """An autocomplete answer: at most 25 choices, each named in 1 to 100 characters, a string
    value at most 100 characters."""
    problems = []
    if len(choices) > 25:
        problems.append("more than 25 choices")
    for choice in choices:
        if not 1 <= len(str(choice.get("name") or "")) <= 100:
            problems.append(f"a choice name not 1 to 100 characters: {choice}")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"a choice value over 100 characters: {choice}")
    if problems:
        raise Rejected(INVALID_FORM, "; ".join(problems))


def check_modal(data: dict[str, Any]) -> None:
    """A modal: a custom id of at most 100 characters, a title of at most 45, 1 to 5 rows."""
    if (
        len(data.get("custom_id") or "") > 100
        or not 1 <= len(data.get("title") or "") <= 45
        or not 1 <= len(data.get("components") or []) <= 5
    ):
        raise Rejected(INVALID_FORM, "a modal over its limits")
