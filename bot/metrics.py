"""The bot's Prometheus metrics (prometheus-client), served at ``/metrics`` by ``bot.monitor``
when ``METRICS_PORT`` is set.

Names follow Prometheus's conventions: a ``kortbord_`` prefix, the unit in the name
(``_seconds``), counters ending in ``_total``. Every label has a small, fixed set of values (a
game's kind, an outcome, a route class, an HTTP status): never a user, server, channel,
interaction or table id, which would make a time series per person or per table.

Recording costs about a microsecond a call (a lock and an add), so the bot records always;
only the endpoint is opt-in. The process's CPU, memory and garbage collections come with
prometheus-client's default registry (``process_*``, ``python_gc_*``).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

_ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds; Discord gives an interaction 3 seconds for its first answer."""
_FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds, for work that usually takes a millisecond or less (a commit, a decision, a lag)."""
_WAIT_BUCKETS = (0.0, 0.01, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds a table write waits for the rate limits (a channel allows 4 writes per 5 s)."""

INTERACTIONS = Counter(
    "kortbord_interactions", "Interactions by kind and how their first answer went "
    "(ok, user_error, error, refused by Discord, unanswered within 3 s)",
    ["kind", "outcome"],
)
ANSWER_SECONDS = Histogram(
    "kortbord_interaction_answer_seconds",
    "From the interaction reaching the bot to Discord accepting its first answer",
    ["kind"], buckets=_ANSWER_BUCKETS,
)
DISCORD_REQUESTS = Counter(
    "kortbord_discord_requests", "HTTP requests to Discord's API by route class and status "
    "code (every attempt, retries of a 429 included)", ["route", "code"],
)
DISCORD_RATE_LIMITED = Counter(
    "kortbord_discord_rate_limited", "429 answers from Discord by route class and scope "
    "(user, global, shared)", ["route", "scope"],
)
RATE_LIMIT_WAIT_SECONDS = Histogram(
    "kortbord_rate_limit_wait_seconds",
    "How long a table write waited for its turn under the bot's own pacing of Discord's "
    "rate limits", buckets=_WAIT_BUCKETS,
)
EVENT_LOOP_LAG_SECONDS = Histogram(
    "kortbord_event_loop_lag_seconds",
    "How late a timer of the event loop fired (sampled twice a second)", buckets=_FAST_BUCKETS,
)
LIVE_TABLES = Gauge(
    "kortbord_live_tables", "Tables in a lobby or playing in this process's servers, by game",
    ["game", "status"],
)
MOVES = Counter(
    "kortbord_moves", "Moves applied and committed, by game and by whom (person, computer, "
    "timer)", ["game", "by"],
)
COMPUTER_DECISION_SECONDS = Histogram(
    "kortbord_computer_decision_seconds", "CPU time a computer player took to choose a move",
    ["game"], buckets=_FAST_BUCKETS,
)
DATABASE_TRANSACTION_SECONDS = Histogram(
    "kortbord_database_transaction_seconds",
    "A write transaction from its start to its commit (a move and its consequences are one)",
    ["backend"], buckets=_FAST_BUCKETS,
)
SHARDS = Gauge("kortbord_shards", "Shards (gateway connections) this process runs")
SHARDS_CONNECTED = Gauge(
    "kortbord_shards_connected", "Shards of this process whose gateway connection is open"
)
