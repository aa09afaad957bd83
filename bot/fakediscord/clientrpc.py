"""The Discord client's side of the Embedded App SDK's RPC: what the client answers an Activity's
frame over ``postMessage`` (the fake client page, ``client/client.js``, relays each message here).

The protocol, as the SDK (``@discord/embedded-app-sdk`` 2.5.0, ``Discord.mjs`` and its
``schema/``) speaks it: messages are ``[opcode, payload]`` — HANDSHAKE 0, FRAME 1, CLOSE 2.
The SDK's HANDSHAKE ``{v: 1, encoding: "json", client_id, frame_id, sdk_version}`` is answered by
DISPATCH READY ``{v: 1, config: {cdn_host, api_endpoint, environment}, user}``; a FRAME
``{cmd, args, nonce}`` by ``{cmd, evt: null, nonce, data}``, or ``{cmd, evt: "ERROR", nonce,
data: {code, message}}`` with an RPC error code (Discord's "RPC" topic: 4000 invalid payload,
4002 invalid command, 4004 invalid event, 4007 invalid client id, 4009 invalid token, 5000
OAuth2 error); events the frame subscribed to come as ``{cmd: "DISPATCH", evt, nonce: null,
data}``. A malformed handshake closes the frame (``[2, {code, message}]``, RPC close codes
4000 invalid client id, 4004 invalid version).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.fakediscord.activities import ActivityInstance
from bot.fakediscord.model import User
from bot.fakediscord.oauth import OAuth

INVALID_PAYLOAD = 4000
INVALID_COMMAND = 4002
INVALID_EVENT = 4004
INVALID_CLIENT_ID = 4007
INVALID_TOKEN = 4009
OAUTH2_ERROR = 5000
CLOSE_INVALID_CLIENT_ID = 4000
CLOSE_INVALID_VERSION = 4004

PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
EVENTS = frozenset({
    "VOICE_STATE_UPDATE", "SPEAKING_START", "SPEAKING_STOP", "ACTIVITY_LAYOUT_MODE_UPDATE",
    "ORIENTATION_UPDATE", "CURRENT_USER_UPDATE", "CURRENT_GUILD_MEMBER_UPDATE",
    "ENTITLEMENT_CREATE", "THERMAL_STATE_UPDATE", PARTICIPANTS_UPDATE, "RELATIONSHIP_UPDATE",
    "ACTIVITY_JOIN", "QUEST_ENROLLMENT_STATUS_UPDATE",
})
"""What the SDK may SUBSCRIBE to (its ``Events``, READY aside); only the participants update
ever fires here."""
ANSWERED = frozenset({
    "AUTHORIZE", "AUTHENTICATE", "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", "CAPTURE_LOG",
    "SET_CONFIG", "GET_PLATFORM_BEHAVIORS", "USER_SETTINGS_GET_LOCALE",
    "SET_ORIENTATION_LOCK_STATE", "ENCOURAGE_HW_ACCELERATION",
})
"""The commands the fake client answers (with SUBSCRIBE and UNSUBSCRIBE); any other is
INVALID_COMMAND, so a page that needs more fails visibly rather than hanging."""
CONFIG = {"cdn_host": "cdn.discordapp.com", "api_endpoint": "//discord.com/api",
          "environment": "production"}


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message


@dataclass
class CapturedLog:
    """A CAPTURE_LOG: what the Activity's console said (the SDK forwards every console call
    once READY)."""

    user_id: int
    frame_id: str
    level: str
    message: str


@dataclass
class Frame:
    """One Activity iframe a person has open in the fake client."""

    frame_id: str
    user: User
    instance: ActivityInstance
    platform: str
    application_id: int
    ready: bool = False
    closed: bool = False
    subscriptions: set[str] = field(default_factory=set)
    pending_consent: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """AUTHORIZE commands waiting for the person's click, by nonce: the scopes asked for."""


def participant(user: User) -> dict[str, Any]:
    """A participant as GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS lists them."""
    data = user.payload()
    return {"id": data["id"], "username": data["username"], "global_name": data["global_name"],
            "discriminator": data["discriminator"], "avatar": data["avatar"],
            "flags": data["flags"], "bot": user.bot, "avatar_decoration_data": None,
            "premium_type": None}


def participants(instance: ActivityInstance) -> dict[str, Any]:
    return {"participants": [participant(u) for u in instance.users]}


def handshake(frame: Frame, payload: Any) -> dict[str, Any]:
    """``{"ready": <READY dispatch>}`` or ``{"close": {code, message}}``."""
    if not isinstance(payload, dict) or payload.get("v") != 1:
        return {"close": {"code": CLOSE_INVALID_VERSION, "message": "Invalid version"}}
    if payload.get("client_id") != str(frame.application_id):
        return {"close": {"code": CLOSE_INVALID_CLIENT_ID, "message": "Invalid Client ID"}}
    frame.ready = True
    user = frame.user.payload()
    ready_user = {k: user[k] for k in ("id", "username", "discriminator")}
    if user["avatar"] is not None:
        ready_user["avatar"] = user["avatar"]
    return {"ready": {"cmd": "DISPATCH", "evt": "READY", "nonce": None,
                      "data": {"v": 1, "config": dict(CONFIG), "user": ready_user}}}


