"""``FakeCore``: the fake assembled from its parts, everything but the server that exposes it.

The parts, each in its own module, know nothing of this one: the ``World`` (users, servers,
channels), the ``MessageStore``, the ``CommandStore``, the ``InteractionStore`` (interactions
and the application's webhook), the ``WebhookStore`` (channel webhooks), the
``FaultInjector`` and the ``Gateway``. ``FakeCore`` keeps what is about the HTTP front
(tokens, rate limits, the REST call log, the contract) and offers each part's verbs and state
under the fake's names (``fake.create_message``, ``fake.messages``, ...). The REST routes
(``rest.py``, ``routes_*.py``) take it from the request's application; ``server.py`` serves it.

Every state change wakes ``wait_for`` waiters: tests wait on events, never on sleeps.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bot.fakediscord.activities import (
    CLIENT_ORIGIN,
    Activities,
    ActivityInstance,
    activity_origin,
)
from bot.fakediscord.changes import Changes
from bot.fakediscord.clientrpc import CapturedLog, ClientRpc, Frame
from bot.fakediscord.commands import CommandStore
from bot.fakediscord.emojis import ApplicationEmojis
from bot.fakediscord.faults import FaultInjector, FaultRule
from bot.fakediscord.gateway import GUILDS_PER_SHARD, Gateway
from bot.fakediscord.interactions import INTERACTION_DEADLINE, InteractionStore
from bot.fakediscord.messages import NONCE_WINDOW, MessageStore
from bot.fakediscord.oauth import OAuth, OAuthClient
from bot.fakediscord.ratelimit import InvalidRequests, OldMessageEdits, RateLimitConfig, RateLimiter
from bot.fakediscord.records import Contract, ContractBreach, RateLimitHit, RestCall
from bot.fakediscord.snowflake import SnowflakeFactory
from bot.fakediscord.webhooks import WebhookStore
from bot.fakediscord.world import Application, World

_log = logging.getLogger("fakediscord")

__all__ = ["NONCE_WINDOW", "Application", "FakeCore", "FaultRule", "delegate"]


class delegate:
    """``fake.<name>`` is ``fake.<part>.<name>`` (``attribute`` when the part names it
    otherwise), read and written: replacing ``fake.create_message`` replaces the message
    store's, which every writer of messages calls."""

    def __init__(self, part: str, attribute: str | None = None) -> None:
        self.part = part
        self.attribute = attribute

    def __set_name__(self, owner: type, name: str) -> None:
        self.attribute = self.attribute or name

    def __get__(self, fake: Any, owner: type | None = None) -> Any:
        if fake is None:
            return self
        return getattr(getattr(fake, self.part), self.attribute)  # type: ignore[arg-type]

    def __set__(self, fake: Any, value: Any) -> None:
        setattr(getattr(fake, self.part), self.attribute, value)  # type: ignore[arg-type]


