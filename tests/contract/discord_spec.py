"""Discord's published OpenAPI description (``openapi.json`` here) as the fake Discord's contract.

``DiscordSpec.check(method, route, body)`` says what is wrong with a request by the
description: a route or method it does not have, or a JSON body (or the ``payload_json`` part of
a multipart body) that breaks the operation's request schema — each with the route, the path
inside the body and the schema's message. The fake calls it for every request it serves
(``FakeDiscord.contract``), and the end-to-end tests fail on what it finds.

Cheap per request: the description is read once per process, each operation's validator is
built the first time the operation is called and kept (``jsonschema_rs``: compiled, in Rust);
only a body that fails is validated again by ``jsonschema`` to name the deepest error, as its
``best_match`` does for the branches of a ``oneOf``. ``accepted.py`` widens the schemas where
Discord accepts more than the description says, and lists the routes Discord serves that it has
no path for (the OAuth2 token endpoint).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from tests.contract.accepted import ACCEPTED, UNDESCRIBED

SPEC_PATH = Path(__file__).with_name("openapi.json")
_PARAMETER = re.compile(r"\{[^}/]+\}")


@dataclass(frozen=True)
class Operation:
    operation_id: str
    takes_body: bool
    schema: dict[str, Any] | None
    """The JSON request schema, rooted so its ``#/components/...`` references resolve."""
    responses: dict[str, dict[str, Any]]
    """The JSON schema of each successful status's response body, rooted likewise."""


class DiscordSpec:
    def __init__(self, spec: dict[str, Any]) -> None:
        components = copy.deepcopy(spec["components"])
        for extra in ACCEPTED:
            original = components["schemas"][extra.schema]
            components["schemas"][extra.schema] = {"anyOf": [original, extra.also]}
        self._components = components
        self._operations: dict[tuple[str, str], Operation] = {}
        self._templates: list[tuple[re.Pattern[str], str]] = []
        for template, item in spec["paths"].items():
            pattern = "/".join("[^/]+" if _PARAMETER.fullmatch(part) else re.escape(part)
                               for part in template.split("/"))
            self._templates.append((re.compile(pattern + "$"), template))
            for method, operation in item.items():
                if method == "parameters":
                    continue
                body = operation.get("requestBody")
                schema = None
                if body is not None and "application/json" in body["content"]:
                    schema = body["content"]["application/json"]["schema"]
                responses = {
                    status: {**answer["content"]["application/json"]["schema"],
                             "components": components}
                    for status, answer in operation["responses"].items()
                    if status.startswith("2") and "application/json" in answer.get("content", {})
                }
                self._operations[method.upper(), template] = Operation(
                    operation["operationId"], body is not None,
                    None if schema is None else {**schema, "components": components}, responses,
                )
        self._fast: dict[str, Any] = {}
        self._template_of: dict[str, str | None] = {t: t for _, t in self._templates}
        """Route → its template, as ``template`` found it: every request of every test asks."""

    def template(self, route: str) -> str | None:
        """The description's path for a route: the same template, or the template a concrete
        path (of a route the fake does not model) matches."""
        if route not in self._template_of:
            self._template_of[route] = next(
                (t for pattern, t in self._templates if pattern.match(route)), None)
        return self._template_of[route]

    def check(self, method: str, route: str, body: Any) -> list[str]:
        """What breaks the description in ``method route`` with ``body`` (None: none sent)."""
        if any(u.method == method and u.route == route for u in UNDESCRIBED):
            return []
        template = self.template(route)
        if template is None:
            return [f"{method} {route}: Discord's API description has no such route"]
        operation = self._operations.get((method, template))
        if operation is None:
            return [f"{method} {route}: Discord's API description has no {method} for it"]
        if body is None:
            return []
        if operation.schema is None:
            if operation.takes_body:
                return []
            return [f"{method} {route} ({operation.operation_id}): sends a body, the operation "
                    "takes none"]
        if self._valid(operation.operation_id, operation.schema, body):
            return []
        return [f"{method} {route} ({operation.operation_id}): {_explain(operation.schema, body)}"]

    def check_response(self, method: str, route: str, status: int, body: Any) -> list[str]:
        """What breaks the description in the JSON body of a successful answer (the fake's
        own tests check the fake with it)."""
        template = self.template(route)
        operation = None if template is None else self._operations.get((method, template))
        schema = None if operation is None else operation.responses.get(str(status))
        if operation is None or schema is None:
            return []
        key = f"{operation.operation_id} {status}"
        if self._valid(key, schema, body):
            return []
        return [f"the fake's {status} answer to {method} {route} ({operation.operation_id}): "
                f"{_explain(schema, body)}"]

    def check_object(self, name: str, body: Any) -> list[str]:
        """What breaks the description's ``components.schemas[name]`` in ``body``: for what
        the fake sends over the gateway (a MESSAGE_CREATE's message is a MessageResponse), which
        the HTTP description holds the objects of but no route for."""
        schema = {"$ref": f"#/components/schemas/{name}", "components": self._components}
        if self._valid(f"schema {name}", schema, body):
            return []
        return [f"{name}: {_explain(schema, body)}"]

    def _valid(self, key: str, schema: dict[str, Any], body: Any) -> bool:
        validator = self._fast.get(key)
        if validator is None:
            validator = jsonschema_rs.Draft202012Validator(schema)
            self._fast[key] = validator
        try:
            return bool(validator.is_valid(body))
        except ValueError:  # NaN or infinity, which JSON cannot hold (the fake's JSON tests)
            return not any(jsonschema.Draft202012Validator(schema).iter_errors(body))


