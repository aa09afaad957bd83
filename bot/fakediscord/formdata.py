"""``multipart/form-data`` request bodies (``payload_json`` and ``files[n]``), read without
aiohttp's ``Request.post()`` when the body has the plain shape clients write.

Why: the bot attaches a picture to many of its messages, so under load most of the fake's
requests are multipart, and ``post()`` was the fake's largest cost. aiohttp 3.14 parses each
part's ``Content-Disposition`` three times, rebuilding a regular expression's character class
of 128 escaped characters every time, and parses the request's ``Content-Type`` with
``email.headerregistry``, whose cache never hits because every request has its own boundary.

How: a body of the shape discord.py (aiohttp's ``FormData``), browsers and most HTTP clients
send is split here — the first line the boundary; each part's headers nothing but
``Content-Disposition: form-data; name="…"`` (``; filename="…"``) and an optional
``Content-Type``; each part's content up to the first ``CRLF--boundary``; the body ending with
the closing delimiter. It yields exactly the fields ``post()`` yields for it. Anything outside
that shape — a preamble or epilogue, other part headers (``Content-Transfer-Encoding``),
backslash escapes, ``name*``/``filename*``, a ``_charset_`` field, nested multipart, a text
part that its charset cannot decode, more fields than aiohttp allows, a compressed or chunked
request — goes to ``post()`` on the same bytes, so it is accepted, or refused with the same
error, exactly as before. ``tests/e2e/test_fake_formdata.py`` compares the two on well-formed,
generated and hostile bodies.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

from aiohttp import StreamReader, hdrs, web
from aiohttp.helpers import parse_mimetype

# what aiohttp's post() gives a file part that names no type (RFC 7578 section 4.4)
DEFAULT_FILE_TYPE = "application/octet-stream"


@dataclass(frozen=True, slots=True)
class FormFile:
    """A part with a (non-empty) filename, as ``post()`` gives it (``web.FileField``)."""

    name: str
    filename: str
    content_type: str  # as sent, or application/octet-stream
    data: bytes


@dataclass(frozen=True, slots=True)
class FormValue:
    """A part without a filename: text, decoded in the charset its ``text/*`` type names
    (UTF-8 without one); bytes when the part names another type (``application/json``)."""

    name: str
    value: str | bytes


FormField = FormFile | FormValue

# The request's Content-Type as clients write it (aiohttp and requests: a hex boundary;
# browsers and curl: letters, digits and dashes). A boundary is at most 70 characters (RFC 2046).
_PLAIN_CONTENT_TYPE = re.compile(r"multipart/form-data; boundary=([0-9A-Za-z_-]{1,70})")
# One part header: the two a form part has, no control character (aiohttp's header parser
# refuses those); spaces around the value are dropped, as aiohttp strips them.
_PART_HEADER = re.compile(rb"(content-disposition|content-type):[ ]*([^\x00-\x1f\x7f]*)", re.I)
_DISPOSITION = b"content-disposition"
_CONTENT_TYPE = b"content-type"
# Quoted name and filename with nothing aiohttp would unescape (backslashes) or split (";").
_QUOTED = r'"([^"\\;\x00-\x1f\x7f]*)"'
_FORM_DATA = re.compile(rf"form-data; name={_QUOTED}(?:; filename={_QUOTED})?")
# well under aiohttp's limit for one header line (its protocol's max_field_size, 8190)
_MAX_HEADER_LINE = 4096


async def read_form(request: web.Request) -> list[FormField] | None:
    """The fields of a ``multipart/form-data`` body, in the order sent; None when the request
    is not ``multipart/form-data``. Raises what ``post()`` raises for a malformed body."""
    boundary = _plain_boundary(request)
    if boundary is not None:
        body = await _take_body(request.content)
        # aiohttp before 3.14 has no limit on the number of fields (0: none)
        fields = parse(body, boundary, getattr(request, "client_max_fields", 0))
        if fields is not None:
            return fields
        _put_back(request.content, body)
    elif request.content_type != "multipart/form-data":
        return None
    form = await request.post()
    return [_from_aiohttp(name, value) for name, value in form.items()]


def parse(body: bytes, boundary: str, max_fields: int) -> list[FormField] | None:
    """The fields of ``body`` if it has the plain shape (module docstring), else None."""
    dash = b"--" + boundary.encode("ascii")
    if not body.startswith(dash + b"\r\n"):
        return None
    delimiter = b"\r\n" + dash
    fields: list[FormField] = []
    at = len(dash) + 2
    while True:
        if body.startswith(b"\r\n", at):
            return None  # a part without headers, so without a name
        blank = body.find(b"\r\n\r\n", at)
        if blank < 0:
            return None
        headers = _part_headers(body[at:blank])
        start = blank + 4
        # aiohttp looks for the delimiter from the CRLF that ends the headers; one found there
        # (a part with no CRLF before its delimiter) is left to it
        end = body.find(delimiter, start - 2)
        if headers is None or end < start:
            return None
        field = _field(headers, body[start:end])
        if field is None:
            return None
        fields.append(field)
        at = end + len(delimiter)
        if body.startswith(b"\r\n", at):
            at += 2
        elif body[at:] in (b"--", b"--\r\n"):
            break
        else:
            return None  # not a delimiter line, or an epilogue after the closing one
    if 0 < max_fields < len(fields):
        return None
    return fields


def _plain_boundary(request: web.Request) -> str | None:
    """The boundary, if ``request`` is one the plain path may read whole: form data sent with
    a method ``post()`` reads, of a known length within the app's body limit, neither
    compressed nor chunked (aiohttp counts those limits on the decoded bytes as it goes)."""
    if request.method not in request.POST_METHODS:
        return None
    length = request.content_length
    if length is None or 0 < request.client_max_size < length:
        return None
    headers = request.headers
    if hdrs.CONTENT_ENCODING in headers or hdrs.TRANSFER_ENCODING in headers:
        return None
    found = _PLAIN_CONTENT_TYPE.fullmatch(headers.get(hdrs.CONTENT_TYPE, ""))
    return None if found is None else found.group(1)


async def _take_body(stream: StreamReader) -> bytes:
    # readany(), not read() or Request.read(): those raise the stream's buffer limits, which
    # also bound the longest line post() accepts, and post() may still have to read this body
    chunks = []
    while chunk := await stream.readany():
        chunks.append(chunk)
    return b"".join(chunks)


def _put_back(stream: StreamReader, body: bytes) -> None:
    # the only way to give post() the bytes already read; aiohttp's multipart reader itself
    # relies on it (aiohttp/multipart.py), silencing the same deprecation warning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        stream.unread_data(body)


def _part_headers(block: bytes) -> dict[bytes, str] | None:
    headers: dict[bytes, str] = {}
    for line in block.split(b"\r\n"):
        found = _PART_HEADER.fullmatch(line) if len(line) <= _MAX_HEADER_LINE else None
        if found is None:
            return None
        name = found.group(1).lower()
        if name in headers:
            return None  # aiohttp refuses a second Content-Type and reads the first of others
        try:
            headers[name] = found.group(2).rstrip(b" ").decode()
        except UnicodeDecodeError:
            return None
    return headers


def _field(headers: dict[bytes, str], content: bytes) -> FormField | None:
    disposition = _FORM_DATA.fullmatch(headers.get(_DISPOSITION, ""))
    if disposition is None:
        return None
    # aiohttp drops leading slashes (and backslashes) from quoted values
    name = disposition.group(1).lstrip("/")
    filename = (disposition.group(2) or "").lstrip("/")
    content_type = headers.get(_CONTENT_TYPE)
    if name == "_charset_":
        return None  # sets the charset of the fields after it
    if content_type is not None and parse_mimetype(content_type).type == "multipart":
        return None  # nested multipart, which post() refuses
    if filename:
        sent = DEFAULT_FILE_TYPE if content_type is None else content_type  # even if empty
        return FormFile(name, filename, sent, content)
    if content_type is not None and not content_type.startswith("text/"):
        return FormValue(name, content)
    charset = parse_mimetype(content_type or "").parameters.get("charset", "utf-8")
    try:
        return FormValue(name, content.decode(charset))
    except (LookupError, ValueError):
        return None  # an unknown charset or bytes it cannot decode: post()'s error


def _from_aiohttp(name: str, value: str | bytes | bytearray | web.FileField) -> FormField:
    if isinstance(value, web.FileField):
        return FormFile(name, value.filename, value.content_type, value.file.read())
    return FormValue(name, value if isinstance(value, str) else bytes(value))
