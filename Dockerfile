# Dispatch: the Discord bot. Build: docker build -t dispatch .
# Run:   docker run --init -e DISCORD_TOKEN=... -v dispatch-data:/data dispatch
# Several processes on PostgreSQL: docker-compose.yml; every layout: docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DISPATCH_DB=/data/dispatch.sqlite3 \
    DISPATCH_HEALTH_FILE=/tmp/dispatch-health

RUN useradd --create-home --uid 10001 dispatch \
    && mkdir -p /data && chown dispatch:dispatch /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY render ./render
RUN pip install --no-cache-dir .

USER dispatch
VOLUME ["/data"]
# `dispatch health` passes while the process is connected (bot/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["dispatch", "health"]
# SIGTERM (docker stop) stops the bot cleanly and it exits 0 within a few seconds. The
# exec form makes dispatch itself PID 1, with no shell in between to swallow the signal;
# --init (compose: init: true) adds a small init that also reaps child processes.
STOPSIGNAL SIGTERM
CMD ["dispatch"]
