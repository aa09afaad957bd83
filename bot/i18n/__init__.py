"""Every word the bot says goes through here: gettext catalogs (one ``.po`` file per language,
read with Babel) and Babel's grammar for numbers, lists and plurals.

Messages are written in English in the code, marked by the function that translates them:
``tr(lang, "Your hand")``, ``trn(lang, "{n} card", "{n} cards", n)``, ``trc(lang, "command",
"start")`` for a message that needs a context, and ``L("...")`` for a message made before its
reader is known (an error raised deep down, shown later in the reader's language).
``pybabel extract`` finds them by those names (``babel.cfg``); ``tests/unit/test_i18n.py`` checks
that every catalog translates every message with the same placeholders.

Adding a language is one catalog file, ``bot/i18n/locales/<code>.po``, and one line in
``LANGUAGES``.

The pseudo-language ``qps`` (tests only) wraps every translated message in ``⟦…⟧``, so a test can
render whole games and see that no text reaches a user without passing through here.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

LANGUAGES: Mapping[str, str] = {"en": "English", "sv": "Svenska", "da": "Dansk", "fi": "Suomi",
                                 "nb": "Norsk bokmål"}
"""The languages the bot speaks, by code, with their own names."""
DEFAULT = "en"
PSEUDO = "qps"
"""A test-only language: English text wrapped in ``⟦…⟧``."""

DISCORD_LOCALES: Mapping[str, str] = {"sv-SE": "sv", "da": "da", "fi": "fi", "no": "nb"}
"""Discord's locale codes of the languages besides English (Discord names English en-US and
en-GB, and Norwegian ``no``, which is Bokmål; every locale without a catalog falls back to
English)."""

_CATALOGS = Path(__file__).parent / "locales"


def lang_of(locale: object) -> str:
    """The bot's language for a Discord locale (``interaction.locale``, ``guild_locale``, or a
    stored code): its own code when the bot speaks it, else English."""
    text = str(getattr(locale, "value", locale or ""))
    if text in LANGUAGES or text == PSEUDO:
        return text
    return DISCORD_LOCALES.get(text, DEFAULT)


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    """The language's catalog compiled in memory (Babel reads the ``.po`` file and writes the
    binary form Python's ``gettext`` reads; fuzzy entries are left out, so they fall back to
    English). English, and a language without a catalog, translate to themselves."""
    path = _CATALOGS / f"{lang}.po"
    if lang in (DEFAULT, PSEUDO) or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _lookup(lang: str, message: str, plural: str | None = None, n: int = 1,
            context: str | None = None) -> str:
    if lang == PSEUDO:
        return f"⟦{message if plural is None or n == 1 else plural}⟧"
    found = _translations(lang)
    if plural is None:
        return found.gettext(message) if context is None else found.pgettext(context, message)
    if context is None:
        return found.ngettext(message, plural, n)
    return found.npgettext(context, message, plural, n)


def _fill(lang: str, text: str, values: Mapping[str, Any]) -> str:
    """``text`` with its placeholders filled; a value made before its reader was known (``L``,
    ``Later``) is said in ``lang``."""
    if not values:
        return text
    return text.format(**{k: v.render(lang) if isinstance(v, L | Later) else v
                          for k, v in values.items()})


def tr(lang: str, message: str, /, **values: Any) -> str:
    """``message`` in ``lang``, with ``{placeholders}`` filled from ``values``."""
    return _fill(lang, _lookup(lang, message), values)


def trn(lang: str, singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The singular or plural form for ``n`` (``{n}`` is filled in, as a number of ``lang``)."""
    return _fill(lang, _lookup(lang, singular, plural, n), {"n": number(lang, n), **values})


def trc(lang: str, context: str, message: str, /, **values: Any) -> str:
    """``message`` in a ``context`` (gettext's msgctxt): the same English word may need two
    translations, a command's name and a button's label, say."""
    return _fill(lang, _lookup(lang, message, context=context), values)


