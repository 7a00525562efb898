# Dispatch: the Discord bot. Build: docker build -t dispatch .
# Run:   docker run -e DISCORD_TOKEN=... -v dispatch-data:/data dispatch
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DISPATCH_DB=/data/dispatch.sqlite3

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
CMD ["dispatch"]
