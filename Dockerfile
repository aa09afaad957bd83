FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/kortbord.sqlite3 \
    METRICS_PORT=9464

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
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
