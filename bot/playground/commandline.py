"""What a person types in the message box: ``/game start computers:2``, read against the commands
the bot synced, the way Discord's client reads it — the command and subcommand names, then
``option:value`` pairs whose values run until the next known option name.

It also says what the client would offer while typing (commands, options, choices), and turns
values into the types the command declares. Pure functions over the synced definitions: the
web app asks the bot for autocomplete choices through the driver.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.fakediscord.validation import (
    OPTION_BOOLEAN,
    OPTION_CHANNEL,
    OPTION_INTEGER,
    OPTION_MENTIONABLE,
    OPTION_NUMBER,
    OPTION_STRING,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
    OPTION_USER,
)

SUGGESTION_LIMIT = 25
"""Discord's client lists at most this many commands or choices at once."""
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_TYPE_NAMES = {
    OPTION_STRING: "text", OPTION_INTEGER: "whole number", OPTION_BOOLEAN: "True or False",
    OPTION_USER: "user", OPTION_CHANNEL: "channel", OPTION_NUMBER: "number",
    OPTION_MENTIONABLE: "user",
}


class CommandLineError(ValueError):
    """What Discord's client would refuse to send; the message is for the person typing."""


@dataclass(frozen=True)
class Leaf:
    """A command as typed: ``path`` like ``"game start"``, with the options it takes."""

    path: str
    description: str
    options: tuple[dict[str, Any], ...]

    def option(self, name: str) -> dict[str, Any] | None:
        return next((o for o in self.options if o["name"] == name), None)


@dataclass(frozen=True)
class Given:
    """One ``name:value`` typed; ``start`` is where its value begins in the text."""

    name: str
    raw: str
    start: int


@dataclass(frozen=True)
class Parsed:
    leaf: Leaf | None
    given: tuple[Given, ...] = ()
    prefix: str = ""
    """Without a leaf: the command typed so far (no slash)."""
    loose: str = ""
    """Text after the command that is no ``name:value`` (a partial option name)."""


@dataclass(frozen=True)
class Suggestion:
    """One line of the client's pop-up; choosing it sets the text box to ``text``."""

    text: str
    label: str
    description: str = ""


@dataclass
class Suggestions:
    mode: str
    """``commands`` (no command chosen yet), ``options`` or ``values`` (one being typed)."""
    title: str = ""
    items: list[Suggestion] = field(default_factory=list)
    autocomplete: Given | None = None
    """The option whose choices the bot must be asked for (the value being typed)."""


def leaves(commands: Iterable[Mapping[str, Any]]) -> list[Leaf]:
    """Every chat-input command and subcommand, as typed, sorted by name."""
    found: list[Leaf] = []
    for command in commands:
        if command.get("type", 1) == 1:
            _walk(str(command["name"]), command, found)
    return sorted(found, key=lambda leaf: leaf.path)


def _walk(path: str, node: Mapping[str, Any], found: list[Leaf]) -> None:
    options = node.get("options") or []
    subs = [o for o in options if o["type"] in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)]
    if not subs:
        found.append(Leaf(path, str(node.get("description") or ""), tuple(options)))
        return
    for sub in subs:
        _walk(f"{path} {sub['name']}", sub, found)


def parse(text: str, commands: list[Leaf]) -> Parsed:
    """Read ``text`` (starting with ``/``) as far as it goes; never raises."""
    body = text.lstrip()
    offset = len(text) - len(body)
    if body.startswith("/"):
        body, offset = body[1:], offset + 1
    words = body.split()
    leaf = None
    for leaf_candidate in commands:
        names = leaf_candidate.path.split()
        if words[: len(names)] == names and (
            len(words) > len(names) or body.endswith((" ", "\t"))
        ):
            leaf = leaf_candidate
            break
    if leaf is None:
        return Parsed(None, prefix=" ".join(words) + (" " if body.endswith(" ") else ""))
    # the options start after the leaf's words
    match = re.match(r"\s*" + r"\s+".join(map(re.escape, leaf.path.split())), body)
    assert match is not None
    rest_start = offset + match.end()
    rest = text[rest_start:]
    names = sorted((o["name"] for o in leaf.options), key=len, reverse=True)
    if not names:
        return Parsed(leaf, loose=rest.strip())
    pattern = re.compile(r"(?:(?<=\s)|^)(" + "|".join(map(re.escape, names)) + r"):")
    marks = list(pattern.finditer(rest))
    head = rest[: marks[0].start()] if marks else rest
    given = []
    for n, mark in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(rest)
        raw = rest[mark.end():end]
        value = raw.strip()
        start = rest_start + mark.end() + (len(raw) - len(raw.lstrip()))
        given.append(Given(mark.group(1), value, start))
    return Parsed(leaf, tuple(given), loose=head.strip())