@dataclass(frozen=True)
class L:
    """A message made before its reader is known: ``L("…", name=…)``; ``render(lang)`` says it
    in the reader's language (values that are ``L`` themselves are rendered too)."""

    message: str
    values: dict[str, Any] = field(default_factory=dict)

    def __init__(self, message: str, /, **values: Any) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "values", values)

    def render(self, lang: str) -> str:
        return tr(lang, self.message, **self.values)


@dataclass(frozen=True)
class Later:
    """A value of a message made before its reader is known, written in the reader's language
    when the message is: ``Later(percent, 0.2)`` is "20%" in English and "20 %" in Swedish
    (a game's hint outlook, ``bot.gamekit.search``, has no reader yet)."""

    write: Callable[..., str]
    args: tuple[Any, ...]

    def __init__(self, write: Callable[..., str], /, *args: Any) -> None:
        object.__setattr__(self, "write", write)
        object.__setattr__(self, "args", args)

    def render(self, lang: str) -> str:
        return self.write(lang, *self.args)


def N_(message: str) -> str:
    """Marks a message kept in a constant for extraction; translate it with ``tr`` where it is
    shown."""
    return message


def NC_(context: str, message: str) -> str:
    """Marks a message with a context, kept in a constant (card names), for extraction;
    translate it with ``trc(lang, context, message)`` where it is shown."""
    return message


MINUS = "\u2212"
"""The minus sign of signed results and negative numbers in every language (docs/glossary.md),
not the hyphen."""


@lru_cache(maxsize=4096)
def number(lang: str, n: int) -> str:
    """A whole number as the language writes it (1,000 · 1 000 · 1.000; −4). Kept: Babel takes
    about 35 µs a number, and every table names dozens of small ones (issue 16)."""
    if n < 0:
        return MINUS + number(lang, -n)
    return format_decimal(n, locale=_babel(lang))


def signed(lang: str, n: float, digits: int = 0) -> str:
    """A result with its sign: +8, −4, 0; with ``digits`` decimals as the language writes them,
    +1.5 · +1,5 (a result that rounds to nothing has no sign: 0, 0.0)."""
    if digits == 0:
        whole = round(n)
        text = number(lang, abs(whole))
        return text if whole == 0 else ("+" if whole > 0 else MINUS) + text
    text = format_decimal(abs(n), format="#,##0." + "0" * digits, locale=_babel(lang))
    if not text.strip("0.,"):
        return text
    return ("+" if n > 0 else MINUS) + text


def percent(lang: str, share: float) -> str:
    """A share as a whole percentage, as the language writes it: 0.12 is 12% · 12 % · 12 %
    (a no-break space before the sign in Swedish and Danish). A share that rounds to nothing
    is 0 %, never "-0 %" (a certain win is a risk of minus nothing in the search's terms)."""
    return format_percent(round(share, 2) + 0.0, locale=_babel(lang))


def join(lang: str, items: Iterable[str]) -> str:
    """"Anna, Bo and Cem" · "Anna, Bo och Cem" · "Anna, Bo og Cem"."""
    parts = list(items)
    if lang == PSEUDO:
        return "⟦" + ", ".join(parts) + "⟧"
    return format_list(parts, locale=_babel(lang)) if parts else ""


def ordinal(lang: str, n: int) -> str:
    """A place: 1st 2nd 3rd 4th · 1:a 2:a 3:e 4:e · 1. 2. 3. (Danish, Finnish and Norwegian)."""
    if lang == "sv":
        return f"{n}:{'a' if n % 10 in (1, 2) and n % 100 not in (11, 12) else 'e'}"
    if lang in ("da", "fi", "nb"):
        return f"{n}."
    if lang == PSEUDO:
        return f"⟦{n}⟧"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@cache
def _babel(lang: str) -> Locale:
    return Locale.parse(lang if lang in LANGUAGES else DEFAULT)
