"""The map in docs/architecture.md is true: each thing is where it says, and the rooms
depend on each other only the way it draws."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def where_rows() -> list[tuple[str, str, str]]:
    section = DOC[DOC.index("## Where to find") :]
    rows = re.findall(r"^\| (where [^|]+?) \| `([^`]+)` \| `([^`]+)`", section, re.M)
    files = [row for row in rows if "<" not in row[1]]  # "rules/<game>/" names a pattern
    assert len(files) >= 5
    return files


@pytest.mark.parametrize(("what", "path", "name"), where_rows())
def test_each_thing_is_where_the_map_says(what: str, path: str, name: str) -> None:
    tree = ast.parse((ROOT / path).read_text())
    defined = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    parts = name.split(".")
    assert parts[0] in defined, f"{what}: {name} is not in {path}"
    if len(parts) > 1:
        cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == parts[0])
        members = {
            n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assert parts[1] in members, f"{what}: {name} is not in {path}"


def test_every_folder_of_bot_is_on_the_map() -> None:
    folders = {p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and p.name != "__pycache__"}
    for folder in folders:
        assert f"`bot/{folder}/`" in DOC, folder
    loose = {p.name for p in (ROOT / "bot").glob("*.py")}
    assert loose == {"__init__.py", "__main__.py", "config.py", "errors.py"}


def imports_of(package: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("rules", ("bot", "render", "discord", "aiosqlite", "PIL")),
        ("render", ("bot", "discord", "aiosqlite")),
        ("bot.storage", ("bot.tables", "bot.delivery", "bot.discord_app", "bot.terminal", "rules")),
        ("bot.tables", ("bot.discord_app", "bot.terminal", "discord")),
        ("bot.delivery", ("bot.discord_app", "bot.terminal", "discord")),
        ("bot.terminal", ("bot.discord_app", "discord")),
        (
            "bot.process",
            ("bot.storage", "bot.tables", "bot.delivery", "bot.discord_app", "discord", "rules"),
        ),
    ],
)
def test_arrows_only_go_down(package: str, forbidden: tuple[str, ...]) -> None:
    bad = sorted(
        m for m in imports_of(package) if any(m == f or m.startswith(f + ".") for f in forbidden)
    )
    assert bad == [], f"{package} imports {bad}"


def repo_texts() -> list[Path]:
    kept = ("bot", "rules", "render", "tests", "bench", "docs", ".ci")
    found = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "Dockerfile"]
    for folder in kept:
        found += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and p.suffix in {".py", ".md", ".toml", ".json", ".sql", ""}
        ]
    return found


def test_the_repo_cites_nothing_that_lives_outside_it() -> None:
    """A reader of a clean checkout must find everything a file points at: no design
    notes or rule texts from the workspace around the repository."""
    outside = re.compile(r"DESIGN\.md|\.\./shared/|shared/seeds|shared/reference")
    this_file = Path(__file__).resolve()
    citing = [
        str(p.relative_to(ROOT))
        for p in repo_texts()
        if p.resolve() != this_file and outside.search(p.read_text(errors="replace"))
    ]
    assert citing == []


def test_the_architecture_page_describes_the_rules_contract() -> None:
    section = DOC[DOC.index("## The rules contract") :]
    for name in ("setup", "view", "act", "active_roles", "outcome", "IllegalAction"):
        assert name in section, name
