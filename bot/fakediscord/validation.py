"""Request-body validation with Discord's documented limits and its error shape.

Each function adds to a ``FormErrors`` at a path (``("data", "components", 0, ...)`` for an
interaction callback, ``("components", 0, ...)`` for a channel message) so the body the bot gets
back names the offending field exactly as Discord does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.fakediscord.errors import FormErrors, PathPart
from bot.fakediscord.layouts import check_layout
from bot.fakediscord.locales import LOCALES

Path = tuple[PathPart, ...]

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_COMPONENTS_V2 = 1 << 15

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_WIDTH = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids")

COMPONENT_ACTION_ROW = 1
COMPONENT_BUTTON = 2
COMPONENT_STRING_SELECT = 3
COMPONENT_TEXT_INPUT = 4
COMPONENT_USER_SELECT = 5
COMPONENT_ROLE_SELECT = 6
COMPONENT_MENTIONABLE_SELECT = 7
COMPONENT_CHANNEL_SELECT = 8
COMPONENT_SECTION = 9
COMPONENT_TEXT_DISPLAY = 10
COMPONENT_THUMBNAIL = 11
COMPONENT_MEDIA_GALLERY = 12
COMPONENT_FILE = 13
COMPONENT_SEPARATOR = 14
COMPONENT_CONTAINER = 17
COMPONENT_LABEL = 18

SELECT_TYPES = (
    COMPONENT_STRING_SELECT,
    COMPONENT_USER_SELECT,
    COMPONENT_ROLE_SELECT,
    COMPONENT_MENTIONABLE_SELECT,
    COMPONENT_CHANNEL_SELECT,
)
V2_TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
# what an action row holds: buttons and selects (text inputs too, in a modal)
ROW_CHILDREN = (COMPONENT_BUTTON, *SELECT_TYPES)

OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_USER = 6
OPTION_CHANNEL = 7
OPTION_ROLE = 8
OPTION_MENTIONABLE = 9
OPTION_NUMBER = 10
OPTION_ATTACHMENT = 11
CHOICE_TYPES = (OPTION_STRING, OPTION_INTEGER, OPTION_NUMBER)

# Discord's rule is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$: \w is the closest stdlib
# class for letters and digits; the Devanagari and Thai blocks add their combining signs.
_COMMAND_NAME = re.compile(r"^[-_'\w\u0900-\u097f\ua8e0-\ua8ff\u0e00-\u0e7f]{1,32}$")


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_str(
    form: FormErrors,
    path: Path,
    value: Any,
    *,
    high: int,
    low: int = 0,
    required: bool = False,
) -> None:
    if value is None:
        if required:
            form.required(path)
        return
    if not _is_str(value):
        form.add(path, "BASE_TYPE_STRING", f'Could not interpret "{value}" as string.')
        return
    if low > 0 and not (low <= len(value) <= high):
        form.bad_length(path, low, high)
    elif len(value) > high:
        form.max_length(path, high)


def embed_size(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def validate_embeds(form: FormErrors, path: Path, embeds: Any) -> None:
    if not isinstance(embeds, list):
        form.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > EMBEDS_MAX:
        form.max_length(path, EMBEDS_MAX)
    total = 0
    for index, embed in enumerate(embeds):
        here = (*path, index)
        if not isinstance(embed, dict):
            form.add(here, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        _check_str(form, (*here, "title"), embed.get("title"), high=256)
        _check_str(form, (*here, "description"), embed.get("description"), high=4096)
        color = embed.get("color")
        if color is not None and (not _is_int(color) or not 0 <= color <= 0xFFFFFF):
            form.add((*here, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215.")
        footer = embed.get("footer")
        if footer is not None:
            _check_str(
                form, (*here, "footer", "text"), footer.get("text"), high=2048, required=True
            )
        author = embed.get("author")
        if author is not None:
            _check_str(form, (*here, "author", "name"), author.get("name"), high=256, required=True)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            form.max_length((*here, "fields"), 25)
        for f_index, field in enumerate(fields):
            f_path = (*here, "fields", f_index)
            _check_str(form, (*f_path, "name"), field.get("name"), low=1, high=256, required=True)
            _check_str(
                form, (*f_path, "value"), field.get("value"), low=1, high=1024, required=True
            )
        total += embed_size(embed)
    if total > EMBED_TOTAL_MAX:
        form.add(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def validate_allowed_mentions(form: FormErrors, path: Path, allowed: Any) -> None:
    if not isinstance(allowed, dict):
        form.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in ("roles", "users", "everyone"):
            form.add(
                (*path, "parse", index),
                "BASE_TYPE_CHOICES",
                "Value must be one of ('roles', 'users', 'everyone').",
            )
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if kind in parse and listed:
            form.add(
                (*path, "parse"),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )
        if len(listed) > 100:
            form.max_length((*path, kind), 100)


EmojiCheck = Callable[[int], bool]


def is_unicode_emoji_name(name: str) -> bool:
    """A component emoji without an id must be a Unicode emoji; a word like ``black_nib`` is
    refused with BUTTON_COMPONENT_INVALID_EMOJI. The fake's test: not plain ASCII."""
    return bool(name) and not re.fullmatch(r"[\x00-\x7f]+", name)


