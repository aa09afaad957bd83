"""``bot.discord.wire``: a message with a picture goes out as one body, the same form Discord
would have read from aiohttp's part-by-part writes, through discord.py's own webhook adapter."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter, handle_message_parameters

from bot.discord.wire import one_body

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


class _Seen:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.limited = 0
        """Answer this many requests first with a 429, as Discord's edge does (``Via``)."""


@pytest.fixture
async def server() -> AsyncIterator[tuple[str, _Seen]]:
    seen = _Seen()

    async def handle(request: web.Request) -> web.Response:
        raw = b""
        form: dict[str, Any] = {}
        if request.content_type == "multipart/form-data":
            for name, value in (await request.post()).items():
                form[name] = ((value.filename, value.file.read())
                              if isinstance(value, web.FileField) else (None, value))
        else:
            raw = await request.read()
        seen.requests.append({"method": request.method, "path": request.path,
                              "headers": dict(request.headers), "raw": raw, "form": form})
        if seen.limited:
            seen.limited -= 1
            # exactly Discord's content type: discord.py reads JSON only under that one
            return web.Response(
                body=json.dumps({"message": "You are being rate limited.", "retry_after": 0.01,
                                 "global": False}).encode(),
                status=429, headers={"Content-Type": "application/json", "Via": "1.1 google",
                                     "X-RateLimit-Scope": "user"})
        return web.json_response({"id": "7"})

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}", seen
    finally:
        await runner.cleanup()


async def _edit(session: Any, base: str, monkeypatch: pytest.MonkeyPatch, **fields: Any) -> None:
    monkeypatch.setattr(discord.webhook.async_.Route, "BASE", base)
    with handle_message_parameters(**fields) as params:
        await AsyncWebhookAdapter().edit_webhook_message(
            1, "token", 2, session=session, payload=params.payload,
            multipart=params.multipart, files=params.files)


async def test_a_form_goes_out_as_one_body_with_the_same_parts(
        server: tuple[str, _Seen], monkeypatch: pytest.MonkeyPatch) -> None:
    base, seen = server
    async with aiohttp.ClientSession() as session:
        for sending in (session, one_body(session)):
            await _edit(sending, base, monkeypatch, content="Kortbord ♠",
                        file=discord.File(io.BytesIO(PNG), "table.png", description="the pile"))
    before, after = seen.requests
    assert before["method"] == after["method"] == "PATCH"
    assert before["path"] == after["path"] == "/webhooks/1/token/messages/2"
    assert after["form"] == before["form"]
    assert after["form"]["files[0]"] == ("table.png", PNG)
    payload = json.loads(after["form"]["payload_json"][1])
    assert payload["content"] == "Kortbord ♠"
    assert payload["attachments"][0]["description"] == "the pile"
    # one body of known length, not a stream
    assert int(after["headers"]["Content-Length"]) > len(PNG)
    assert after["headers"]["Content-Type"].startswith("multipart/form-data; boundary=")


async def test_a_request_without_files_is_sent_as_it_is(
        server: tuple[str, _Seen], monkeypatch: pytest.MonkeyPatch) -> None:
    base, seen = server
    async with aiohttp.ClientSession() as session:
        await _edit(one_body(session), base, monkeypatch, content="no picture")
    (request,) = seen.requests
    assert request["headers"]["Content-Type"] == "application/json"
    assert json.loads(request["raw"])["content"] == "no picture"


async def test_a_form_retried_after_a_429_goes_out_whole_again(
        server: tuple[str, _Seen], monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's adapter sends a rate-limited request again with its file read anew: the
    second one body carries the same picture, not an emptied one."""
    base, seen = server
    seen.limited = 1
    async with aiohttp.ClientSession() as session:
        await _edit(one_body(session), base, monkeypatch, content="again",
                    file=discord.File(io.BytesIO(PNG), "hand.png", description="your hand"))
    first, second = seen.requests
    assert first["form"] == second["form"]
    assert second["form"]["files[0]"] == ("hand.png", PNG)
