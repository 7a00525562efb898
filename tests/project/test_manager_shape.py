"""The manager stays a core with desks: a small door, each feature behind its own desk,
and no desk reaching another behind the core's back (docs/architecture.md, "Desks")."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from pathlib import Path

from bot.tables.core import Core
from bot.tables.manager import GameManager

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "bot" / "tables"
DESKS = sorted(TABLES.glob("*/desk.py"))

#: The one desk that drives another: the background loop runs the clocks' passes.
DESK_USES_DESK = {("background", "clocks")}


def public_names(cls: type) -> list[str]:
    return [name for name, _ in inspect.getmembers(cls) if not name.startswith("_")]


def test_the_manager_door_stays_small() -> None:
    names = public_names(GameManager)
    assert len(names) <= 25, names
    assert len((TABLES / "manager.py").read_text().splitlines()) <= 600


def test_the_counter_sees_a_method_added_to_the_door() -> None:
    class Wider(GameManager):
        async def one_more(self) -> None: ...

    assert len(public_names(Wider)) == len(public_names(GameManager)) + 1


def mounted_desks() -> dict[str, str]:
    """Attribute name -> desk class name, from ``GameManager.__init__``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(GameManager.__init__)))
    mounted: dict[str, str] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Attribute)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id.endswith("Desk")
        ):
            mounted[node.targets[0].attr] = node.value.func.id
    return mounted


def test_every_desk_folder_is_mounted_on_the_manager() -> None:
    mounted = mounted_desks()
    assert len(DESKS) >= 8
    assert {path.parent.name for path in DESKS} == set(mounted)


def desk_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_a_desk_knows_the_core_and_no_other_desk_nor_the_manager() -> None:
    for path in DESKS:
        imported = desk_imports(path)
        assert "bot.tables.manager" not in imported, path
        assert "bot.tables.core" in imported, path
        for other in DESKS:
            if other == path or (path.parent.name, other.parent.name) in DESK_USES_DESK:
                continue
            assert f"bot.tables.{other.parent.name}.desk" not in imported, (path, other)


def test_each_desk_is_handed_the_core() -> None:
    for path in DESKS:
        module = importlib.import_module(f"bot.tables.{path.parent.name}.desk")
        desks = [
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if cls.__module__ == module.__name__ and cls.__name__.endswith("Desk")
        ]
        assert len(desks) == 1, path
        first = next(iter(inspect.signature(desks[0]).parameters.values()))
        assert first.annotation in (Core, "Core"), path
