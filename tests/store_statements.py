"""Every statement the store can send, gathered from its source: the first argument of
each call of a session's ``_one``, ``_all``, ``_run``, ``_insert`` (and of the
connection's ``execute``, ``execute_fetchall``, ``execute_insert`` called through a
session's ``db``) under ``bot/storage``, worked out from the text it is built of (string
constants, module constants, ``hot_sql`` names, f-strings, ``+``, ``.format``, a local
variable's assignments in order, both sides of an ``if ... else``, a loop over a
constant, a method of the same class or of the groups' base that returns text), plus
the named query lists.

A call whose statement cannot be worked out fails the gathering (``Unresolved``), so a new
kind of statement cannot slip past the tests that prepare them all on PostgreSQL."""

from __future__ import annotations

import ast
import importlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STORAGE = ROOT / "bot" / "storage"
#: What every statement group inherits (``bot.storage.statements.base.Statements``).
BASE = next(
    node
    for node in ast.parse((STORAGE / "statements" / "base.py").read_text()).body
    if isinstance(node, ast.ClassDef) and node.name == "Statements"
)

SESSION_CALLS = {"_one", "_all", "_run", "_insert"}
CONNECTION_CALLS = {"execute", "execute_fetchall", "execute_insert"}
INSERTS = {"_insert", "execute_insert"}

#: The values of the few parameters a statement is built from (their callers pass these
#: constants): a column of ``clocks`` to claim by, tables to give claims back in.
PARAMETERS: dict[str, tuple[Any, ...]] = {
    "column": ("deadline", "warn_at"),
    "tables": (("outbox", "timers", "clocks", "bot_jobs"),),
}
#: ``", ".join("?" for _ in ids)``: an IN list, tried with one and with three values.
IN_LISTS = ("?", "?, ?, ?")


class Unresolved(Exception):
    """A statement of the store that the gatherer cannot work out."""


@dataclass(frozen=True)
class Statement:
    sql: str
    #: How many values the call gives (None: not written out where it is called).
    values: int | None
    #: An insert that returns its row's id (``_insert``).
    insert: bool
    where: str


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


