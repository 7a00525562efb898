"""The optional compiled build of ``rules``, and the guard that keeps it honest.

``dispatch compile-rules`` (``bot/tools/compile_rules.py``) compiles the modules of this
package (all but this one and the packages' ``__init__.py`` files) with mypyc into native extension
modules beside their sources, plus one shared library (``native__mypyc``), and writes
:data:`MANIFEST`: a digest of each source compiled. Python then imports the native
modules in place of the sources: the same code, so the same moves, about twice as fast.

A compiled module is a snapshot of its source. When a source has changed since (an edit,
a ``git pull``), running the old snapshot would run rules that are no longer the code in
the tree, so :func:`guard`, called by ``rules/__init__.py`` before any other module of
the package is imported, compares the digests and, when any differs, has the whole
package imported from its sources instead (one compiled module among source ones could
not work: they share the library), with a warning that says how to rebuild. Nothing is
compiled by default; without the shared library there is nothing to check.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The package's own folder.
PACKAGE = Path(__file__).resolve().parent
#: The digests of the sources compiled, written by ``dispatch compile-rules``.
MANIFEST = "compiled.json"
#: The shared library's module name (inside the package) and so its file's stem.
LIBRARY = "native"
#: The guard itself is never compiled (it decides whether the build may run).
GUARD = "compiled.py"


def sources(package: Path = PACKAGE) -> list[Path]:
    """Every source file the compiled build compiles, in a fixed order: all but the
    guard and the packages' ``__init__.py`` files. Those stay Python: the import system
    must make the packages (their ``__path__`` finds the modules; the shared library
    lives inside ``rules``) before any compiled module loads, and a compiled package
    would be given a wrong ``__path__``."""
    return sorted(
        path
        for path in package.rglob("*.py")
        if path.name != "__init__.py" and path.relative_to(package).as_posix() != GUARD
    )


def digests(package: Path = PACKAGE) -> dict[str, str]:
    """``{path inside the package: SHA-256 of its text}`` for every compiled source."""
    return {
        path.relative_to(package).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sources(package)
    }


def native_files(package: Path = PACKAGE) -> list[Path]:
    """Every native extension file in the package (this Python's or another's)."""
    return sorted(
        path
        for path in package.rglob("*")
        if path.is_file() and path.name.endswith((".so", ".pyd"))
    )


def library(package: Path = PACKAGE) -> Path | None:
    """The shared library built for this Python, or None when there is none."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found = package / f"{LIBRARY}__mypyc{suffix}"
        if found.is_file():
            return found
    return None


def built(package: Path = PACKAGE) -> bool:
    """Whether any native module of the package was built for this Python."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return any(package.rglob(f"*{suffix}"))


def _recorded(package: Path) -> dict[str, str] | None:
    """The manifest's digests, or None when it is missing or unreadable."""
    try:
        recorded = json.loads((package / MANIFEST).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return recorded if isinstance(recorded, dict) else None


def stale(package: Path = PACKAGE) -> list[str]:
    """The compiled sources that changed, appeared or went since the build (by path
    inside the package); every one when the build cannot be trusted whole: its shared
    library or its manifest is missing or unreadable. Empty when nothing is compiled for
    this Python."""
    if not built(package):
        return []
    recorded = _recorded(package) if library(package) is not None else None
    now = digests(package)
    if recorded is None:
        return sorted(now)
    names = now.keys() | recorded.keys()
    return sorted(name for name in names if now.get(name) != recorded.get(name))


def _why(package: Path, changed: list[str]) -> str:
    """Why the build is passed over, in a host's words."""
    if library(package) is None:
        return "The compiled rules are incomplete (their shared library is missing)"
    if _recorded(package) is None:
        return "The compiled rules have no readable record of the sources they were built from"
    more = len(changed) - 3
    shown = ", ".join(changed[:3]) + (f" and {more} more" if more > 0 else "")
    return f"The compiled rules are older than their sources ({shown})"


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was imported from a native extension."""
    spec = module.__spec__
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class SourceFirst(importlib.abc.MetaPathFinder):
    """Imports ``rules``' modules from their ``.py`` sources, past any native ones."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("rules.") or not path:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for folder in path:
            spec = importlib.machinery.FileFinder(folder, loader).find_spec(fullname, target)
            if spec is not None:
                return spec
        # No source: the module went, and its native one (if any) must not stand in.
        raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)


def guard(package: Path = PACKAGE) -> list[str]:
    """Import the package from its sources when its compiled build is stale; the stale
    sources (empty when the build is current, or there is none)."""
    changed = stale(package)
    if changed and not any(isinstance(finder, SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())
        warnings.warn(
            f"{_why(package, changed)}, so the sources run instead (about half as fast). "
            "Run `dispatch compile-rules` to build them again, or "
            "`dispatch compile-rules --clean` to remove the build.",
            RuntimeWarning,
            stacklevel=2,
        )
    return changed
