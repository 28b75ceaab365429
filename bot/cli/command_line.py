"""Reading a typed console line as a Discord command: which command it names and its options.

Options are written `name:value`. Text before the first named option fills, in order, the
options not given by name: an option that is one word (a number, a hex, a title, yes or no)
takes one word, an option of free text (a move, routes, JSON) takes the rest, so
`/play lay H14 57 2` and `/play move bid CS 50` read as Discord's options would.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.parsing import MAX_INTEGER
from bot.core.results import Caller


class ConsoleInputError(ValueError):
    """A line the console cannot read; the message says how to write it."""


YES = ("yes", "y", "true")
NO = ("no", "n", "false")


@dataclass(frozen=True)
class Param:
    name: str
    kind: type  # int, float, bool or str
    required: bool = False
    word: bool = False  # a text option of one word (numbers and yes/no always are)

    @property
    def one_word(self) -> bool:
        return self.word or self.kind is not str

    @property
    def usage(self) -> str:
        shown = {int: "number", float: "number", bool: "yes|no"}.get(self.kind, "text")
        typed = f"{self.name}:<{shown}>"
        return typed if self.required else f"[{typed}]"


GAME = Param("game", int)  # the game a command is about (default: the one in play)


Handler = Callable[[Any, Caller, dict], Awaitable[None]]  # (the console, who, the options)


@dataclass(frozen=True)
class Command:
    name: str
    params: tuple[Param, ...]
    description: str
    run: Handler
    group: str = "/game"  # "" for a top-level command such as /notify
    by_mover: bool = False  # without `as N:`, whoever must act types it (a move, your moves)

    @property
    def path(self) -> str:
        return f"{self.group} {self.name}" if self.group else f"/{self.name}"

    @property
    def usage(self) -> str:
        return " ".join([self.path, *(p.usage for p in self.params)])


def find_command(
    line: str, groups: Mapping[str, Mapping[str, Command]], top_level: Mapping[str, Command]
) -> tuple[Command, str]:
    """The command a line names and the text of its options."""
    words = line.split(maxsplit=2)
    head = words[0].lower() if words else ""
    if head in groups and len(words) >= 2 and words[1].lower() in groups[head]:
        return groups[head][words[1].lower()], words[2] if len(words) == 3 else ""
    top = top_level.get(head.removeprefix("/")) if head.startswith("/") else None
    if top is not None:
        return top, line.split(maxsplit=1)[1] if len(words) > 1 else ""
    if head in groups and len(words) < 2:
        raise ConsoleInputError(f"{head} needs a command: {', '.join(groups[head])}")
    hint = ""
    if near := _nearest(head, [*groups, *(f"/{name}" for name in top_level)]):
        group = groups.get(near)
        sub = _nearest(words[1].lower(), list(group)) if group and len(words) > 1 else None
        hint = f"did you mean {near}{f' {sub}' if sub else ''}? " if group is None or sub else ""
    elif head in groups and len(words) > 1:
        if sub := _nearest(words[1].lower(), list(groups[head])):
            hint = f"did you mean {head} {sub}? "
    raise ConsoleInputError(f"unknown command {line!r}; {hint}/game help lists the commands")


def _nearest(word: str, names: list[str]) -> str | None:
    """The name a typo most likely meant (one or two letters off), if any."""
    near = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return near[0] if near else None


def parse_arguments(text: str, command: Command) -> dict[str, Any]:
    """`name:value` pairs for the command's options; the text before the first name fills the
    options not given by name, in order (see the module's docstring)."""
    names = "|".join(re.escape(p.name) for p in command.params)
    marks = list(re.finditer(rf"(?:^|\s)({names}):", text)) if names else []
    raw: dict[str, str] = {}
    for mark, following in zip(marks, [*marks[1:], None]):
        name = mark.group(1)
        if name in raw:
            raise ConsoleInputError(f"{name} is given twice; usage: {command.usage}")
        raw[name] = text[mark.end() : following.start() if following else len(text)]
    lead = (text[: marks[0].start()] if marks else text).strip()
    for param in (p for p in command.params if p.name not in raw):
        if not lead:
            break
        first, _, rest = lead.partition(" ") if param.one_word else (lead, "", "")
        raw[param.name], lead = first, rest.strip()
    if lead:
        raise ConsoleInputError(f"cannot read {lead!r}; usage: {command.usage}")
    args: dict[str, Any] = {}
    for param in command.params:
        if param.name not in raw:
            if param.required:
                raise ConsoleInputError(f"{param.name} is missing; usage: {command.usage}")
            continue
        args[param.name] = _value(param, _unquote(raw[param.name].strip()))
    return args


def _value(param: Param, value: str) -> Any:
    if param.kind is int:
        if not re.fullmatch(r"-?\d+", value):
            raise ConsoleInputError(f"{param.name} must be a whole number, not {value[:30]!r}")
        if len(value.lstrip("-")) > 19 or not abs(int(value)) < MAX_INTEGER:
            raise ConsoleInputError(f"{param.name} must be a whole number below {MAX_INTEGER:,}")
        return int(value)
    if param.kind is float:
        if not re.fullmatch(r"-?\d{1,15}(\.\d{1,15})?", value):
            raise ConsoleInputError(f"{param.name} must be a number, not {value[:30]!r}")
        return float(value)
    if param.kind is bool:
        if value.casefold() not in (*YES, *NO):
            raise ConsoleInputError(f"{param.name} is yes or no, not {value[:30]!r}")
        return value.casefold() in YES
    return value


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value