class ClientRpc:
    """Answers one frame's commands. AUTHORIZE may need the person's consent: ``command``
    then returns ``None`` and the page shows the dialog, whose answer goes to ``consent``."""

    def __init__(self, oauth: OAuth, captured: list[CapturedLog]) -> None:
        self.oauth = oauth
        self.captured = captured
        self.granted: dict[tuple[int, int], set[str]] = {}
        """What each person already authorized each app for (``prompt: "none"`` skips the
        dialog then, as Discord's client does)."""

    def command(self, frame: Frame, payload: dict[str, Any]) -> Any:
        """The ``data`` answering a FRAME ``{cmd, args, nonce[, evt]}``; raises ``RpcError``;
        ``None`` with ``nonce`` in ``frame.pending_consent`` for an AUTHORIZE that needs the
        dialog (other commands' empty answers are JSON null too)."""
        if not frame.ready:
            raise RpcError(INVALID_PAYLOAD, "Not ready: no handshake")
        cmd, nonce = str(payload.get("cmd")), str(payload.get("nonce"))
        args = payload.get("args") if isinstance(payload.get("args"), dict) else {}
        if cmd in ("SUBSCRIBE", "UNSUBSCRIBE"):
            return self.subscribe(frame, payload.get("evt"), cmd == "SUBSCRIBE")
        if cmd not in ANSWERED:
            raise RpcError(INVALID_COMMAND, f"Invalid command: {cmd}")
        return getattr(self, f"_{cmd.lower()}")(frame, args, nonce)

    # -- OAuth2 ---------------------------------------------------------------------------------

    def _authorize(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        if str(args.get("client_id")) != str(frame.application_id):
            raise RpcError(INVALID_CLIENT_ID, "Invalid client ID")
        if args.get("response_type", "code") != "code":
            raise RpcError(INVALID_PAYLOAD, "response_type must be code")
        scopes = args.get("scope")
        if isinstance(scopes, str):
            scopes = scopes.split()
        if not isinstance(scopes, list) or not scopes or not all(
                isinstance(s, str) for s in scopes):
            raise RpcError(INVALID_PAYLOAD, "scope must be a non-empty list of scopes")
        wanted = tuple(dict.fromkeys(scopes))
        already = self.granted.get((frame.user.id, frame.application_id), set())
        if args.get("prompt") == "none" and set(wanted) <= already:
            return {"code": self.oauth.authorize(frame.user, frame.application_id, wanted)}
        frame.pending_consent[nonce] = wanted
        return None

    def consent(self, frame: Frame, nonce: str, approved: bool) -> dict[str, str]:
        """The person's click in the authorize dialog: the code, or the OAuth2 error."""
        wanted = frame.pending_consent.pop(nonce, None)
        if wanted is None:
            raise RpcError(INVALID_PAYLOAD, "No authorization is waiting for this answer")
        if not approved:
            raise RpcError(OAUTH2_ERROR, "User cancelled the authorization")
        self.granted.setdefault((frame.user.id, frame.application_id), set()).update(wanted)
        return {"code": self.oauth.authorize(frame.user, frame.application_id, wanted)}

    def _authenticate(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        token = args.get("access_token")
        grant = self.oauth.bearer(token) if isinstance(token, str) else None
        if grant is None or grant.client_id != frame.application_id \
                or grant.user.id != frame.user.id:
            raise RpcError(INVALID_TOKEN, "Invalid access token")
        client = self.oauth.clients[grant.client_id]
        user = grant.user.payload()
        return {
            "access_token": token,
            "user": {k: user[k] for k in ("username", "discriminator", "id", "avatar",
                                          "public_flags", "global_name")},
            "scopes": list(grant.scopes),
            "expires": datetime.fromtimestamp(grant.expires_at, UTC).isoformat(),
            "application": {"id": str(client.id), "name": client.name, "icon": None,
                            "description": "", "rpc_origins": []},
        }

    # -- subscriptions and participants ----------------------------------------------------------

    def subscribe(self, frame: Frame, evt: Any, subscribing: bool) -> dict[str, str]:
        if evt not in EVENTS:
            raise RpcError(INVALID_EVENT, f"Invalid event: {evt}")
        if subscribing:
            frame.subscriptions.add(evt)
        else:
            frame.subscriptions.discard(evt)
        return {"evt": evt}

    def _get_activity_instance_connected_participants(
            self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        return participants(frame.instance)

    # -- what ready() and a page's set-up may ask ------------------------------------------------

    def _capture_log(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        level, message = args.get("level"), args.get("message")
        if level not in ("log", "warn", "debug", "info", "error") or not isinstance(message, str):
            raise RpcError(INVALID_PAYLOAD, "CAPTURE_LOG needs a level and a message")
        self.captured.append(CapturedLog(frame.user.id, frame.frame_id, level, message))
        return None

    def _set_config(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        return {"use_interactive_pip": bool(args.get("use_interactive_pip"))}

    def _get_platform_behaviors(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        return {"iosKeyboardResizesView": False} if frame.platform == "mobile" else {}

    def _user_settings_get_locale(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        return {"locale": frame.user.locale}

    def _set_orientation_lock_state(self, frame: Frame, args: dict[str, Any],
                                    nonce: str) -> Any:
        return None

    def _encourage_hw_acceleration(self, frame: Frame, args: dict[str, Any], nonce: str) -> Any:
        return {"enabled": True}
