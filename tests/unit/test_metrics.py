"""``bot.metrics`` follows Prometheus's conventions and the dashboard in ``docs/ops`` uses only
series the bot has: units in names, counters ending in ``_total``, no label that names a person,
a server, a channel, an interaction or a table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import Counter, Gauge, Histogram

from bot import metrics
from bot.discord.telemetry import route_class

DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "ops" / "grafana-dashboard.json"
OURS = [m for m in vars(metrics).values() if isinstance(m, (Counter, Gauge, Histogram))]


def _series() -> set[str]:
    """Every series name the bot's metrics expose, whether recorded yet or not."""
    names = set()
    for metric in OURS:
        if isinstance(metric, Histogram):
            names |= {metric._name + s for s in ("_bucket", "_count", "_sum")}
        else:
            names.add(metric._name + ("_total" if isinstance(metric, Counter) else ""))
    return names


def test_names_and_labels_follow_prometheus_conventions() -> None:
    assert len(OURS) >= 12
    for metric in OURS:
        name = metric._name
        assert name.startswith("kortbord_") and re.fullmatch(r"[a-z_]+", name)
        if isinstance(metric, Histogram):
            assert name.endswith("_seconds"), name
        for label in metric._labelnames:
            assert "id" not in label.split("_") and label not in ("user", "channel", "table",
                                                                  "guild"), (name, label)


def test_route_classes_never_carry_an_id() -> None:
    assert route_class("/api/v10/interactions/123/tok/callback") == "interaction_callback"
    assert route_class("/api/v10/webhooks/1/tok/messages/@original") == "interaction_original"
    assert route_class("/api/v10/channels/55/messages/66") == "channel_messages"
    assert route_class("/api/v10/somewhere/else/77") == "other"


def test_the_dashboard_uses_only_the_bot_s_series() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    used = {name for panel in dashboard["panels"] for target in panel["targets"]
            for name in re.findall(r"\bkortbord_\w+", target["expr"])}
    assert used and used <= _series(), used - _series()
    every = {m._name for m in OURS}
    assert {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in used} == every