def suggest(text: str, commands: list[Leaf], people: Iterable[str] = ()) -> Suggestions:
    """What the client's pop-up offers for ``text``: matching commands; then the options not
    given yet; while a value is typed, its choices (static ones here; ``autocomplete`` names
    the option whose choices only the bot knows) and, once the value has a space, the options
    its last word may begin."""
    parsed = parse(text, commands)
    if parsed.leaf is None:
        prefix = parsed.prefix.lower()
        items = [Suggestion(f"/{leaf.path} ", f"/{leaf.path}", leaf.description)
                 for leaf in commands if leaf.path.startswith(prefix)]
        return Suggestions("commands", "Commands", items[:SUGGESTION_LIMIT])
    leaf = parsed.leaf
    ended = text.endswith((" ", "\t"))
    if parsed.given and not ended and not parsed.loose:
        current = parsed.given[-1]
        result = _values(text, leaf, current, people)
        if " " in current.raw:
            result.items += _option_names(text, leaf, parsed, current.raw.split()[-1])
        return result
    word = "" if ended or not parsed.loose else parsed.loose.split()[-1]
    return Suggestions("options", f"/{leaf.path}: {leaf.description}",
                       _option_names(text, leaf, parsed, word))


def _values(text: str, leaf: Leaf, current: Given, people: Iterable[str]) -> Suggestions:
    option = leaf.option(current.name) or {}
    result = Suggestions("values", f"{current.name}: {option.get('description', '')}".strip())
    base = text[: current.start]
    typed = current.raw.lower()
    if option.get("autocomplete"):
        result.autocomplete = current
    elif option.get("choices"):
        result.items = [
            Suggestion(f"{base}{c['value']} ", str(c["name"]))
            for c in option["choices"]
            if str(c["name"]).lower().startswith(typed) or str(c["value"]).lower().startswith(typed)
        ][:SUGGESTION_LIMIT]
    elif option.get("type") == OPTION_BOOLEAN:
        result.items = [Suggestion(f"{base}{v} ", v) for v in ("True", "False")
                        if v.lower().startswith(typed)]
    elif option.get("type") in (OPTION_USER, OPTION_MENTIONABLE):
        result.items = [Suggestion(f"{base}@{p} ", f"@{p}") for p in people
                        if p.lower().startswith(typed.lstrip("@"))]
    return result


def _option_names(text: str, leaf: Leaf, parsed: Parsed, word: str) -> list[Suggestion]:
    """The options not given yet whose names begin with ``word`` (the end of ``text``),
    required ones first."""
    given = {g.name for g in parsed.given}
    base = text[: len(text) - len(word)]
    if base and not base.endswith((" ", "\t")):
        base += " "
    remaining = [o for o in leaf.options
                 if o["name"] not in given and str(o["name"]).startswith(word)]
    remaining.sort(key=lambda o: not o.get("required", False))
    return [
        Suggestion(f"{base}{o['name']}:", str(o["name"]),
                   ("required · " if o.get("required") else "") + str(o.get("description", "")))
        for o in remaining
    ]


def options_for(
    parsed: Parsed,
    resolve_user: Callable[[str], Any],
    resolve_channel: Callable[[str], Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The typed values in the command's types, for ``Driver.slash`` (or for
    ``Driver.autocomplete``: then ``focused`` stays the raw text, and values that do not read
    are left out, as the client sends what it can)."""
    leaf = parsed.leaf
    if leaf is None:
        raise CommandLineError("Unknown command — type / to see the commands.")
    if parsed.loose:
        raise CommandLineError(
            f"/{leaf.path} does not know {parsed.loose.split()[0]!r}: options are written "
            "name:value" + (f" ({', '.join(o['name'] for o in leaf.options)})"
                            if leaf.options else " (it takes none)")
        )
    values: dict[str, Any] = {}
    for item in parsed.given:
        if item.name in values:
            raise CommandLineError(f"{item.name} is given twice.")
        if item.name == focused:
            values[item.name] = item.raw
            continue
        option = leaf.option(item.name)
        assert option is not None
        try:
            values[item.name] = _value(option, item.raw, resolve_user, resolve_channel)
        except CommandLineError:
            if focused is None:
                raise
    if focused is None:
        missing = [o["name"] for o in leaf.options
                   if o.get("required") and o["name"] not in values]
        if missing:
            raise CommandLineError(f"/{leaf.path} needs {', '.join(m + ':' for m in missing)}")
    return values


def _value(
    option: Mapping[str, Any],
    raw: str,
    resolve_user: Callable[[str], Any],
    resolve_channel: Callable[[str], Any],
) -> Any:
    kind = option["type"]
    name = option["name"]
    if raw == "":
        raise CommandLineError(f"{name}: give a value after the colon.")
    wrong = CommandLineError(f"{name} takes a {_TYPE_NAMES.get(kind, 'value')}, not {raw!r}.")
    if kind == OPTION_STRING:
        return raw
    if kind == OPTION_INTEGER:
        if not re.fullmatch(r"[+-]?\d+", raw):
            raise wrong
        return int(raw)
    if kind == OPTION_NUMBER:
        try:
            return float(raw)
        except ValueError:
            raise wrong from None
    if kind == OPTION_BOOLEAN:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise wrong
    if kind in (OPTION_USER, OPTION_MENTIONABLE):
        user = resolve_user(raw.lstrip("@"))
        if user is None:
            raise CommandLineError(f"{name}: nobody here is called {raw!r}.")
        return user
    if kind == OPTION_CHANNEL:
        channel = resolve_channel(raw.lstrip("#"))
        if channel is None:
            raise CommandLineError(f"{name}: there is no channel {raw!r}.")
        return channel
    raise CommandLineError(f"{name}: this page cannot send that kind of option.")
