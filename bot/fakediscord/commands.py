"""Application commands as the bot syncs them: global and per server, stored as Discord keeps
them (ids and versions, localizations without the default's duplicates)."""

from __future__ import annotations

import copy
from typing import Any

from bot.fakediscord import errors
from bot.fakediscord.changes import Changes
from bot.fakediscord.errors import FormErrors
from bot.fakediscord.validation import HANDLER_APP, PRIMARY_ENTRY_POINT, validate_commands
from bot.fakediscord.world import World

Scope = dict[tuple[int, str], dict[str, Any]]
"""Commands by (type, name)."""


class CommandStore:
    def __init__(self, world: World, changes: Changes) -> None:
        self.world = world
        self.changes = changes
        self.global_commands: Scope = {}
        self.guild_commands: dict[int, Scope] = {}

    def command_scope(self, guild_id: int | None) -> Scope:
        if guild_id is None:
            return self.global_commands
        self.world.guild(guild_id)
        return self.guild_commands.setdefault(guild_id, {})

    def _store_command(
        self, scope: Scope, body: dict[str, Any], guild_id: int | None
    ) -> dict[str, Any]:
        ids = self.world.ids
        kind = body.get("type", 1)
        key = (kind, body["name"])
        previous = scope.get(key)
        command: dict[str, Any] = {
            "id": previous["id"] if previous else str(ids.next()),
            "application_id": str(self.world.application.id),
            "version": str(ids.next()),
            "default_member_permissions": body.get("default_member_permissions"),
            "type": kind,
            "name": body["name"],
            "name_localizations": _without_defaults(body, "name"),
            "description": body.get("description") or "",
            "description_localizations": _without_defaults(body, "description"),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw")),
        }
        if kind == PRIMARY_ENTRY_POINT:
            command["handler"] = body.get("handler") or (
                previous["handler"] if previous else HANDLER_APP)
        if body.get("options"):
            command["options"] = _clean_options(body["options"])
        if guild_id is None:
            command["dm_permission"] = body.get("dm_permission", True)
        else:
            command["guild_id"] = str(guild_id)
        if command["default_member_permissions"] is not None:
            command["default_member_permissions"] = str(command["default_member_permissions"])
        scope[key] = command
        return command

    def put_commands(self, guild_id: int | None, body: Any) -> list[dict[str, Any]]:
        scope = self.command_scope(guild_id)
        form = FormErrors()
        validate_commands(form, body)
        form.raise_if_any()
        self._check_entry_points(guild_id, body, replacing=True)
        old = dict(scope)
        scope.clear()
        for item in body:
            key = (item.get("type", 1), item["name"])
            if key in old:
                scope[key] = old[key]
            self._store_command(scope, item, guild_id)
        self.changes.changed()
        return [copy.deepcopy(c) for c in scope.values()]

    def upsert_command(self, guild_id: int | None, body: Any) -> tuple[dict[str, Any], bool]:
        scope = self.command_scope(guild_id)
        form = FormErrors()
        validate_commands(form, [body])
        form.raise_if_any()
        self._check_entry_points(guild_id, [body], replacing=False)
        existed = (body.get("type", 1), body["name"]) in scope
        command = self._store_command(scope, body, guild_id)
        self.changes.changed()
        return copy.deepcopy(command), not existed

    def _check_entry_points(self, guild_id: int | None, bodies: list[dict[str, Any]], *,
                            replacing: bool) -> None:
        """An app has at most one Entry Point command, a global one (Activities, "Setting Up
        an Entry Point Command"), and a bulk overwrite must keep it (50240). Discord's codes
        for the first two are undocumented."""
        wanted = [b for b in bodies if b.get("type") == PRIMARY_ENTRY_POINT]
        current = [c for c in self.global_commands.values() if c["type"] == PRIMARY_ENTRY_POINT]
        if wanted and guild_id is not None:
            raise errors.invalid_form_body({"type": {"_errors": [
                {"code": "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GLOBAL_ONLY",
                 "message": "Primary Entry Point commands can only be global"}]}})
        if guild_id is not None:
            return
        if replacing and current and not wanted:
            raise errors.entry_point_left_out()
        if not replacing and wanted and current and wanted[0]["name"] != current[0]["name"]:
            raise errors.invalid_form_body({"type": {"_errors": [
                {"code": "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_LIMIT",
                 "message": "An application can only have one Primary Entry Point command"}]}})

    def entry_point(self) -> dict[str, Any] | None:
        """The app's Entry Point command (what the App Launcher offers), if it has one."""
        return next((copy.deepcopy(c) for c in self.global_commands.values()
                     if c["type"] == PRIMARY_ENTRY_POINT), None)

    def find_command(self, guild_id: int | None, command_id: int) -> dict[str, Any]:
        for command in self.command_scope(guild_id).values():
            if int(command["id"]) == command_id:
                return command
        raise errors.unknown_application_command()

    def delete_command(self, guild_id: int | None, command_id: int) -> None:
        scope = self.command_scope(guild_id)
        command = self.find_command(guild_id, command_id)
        del scope[(command["type"], command["name"])]
        self.changes.changed()

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands as the bot synced them (global, or one server's), localizations and
        all: copies of what Discord stores."""
        scope = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, {})
        return [copy.deepcopy(c) for c in scope.values()]

    def synced_command(self, guild_id: int | None, name: str) -> dict[str, Any] | None:
        """The chat-input command a user in ``guild_id`` would see: guild first, then global."""
        if guild_id is not None:
            found = self.guild_commands.get(guild_id, {}).get((1, name))
            if found is not None:
                return found
        return self.global_commands.get((1, name))


def _without_defaults(item: dict[str, Any], field: str) -> dict[str, str] | None:
    """The localizations Discord keeps: "Any localized values that are identical to the
    default will be ignored"."""
    translations = item.get(f"{field}_localizations")
    if translations is None:
        return None
    return {k: v for k, v in translations.items() if v != item.get(field)}


def _clean_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cleaned = []
    for option in options:
        item = {k: v for k, v in option.items() if v is not None}
        for field in ("name", "description"):
            if f"{field}_localizations" in item:
                item[f"{field}_localizations"] = _without_defaults(item, field)
        if item.get("choices"):
            item["choices"] = [
                {**c, "name_localizations": _without_defaults(c, "name")}
                if c.get("name_localizations") is not None
                else c
                for c in item["choices"]
            ]
        if item.get("options"):
            item["options"] = _clean_options(item["options"])
        cleaned.append(item)
    return cleaned