class _Evaluator:
    """The texts an expression of one function can take."""

    def __init__(self, module: Any, cls: ast.ClassDef | None, func: ast.AST) -> None:
        self.module = module
        self.cls = cls
        self.env: dict[str, list[Any]] = {}
        body = [n for n in ast.walk(func) if isinstance(n, ast.Assign | ast.AugAssign | ast.For)]
        for node in sorted(body, key=lambda n: (n.lineno, n.col_offset)):
            self._bind(node)

    def _bind(self, node: ast.Assign | ast.AugAssign | ast.For) -> None:
        try:
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                self.env[node.targets[0].id] = self.values(node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                old = self.env.get(node.target.id, [])
                more = [a + b for a in old for b in self.values(node.value)]
                self.env[node.target.id] = old + more
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                self.env[node.target.id] = [item for seq in self.values(node.iter) for item in seq]
        except Unresolved:
            pass  # a local the statements do not use (a row's values...)

    def values(self, node: ast.expr) -> list[Any]:
        if isinstance(node, ast.Constant):
            return [node.value]
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.JoinedStr):
            pieces = [self.values(v) for v in node.values]
            return ["".join(str(p) for p in combo) for combo in itertools.product(*pieces)]
        if isinstance(node, ast.FormattedValue):
            return self.values(node.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.values(node.left), self.values(node.right)
            return [a + b for a in left for b in right]
        if isinstance(node, ast.IfExp):
            return self.values(node.body) + self.values(node.orelse)
        if isinstance(node, ast.Tuple):
            return [tuple(v[0] for v in map(self.values, node.elts))]
        if isinstance(node, ast.Call):
            return self._call(node)
        raise Unresolved(ast.unparse(node))

    def _name(self, name: str) -> list[Any]:
        if name in self.env:
            return self.env[name]
        if name in PARAMETERS:
            return list(PARAMETERS[name])
        if hasattr(self.module, name):
            return [vars(self.module)[name]]
        raise Unresolved(name)

    def _call(self, node: ast.Call) -> list[Any]:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "hot_sql":
            from bot.storage.queries import HOT_QUERIES

            return [HOT_QUERIES[name][0] for name in self.values(node.args[0])]
        if isinstance(func, ast.Attribute) and func.attr == "join":
            return list(IN_LISTS)
        if isinstance(func, ast.Attribute) and func.attr == "format":
            keys = [k.arg for k in node.keywords]
            choices = [self.values(k.value) for k in node.keywords]
            return [
                text.format(**dict(zip(keys, combo, strict=True)))
                for text in self.values(func.value)
                for combo in itertools.product(*choices)
            ]
        is_method = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        if is_method and ast.unparse(func).startswith("self.") and not node.args:
            assert isinstance(func, ast.Attribute)
            return self._method(func.attr)
        raise Unresolved(ast.unparse(node))

    def _method(self, name: str) -> list[Any]:
        """What a method of the same class, or of the groups' shared base, without
        arguments returns (``_skip_locked``)."""
        own = self.cls.body if self.cls is not None else []
        for item in [*own, *BASE.body]:
            if isinstance(item, ast.FunctionDef) and item.name == name:
                [ret] = [n for n in ast.walk(item) if isinstance(n, ast.Return)]
                assert ret.value is not None
                return self.values(ret.value)
        raise Unresolved(f"self.{name}()")


def _is_statement_call(node: ast.Call) -> bool:
    func = node.func
    if not isinstance(func, ast.Attribute) or not node.args:
        return False
    if func.attr in SESSION_CALLS:
        return True
    # The connection's calls made through a session (``db.db``, ``self.db``).
    receiver = func.value
    return func.attr in CONNECTION_CALLS and (
        isinstance(receiver, ast.Attribute) and receiver.attr == "db"
    )


#: The functions that pass a statement on (their ``sql`` is their caller's).
PLUMBING = {"engines.py", "batch.py", "base.py"}


def _functions(tree: ast.Module) -> Iterator[tuple[ast.ClassDef | None, ast.AST]]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield node, item
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield None, node


def call_sites() -> Iterator[Statement]:
    """Every statement of a call of the store's, each of its forms."""
    for path in sorted(STORAGE.rglob("*.py")):
        if path.name in PLUMBING:
            continue
        module = importlib.import_module(_module_name(path))
        tree = ast.parse(path.read_text())
        for cls, func in _functions(tree):
            calls = [n for n in ast.walk(func) if isinstance(n, ast.Call) and _is_statement_call(n)]
            if not calls:
                continue
            evaluator = _Evaluator(module, cls, func)
            for call in calls:
                yield from _statements_of(evaluator, call, f"{path.name}:{call.lineno}")


def _statements_of(evaluator: _Evaluator, call: ast.Call, where: str) -> Iterator[Statement]:
    assert isinstance(call.func, ast.Attribute)
    try:
        texts = evaluator.values(call.args[0])
    except Unresolved as exc:
        raise Unresolved(f"{where}: cannot tell the statement ({exc})") from None
    values = None
    if len(call.args) > 1 and isinstance(call.args[1], ast.Tuple):
        if not any(isinstance(e, ast.Starred) for e in call.args[1].elts):
            values = len(call.args[1].elts)
    elif len(call.args) == 1:
        values = 0
    for text in texts:
        if not isinstance(text, str):
            raise Unresolved(f"{where}: the statement is not text ({text!r})")
        yield Statement(text, values, call.func.attr in INSERTS, where)


def named_queries() -> Iterator[Statement]:
    """The named query lists, with their example values (each also run through a call)."""
    from bot.storage.finished_pages import HISTORY_QUERIES
    from bot.storage.queries import HOT_QUERIES

    for source, queries in (("HOT_QUERIES", HOT_QUERIES), ("HISTORY_QUERIES", HISTORY_QUERIES)):
        for name, (sql, params) in queries.items():
            yield Statement(sql, len(params), False, f"{source}[{name}]")


def every_statement() -> list[Statement]:
    """Each distinct statement (with the most precise count of values known for it)."""
    found: dict[tuple[str, bool], Statement] = {}
    for statement in itertools.chain(call_sites(), named_queries()):
        key = (statement.sql, statement.insert)
        if key not in found or found[key].values is None:
            found[key] = statement
    return list(found.values())
