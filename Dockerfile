# Dispatch: the Discord bot. Build: docker build -t dispatch .
# Run:   docker run --init -e DISCORD_TOKEN=... -v dispatch-data:/data dispatch
# Several processes on PostgreSQL: docker-compose.yml; every layout: docs/deploy.md.
#
# Two stages: the first installs Dispatch into a virtual environment and compiles the
# rules with mypyc (`dispatch compile-rules`: the same moves, about twice as fast), which
# needs a C compiler; the second copies that environment into a slim image without one.
FROM python:3.11 AS build

ENV PYTHONDONTWRITEBYTECODE=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY render ./render
RUN python -m venv /venv \
    && /venv/bin/pip install --no-cache-dir ".[compiled]" \
    && /venv/bin/dispatch compile-rules \
    && /venv/bin/pip uninstall --yes mypy setuptools

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/venv/bin:$PATH \
    DISPATCH_DB=/data/dispatch.sqlite3 \
    DISPATCH_HEALTH_FILE=/tmp/dispatch-health

RUN useradd --create-home --uid 10001 dispatch \
    && mkdir -p /data && chown dispatch:dispatch /data

COPY --from=build /venv /venv

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
