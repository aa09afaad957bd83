"""``python -m bot.healthcheck``: exit 0 when this machine's bot answers ``/readyz`` with 200,
else 1 with one line saying why. The container's health check (Dockerfile ``HEALTHCHECK``,
compose's ``healthcheck``): it asks ``127.0.0.1:METRICS_PORT``, where the bot listens whatever
``METRICS_HOST`` says (loopback or every address). Only the standard library: it starts in a
fraction of a second."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT = 4.0
"""Seconds; the bot gives the database 2 s to answer."""


def main() -> int:
    port = os.environ.get("METRICS_PORT", "").strip()
    if not port.isdigit() or int(port) == 0:
        print("kortbord healthcheck: METRICS_PORT is not set to a port", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=TIMEOUT) as r:
            return 0 if r.status == 200 else 1
    except urllib.error.HTTPError as exc:
        print(f"kortbord healthcheck: not ready: {exc.read().decode(errors='replace')}",
              file=sys.stderr)
    except OSError as exc:
        print(f"kortbord healthcheck: no answer: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
