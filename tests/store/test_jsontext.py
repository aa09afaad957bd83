"""The store's JSON text is the text ``json.dumps`` with compact separators writes (stored rows
read the same whichever wrote them), and reads back as the value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.jsontext import dumps

scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1)
           | st.text(st.characters(exclude_categories=("Cs",))))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=8) | st.integers(-(2**31), 2**31), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_the_text_is_json_dumps_compact(value: Any) -> None:
    expected = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert dumps(value) == expected


def test_keys_that_are_integers_are_written_as_strings() -> None:
    assert dumps({7: [1, "å"]}) == '{"7":[1,"å"]}'
    assert json.loads(dumps({7: None})) == {"7": None}
