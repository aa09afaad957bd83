"""What every REST route shares: the fake behind the request, reading the body (JSON, or
multipart with ``payload_json`` and ``files[n]``), snowflakes in the path, JSON answers."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord import errors
from bot.fakediscord.attachments import Upload, media_type
from bot.fakediscord.formdata import FormFile, read_form
from bot.fakediscord.jsonvalue import dumps, loads

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Files = list[Upload]
_FILE_FIELD = re.compile(r"files\[(\d+)\]")

FAKE_KEY = web.AppKey("fake", object)
BODY = web.RequestKey("fakediscord.body", object)
"""Where ``read_body`` leaves the request's JSON (or payload_json) for the contract check."""


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # exactly "application/json", no charset: discord.py only parses that content type
    return web.Response(
        body=dumps(data),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def fake_of(request: web.Request) -> FakeCore:
    return request.app[FAKE_KEY]  # type: ignore[return-value]


async def read_body(request: web.Request) -> tuple[Any, Files]:
    """The JSON body, or ``payload_json`` (else the plain form fields) and the uploaded
    ``files[n]`` of a multipart body."""
    form = await read_form(request)
    if form is not None:
        files: Files = []
        fields: dict[str, Any] = {}
        payload: Any = None
        for field in form:
            name = field.name
            if isinstance(field, FormFile):
                found = _FILE_FIELD.fullmatch(name)
                if found is None:
                    raise errors.invalid_form_body(
                        {name: {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Unknown"}]}}
                    )
                files.append(
                    Upload(
                        int(found.group(1)),
                        field.filename,
                        media_type(field.filename, field.content_type),
                        field.data,
                    )
                )
            else:
                # a part sent with its own content type (payload_json as application/json)
                # comes back as bytes
                value = field.value
                text = value.decode() if isinstance(value, bytes) else value
                if name == "payload_json":
                    try:
                        payload = loads(text)
                    except ValueError:
                        raise errors.bad_json() from None
                else:
                    fields[name] = text
        request[BODY] = payload if payload is not None else fields
        return request[BODY], files
    raw = await request.read()
    if not raw:
        return {}, []
    try:
        request[BODY] = loads(raw)
    except ValueError:
        raise errors.bad_json() from None
    return request[BODY], []


def path_id(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise errors.invalid_form_body(
            {
                key: {
                    "_errors": [
                        {"code": "NUMBER_TYPE_COERCE", "message": "Value is not snowflake."}
                    ]
                }
            }
        ) from None


def answer(data: Any, status: int = 200) -> web.Response:
    return json_response(data, status=status)


def no_content() -> web.Response:
    return web.Response(status=204)


def truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")

