"""The fake's ``multipart/form-data`` reader (``bot/fakediscord/formdata.py``): every body —
as discord.py writes it, generated, hostile — comes out exactly as aiohttp's ``Request.post()``
(what the fake used before) gives it, accepted or refused the same way; and through the fake,
hostile bodies get the answers they got before."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.formdata import FormFile, FormValue, parse, read_form
from tests.e2e.conftest import TEST_TOKEN, ErrorLog, World

pytestmark = [
    pytest.mark.e2e,
    # aiohttp warns of the malformed Content-Disposition headers these tests send
    pytest.mark.filterwarnings("ignore::aiohttp.BadContentDispositionHeader"),
    pytest.mark.filterwarnings("ignore::aiohttp.BadContentDispositionParam"),
]

BOUNDARY = "a1b2c3d4"
PLAIN_TYPE = f"multipart/form-data; boundary={BOUNDARY}"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(32))
END = f"--{BOUNDARY}--\r\n".encode()


def part(disposition: bytes, content: bytes, content_type: bytes | None = None) -> bytes:
    headers = b"Content-Disposition: " + disposition + b"\r\n"
    if content_type is not None:
        headers += b"Content-Type: " + content_type + b"\r\n"
    return f"--{BOUNDARY}\r\n".encode() + headers + b"\r\n" + content + b"\r\n"


def file_part(name: bytes, filename: bytes, data: bytes = PNG, content_type: bytes | None = None):
    disposition = b'form-data; name="' + name + b'"; filename="' + filename + b'"'
    return part(disposition, data, content_type)


PAYLOAD = part(b'form-data; name="payload_json"', b'{"content":"hi"}', b"text/plain; charset=utf-8")
FILE = file_part(b"files[0]", b"a.png", content_type=b"application/octet-stream")


def discord_py_body(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> bytes:
    """The body discord.py 2.x sends (``discord/http.py``: ``handle_message_parameters``,
    ``HTTPClient.request``), with this module's boundary instead of a random one."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value=json.dumps(payload))
    for index, (filename, data) in enumerate(files):
        form.add_field(
            name=f"files[{index}]",
            value=io.BytesIO(data),
            filename=filename,
            content_type="application/octet-stream",
        )
    writer = form()
    assert writer.headers["Content-Type"] == f"multipart/form-data; boundary={writer.boundary}"
    loop = asyncio.new_event_loop()  # at import: a loop of its own, nobody else's touched
    try:
        body = loop.run_until_complete(writer.as_bytes())
    finally:
        loop.close()
    return body.replace(writer.boundary.encode(), BOUNDARY.encode())


# Bodies of the plain shape the reader parses itself.
PLAIN: dict[str, bytes] = {
    "discord.py": discord_py_body({"content": "hi", "attachments": [{"id": 0}]}, [("a.png", PNG)]),
    "discord.py-utf8-names": discord_py_body(
        {"content": "é"}, [("hånd kort.png", PNG), ("日本 .png", b""), ("a b\u3000.txt", b"x")]
    ),
    "discord.py-slash-and-utf8-names": discord_py_body(
        {"content": "hand", "attachments": [{"id": 0}, {"id": 1, "description": "7♥ 7♠"}]},
        [("/etc/a.png", PNG), ("hånd kort.png", PNG)],
    ),
    "payload-as-json": part(b'form-data; name="payload_json"', b'{"a":1}', b"application/json")
    + END,
    "no-types": part(b'form-data; name="payload_json"', b'{"a":1}')
    + file_part(b"files[3]", b"x.png")
    + END,
    "form-fields": part(b'form-data; name="content"', "hej då".encode()) + END,
    "slashes-before-names": part(b'form-data; name="//content"', b"x")
    + file_part(b"/files[0]", b"/a.png")
    + END,
    "latin-1-text": part(b'form-data; name="content"', b"\xe9", b"text/plain; charset=latin-1")
    + END,
    "content-that-looks-like-a-boundary": file_part(
        b"files[0]", b"a.png", b"x--" + BOUNDARY.encode() + b"\r\n\n--" + BOUNDARY.encode() + b"x"
    )
    + END,
    "empty-file-and-field": part(b'form-data; name="content"', b"")
    + file_part(b"files[0]", b"e.png", b"")
    + END,
    "closing-without-crlf": PAYLOAD + END[:-2],
    "header-case-and-spaces": f"--{BOUNDARY}\r\n".encode()
    + b'content-disposition:   form-data; name="files[0]"; filename="/a.png"  \r\n'
    + b"CONTENT-TYPE:image/png\r\n\r\n"
    + PNG
    + b"\r\n"
    + END,
    "empty-type": file_part(b"files[0]", b"a.png", content_type=b"") + END,
    "empty-filename-is-a-field": part(b'form-data; name="content"; filename=""', b"hi") + END,
    "duplicates": PAYLOAD + PAYLOAD + FILE + FILE + END,
    "not-files-n": PAYLOAD + file_part(b"upload", b"a.png") + END,
    "non-utf8-payload-as-bytes": part(
        b'form-data; name="payload_json"', b"\xff", b"application/json"
    )
    + END,
}

