# The Activity page's one dependency, Discord's Embedded App SDK, from the npm registry at the
# version package-lock.json pins; node and npm stay in this stage, out of the bot's image
FROM python:3.11-slim AS sdk
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /sdk
COPY bot/activity/web/package.json bot/activity/web/package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/kortbord.sqlite3 \
    METRICS_PORT=9464

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY --from=sdk /sdk/node_modules ./bot/activity/web/node_modules
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /app kortbord \
    && mkdir -p /data && chown kortbord /data

USER kortbord
VOLUME ["/data"]
# ready: the gateway connected and the database answering (/readyz on METRICS_PORT)
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot.healthcheck"]
# the bot closes its database cleanly on SIGTERM (docker stop)
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
