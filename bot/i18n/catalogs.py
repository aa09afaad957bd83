"""The message catalogs: every message the code marks for translation, found by Babel's
extractor, and the ``.po`` files that translate them.

``python -m bot.i18n.catalogs`` brings every catalog up to date with the code: new messages are
added untranslated, changed ones are marked fuzzy, gone ones are dropped; translations stay.
``tests/unit/test_i18n.py`` fails while any message lacks a translation.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LOCALES = Path(__file__).parent / "locales"
SOURCES = ("bot", "cogs")
SKIPPED = ("fakediscord", "playground", "__pycache__")
"""Not the bot's words: the fake Discord and the playground page are developer tools."""

KEYWORDS = {
    "tr": (2,),
    "trn": (2, 3),
    "trc": ((2, "c"), 3),
    "L": (1,),
    "N_": (1,),
    "NC_": ((1, "c"), 2),
    "UserFacingError": (1,),
    "RuleError": (2,),
    "cmd": (1,),
}
"""The functions that take a message, and where it is among their arguments (Babel's form)."""

PLACEHOLDER = re.compile(r"\{(\w*)\}")


def extract() -> Catalog:
    """Every message in the code, with where it is used."""
    catalog = Catalog(project="kortbord", locale=None)
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source, keywords=KEYWORDS,
            directory_filter=lambda path: not any(s in path for s in SKIPPED),
        ):
            catalog.add(message, None, [(f"{source}/{filename}", lineno)],
                        auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def problems(catalog: Catalog, messages: Catalog) -> Iterator[str]:
    """What a language's catalog lacks: messages without a translation, fuzzy ones, and
    translations whose placeholders differ from the English."""
    for message in messages:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        label = f"{catalog.locale}: {_first(message.id)!r}"
        if entry is None or not _translated(entry):
            yield f"{label} is not translated"
            continue
        if entry.fuzzy:
            yield f"{label} is marked fuzzy"
        wanted = placeholders(" ".join(_forms(message.id)))
        for form in _forms(entry.string):
            got = placeholders(form)
            # a singular may say "one" in words instead of {n}, but nothing else may differ
            if got - wanted or (wanted - got) - {"n"}:
                yield f"{label} has placeholders {sorted(got)}, not {sorted(wanted)}"


def _first(ids: str | tuple[str, ...]) -> str:
    return ids if isinstance(ids, str) else ids[0]


def _forms(text: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if text is None:
        return ()
    return (text,) if isinstance(text, str) else tuple(text)


def _translated(entry: Message) -> bool:
    return all(_forms(entry.string)) and bool(_forms(entry.string))


def read(lang: str) -> Catalog:
    with (LOCALES / f"{lang}.po").open("rb") as file:
        return read_po(file, locale=lang)


def update() -> None:
    messages = extract()
    LOCALES.mkdir(exist_ok=True)
    with (LOCALES / "messages.pot").open("wb") as file:
        write_po(file, messages, width=100, omit_header=False, sort_by_file=True)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = LOCALES / f"{lang}.po"
        catalog = read(lang) if path.exists() else Catalog(locale=lang, project="kortbord")
        catalog.update(messages, no_fuzzy_matching=True)
        with path.open("wb") as file:
            write_po(file, catalog, width=100, ignore_obsolete=True, sort_by_file=True)
        missing = sum(1 for _ in problems(catalog, messages))
        print(f"{path.relative_to(ROOT)}: {len(messages)} messages, {missing} to translate")


if __name__ == "__main__":
    update()
    sys.exit(0)
