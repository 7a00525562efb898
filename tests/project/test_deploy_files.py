"""docker-compose.yml and the Dockerfile say what docs/deploy.md promises.

Docker is not run here: the files are parsed and checked. The shard ranges of the bot
services are read with the bot's own parser, so a compose file whose shards overlap,
leave a gap or disagree on the count fails here rather than in production.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.config import parse_shards

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(document, dict)
    return document


def dispatch_services(services: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if name != "postgres"}


def test_compose_has_postgres_two_bot_shards_and_workers() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "bot-a", "bot-b", "worker"}
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert "pgdata" in compose()["volumes"]
    assert services["worker"]["command"] == ["dispatch", "worker"]
    assert services["worker"]["deploy"]["replicas"] == 2
    for name in ("bot-a", "bot-b"):
        assert services[name]["command"] == ["dispatch"]


def test_every_service_restarts_has_a_healthcheck_and_stops_gracefully() -> None:
    services = compose()["services"]
    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL"), name
        seconds = int(re.fullmatch(r"(\d+)s", service["stop_grace_period"])[1])  # type: ignore[index]
        assert seconds > 10, name  # above Docker's default, the bot's stop fits in it
    for name, service in dispatch_services(services).items():
        assert service["init"] is True, name  # PID 1 forwards SIGTERM and reaps children
        assert service["healthcheck"]["test"] == ["CMD", "dispatch", "health"], name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        env = service["environment"]
        assert env["DISPATCH_DATABASE_URL"].startswith("postgresql://"), name
        assert "@postgres:5432/" in env["DISPATCH_DATABASE_URL"], name
        assert env["DISPATCH_HEALTH_FILE"], name


def test_the_bot_services_cover_every_shard_once() -> None:
    services = compose()["services"]
    counts: set[int] = set()
    covered: list[int] = []
    for name, service in dispatch_services(services).items():
        env = service["environment"]
        if service["command"] != ["dispatch"]:
            assert "DISCORD_TOKEN" not in env, f"{name} needs no Discord token"
            continue
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN"), name  # from .env
        ids, count = parse_shards(env["DISPATCH_SHARD_IDS"], env["DISPATCH_SHARD_COUNT"])
        assert ids is not None and count is not None
        counts.add(count)
        covered.extend(ids)
    [count] = counts  # every process agrees on the shard count
    assert sorted(covered) == list(range(count))  # each shard run once, none left out


def test_secrets_come_from_the_environment_and_env_is_never_committed() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    assert "${POSTGRES_PASSWORD:?" in text and "${DISCORD_TOKEN:?" in text
    assert ".env" in (ROOT / ".gitignore").read_text().split()
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


def test_the_image_runs_dispatch_as_pid_1_and_checks_its_health() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    assert lines[-1] == 'CMD ["dispatch"]'  # exec form: no shell swallowing SIGTERM
    assert "STOPSIGNAL SIGTERM" in lines
    text = "\n".join(lines)
    assert re.search(r'HEALTHCHECK [^\n]*\\\n\s*CMD \["dispatch", "health"\]', text)
    assert "DISPATCH_HEALTH_FILE=" in text
    assert any(line.startswith("USER ") and "root" not in line for line in lines)


def test_deploy_doc_names_every_setting_and_layout() -> None:
    doc = (ROOT / "docs" / "deploy.md").read_text()
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', (ROOT / "bot" / "config.py").read_text()))
    assert {"DISCORD_TOKEN", "DISPATCH_SHARD_IDS", "DISPATCH_SHARD_COUNT"} <= read
    missing = sorted(name for name in read | {"DISPATCH_DATABASE_URL"} if f"`{name}`" not in doc)
    assert missing == []
    for heading in (
        "## 1. One process on SQLite",
        "## 2. One process on PostgreSQL",
        "## 3. Several shard processes on PostgreSQL",
        "## 4. Plus AI workers",
        "## Stopping: SIGTERM",
        "## When a process dies",
        "## Upgrades and migrations",
        "## Backups",
    ):
        assert heading in doc, heading
    assert "dispatch store copy --to postgresql://" in doc
    assert "use PostgreSQL for several processes" in doc  # the message a second process gets
