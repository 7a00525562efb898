"""The map in docs/architecture.md is true: each thing is where it says, and the rooms
depend on each other only the way it draws."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
    """Every module a package's files name in an import, wherever it stands (under
    ``if TYPE_CHECKING:`` or in a function too); ``from a import b`` names ``a`` and
    ``a.b`` (b may be a module)."""
    found: set[str] = set()
    where = ROOT / package.replace(".", "/")
    paths = (
        [where.with_suffix(".py")] if where.with_suffix(".py").is_file() else where.rglob("*.py")
    )
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("rules", ("bot", "render", "discord", "aiosqlite", "PIL")),
        ("render", ("bot", "discord", "aiosqlite")),
        (
            "bot.storage",
            (
                "bot.tables",
                "bot.dispatch_players",
                "bot.delivery",
                "bot.discord_app",
                "bot.terminal",
                "rules",
            ),
        ),
        ("bot.tables", ("bot.dispatch_players", "bot.discord_app", "bot.terminal", "discord")),
        (
            "bot.delivery",
            ("bot.tables", "bot.dispatch_players", "bot.discord_app", "bot.terminal", "discord"),
        ),
        # Dispatch's seats listen to the manager (``bot.tables.listeners``), never name it.
        (
            "bot.dispatch_players",
            ("bot.tables.manager", "bot.discord_app", "bot.terminal", "discord"),
        ),
        ("bot.terminal", ("bot.discord_app", "discord")),
        # The page reads games and never speaks to Discord; the front ends may use it.
        ("bot.web", ("bot.discord_app", "bot.terminal", "bot.dispatch_players", "discord")),
        ("bot.discord_app", ("bot.terminal",)),
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


def test_the_tables_know_nothing_of_the_bot_seats() -> None:
    """The seats are a room of their own above the tables that listens to the manager: no
    module of ``bot/tables`` imports them (the processes' assembly does: the Discord app,
    the sandbox, the worker)."""
    knowing = sorted(
        path.name
        for path in (ROOT / "bot" / "tables").glob("*.py")
        if any(
            m == "bot.dispatch_players" or m.startswith("bot.dispatch_players.")
            for m in imports_of(f"bot.tables.{path.stem}")
        )
    )
    assert knowing == []
    assert not (ROOT / "bot" / "tables" / "bots.py").exists()


def bot_modules() -> dict[str, Path]:
    """Every module of bot/ by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def module_named(name: str, modules: dict[str, Path]) -> str | None:
    """The module of bot/ an imported name lives in (``bot.x.y.Thing`` → ``bot.x.y``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Each module of bot/ → the modules of bot/ it imports, counting every import
    statement: those under ``if TYPE_CHECKING:`` too (a type-only import that closes a
    loop is still a loop in the design), and those inside functions."""
    modules = bot_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}".rstrip(".")
                # ``from a import b`` imports module a.b when b is one, else a thing of a.
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {
            found
            for target in targets
            if (found := module_named(target, modules)) is not None and found != name
        }
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One loop of imports, as the modules along it (the first again at the end); [] if
    there is none. A depth-first walk: reaching a module still on the path is a loop."""
    finished: set[str] = set()
    path: list[str] = []

    def walk(name: str) -> list[str]:
        path.append(name)
        for step in sorted(graph.get(name, ())):
            if step in path:
                return [*path[path.index(step) :], step]
            if step not in finished:
                loop = walk(step)
                if loop:
                    return loop
        path.pop()
        finished.add(name)
        return []

    for start in sorted(graph):
        if start not in finished:
            loop = walk(start)
            if loop:
                return loop
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_import_graph_sees_type_checking_and_package_imports() -> None:
    graph = import_graph()
    assert "bot.discord_app.client" in graph["bot.discord_app"]
    assert "bot.discord_app.formatting" in graph["bot.discord_app.frontend"]
    assert "bot.storage.store" in graph["bot.__main__"]


def test_no_module_of_bot_imports_itself_around_a_loop() -> None:
    cycle = find_cycle(import_graph())
    assert cycle == [], "import cycle: " + " -> ".join(cycle)


def function_local_imports(source: str) -> list[str]:
    """Each import inside a function of a module's source, as ``line: text``."""
    found: dict[int, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found[id(inner)] = f"{inner.lineno}: {ast.unparse(inner)}"
    return sorted(found.values(), key=lambda hit: int(hit.split(":")[0]))


def test_the_local_import_finder_finds_them() -> None:
    source = (
        "import os\n"
        "if TYPE_CHECKING:\n    from a import b\n"
        "class C:\n    async def m(self):\n        from x import y\n"
        "def f():\n    def g():\n        import z\n"
    )
    assert function_local_imports(source) == ["6: from x import y", "9: import z"]


def test_no_function_of_bot_imports_anything() -> None:
    """Imports stand at the top of a module (or under ``if TYPE_CHECKING:``): an import
    inside a function hides a dependency, most often one that would close a loop."""
    local = [
        f"{path.relative_to(ROOT)}:{hit}"
        for path in bot_modules().values()
        for hit in function_local_imports(path.read_text())
    ]
    assert local == [], "\n".join(local)


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


def own_method_names() -> set[str]:
    """Every method (properties too) of a class of bot/, rules/ or render/: the names a
    call into the project's own code goes by."""
    names: set[str] = set()
    for folder in ("bot", "rules", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    names.update(
                        item.name
                        for item in node.body
                        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                    )
    return names


def attributes_by_string(source: str) -> list[tuple[int, str]]:
    """(line, name) of each ``getattr``/``hasattr``/``setattr``/``delattr`` whose name is a
    string literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            found.append((node.lineno, node.args[1].value))
    return sorted(found)


def test_the_attribute_by_string_finder_finds_them() -> None:
    source = (
        "x = getattr(store, 'release_claims', None)\n"
        "def f(o, name):\n    return getattr(o, name), hasattr(o, 'track')\n"
    )
    assert attributes_by_string(source) == [(1, "release_claims"), (3, "track")]


def test_no_module_of_bot_reaches_our_own_code_by_getattr() -> None:
    """A method of our own classes is called by name, never looked up by a string: mypy
    then sees every call, and a method that does not exist (the store's
    ``release_claims`` once) is an error at check time, not a silent no-op at run time.
    Where an object may or may not offer a method, a ``runtime_checkable`` Protocol and
    ``isinstance`` say so (``bot.delivery.port.FindsSent``)."""
    ours = own_method_names()
    hits = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in bot_modules().values()
        for line, name in attributes_by_string(path.read_text())
        if name in ours
    ]
    assert hits == [], "\n".join(hits)


def driver_errors_named(source: str) -> list[tuple[int, str]]:
    """(line, name) of each error class of a database driver (``sqlite3.IntegrityError``,
    ``asyncpg.PostgresError``...) a module names."""
    return sorted(
        (node.lineno, f"{node.value.id}.{node.attr}")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("sqlite3", "asyncpg", "aiosqlite")
        and node.attr.endswith(("Error", "Exception", "Violation"))
    )


def test_nothing_above_the_store_names_a_drivers_errors() -> None:
    """The store raises its own errors (``bot.storage.errors``: Unavailable, Conflict,
    Damaged...), whichever engine runs; code above it that caught ``sqlite3``'s classes
    missed PostgreSQL's faults, and told a player a database fault was a rules bug."""
    assert driver_errors_named("try:\n    x()\nexcept sqlite3.IntegrityError:\n    pass\n") == [
        (3, "sqlite3.IntegrityError")
    ]
    hits = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for module, path in bot_modules().items()
        if not module.startswith("bot.storage")
        for line, name in driver_errors_named(path.read_text())
    ]
    assert hits == [], "\n".join(hits)


#: A citation of an issue by number ("issue 26 §1", "Issue 24, item 20"): the issue texts
#: are not in the repository, so a reader cannot follow it. A wrapped comment's leader
#: (``#``, ``#:``, SQL's ``--``) may stand between the word and its number.
_GAP = r"(?:[ \t]*\n[ \t]*(?:#:?|--)?[ \t]*|[ \t]+)"
ISSUE_CITATION = re.compile(rf"\bissues?{_GAP}\d+|§(?:{_GAP})?\d+", re.IGNORECASE)


def issue_citations(text: str) -> list[tuple[int, str]]:
    """(line, citation) for each issue number the text cites, in its comments, docstrings
    or strings alike (code never spells one)."""
    return [
        (text.count("\n", 0, match.start()) + 1, " ".join(match.group().split()))
        for match in ISSUE_CITATION.finditer(text)
    ]


def test_the_issue_citation_finder_finds_them() -> None:
    assert issue_citations("x = 1  # as asked (issue 26 §1)\n") == [(1, "issue 26"), (1, "§1")]
    assert issue_citations('"""Clocks.\n\nAs asked (Issue 24, item 20)."""') == [(3, "Issue 24")]
    assert issue_citations("x()\n    # told why (issue\n    # 9: one ping per turn)\n") == [
        (2, "issue # 9")
    ]
    assert issue_citations("-- kept bounded (issues\n-- 25 and 26)\n") == [(1, "issues -- 25")]
    assert issue_citations("# see docs/ratings.md; an issue of taste, 2 ways\n") == []


def test_no_comment_or_docstring_cites_an_issue_number() -> None:
    """The issue texts are not in the repository: a comment, docstring or string of the
    packages says the reason itself or names a document of the repository (docs/*.md)."""
    hits = [
        f"{path.relative_to(ROOT)}:{line} {citation!r}"
        for package in ("bot", "rules", "render")
        for path in sorted((ROOT / package).rglob("*"))
        if path.suffix in {".py", ".sql", ".md", ".toml"}
        for line, citation in issue_citations(path.read_text(errors="replace"))
    ]
    assert hits == [], "\n".join(hits)


DRIVERS = ("sqlite3", "aiosqlite", "asyncpg")


def driver_uses(source: str) -> list[tuple[int, str]]:
    """(line, name) for each import of a database driver, and each ``except`` that names
    a driver's class however it was imported (``except asyncpg.X``, ``except X`` after
    ``from asyncpg import X``)."""
    tree = ast.parse(source)
    hits: list[tuple[int, str]] = []
    from_driver: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hits += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] in DRIVERS]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in DRIVERS:
            hits.append((node.lineno, str(node.module)))
            from_driver.update(a.asname or a.name for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
            caught = names & (set(DRIVERS) | from_driver)
            hits += [(node.lineno, f"except {name}") for name in sorted(caught)]
    return sorted(hits)


def test_the_driver_use_finder_finds_them() -> None:
    source = (
        "import asyncpg\nfrom sqlite3 import OperationalError as Oops\nimport json\n"
        "try:\n    x()\nexcept (Oops, ValueError):\n    pass\n"
        "except asyncpg.PostgresError:\n    pass\n"
    )
    assert driver_uses(source) == [
        (1, "asyncpg"),
        (2, "sqlite3"),
        (6, "except Oops"),
        (8, "except asyncpg"),
    ]


def test_no_module_above_the_store_speaks_to_a_driver() -> None:
    """Only ``bot/storage`` knows which database it runs on: what a command or a worker
    needs of the drivers (copying a store, LISTEN) is the store's own API
    (``bot.storage.bulk_copy``, ``bot.storage.notify``), so an engine is changed in one
    room and a driver's fault is never met above it."""
    hits = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for module, path in bot_modules().items()
        if not module.startswith("bot.storage")
        for line, name in driver_uses(path.read_text())
    ]
    assert hits == [], "\n".join(hits)