# Bodies left to aiohttp: each must get post()'s fields or post()'s error.
HOSTILE: dict[str, tuple[str, bytes]] = {
    "no-boundary-parameter": ("multipart/form-data", PAYLOAD + FILE + END),
    "quoted-boundary": (f'multipart/form-data; boundary="{BOUNDARY}"', PAYLOAD + FILE + END),
    "upper-case-type": (f"Multipart/Form-Data; boundary={BOUNDARY}", PAYLOAD + END),
    "boundary-over-70": ("multipart/form-data; boundary=" + "b" * 71, PAYLOAD + END),
    "other-boundary": ("multipart/form-data; boundary=zzz", PAYLOAD + END),
    "empty-body": (PLAIN_TYPE, b""),
    "only-the-closing-delimiter": (PLAIN_TYPE, END),
    "unterminated-part": (PLAIN_TYPE, PAYLOAD + FILE[:-10]),
    "no-closing-delimiter": (PLAIN_TYPE, PAYLOAD + FILE),
    "junk-after-delimiter": (PLAIN_TYPE, PAYLOAD + f"--{BOUNDARY}x\r\n".encode() + END),
    "spaces-after-delimiter": (PLAIN_TYPE, PAYLOAD.replace(b"\r\n--", b"\r\n--  ") + END),
    "preamble-and-epilogue": (PLAIN_TYPE, b"preamble\r\n" + PAYLOAD + FILE + END + b"epilogue\r\n"),
    "bare-lf-lines": (PLAIN_TYPE, (PAYLOAD + FILE + END).replace(b"\r\n", b"\n")),
    "delimiter-right-after-headers": (
        PLAIN_TYPE,
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n'.encode() + END,
    ),
    "part-without-headers": (PLAIN_TYPE, f"--{BOUNDARY}\r\n\r\nxyz\r\n".encode() + END),
    "missing-name": (PLAIN_TYPE, part(b'form-data; filename="a.png"', PNG) + END),
    "non-utf8-name": (PLAIN_TYPE, file_part(b"files[\xff]", b"a.png") + END),
    "non-utf8-filename": (PLAIN_TYPE, file_part(b"files[0]", b"\xff.png") + END),
    "non-utf8-text": (PLAIN_TYPE, part(b'form-data; name="payload_json"', b'{"a":"\xff"}') + END),
    "unknown-charset": (
        PLAIN_TYPE,
        part(b'form-data; name="payload_json"', b"{}", b"text/plain; charset=nope") + END,
    ),
    "huge-header": (PLAIN_TYPE, file_part(b"files[0]", b"a" * 9000 + b".png") + END),
    "long-header": (PLAIN_TYPE, file_part(b"files[0]", b"a" * 5000 + b".png") + END),
    "many-headers": (
        PLAIN_TYPE,
        f"--{BOUNDARY}\r\n".encode()
        + b"X-A: 1\r\n" * 200
        + b'Content-Disposition: form-data; name="a"\r\n\r\nx\r\n'
        + END,
    ),
    "two-content-types": (
        PLAIN_TYPE,
        f"--{BOUNDARY}\r\n".encode()
        + b'Content-Disposition: form-data; name="a"\r\nContent-Type: a/b\r\n'
        + b"Content-Type: c/d\r\n\r\nx\r\n"
        + END,
    ),
    "two-dispositions": (
        PLAIN_TYPE,
        f"--{BOUNDARY}\r\n".encode()
        + b'Content-Disposition: form-data; name="a"\r\n'
        + b'Content-Disposition: form-data; name="b"\r\n\r\nx\r\n'
        + END,
    ),
    "control-character-in-header": (PLAIN_TYPE, file_part(b"files[0]", b"a\x01.png") + END),
    "tab-in-header": (PLAIN_TYPE, file_part(b"files[0]", b"a\t.png") + END),
    "escaped-quote": (PLAIN_TYPE, file_part(b"files[0]", b'a\\"b.png') + END),
    "semicolon-in-filename": (PLAIN_TYPE, file_part(b"files[0]", b"a;b.png") + END),
    "unquoted-name": (PLAIN_TYPE, part(b"form-data; name=payload_json", b"{}") + END),
    "extended-filename": (
        PLAIN_TYPE,
        part(b"form-data; name=\"files[0]\"; filename*=utf-8''%C3%A9.png", PNG) + END,
    ),
    "attachment-disposition": (PLAIN_TYPE, part(b'attachment; name="a"', b"x") + END),
    "base64-part": (
        PLAIN_TYPE,
        f"--{BOUNDARY}\r\n".encode()
        + b'Content-Disposition: form-data; name="files[0]"; filename="a.png"\r\n'
        + b"Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
        + END,
    ),
    "nested-multipart": (
        PLAIN_TYPE,
        file_part(b"files[0]", b"a.png", content_type=b"multipart/mixed; boundary=zz") + END,
    ),
    "charset-field": (
        PLAIN_TYPE,
        part(b'form-data; name="_charset_"', b"latin-1")
        + part(b'form-data; name="payload_json"', b'{"a":"\xe9"}')
        + END,
    ),
    "utf-8-charset-field": (
        PLAIN_TYPE,
        part(b'form-data; name="_charset_"', b"utf-8")
        + part(b'form-data; name="payload_json"', b"{}")
        + END,
    ),
    "too-many-fields": (
        PLAIN_TYPE,
        b"".join(part(b'form-data; name="f%d"' % n, b"x") for n in range(1001)) + END,
    ),
    "a-thousand-fields": (
        PLAIN_TYPE,
        b"".join(part(b'form-data; name="f%d"' % n, b"x") for n in range(1000)) + END,
    ),
}