class FakeCore:
    """A Discord API v10 stand-in's state and rules (``FakeDiscord`` serves them).

    ``recommended_shards`` and ``max_concurrency`` are what ``GET /gateway/bot`` advises;
    ``guilds_per_shard`` is the most guilds one connection may hold (4011 beyond it).
    ``token`` None accepts any non-empty bot token (as the README's "any token" promises);
    a string makes every other token a 401 and a gateway close 4004. ``rate_limits`` defaults
    to Discord's (``RateLimitConfig.discord_like()``). ``clock`` (Unix seconds) drives the
    rate limits and the 15-minute interaction tokens; tests replace it to move time on.
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        interaction_deadline: float = INTERACTION_DEADLINE,
        privileged_intents: int = 0,
        rate_limits: RateLimitConfig | None = None,
        app_name: str = "Kortbord",
        clock: Callable[[], float] = time.time,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        guilds_per_shard: int = GUILDS_PER_SHARD,
    ) -> None:
        self.ids = SnowflakeFactory(clock=lambda: self.clock())
        self.token = token
        self.clock = clock
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.limiter = RateLimiter(
            rate_limits or RateLimitConfig.discord_like(), clock=lambda: self.clock()
        )
        self.old_message_edits = OldMessageEdits()
        self.invalid_requests = InvalidRequests()
        """Responses 401, 403 and 429 per IP address, and the ban past 10,000 in 10 minutes."""
        self.changes = Changes()
        self.world = World(
            self.ids, self.changes, app_name=app_name, privileged_intents=privileged_intents
        )
        # server-side state: the emojis outlive any bot process
        self.emojis = ApplicationEmojis(self.ids.next, self.world.bot_user)
        self.message_store = MessageStore(
            self.world,
            self.changes,
            self.emojis,
            clock=lambda: self.clock(),
            base_url=lambda: self.base_url,
        )
        self.command_store = CommandStore(self.world, self.changes)
        self.activities = Activities(self.ids, self.changes, self.world.application.id)
        self.oauth = OAuth(clock=lambda: self.clock())
        self.oauth.add_client(self.world.application.id, self.world.application.name)
        # the fake Discord client page (routes_client.py) and the Activity proxy
        self.captured_logs: list[CapturedLog] = []
        """What Activities' consoles said (CAPTURE_LOG), in order."""
        self.client_rpc = ClientRpc(self.oauth, self.captured_logs)
        self.frames: dict[str, Frame] = {}
        """Every Activity iframe the fake client pages opened, by frame id."""
        self.rpc_calls: list[tuple[int, str, bool]] = []
        """(user id, command, answered without error) for each RPC command relayed."""
        self.csp_reports: list[dict[str, Any]] = []
        """CSP violation reports from Activity pages (the proxy's policy reports here)."""
        self.proxy_session: Any = None
        """The Activity proxy's HTTP client (an ``aiohttp.ClientSession``, made on first use)."""
        self.interaction_store = InteractionStore(
            self.world,
            self.message_store,
            self.changes,
            self.activities,
            clock=lambda: self.clock(),
            deadline=interaction_deadline,
        )
        self.webhook_store = WebhookStore(self.world, self.message_store, self.changes)
        self.fault_injector = FaultInjector()
        self.rest_calls: list[RestCall] = []
        self.rate_limited: list[RateLimitHit] = []
        self.contract: Contract | None = None
        """Checks every request against Discord's API description (the tests set it)."""
        self.contract_answers = False
        """Check the fake's own JSON answers against the contract too."""
        self.contract_breaches: list[ContractBreach] = []
        self.gateway = Gateway(
            self.world,
            self.changes,
            token_ok=self.token_ok,
            clock=lambda: self.clock(),
            resume_url=lambda: f"ws://{self.host}:{self.port}",
            guilds_per_shard=guilds_per_shard,
        )
        self.world.events = self.gateway
        self.host = "127.0.0.1"
        self.port = 0

    # -- the parts' state and verbs, under the fake's names -------------------------------------

    changed = delegate("changes")
    wait_for = delegate("changes")

    bot_user = delegate("world")
    application = delegate("world")
    users = delegate("world")
    guilds = delegate("world")
    channels = delegate("world")
    add_user = delegate("world")
    add_guild = delegate("world")
    set_locale = delegate("world")
    set_preferred_locale = delegate("world")
    add_member = delegate("world")
    add_channel = delegate("world")
    install_for = delegate("world")
    add_group_dm = delegate("world")
    bot_dm = delegate("world")
    user_installs = delegate("world")
    start_thread = delegate("world")
    set_overwrite = delegate("world")
    channel = delegate("world")
    guild = delegate("world")
    bot_permissions = delegate("world")
    require_bot_permissions = delegate("world")

    messages = delegate("message_store")
    attachments = delegate("message_store")
    log = delegate("message_store")
    pings = delegate("message_store")
    unknown_emojis = delegate("message_store")
    next_seq = delegate("message_store")
    public_message = delegate("message_store")
    channel_messages = delegate("message_store")
    channel_history = delegate("message_store")
    create_message = delegate("message_store")
    edit_message = delegate("message_store")
    delete_message = delegate("message_store")
    user_says = delegate("message_store")

    global_commands = delegate("command_store")
    guild_commands = delegate("command_store")
    command_scope = delegate("command_store")
    put_commands = delegate("command_store")
    upsert_command = delegate("command_store")
    find_command = delegate("command_store")
    delete_command = delegate("command_store")
    commands = delegate("command_store")
    synced_command = delegate("command_store")

    interactions = delegate("interaction_store")
    interaction_deadline = delegate("interaction_store", "deadline")
    create_interaction = delegate("interaction_store")
    interaction_callback = delegate("interaction_store")
    callback_response = delegate("interaction_store")
    webhook_record = delegate("interaction_store")
    webhook_message = delegate("interaction_store")
    execute_followup = delegate("interaction_store")
    edit_webhook_message = delegate("interaction_store")

    webhooks = delegate("webhook_store")
    create_webhook = delegate("webhook_store")
    channel_webhooks = delegate("webhook_store")
    webhook_by_id = delegate("webhook_store")
    webhook_by_token = delegate("webhook_store")
    delete_webhook = delegate("webhook_store")
    webhook_target = delegate("webhook_store")
    execute_webhook = delegate("webhook_store")
    channel_webhook_message = delegate("webhook_store")

    faults = delegate("fault_injector", "rules")
    inject_faults = delegate("fault_injector")
    fail_next = delegate("fault_injector")
    clear_faults = delegate("fault_injector")
    pick_fault = delegate("fault_injector")

    guilds_per_shard = delegate("gateway")

    entry_point = delegate("command_store")
    authorize = delegate("oauth")

    # -- the application's Activity and its OAuth2 client ------------------------------------

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (the Developer Portal shows it to its
        owner; the bot's backend needs it to exchange codes)."""
        return self.oauth.clients[self.application.id].secret

    def enable_activities(self, root: str | None = None, *, entry_point: bool = True) -> None:
        """Switch Activities on, as the Developer Portal's "Enable" does: the application gets
        the EMBEDDED flag and, with ``entry_point``, the default Entry Point command "launch"
        (handler 2, DISCORD_LAUNCH_ACTIVITY). ``root`` is the root URL mapping's target (the
        app's own server)."""
        self.world.application.embedded = True
        self.activities.enable(root)
        if entry_point and self.entry_point() is None:
            self.command_store.upsert_command(None, {
                "name": "launch", "description": f"Launch {self.application.name}",
                "type": 4, "handler": 2, "integration_types": [0, 1], "contexts": [0, 1, 2]})

    def add_oauth_client(self, name: str) -> OAuthClient:
        """Another application (an OAuth2 client only): its codes and tokens are a stranger's
        to this one's."""
        return self.oauth.add_client(self.ids.next(), name)

    def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        return self.activities.instance(instance_id)

    client_origin = CLIENT_ORIGIN

    @property
    def activity_origin(self) -> str:
        """Where the fake serves the app's Activity through its proxy."""
        return activity_origin(self.application.id)

    @property
    def csp_report_uri(self) -> str:
        return f"{CLIENT_ORIGIN}/.fake/client/csp"

    def client_url(self, user: Any, channel: Any, *, platform: str = "desktop",
                   authorize: str | None = None) -> str:
        """The fake Discord client showing ``channel`` to ``user`` (``authorize="auto"``
        approves the consent dialog at once)."""
        guild = channel.guild_id if channel.guild_id is not None else "@me"
        query = f"user={user.id}&platform={platform}"
        if authorize:
            query += f"&authorize={authorize}"
        return f"{CLIENT_ORIGIN}/channels/{guild}/{channel.id}?{query}"

    def chromium_args(self) -> list[str]:
        """What a Chromium needs to reach the fake client and the Activity origin (both
        ``*:3333``) on the fake's own port (tests run many fakes at once)."""
        port = self.port
        return [f"--host-resolver-rules=MAP localhost:3333 127.0.0.1:{port},"
                f"MAP *.localhost:3333 127.0.0.1:{port}"]

    # -- where it listens (set by the server once it does) ------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    def session_start_limit(self) -> dict[str, int]:
        """IDENTIFYs left of the 1000 a day, counted from the first one (RESUMEs are free)."""
        return self.gateway.session_start_limit(self.max_concurrency)

    # -- auth, rate limits and the record of REST calls -----------------------------------------

    @property
    def rate_limits(self) -> RateLimitConfig:
        return self.limiter.config

    @rate_limits.setter
    def rate_limits(self, config: RateLimitConfig) -> None:
        self.limiter.config = config
        self.limiter.reset()

    def record_rate_limit(self, hit: RateLimitHit) -> None:
        _log.info("429: %s", hit.describe())
        self.rate_limited.append(hit)

    def global_budget(self, token: str | None = None) -> str:
        """The key of a bot token's global budget in ``limiter.sent`` (default: the one token
        the fake accepts)."""
        token = token or self.token
        if token is None:
            raise ValueError("which bot token? the fake accepts any")
        return f"bot:{token}"

    def token_ok(self, token: str | None) -> bool:
        if not token:
            return False
        return self.token is None or token == self.token

    def record_call(self, call: RestCall) -> None:
        _log.info(
            "%s %s -> %s%s",
            call.method,
            call.path,
            call.status,
            " (injected)" if call.injected else "",
        )
        self.rest_calls.append(call)
        self.changed()
