"""Every refusal in ``bot/errors.py`` says when it is raised and is raised somewhere.

Read with ``ast``, not imported: a kind is a class there that derives, through the
file's own classes, from ``DispatchError``; it is raised where a module of ``bot/`` or
``rules/`` builds one (``errors.SeatRefused(...)``) or derives its own kind from it (the
store's ``Damaged`` is a ``CorruptGame``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ERRORS = ROOT / "bot" / "errors.py"
BASE = "DispatchError"


def _classes() -> dict[str, ast.ClassDef]:
    tree = ast.parse(ERRORS.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _bases(node: ast.ClassDef) -> list[str]:
    return [base.id for base in node.bases if isinstance(base, ast.Name)]


def refusal_kinds() -> dict[str, ast.ClassDef]:
    """The file's subclasses of ``DispatchError`` (the base itself aside)."""
    classes = _classes()

    def is_refusal(name: str) -> bool:
        if name == BASE:
            return True
        node = classes.get(name)
        return node is not None and any(is_refusal(base) for base in _bases(node))

    return {name: node for name, node in classes.items() if name != BASE and is_refusal(name)}


def _name(node: ast.expr) -> str | None:
    """``X`` of ``errors.X`` or of ``X``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _built_names(path: Path) -> set[str]:
    """What one module calls and what its classes derive from, by name."""
    built: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            built.add(_name(node.func) or "")
        elif isinstance(node, ast.ClassDef):
            built |= {_name(base) or "" for base in node.bases}
    return built


def built_anywhere() -> set[str]:
    """Every name built or derived from outside ``bot/errors.py`` itself."""
    built: set[str] = set()
    for folder in ("bot", "rules"):
        for path in (ROOT / folder).rglob("*.py"):
            if path != ERRORS:
                built |= _built_names(path)
    return built


def test_the_kinds_are_found() -> None:
    kinds = refusal_kinds()
    assert {"NotAllowed", "BadInput", "ModeratorOnly", "SeatNotHeld", "Usage"} <= set(kinds)
    assert "DeliveryError" not in kinds and BASE not in kinds


def test_every_refusal_says_when_it_is_raised_and_is_raised_somewhere() -> None:
    """A kind nobody raises is dead: callers would test for a refusal that never comes."""
    kinds = refusal_kinds()
    undocumented = sorted(name for name, node in kinds.items() if not ast.get_docstring(node))
    assert undocumented == []
    assert sorted(set(kinds) - built_anywhere()) == []