def describe_post(form: Any) -> list[tuple[Any, ...]]:
    described: list[tuple[Any, ...]] = []
    for name, value in form.items():
        if isinstance(value, web.FileField):
            data = value.file.read()
            described.append(("file", name, value.filename, value.content_type, data))
        elif isinstance(value, str):
            described.append(("text", name, value))
        else:
            described.append(("bytes", name, bytes(value)))
    return described


def describe_fields(fields: list[FormFile | FormValue]) -> list[tuple[Any, ...]]:
    described: list[tuple[Any, ...]] = []
    for field in fields:
        if isinstance(field, FormFile):
            described.append(("file", field.name, field.filename, field.content_type, field.data))
        elif isinstance(field.value, str):
            described.append(("text", field.name, field.value))
        else:
            described.append(("bytes", field.name, field.value))
    return described


def failure(exc: Exception) -> str:
    return repr(("error", type(exc).__name__, str(exc), getattr(exc, "text", None)))


async def by_post(request: web.Request) -> web.Response:
    try:
        return web.Response(text=repr(describe_post(await request.post())))
    except Exception as exc:
        return web.Response(text=failure(exc))


async def by_read_form(request: web.Request) -> web.Response:
    try:
        fields = await read_form(request)
    except Exception as exc:
        return web.Response(text=failure(exc))
    assert fields is not None
    return web.Response(text=repr(describe_fields(fields)))