#: A session's own names (a game's rows, its lock, its connection and clock) at most;
#: every other statement is reached through the group it belongs to (``db.clocks...``).
SESSION_OWN_NAMES = 30


def session_groups_and_loose_names() -> tuple[set[str], set[str]]:
    """The attributes of ``Session`` that hold a group of statements, and every other
    public name reachable on a session without going through a group."""
    from bot.storage.session import Session
    from bot.storage.statements.base import Statements

    hints = typing.get_type_hints(Session)
    groups = {
        name
        for name, kind in hints.items()
        if isinstance(kind, type) and issubclass(kind, Statements)
    }
    public = {name for name in [*dir(Session), *hints] if not name.startswith("_")}
    return groups, public - groups


def test_a_session_keeps_its_own_rows_and_reaches_the_rest_through_groups() -> None:
    groups, loose = session_groups_and_loose_names()
    assert {"clocks", "records", "seat_changes", "hints", "outbox", "timers"} <= groups
    assert len(loose) <= SESSION_OWN_NAMES, sorted(loose)


def test_every_statement_group_speaks_to_a_typed_connection() -> None:
    """mypy sees every statement: the connection under them is the ``Connection``
    protocol, not ``Any`` nor a union of engine classes."""
    from bot.storage.connection import Connection
    from bot.storage.statements.base import Statements

    assert typing.get_type_hints(Statements.db.fget)["return"] is Connection


