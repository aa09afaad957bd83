"""Discord's error responses: status, JSON error code, message, and the nested form errors."""

from __future__ import annotations

from typing import Any

PathPart = str | int


class DiscordHTTPError(Exception):
    """Rendered by the REST layer as ``{"message": ..., "code": ...[, "errors": ...]}``."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class TooManyOldMessageEdits(DiscordHTTPError):
    """429 ``30046``: a rate limit with a JSON code, so its body carries both."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(429, 30046, "Maximum number of edits to messages older than 1 hour "
                         "reached. Try again later.")
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {**super().body(), "retry_after": round(self.retry_after, 3), "global": False}


class FormErrors:
    """Collects field errors into Discord's shape: ``{"a": {"0": {"b": {"_errors": [...]}}}}``."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[PathPart, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[PathPart, ...], limit: int) -> None:
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: tuple[PathPart, ...], low: int, high: int) -> None:
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: tuple[PathPart, ...]) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def __bool__(self) -> bool:
        return bool(self.tree)

    def raise_if_any(self) -> None:
        if self.tree:
            raise invalid_form_body(self.tree)


def invalid_form_body(errors: dict[str, Any]) -> DiscordHTTPError:
    return DiscordHTTPError(400, 50035, "Invalid Form Body", errors)


def unauthorized() -> DiscordHTTPError:
    return DiscordHTTPError(401, 0, "401: Unauthorized")


def not_found() -> DiscordHTTPError:
    return DiscordHTTPError(404, 0, "404: Not Found")


def method_not_allowed() -> DiscordHTTPError:
    return DiscordHTTPError(405, 0, "405: Method Not Allowed")


def unknown_channel() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10003, "Unknown Channel")


def unknown_guild() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10004, "Unknown Guild")


def unknown_member() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10007, "Unknown Member")


def unknown_message() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10008, "Unknown Message")


def unknown_user() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10013, "Unknown User")


def unknown_webhook() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10062, "Unknown interaction")


def unknown_application_command() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10063, "Unknown application command")


def missing_access() -> DiscordHTTPError:
    return DiscordHTTPError(403, 50001, "Missing Access")


def missing_permissions() -> DiscordHTTPError:
    return DiscordHTTPError(403, 50013, "Missing Permissions")


def wrong_channel_type() -> DiscordHTTPError:
    return DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")


def cannot_edit_others_message() -> DiscordHTTPError:
    return DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> DiscordHTTPError:
    return DiscordHTTPError(400, 50006, "Cannot send an empty message")


def invalid_webhook_token() -> DiscordHTTPError:
    return DiscordHTTPError(401, 50027, "Invalid Webhook Token")


def already_acknowledged() -> DiscordHTTPError:
    return DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")


def bad_json() -> DiscordHTTPError:
    return DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")


def max_webhooks() -> DiscordHTTPError:
    return DiscordHTTPError(400, 30007, "Maximum number of webhooks reached (15)")


def too_many_followups() -> DiscordHTTPError:
    """400 ``40094``: an interaction of an app installed only to the person already has the 5
    follow-ups Discord allows it ("Receiving and Responding": follow-up limits)."""
    return DiscordHTTPError(400, 40094, "This interaction has hit the maximum number of follow "
                            "up messages")


def entry_point_left_out() -> DiscordHTTPError:
    """A bulk overwrite of the global commands without the app's Entry Point command (JSON
    error code 50240, as recalled from Discord's list of codes)."""
    return DiscordHTTPError(
        400, 50240, "You cannot remove this app's Primary Entry Point command in a bulk update "
        "operation. Please include the Primary Entry Point command in your update request or "
        "delete it separately.")