class _ComponentCheck:
    """Walks a component tree once: limits, layout width, and message-wide custom_id rules.
    ``known_emoji`` says whether a custom emoji id is one the app may use."""

    def __init__(
        self,
        form: FormErrors,
        *,
        in_modal: bool = False,
        known_emoji: EmojiCheck | None = None,
    ) -> None:
        self.form = form
        self.in_modal = in_modal
        self.known_emoji = known_emoji
        self.custom_ids: dict[str, Path] = {}
        self.count = 0

    def custom_id(self, path: Path, value: Any) -> None:
        _check_str(self.form, path, value, low=1, high=CUSTOM_ID_MAX, required=True)
        if _is_str(value):
            if value in self.custom_ids:
                self.form.add(
                    path,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            self.custom_ids[value] = path

    def component(self, path: Path, data: Any, *, width_budget: list[int] | None = None) -> None:
        if not isinstance(data, dict):
            self.form.add(
                path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
            )
            return
        self.count += 1
        kind = data.get("type")
        if kind == COMPONENT_ACTION_ROW:
            self.action_row(path, data)
        elif kind == COMPONENT_BUTTON:
            self.button(path, data)
            if width_budget is not None:
                width_budget[0] += 1
        elif kind in SELECT_TYPES:
            self.select(path, data)
            if width_budget is not None:
                width_budget[0] += ROW_WIDTH
        elif kind == COMPONENT_TEXT_INPUT:
            if not self.in_modal:
                self.form.add(
                    (*path, "type"),
                    "COMPONENT_TYPE_INVALID",
                    "Text inputs are only allowed in modals",
                )
            self.text_input(path, data)
            if width_budget is not None:
                width_budget[0] += ROW_WIDTH
        elif kind == COMPONENT_SECTION:
            for index, child in enumerate(data.get("components") or []):
                self.component((*path, "components", index), child)
            accessory = data.get("accessory")
            if accessory is None:
                self.form.required((*path, "accessory"))
            else:
                self.component((*path, "accessory"), accessory)
        elif kind == COMPONENT_CONTAINER:
            for index, child in enumerate(data.get("components") or []):
                self.component((*path, "components", index), child)
        elif kind == COMPONENT_LABEL:
            _check_str(
                self.form, (*path, "label"), data.get("label"), low=1, high=45, required=True
            )
            self.component((*path, "component"), data.get("component"))
        elif kind == COMPONENT_TEXT_DISPLAY:
            _check_str(
                self.form, (*path, "content"), data.get("content"), low=1, high=4000, required=True
            )
        elif kind in (
            COMPONENT_THUMBNAIL,
            COMPONENT_MEDIA_GALLERY,
            COMPONENT_FILE,
            COMPONENT_SEPARATOR,
        ):
            return
        else:
            self.form.add(
                (*path, "type"),
                "BASE_TYPE_CHOICES",
                f'Value of field "type" must be one of {V2_TOP_LEVEL}.',
            )

    def action_row(self, path: Path, data: dict[str, Any]) -> None:
        children = data.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= ROW_WIDTH:
            self.form.bad_length((*path, "components"), 1, ROW_WIDTH)
            return
        width = [0]
        for index, child in enumerate(children):
            child_path = (*path, "components", index)
            if isinstance(child, dict) and child.get("type") == COMPONENT_ACTION_ROW:
                self.form.add(
                    (*child_path, "type"),
                    "COMPONENT_TYPE_INVALID",
                    "Action rows cannot contain action rows",
                )
                continue
            allowed = (*ROW_CHILDREN, COMPONENT_TEXT_INPUT)  # a text input's own rule below
            if isinstance(child, dict) and child.get("type") not in allowed:
                self.form.add(
                    (*child_path, "type"),
                    "UNION_TYPE_CHOICES",
                    f'Value of field "type" must be one of {allowed}.',
                )
                continue
            self.component(child_path, child, width_budget=width)
        if width[0] > ROW_WIDTH:
            self.form.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )

    def button(self, path: Path, data: dict[str, Any]) -> None:
        style = data.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            self.form.add(
                (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}."
            )
            return
        _check_str(self.form, (*path, "label"), data.get("label"), high=BUTTON_LABEL_MAX)
        if style == 5:
            if not data.get("url"):
                self.form.required((*path, "url"))
            if data.get("custom_id") is not None:
                self.form.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
        elif style == 6:
            if not data.get("sku_id"):
                self.form.required((*path, "sku_id"))
        else:
            self.custom_id((*path, "custom_id"), data.get("custom_id"))
            if data.get("url") is not None:
                self.form.add(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                    "Only link buttons can have a url",
                )
        self.emoji((*path, "emoji"), data.get("emoji"))
        if style != 6 and not data.get("label") and not data.get("emoji"):
            self.form.add(
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button must have a label or an emoji",
            )

    def select(self, path: Path, data: dict[str, Any]) -> None:
        self.custom_id((*path, "custom_id"), data.get("custom_id"))
        _check_str(
            self.form, (*path, "placeholder"), data.get("placeholder"), high=SELECT_PLACEHOLDER_MAX
        )
        min_values = data.get("min_values", 1)
        max_values = data.get("max_values", 1)
        if not _is_int(min_values) or not 0 <= min_values <= 25:
            self.form.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
        if not _is_int(max_values) or not 1 <= max_values <= 25:
            self.form.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
        if _is_int(min_values) and _is_int(max_values) and min_values > max_values:
            self.form.add(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                "min_values must be less than or equal to max_values",
            )
        if data.get("type") != COMPONENT_STRING_SELECT:
            return
        options = data.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            self.form.bad_length((*path, "options"), 1, SELECT_OPTIONS_MAX)
            return
        if _is_int(max_values) and max_values > len(options):
            self.form.add(
                (*path, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                "max_values must be less than or equal to the number of options",
            )
        seen: set[str] = set()
        defaults = 0
        for index, option in enumerate(options):
            o_path = (*path, "options", index)
            if not isinstance(option, dict):
                self.form.add(
                    o_path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
                )
                continue
            _check_str(
                self.form, (*o_path, "label"), option.get("label"), low=1, high=100, required=True
            )
            _check_str(
                self.form, (*o_path, "value"), option.get("value"), low=1, high=100, required=True
            )
            _check_str(self.form, (*o_path, "description"), option.get("description"), high=100)
            self.emoji((*o_path, "emoji"), option.get("emoji"))
            value = option.get("value")
            if _is_str(value):
                if value in seen:
                    self.form.add(
                        (*o_path, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Component option value cannot be duplicated",
                    )
                seen.add(value)
            defaults += bool(option.get("default"))
        if _is_int(max_values) and defaults > max_values:
            self.form.add(
                (*path, "options"),
                "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                "The number of default options exceeds max_values",
            )

    def emoji(self, path: Path, data: Any) -> None:
        """A partial emoji: ``{id, name, animated}`` for a custom one, ``{name}`` for Unicode."""
        if data is None:
            return
        if not isinstance(data, dict):
            self.form.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used")
            return
        emoji_id = data.get("id")
        if emoji_id is not None:
            try:
                value = int(emoji_id)
            except (TypeError, ValueError):
                self.form.add(
                    (*path, "id"), "NUMBER_TYPE_COERCE", f'Value "{emoji_id}" is not snowflake.'
                )
                return
            if self.known_emoji is not None and not self.known_emoji(value):
                self.form.add((*path, "id"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")
        elif not is_unicode_emoji_name(str(data.get("name") or "")):
            self.form.add((*path, "name"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def text_input(self, path: Path, data: dict[str, Any]) -> None:
        self.custom_id((*path, "custom_id"), data.get("custom_id"))
        if data.get("style") not in (1, 2):
            self.form.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        _check_str(self.form, (*path, "label"), data.get("label"), high=45)
        _check_str(self.form, (*path, "placeholder"), data.get("placeholder"), high=100)
        _check_str(self.form, (*path, "value"), data.get("value"), high=4000)


def validate_components(
    form: FormErrors,
    path: Path,
    components: Any,
    flags: int,
    known_emoji: EmojiCheck | None = None,
) -> None:
    if not isinstance(components, list):
        form.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    check = _ComponentCheck(form, known_emoji=known_emoji)
    v2 = bool(flags & FLAG_IS_COMPONENTS_V2)
    if not v2 and len(components) > ACTION_ROWS_MAX:
        form.max_length(path, ACTION_ROWS_MAX)
    for index, component in enumerate(components):
        here = (*path, index)
        kind = component.get("type") if isinstance(component, dict) else None
        allowed = V2_TOP_LEVEL if v2 else (COMPONENT_ACTION_ROW,)
        if kind not in allowed:
            form.add(
                (*here, "type"),
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {allowed}.',
            )
            continue
        check.component(here, component)
    if v2:
        check_layout(form, path, components, V2_TOP_LEVEL)
    if v2 and check.count > V2_COMPONENTS_MAX:
        form.add(
            path,
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"The total number of components exceeds the maximum ({V2_COMPONENTS_MAX})",
        )


def validate_message_body(
    form: FormErrors,
    path: Path,
    body: dict[str, Any],
    *,
    existing_flags: int = 0,
    known_emoji: EmojiCheck | None = None,
) -> None:
    """Field-level checks for a message create or edit body (JSON or ``payload_json``)."""
    flags = body.get("flags")
    if flags is not None and not _is_int(flags):
        form.add((*path, "flags"), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
        flags = 0
    effective_flags = existing_flags | (flags or 0)
    _check_str(form, (*path, "content"), body.get("content"), high=CONTENT_MAX)
    if body.get("embeds") is not None:
        validate_embeds(form, (*path, "embeds"), body["embeds"])
    if body.get("components") is not None:
        validate_components(
            form, (*path, "components"), body["components"], effective_flags, known_emoji
        )
    if body.get("allowed_mentions") is not None:
        validate_allowed_mentions(form, (*path, "allowed_mentions"), body["allowed_mentions"])
    if effective_flags & FLAG_IS_COMPONENTS_V2:
        for legacy in LEGACY_FIELDS:
            if body.get(legacy):
                form.add(
                    (*path, legacy),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content', 'embeds', 'stickers' and 'poll' fields cannot be used "
                    "when using MessageFlags.IS_COMPONENTS_V2",
                )


def validate_conversion(
    form: FormErrors, path: Path, body: dict[str, Any], content: str, embeds: list[Any]
) -> None:
    """An edit that sets IS_COMPONENTS_V2 on a message that had none must empty the legacy
    fields the message used (``content`` to null, ``embeds`` to []): Discord's "Edit Message"
    answers 400 otherwise."""
    for field, used in (("content", content), ("embeds", embeds)):
        if used and (field not in body or body[field]):
            form.add(
                (*path, field),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content', 'embeds', 'stickers' and 'poll' fields cannot be used "
                "when using MessageFlags.IS_COMPONENTS_V2",
            )


def validate_modal(form: FormErrors, path: Path, data: Any) -> None:
    if not isinstance(data, dict):
        form.required(path)
        return
    check = _ComponentCheck(form, in_modal=True)
    check.custom_id((*path, "custom_id"), data.get("custom_id"))
    _check_str(form, (*path, "title"), data.get("title"), low=1, high=45, required=True)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= 5:
        form.bad_length((*path, "components"), 1, 5)
        return
    for index, component in enumerate(components):
        check.component((*path, "components", index), component)


def validate_autocomplete_choices(
    form: FormErrors, path: Path, data: Any, option_type: int | None
) -> None:
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        form.required((*path, "choices"))
        return
    if len(choices) > 25:
        form.max_length((*path, "choices"), 25)
    for index, choice in enumerate(choices):
        _validate_choice(form, (*path, "choices", index), choice, option_type)


def _validate_choice(form: FormErrors, path: Path, choice: Any, option_type: int | None) -> None:
    if not isinstance(choice, dict):
        form.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    _check_str(form, (*path, "name"), choice.get("name"), low=1, high=100, required=True)
    _check_localizations(form, path, choice, names="choice", descriptions=False)
    value = choice.get("value")
    if value is None:
        form.required((*path, "value"))
    elif option_type == OPTION_STRING:
        _check_str(form, (*path, "value"), value, high=100)
    elif option_type == OPTION_INTEGER and not _is_int(value):
        form.add((*path, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
    elif option_type == OPTION_NUMBER and (
        isinstance(value, bool) or not isinstance(value, int | float)
    ):
        form.add((*path, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')


def _command_size(data: dict[str, Any]) -> int:
    total = len(data.get("name") or "") + len(data.get("description") or "")
    for option in data.get("options") or []:
        total += _command_size(option)
    for choice in data.get("choices") or []:
        total += len(choice.get("name") or "") + len(str(choice.get("value") or ""))
    return total


def _check_name(form: FormErrors, path: Path, name: Any, *, chat_input: bool) -> None:
    if not _is_str(name):
        form.required(path)
        return
    if not 1 <= len(name) <= 32:
        form.bad_length(path, 1, 32)
    elif chat_input and (not _COMMAND_NAME.match(name) or name != name.lower()):
        form.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_localizations(
    form: FormErrors, path: Path, item: dict[str, Any], *, names: str, descriptions: bool
) -> None:
    """``name_localizations`` (and ``description_localizations``): keys must be Discord
    locales, values follow the rules of the default they translate. ``names`` is "chat_input"
    (lowercase 1-32, the name pattern), "context_menu" (1-32) or "choice" (1-100)."""
    fields = ("name", "description") if descriptions else ("name",)
    for field in fields:
        translations = item.get(f"{field}_localizations")
        if translations is None:
            continue
        where = (*path, f"{field}_localizations")
        if not isinstance(translations, dict):
            form.add(where, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for locale, text in translations.items():
            here = (*where, locale)
            if locale not in LOCALES:
                form.add(here, "BASE_TYPE_CHOICES", f"Value must be one of {set(LOCALES)}.")
            elif field == "description" or names == "choice":
                _check_str(form, here, text, low=1, high=100, required=True)
            else:
                _check_name(form, here, text, chat_input=names == "chat_input")


def _localized_names_unique(form: FormErrors, path: Path, options: list[Any]) -> None:
    """A localized option name may not equal another option's default name, nor another
    option's name in the same locale (Application Commands, "Localization")."""
    defaults = {o.get("name"): i for i, o in enumerate(options) if isinstance(o, dict)}
    by_locale: dict[str, dict[str, int]] = {}
    for index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        for locale, text in (option.get("name_localizations") or {}).items():
            if not isinstance(text, str) or text == option.get("name"):
                continue
            taken = by_locale.setdefault(locale, {})
            if defaults.get(text, index) != index or text in taken:
                form.add(
                    (*path, index, "name_localizations", locale),
                    "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                    "Option names must be unique",
                )
            taken[text] = index


def _validate_options(form: FormErrors, path: Path, options: Any, *, depth: int) -> None:
    if options is None:
        return
    if not isinstance(options, list):
        form.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(options) > 25:
        form.max_length(path, 25)
    _localized_names_unique(form, path, options)
    names: set[str] = set()
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    subs = kinds & {OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP}
    if subs and kinds - subs:
        form.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to "
            "all other types",
        )
    seen_optional = False
    for index, option in enumerate(options):
        here = (*path, index)
        if not isinstance(option, dict):
            form.add(here, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        kind = option.get("type")
        if kind not in range(1, 12):
            form.add(
                (*here, "type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.",
            )
            continue
        _check_name(form, (*here, "name"), option.get("name"), chat_input=True)
        name = option.get("name")
        if _is_str(name):
            if name in names:
                form.add(
                    (*here, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                    "Option names must be unique",
                )
            names.add(name)
        _check_str(
            form, (*here, "description"), option.get("description"), low=1, high=100, required=True
        )
        _check_localizations(form, here, option, names="chat_input", descriptions=True)
        if kind == OPTION_SUB_COMMAND_GROUP:
            if depth > 0:
                form.add(
                    (*here, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups can only be nested at the top level",
                )
            children = option.get("options") or []
            if any(c.get("type") != OPTION_SUB_COMMAND for c in children):
                form.add(
                    (*here, "options"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups may only contain sub-commands",
                )
            _validate_options(form, (*here, "options"), children, depth=depth + 1)
            continue
        if kind == OPTION_SUB_COMMAND:
            if depth > 1:
                form.add(
                    (*here, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-commands cannot be nested this deep",
                )
            _validate_options(form, (*here, "options"), option.get("options"), depth=2)
            continue
        required = bool(option.get("required"))
        if required and seen_optional:
            form.add(
                (*here, "required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        seen_optional = seen_optional or not required
        choices = option.get("choices")
        if choices:
            if kind not in CHOICE_TYPES:
                form.add(
                    (*here, "choices"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                    "Choices are only allowed on string, integer and number options",
                )
            if len(choices) > 25:
                form.max_length((*here, "choices"), 25)
            for c_index, choice in enumerate(choices):
                _validate_choice(form, (*here, "choices", c_index), choice, kind)
        if option.get("autocomplete"):
            if kind not in CHOICE_TYPES:
                form.add(
                    (*here, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete is only allowed on string, integer and number options",
                )
            if choices:
                form.add(
                    (*here, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
                    "Autocomplete cannot be enabled with choices present",
                )
        for bound in ("min_length", "max_length"):
            value = option.get(bound)
            if value is not None and (not _is_int(value) or not 0 <= value <= 6000):
                form.add((*here, bound), "NUMBER_TYPE_MAX", "int value should be <= 6000.")


PRIMARY_ENTRY_POINT = 4
HANDLER_APP = 1
HANDLER_DISCORD_LAUNCH_ACTIVITY = 2
HANDLERS = (HANDLER_APP, HANDLER_DISCORD_LAUNCH_ACTIVITY)


def validate_commands(form: FormErrors, commands: Any) -> None:
    """Body of ``PUT /applications/{id}[/guilds/{id}]/commands``."""
    if not isinstance(commands, list):
        form.add((), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    per_type: dict[int, set[str]] = {}
    counts: dict[int, int] = {}
    for index, command in enumerate(commands):
        validate_command(form, (index,), command)
        if not isinstance(command, dict):
            continue
        kind = command.get("type", 1)
        counts[kind] = counts.get(kind, 0) + 1
        names = per_type.setdefault(kind, set())
        if command.get("name") in names:
            form.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        names.add(command.get("name"))
    limits = {1: 100, 2: 15, 3: 15, PRIMARY_ENTRY_POINT: 1}
    for kind, count in counts.items():
        if count > limits.get(kind, 100):
            form.max_length((), limits.get(kind, 100))


def validate_command(form: FormErrors, path: Path, command: Any) -> None:
    if not isinstance(command, dict):
        form.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    kind = command.get("type", 1)
    if kind not in (1, 2, 3, 4):
        form.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        return
    _check_name(form, (*path, "name"), command.get("name"), chat_input=kind == 1)
    _check_localizations(
        form,
        path,
        command,
        names="chat_input" if kind == 1 else "context_menu",
        descriptions=kind in (1, PRIMARY_ENTRY_POINT),
    )
    handler = command.get("handler")
    if handler is not None and (kind != PRIMARY_ENTRY_POINT or handler not in HANDLERS):
        # Discord's code for a handler on another command type is undocumented
        form.add((*path, "handler"), "BASE_TYPE_CHOICES",
                 "Value must be one of {1, 2}." if kind == PRIMARY_ENTRY_POINT
                 else "Only Primary Entry Point commands have a handler")
    if kind == PRIMARY_ENTRY_POINT:
        # "an option-less command" (Activities, "Setting Up an Entry Point Command")
        _check_str(form, (*path, "description"), command.get("description"), low=1, high=100,
                   required=False)
        if command.get("options"):
            form.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID",
                     "Primary Entry Point commands cannot have options")
        return
    if kind == 1:
        _check_str(
            form, (*path, "description"), command.get("description"), low=1, high=100, required=True
        )
        _validate_options(form, (*path, "options"), command.get("options"), depth=0)
        if _command_size(command) > 8000:
            form.add(path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    elif command.get("description"):
        form.add(
            (*path, "description"),
            "APPLICATION_COMMAND_DESCRIPTION_INVALID",
            "Context menu commands cannot have a description",
        )