def test_the_store_never_asks_which_engine_it_has() -> None:
    """``Store`` goes through its ``Backend`` (``bot.storage.backends``) for everything
    that differs between engines: it holds no connection or pool of its own."""
    tree = ast.parse((ROOT / "bot" / "storage" / "store.py").read_text())
    store = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store")
    touched = {
        node.attr
        for node in ast.walk(store)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }
    assert not touched & {"_db", "_pool", "_lock", "_owner"}, sorted(touched)
    engine_types = {"PgConnection", "SqliteConnection", "BatchedPgConnection"}
    named = {n.id for n in ast.walk(store) if isinstance(n, ast.Name)}
    assert not named & engine_types, sorted(named & engine_types)


def attribute_names(source: str) -> set[str]:
    """The names the classes of ``source`` define: their methods, the fields of their
    bodies (a dataclass's, a Protocol's), and what their methods set on ``self``/``cls``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(item.name)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                names.add(item.target.id)
            elif isinstance(item, ast.Assign):
                names.update(t.id for t in item.targets if isinstance(t, ast.Name))
        for inner in ast.walk(node):
            targets: list[ast.expr] = []
            if isinstance(inner, ast.Assign):
                targets = inner.targets
            elif isinstance(inner, ast.AnnAssign | ast.AugAssign):
                targets = [inner.target]
            names.update(
                found.attr
                for target in targets
                for found in ast.walk(target)
                if isinstance(found, ast.Attribute)
                and isinstance(found.value, ast.Name)
                and found.value.id in ("self", "cls")
            )
    return names


def own_attribute_names() -> set[str]:
    """Every name a class of bot/, rules/ or render/ defines: a method, a field, or an
    attribute its methods set."""
    return {
        name
        for folder in ("bot", "rules", "render")
        for path in (ROOT / folder).rglob("*.py")
        for name in attribute_names(path.read_text())
    }


#: Names our classes define too, read by string from objects that are not ours, or
#: that may lack them by design; each with why a string is right there.
DUCK_TYPED = {
    # discord.py's duck-typed objects.
    "playsheet": "interaction.namespace holds only the options typed so far",
    "children": "a received component: an action row has children, a button none",
    "id": "interaction.channel and interaction.message may be None",
}


def test_the_attribute_name_finder_sees_fields_and_what_methods_set() -> None:
    source = (
        "class A:\n    depth: int\n    kind = 'x'\n"
        "    def __init__(self):\n        self.manager = None\n        self.n: int = 0\n"
        "    def go(self):\n        self.count += 1\n        other.seen = 1\n"
    )
    assert attribute_names(source) == {"depth", "kind", "__init__", "manager", "n", "go", "count"}
    assert {"manager", "frontend", "stopping"} <= own_attribute_names()


def test_no_module_of_bot_reaches_our_own_attributes_by_string() -> None:
    """``getattr(interaction.client, "manager", None)`` is a call that neither mypy nor
    the import-cycle check sees: our own objects are reached through typed attributes
    (``bot.discord_app.room.client_of``). Only the names of ``DUCK_TYPED`` may be read
    by string, from the objects it says."""
    ours = own_attribute_names() - set(DUCK_TYPED)
    hits = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in bot_modules().values()
        for line, name in attributes_by_string(path.read_text())
        if name in ours
    ]
    assert hits == [], "\n".join(hits)


#: The rooms of rules/ that any game may use; every other package of rules/ is a game.
SHARED_RULES_ROOMS = ("core", "ai", "fate_die")


def rules_packages() -> list[str]:
    """Every package of rules/ by its folder's name (``core``, ``war``, ...)."""
    return sorted(path.parent.name for path in (ROOT / "rules").glob("*/__init__.py"))


