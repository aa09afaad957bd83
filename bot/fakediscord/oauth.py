"""OAuth2 as Discord runs it for an Activity: the consent step yields a code, the app's backend
exchanges it at ``POST /oauth2/token`` with its client secret, and the access token then works
as a ``Bearer`` token (``GET /users/@me``, ``GET /oauth2/@me``).

Discord's "OAuth2" topic: the token request is form-encoded (``grant_type``, ``code``,
``redirect_uri`` when the authorization had one), the client authenticates with HTTP Basic or
``client_id``/``client_secret`` in the body (RFC 6749 §2.3.1 allows both; Discord's Activity
sample sends them in the body), codes are single-use and bound to the client and the user, and
errors are RFC 6749's (``{"error", "error_description"}``; ``invalid_client`` is a 401). The
answer is ``{access_token, token_type: "Bearer", expires_in, refresh_token, scope}``.

Not documented, so assumed: a code lives 10 minutes (RFC 6749 §4.1.2's "maximum ... of 10
minutes"); a replayed code is refused but the tokens it gave keep working (the RFC's SHOULD
revoke is not modelled); ``expires_in`` is 604800, the value in Discord's own examples.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from bot.fakediscord.model import User

CODE_LIFETIME = 10 * 60
TOKEN_LIFETIME = 7 * 24 * 60 * 60
AUTHORIZATION_CODE = "authorization_code"
REFRESH_TOKEN = "refresh_token"


class OAuthError(Exception):
    """An RFC 6749 error answer: ``status`` and ``{"error", "error_description"}``."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(f"{status} {error}: {description or ''}")
        self.status = status
        self.error = error
        self.description = description

    def body(self) -> dict[str, str]:
        data = {"error": self.error}
        if self.description:
            data["error_description"] = self.description
        return data


def _invalid_grant(what: str) -> OAuthError:
    return OAuthError(400, "invalid_grant", f'Invalid "{what}" in request.')


@dataclass
class OAuthClient:
    """An application as an OAuth2 client: the fake's own, or another app (a test's
    stranger, whose codes and tokens must not work for the fake's app)."""

    id: int
    name: str
    secret: str


@dataclass
class Grant:
    """What a code or a token stands for: who agreed to which scopes for which client."""

    user: User
    client_id: int
    scopes: tuple[str, ...]
    redirect_uri: str | None
    expires_at: float
    used: bool = False

    def has(self, scope: str) -> bool:
        return scope in self.scopes


@dataclass
class OAuth:
    """Clients, codes, access and refresh tokens; ``clock`` is the fake's (Unix seconds)."""

    clock: Callable[[], float]
    clients: dict[int, OAuthClient] = field(default_factory=dict)
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, Grant] = field(default_factory=dict)
    refresh_tokens: dict[str, Grant] = field(default_factory=dict)
    exchanges: int = 0
    """Codes exchanged successfully (a test can tell that the backend did it once)."""

    def add_client(self, client_id: int, name: str) -> OAuthClient:
        client = OAuthClient(client_id, name, secrets.token_urlsafe(24))
        self.clients[client_id] = client
        return client

    # -- the consent step (the Discord client's authorize dialog) ------------------------------

    def authorize(self, user: User, client_id: int, scopes: Iterable[str],
                  redirect_uri: str | None = None) -> str:
        """The code the person's "Authorize" yields (the SDK's ``authorize`` returns it)."""
        if client_id not in self.clients:
            raise KeyError(f"no application {client_id}")
        code = secrets.token_urlsafe(22)
        self.codes[code] = Grant(user, client_id, tuple(dict.fromkeys(scopes)), redirect_uri,
                                 self.clock() + CODE_LIFETIME)
        return code

    # -- the token endpoint --------------------------------------------------------------------

    def token_request(self, form: Mapping[str, str],
                      basic: tuple[str, str] | None) -> dict[str, object]:
        """``POST /oauth2/token`` with ``form`` (and HTTP Basic credentials, if sent)."""
        client = self._client(form, basic)
        grant_type = form.get("grant_type")
        if grant_type == AUTHORIZATION_CODE:
            grant = self._code_grant(client, form)
        elif grant_type == REFRESH_TOKEN:
            grant = self._refresh_grant(client, form)
        elif not grant_type:
            raise OAuthError(400, "invalid_request", 'Missing "grant_type" in request.')
        else:
            raise OAuthError(400, "unsupported_grant_type",
                             f'Unsupported grant type "{grant_type}".')
        return self._issue(grant)

    def _client(self, form: Mapping[str, str], basic: tuple[str, str] | None) -> OAuthClient:
        client_id, secret = basic if basic is not None else (
            form.get("client_id", ""), form.get("client_secret", ""))
        try:
            client = self.clients.get(int(client_id))
        except ValueError:
            client = None
        if client is None or not secrets.compare_digest(client.secret, secret or ""):
            raise OAuthError(401, "invalid_client")
        return client

    def _code_grant(self, client: OAuthClient, form: Mapping[str, str]) -> Grant:
        code = form.get("code")
        if not code:
            raise OAuthError(400, "invalid_request", 'Missing "code" in request.')
        grant = self.codes.get(code)
        if (grant is None or grant.used or grant.client_id != client.id
                or self.clock() > grant.expires_at):
            raise _invalid_grant("code")
        if grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri:
            raise _invalid_grant("redirect_uri")
        grant.used = True
        self.exchanges += 1
        return grant

    def _refresh_grant(self, client: OAuthClient, form: Mapping[str, str]) -> Grant:
        grant = self.refresh_tokens.pop(form.get("refresh_token") or "", None)
        if grant is None or grant.client_id != client.id:
            raise _invalid_grant("refresh_token")
        return grant

    def _issue(self, grant: Grant) -> dict[str, object]:
        access, refresh = secrets.token_urlsafe(22), secrets.token_urlsafe(22)
        issued = Grant(grant.user, grant.client_id, grant.scopes, grant.redirect_uri,
                       self.clock() + TOKEN_LIFETIME)
        self.tokens[access] = issued
        self.refresh_tokens[refresh] = issued
        return {"access_token": access, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
                "refresh_token": refresh, "scope": " ".join(grant.scopes)}

    # -- Bearer tokens -------------------------------------------------------------------------

    def bearer(self, token: str) -> Grant | None:
        """The live grant behind an access token (``None``: unknown or expired)."""
        grant = self.tokens.get(token)
        if grant is None or self.clock() > grant.expires_at:
            return None
        return grant

    def expire(self, token: str) -> None:
        """Let an access token run out (a test's shortcut for waiting a week)."""
        self.tokens[token].expires_at = self.clock() - 1
