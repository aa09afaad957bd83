"""A request with a picture as one body on the wire.

discord.py's webhook adapter hands aiohttp a message with files as a ``FormData``, which aiohttp
writes part by part: a boundary, the part's headers, its bytes and a line end for each part, the
closing boundary last — nine writes to the socket, each a system call and a trace signal, for a
table or a hand panel with its picture. ``one_body`` gives the adapter a session that turns such
a form into the same ``multipart/form-data`` body in one buffer (aiohttp's own serialisation,
``MultipartWriter.as_bytes``) before sending it, so the request goes out in one write. Nothing
else about the request changes: its method, URL, headers, retries and rate limits stay the
adapter's (issue 44: a lighter move).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import aiohttp


class _OneBody:
    """``session.request(...)`` as an async context manager, the form made one body first."""

    __slots__ = ("_args", "_kwargs", "_request", "_session")

    def __init__(self, session: aiohttp.ClientSession, args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> None:
        self._session = session
        self._args = args
        self._kwargs = kwargs
        self._request: Any = None

    async def __aenter__(self) -> aiohttp.ClientResponse:
        kwargs = self._kwargs
        form = kwargs["data"]()  # the FormData's MultipartWriter, boundary and all
        kwargs["data"] = await form.as_bytes()
        kwargs["headers"] = {**(kwargs.get("headers") or {}), "Content-Type": form.content_type}
        self._request = self._session.request(*self._args, **kwargs)
        response: aiohttp.ClientResponse = await self._request.__aenter__()
        return response

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self._request.__aexit__(kind, error, trace)


class OneBodySession:
    """The part of an ``aiohttp.ClientSession`` that discord.py's webhook adapter uses
    (``request``), sending a multipart form as one body and anything else as it is."""

    __slots__ = ("_session",)

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("data"), aiohttp.FormData):
            return _OneBody(self._session, args, kwargs)
        return self._session.request(*args, **kwargs)


def one_body(session: aiohttp.ClientSession) -> Any:
    """``session`` for discord.py's webhook adapter, its forms sent as one body (typed ``Any``:
    the adapter is annotated with the whole ``ClientSession`` but calls only ``request``)."""
    return OneBodySession(session)
