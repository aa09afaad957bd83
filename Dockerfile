FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/kortbord.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /app kortbord \
    && mkdir -p /data && chown kortbord /data

USER kortbord
VOLUME ["/data"]
# the bot closes its database cleanly on SIGTERM (docker stop)
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