@pytest.fixture
async def readers() -> AsyncIterator[str]:
    """A bare aiohttp server, with the fake's body limit, reading a body both ways."""
    app = web.Application(client_max_size=1024 * 1024)
    app.router.add_post("/post", by_post)
    app.router.add_post("/read_form", by_read_form)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def both_ways(base: str, content_type: str, body: bytes, **options: Any) -> tuple[str, str]:
    results = []
    headers = {"Content-Type": content_type, **options.pop("headers", {})}
    async with aiohttp.ClientSession() as http:
        for route in ("/post", "/read_form"):
            async with http.post(base + route, data=body, headers=headers, **options) as got:
                assert got.status == 200
                results.append(await got.text())
    return results[0], results[1]


@pytest.mark.parametrize("body", PLAIN.values(), ids=PLAIN.keys())
async def test_plain_bodies_are_read_here_as_post_reads_them(readers: str, body: bytes) -> None:
    assert parse(body, BOUNDARY, 1000) is not None

    aiohttp_read, read_here = await both_ways(readers, PLAIN_TYPE, body)

    assert read_here == aiohttp_read
    assert "error" not in aiohttp_read


@pytest.mark.parametrize(("content_type", "body"), HOSTILE.values(), ids=HOSTILE.keys())
async def test_other_bodies_get_what_post_gives_them(
    readers: str, content_type: str, body: bytes
) -> None:
    aiohttp_read, read_here = await both_ways(readers, content_type, body)

    assert read_here == aiohttp_read


async def test_chunked_and_compressed_requests_are_left_to_aiohttp(readers: str) -> None:
    body = PLAIN["discord.py"]
    squeezed = gzip.compress(body)

    chunked = await both_ways(readers, PLAIN_TYPE, body, chunked=True)
    compressed = await both_ways(
        readers, PLAIN_TYPE, squeezed, headers={"Content-Encoding": "gzip"}
    )

    assert chunked[0] == chunked[1] and "payload_json" in chunked[0]
    assert compressed[0] == compressed[1] and "payload_json" in compressed[0]


# Pieces a mutation inserts or writes over: line ends, quoting, the boundary, headers.
PIECES = [
    b"\r\n",
    b"\r",
    b"\n",
    b"--",
    b'"',
    b"\\",
    b";",
    b"/",
    b"=",
    b"*",
    b" ",
    b"\t",
    b"\x00",
    b"\xff",
    "é".encode(),
    BOUNDARY.encode(),
    f"\r\n--{BOUNDARY}".encode(),
    f"\r\n--{BOUNDARY}--".encode(),
    b"\r\n\r\n",
    b"Content-Type: text/plain; charset=latin-1\r\n",
    b"Content-Type: application/json\r\n",
    b"Content-Type: multipart/mixed\r\n",
    b"Content-Transfer-Encoding: base64\r\n",
    b'Content-Disposition: form-data; name="files[1]"; filename="b.png"\r\n',
    b"filename*=utf-8''%C3%A9.png",
    b'name="_charset_"',
    b"files[1]",
]


def mutated(rng: random.Random, body: bytes) -> bytes:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(body) + 1)
        choice = rng.random()
        if choice < 0.4:
            body = body[:at] + rng.choice(PIECES) + body[at:]
        elif choice < 0.7:
            body = body[:at] + rng.choice(PIECES) + body[at + rng.randint(1, 4) :]
        else:
            body = body[:at] + body[at + rng.randint(1, 8) :]
    return body


async def test_mutated_bodies_get_what_post_gives_them(readers: str) -> None:
    rng = random.Random(16)
    seeds = list(PLAIN.values())
    read_here = 0
    for _ in range(600):
        body = mutated(rng, rng.choice(seeds))
        if parse(body, BOUNDARY, 1000) is not None:
            read_here += 1

        by_aiohttp, by_us = await both_ways(readers, PLAIN_TYPE, body)

        assert by_us == by_aiohttp, body
    # both ways taken: the mutations keep some bodies plain and break most
    assert 30 < read_here < 570


# -- through the fake: the answers hostile bodies got before -----------------------------------

SERVER_ERROR = (500, "500 Internal Server Error\n\nServer got itself in trouble")


