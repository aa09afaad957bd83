"""The fake's JSON (``bot/fakediscord/jsonvalue.py``): written by orjson when it is importable,
and always the same JSON value the standard library's ``json`` writes — also for what JSON has
no room for but ``json`` reads and writes (NaN, lone surrogates), which reach the fake in a
request and come back in its answer as before."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import math
from typing import Any

import aiohttp
import pytest

from bot.fakediscord import Driver, FakeDiscord, jsonvalue
from bot.fakediscord.jsonvalue import dumps, loads
from tests.e2e.conftest import TEST_TOKEN, World

pytestmark = pytest.mark.e2e


class Colour(enum.IntEnum):
    RED = 0xFF0000


class Style(enum.StrEnum):
    PRIMARY = "primary"


@dataclasses.dataclass
class Point:
    x: int


VALUES: dict[str, Any] = {
    "message": {
        "content": "Din tur, <@1> ♠♥ 🂡 — «ok»",
        "embeds": [{"title": "t", "color": 3447003, "fields": [{"name": "a", "value": "b"}]}],
        "components": [],
        "tts": False,
        "nonce": None,
    },
    "floats": [0.1, 1e16, 1e-7, -0.0, 5e-324, 1.7976931348623157e308, 2.5],
    "wide-integers": [2**63 - 1, -(2**63), 2**64, -(2**63) - 1, 10**30],
    "keys-that-are-not-strings": {1: "a", None: "b", False: "c", 2.5: "d"},
    "lone-surrogate": {"content": "\ud800 and \udfff"},
    "non-finite-from-a-client": loads('{"nonce": NaN, "a": [Infinity, -Infinity]}'),
    "subclasses": {"color": Colour.RED, "style": Style.PRIMARY, "items": (1, 2, (3,))},
    "nested": [[[[{"a": [[[]]]}]]]],
}
deep: list[Any] = []
for _ in range(300):  # deeper than orjson goes
    deep = [deep]
VALUES["deeper-than-orjson-goes"] = deep


def same_value(written: bytes, reference: str) -> bool:
    # json.dumps writes NaN as NaN, which is not equal to itself: compare the values written out
    return json.dumps(json.loads(written)) == json.dumps(json.loads(reference))


@pytest.mark.parametrize("orjson", [True, False], ids=["orjson", "json"])
@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_json_is_written_as_the_standard_library_writes_it(
    monkeypatch: pytest.MonkeyPatch, orjson: bool, value: Any
) -> None:
    if not orjson:
        monkeypatch.setattr(jsonvalue, "orjson", None)

    assert same_value(dumps(value), json.dumps(value))


def test_orjson_writes_text_as_it_is_and_what_json_refuses_is_refused() -> None:
    assert dumps({"a": "é ♠", "b": [1, None]}) == '{"a":"é ♠","b":[1,null]}'.encode()
    for refused in (Point(1), datetime.date(2024, 1, 1), {"a": object()}):
        with pytest.raises(TypeError):
            json.dumps(refused)
        with pytest.raises(TypeError):
            dumps(refused)


def test_what_a_client_sends_is_read_as_json_reads_it() -> None:
    sent = (
        '{"a": NaN, "b": [Infinity, -Infinity, 1.5, 2], "c": "\\ud800", "d": 1234567890'
        + "0" * 20
        + "}"
    )

    read = loads(sent)
    reference = json.loads(sent)

    assert math.isnan(read["a"]) and read["b"] == reference["b"]
    assert read["c"] == reference["c"] and read["d"] == reference["d"]
    assert all(isinstance(x, float) for x in (read["a"], *read["b"][:3]))


async def test_what_json_cannot_hold_comes_back_from_the_fake_as_sent(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    url = f"{fake.api_base}/channels/{world.channel.id}/messages"
    headers = {"Authorization": f"Bot {TEST_TOKEN}", "Content-Type": "application/json"}
    body = '{"content": "\\ud83c lone \\u00e9", "nonce": NaN}'
    driver.allow_contract_breaches()  # a NaN nonce is no nonce Discord describes

    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as got:
        status, text = got.status, await got.text()

    message = json.loads(text)
    assert status == 200
    assert message["content"] == "\ud83c lone é" and math.isnan(message["nonce"])
