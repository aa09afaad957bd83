"""Discord's locales (Reference, "Locales") and how commands fall back between them
(Application Commands, "Locale fallbacks")."""

from __future__ import annotations

from typing import Any

DEFAULT_LOCALE = "en-US"
LOCALES = (
    "id",
    "da",
    "de",
    "en-GB",
    "en-US",
    "es-ES",
    "es-419",
    "fr",
    "hr",
    "it",
    "lt",
    "hu",
    "nl",
    "no",
    "pl",
    "pt-BR",
    "ro",
    "fi",
    "sv-SE",
    "vi",
    "tr",
    "cs",
    "el",
    "bg",
    "ru",
    "uk",
    "hi",
    "th",
    "zh-CN",
    "ja",
    "zh-TW",
    "ko",
)
FALLBACKS = {"en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES"}


def check_locale(locale: str) -> str:
    if locale not in LOCALES:
        raise ValueError(f"{locale!r} is no Discord locale; they are {', '.join(LOCALES)}")
    return locale


def localized(item: dict[str, Any], field: str, locale: str) -> str | None:
    """``item[field]`` as a user in ``locale`` sees it: the localization, its fallback's, or
    None (the default applies)."""
    translations = item.get(f"{field}_localizations") or {}
    for key in (locale, FALLBACKS.get(locale)):
        if key is not None and key in translations:
            return str(translations[key])
    return None


def localized_view(item: dict[str, Any], locale: str) -> dict[str, Any]:
    """``item`` (a command, option or choice) as a batch GET shows it: the dictionaries
    replaced by ``name_localized``/``description_localized`` for ``locale`` where present."""
    view = {k: v for k, v in item.items() if not k.endswith("_localizations")}
    for field in ("name", "description"):
        translations = item.get(f"{field}_localizations") or {}
        if locale in translations:
            view[f"{field}_localized"] = translations[locale]
    for key in ("options", "choices"):
        if item.get(key):
            view[key] = [localized_view(child, locale) for child in item[key]]
    return view