def form_error(name: str) -> tuple[int, dict[str, Any]]:
    errors = {name: {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Unknown"}]}}
    return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        # Discord's answer: a file must be files[n]
        (PLAIN_TYPE, PAYLOAD + file_part(b"upload", b"a.png") + END, form_error("upload")),
        (PLAIN_TYPE, PAYLOAD + file_part(b"files[0]x", b"a.png") + END, form_error("files[0]x")),
        (
            PLAIN_TYPE,
            PAYLOAD + file_part(b"files[\xff]", b"a.png") + END,
            form_error("files[\udcff]"),
        ),
        (
            PLAIN_TYPE,
            part(b'form-data; name="payload_json"', b'{"content":') + END,
            (400, {"message": "The request body contains invalid JSON.", "code": 50109}),
        ),
        (
            PLAIN_TYPE,
            PAYLOAD + b"".join(file_part(b"files[%d]" % n, b"%d.png" % n) for n in range(11)) + END,
            (
                400,
                {
                    "message": "Maximum number of attachments in a message reached (10)",
                    "code": 30015,
                },
            ),
        ),
        # aiohttp's answers to what it cannot read, as before (Discord would say 400)
        ("multipart/form-data", PAYLOAD + FILE + END, SERVER_ERROR),
        (PLAIN_TYPE, PAYLOAD + FILE[:-10], SERVER_ERROR),
        (PLAIN_TYPE, PAYLOAD + FILE, SERVER_ERROR),
        (PLAIN_TYPE, part(b'form-data; filename="a.png"', PNG) + END, SERVER_ERROR),
        (PLAIN_TYPE, part(b'form-data; name="payload_json"', b'{"a":"\xff"}') + END, SERVER_ERROR),
        (PLAIN_TYPE, file_part(b"files[0]", b"a" * 9000 + b".png") + END, SERVER_ERROR),
        (PLAIN_TYPE, b"", SERVER_ERROR),
        (
            PLAIN_TYPE,
            b"".join(part(b'form-data; name="f%d"' % n, b"x") for n in range(1001)) + END,
            (413, "Maximum number of form fields 1000 exceeded."),
        ),
    ],
    ids=[
        "file-not-files-n",
        "file-files-n-and-more",
        "file-name-not-utf8",
        "bad-payload-json",
        "eleven-files",
        "no-boundary",
        "unterminated-part",
        "no-closing-delimiter",
        "part-without-name",
        "text-not-utf8",
        "huge-header",
        "empty-body",
        "over-1000-fields",
    ],
)
async def test_the_fake_answers_hostile_bodies_as_before(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    bot_errors: ErrorLog,
    content_type: str,
    body: bytes,
    expected: tuple[int, Any],
) -> None:
    driver.allow_rest_errors()
    bot_errors.expect()  # aiohttp logs the requests it answers with 500
    url = f"{fake.api_base}/channels/{world.channel.id}/messages"
    headers = {"Authorization": f"Bot {TEST_TOKEN}", "Content-Type": content_type}

    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as got:
        json_body = got.content_type == "application/json"
        answer = (got.status, await got.json() if json_body else await got.text())

    assert answer == expected
    assert driver.channel_messages(world.channel) == []


async def test_the_fake_reads_what_discord_py_sends_and_files_keep_their_names(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    url = f"{fake.api_base}/channels/{world.channel.id}/messages"
    body = PLAIN["discord.py-slash-and-utf8-names"]
    headers = {"Authorization": f"Bot {TEST_TOKEN}", "Content-Type": PLAIN_TYPE}

    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as got:
        message = await got.json()

    assert got.status == 200 and message["content"] == "hand"
    # aiohttp drops a filename's leading slashes; discord.py sends non-ASCII names as UTF-8
    assert [(a["filename"], a.get("description"), a["size"]) for a in message["attachments"]] == [
        ("etc/a.png", None, len(PNG)),
        ("hånd kort.png", "7♥ 7♠", len(PNG)),
    ]
    (stored,) = driver.channel_messages(world.channel)
    assert [(a.data, a.content_type) for a in stored.attachments] == [(PNG, "image/png")] * 2