def _explain(schema: dict[str, Any], body: Any) -> str:
    """The deepest error, at its path inside the body. Where a ``oneOf``/``anyOf`` failed (the
    description's unions: a component is one of seven kinds), it follows the one branch whose
    ``type`` (or other ``const``/``enum`` discriminator) fits, instead of ``best_match``'s guess."""
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(body))
    if not errors:  # the two libraries disagree; say so rather than let it pass
        return "rejected by jsonschema_rs, accepted by jsonschema"
    error = _follow(max(errors, key=jsonschema.exceptions.relevance))
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"at body{where}: {_message(error)}"


_SHOWN = 60
"""How much of a failing value a message quotes (a 6000-character content says nothing more)."""


def _follow(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    while error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if not any(map(_discriminates, errs))]
        if len(fitting) != 1:  # none fits (the message lists the types), or several do
            return error
        error = max(fitting[0], key=jsonschema.exceptions.relevance)
    return error


def _discriminates(error: jsonschema.ValidationError) -> bool:
    """An error that rules its whole branch out: the value is of another JSON type, or its
    ``type`` field names another kind."""
    if not error.relative_path:
        return error.validator == "type"
    return list(error.relative_path) == ["type"] and error.validator in ("enum", "const")


def _message(error: jsonschema.ValidationError) -> str:
    choices = error.validator_value
    if error.validator in ("oneOf", "anyOf") and all("const" in c for c in choices):
        named = ", ".join(f"{c['const']!r} ({c.get('title', '')})" for c in choices)
        return f"{_quote(error.instance)} is not one of {named}"
    if error.validator in ("oneOf", "anyOf") and error.context and all(
            e.validator == "type" and not e.relative_path for e in error.context):
        wanted = ", ".join(repr(e.validator_value) for e in error.context)
        return f"{_quote(error.instance)} is of none of the types {wanted}"
    return error.message.replace(repr(error.instance), _quote(error.instance))


def _quote(value: Any) -> str:
    shown = repr(value)
    if len(shown) <= _SHOWN:
        return shown
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{shown[:_SHOWN]}…{size}"


@functools.cache
def discord_spec() -> DiscordSpec:
    """The vendored description, read once per process (each pytest-xdist worker its own)."""
    return DiscordSpec(json.loads(SPEC_PATH.read_text()))