def rules_games() -> list[str]:
    return [name for name in rules_packages() if name not in SHARED_RULES_ROOMS]


def imports_among(package: str, names: list[str]) -> list[str]:
    """The modules of ``rules.<name>`` for ``names`` that ``package`` imports."""
    rooms = [f"rules.{name}" for name in names]
    return sorted(
        m for m in imports_of(package) if any(m == r or m.startswith(r + ".") for r in rooms)
    )


def test_the_shared_rooms_of_rules_are_there() -> None:
    assert set(SHARED_RULES_ROOMS) <= set(rules_packages())
    assert {"war", "fort_sumter", "lincoln", "solo"} <= set(rules_games())


@pytest.mark.parametrize("game", rules_games())
def test_a_game_imports_no_other_games_package(game: str) -> None:
    """A game uses its own modules and the shared rooms (the contract in ``rules.core``,
    the Fate Die in ``rules.fate_die``), never another game's package, the CDG Solo
    System's included: what two games share lives in a shared room, below them all."""
    others = [name for name in rules_games() if name != game]
    bad = imports_among(f"rules.{game}", others)
    assert bad == [], f"rules.{game} imports {bad}"


@pytest.mark.parametrize("room", SHARED_RULES_ROOMS)
def test_a_shared_room_of_rules_imports_no_game(room: str) -> None:
    bad = imports_among(f"rules.{room}", rules_games())
    assert bad == [], f"rules.{room} imports {bad}"


#: The longest a module of bot/ may be.
MAX_MODULE_LINES = 600


def test_no_module_of_bot_is_longer_than_600_lines() -> None:
    """A module that long mixes concerns (Dispatch's players were one 931-line module of
    worker plumbing, seeding, decisions, job leases and estimates)."""
    long = sorted(
        str(path.relative_to(ROOT))
        for path in bot_modules().values()
        if len(path.read_text().splitlines()) > MAX_MODULE_LINES
    )
    assert long == []


#: The longest a cell of the architecture page's tables may be: one sentence a reader
#: takes in at a glance (a path or a name in backticks counts too).
CELL_MAX_CHARS = 200
#: A sentence's end: a full stop, question or exclamation mark followed by a space or
#: the end of the cell (``ai.md`` or ``e.g`` inside a word is no end).
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def table_cells(text: str) -> list[str]:
    """Every cell of every Markdown table in ``text``, outside fenced code: the header
    and separator rows left out; a ``|`` inside backticks does not split a cell."""
    cells: list[str] = []
    fenced = False
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        header = number + 1 < len(lines) and re.fullmatch(r"\|[|:\- ]+", lines[number + 1])
        if fenced or header or not line.startswith("|") or re.fullmatch(r"\|[|:\- ]+", line):
            continue
        parts = re.findall(r"(?:`[^`]*`|[^|`])+", line.strip().strip("|"))
        cells += [part.strip() for part in parts]
    return cells


def overlong_cells(text: str) -> list[str]:
    """The table cells that hold more than one sentence. The rule: a cell is at most
    ``CELL_MAX_CHARS`` characters, and outside its code spans (`...`) and its links'
    targets (``](...)``) it has at most one sentence end (``SENTENCE_END``), which may
    only close the cell."""
    found = []
    for cell in table_cells(text):
        prose = re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "code", cell))
        ends = [m.end() for m in SENTENCE_END.finditer(prose)]
        closes = not ends or (len(ends) == 1 and not prose[ends[0] :].strip(" )*_"))
        if len(cell) > CELL_MAX_CHARS or not closes:
            found.append(cell)
    return found


def test_the_long_cell_finder_finds_them() -> None:
    page = (
        "| folder | what it holds |\n|---|---|\n"
        "| `bot/a/` | One thing ([a.md](a.md)), at `a.b.c`. |\n"
        "| `bot/b/` | Two things. Then a second sentence |\n"
        "| `bot/c/` | Ends mid-cell! And goes on. |\n"
        "| `bot/d/` | " + "a word " * 40 + "|\n"
        "```\n| not. a. table. | in code. |\n```\n"
    )
    assert table_cells(page)[:2] == ["`bot/a/`", "One thing ([a.md](a.md)), at `a.b.c`."]
    assert overlong_cells(page) == [
        "Two things. Then a second sentence",
        "Ends mid-cell! And goes on.",
        ("a word " * 40).strip(),
    ]
    assert overlong_cells("| `x | y.` | z |\n") == []


def test_each_cell_of_the_architecture_page_is_one_sentence() -> None:
    """The page is a map a newcomer can hold: a table cell that grows past a sentence
    belongs in the module's docstring or the topic's page (docs/*.md)."""
    assert len(table_cells(DOC)) > 50  # the finder reads the page's tables
    assert overlong_cells(DOC) == []
