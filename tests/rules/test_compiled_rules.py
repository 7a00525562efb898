"""The optional compiled build of the rules (``dispatch compile-rules``).

The guard (``rules/compiled.py``) is tested on small packages made here: a build whose
sources changed must never run. The last tests need the real build: ``.ci/run`` compiles
the rules after the main suite and runs them there with ``DISPATCH_EXPECT_COMPILED=1``,
together with the golden-moves and contract tests, so the compiled engine is shown to play
exactly the searches the sources play.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import logging
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from bot.dispatch_players.bots import BotSeats
from bot.tools import compile_rules
from rules import compiled

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
EXPECT_COMPILED = os.environ.get("DISPATCH_EXPECT_COMPILED") == "1"


def make_package(root: Path) -> Path:
    """A package with two compiled modules' sources, a package init and the guard."""
    package = root / "rules"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "compiled.py").write_text("# the guard\n")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "game.py").write_text("X = 1\n")
    (package / "board.py").write_text("Y = 2\n")
    return package


def build_it(package: Path) -> None:
    """Pretend the package was compiled: a library and native modules, and a manifest."""
    (package / f"native__mypyc{SUFFIX}").write_bytes(b"not really a library")
    (package / "core" / f"game{SUFFIX}").write_bytes(b"native")
    manifest = {"python": "3", "sources": compiled.digests(package)}
    (package / compiled.MANIFEST).write_text(json.dumps(manifest))


def test_the_build_compiles_every_module_but_the_guard_and_package_inits(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    assert [p.relative_to(package).as_posix() for p in compiled.sources(package)] == [
        "board.py",
        "core/game.py",
    ]


def test_nothing_is_stale_without_a_build_and_nothing_in_a_current_one(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    assert compiled.stale(package) == []
    build_it(package)
    assert compiled.library(package) is not None
    assert compiled.stale(package) == []


def test_a_source_changed_added_or_removed_since_the_build_makes_it_stale(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    (package / "board.py").write_text("Y = 3\n")
    assert compiled.stale(package) == ["board.py"]
    (package / "core" / "new.py").write_text("Z = 1\n")
    assert compiled.stale(package) == ["board.py", "core/new.py"]
    (package / "core" / "game.py").unlink()
    assert compiled.stale(package) == ["board.py", "core/game.py", "core/new.py"]


def test_a_build_without_a_readable_manifest_is_stale_everywhere(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    (package / compiled.MANIFEST).write_text("{not json")
    assert compiled.stale(package) == ["board.py", "core/game.py"]
    (package / compiled.MANIFEST).unlink()
    assert compiled.stale(package) == ["board.py", "core/game.py"]


def test_native_modules_without_their_library_are_passed_over_whole(tmp_path: Path) -> None:
    """Half a build (the shared library gone, by hand or a build cut short) must give way
    to the sources, or every import of the package would fail on the missing library."""
    package = make_package(tmp_path)
    build_it(package)
    (package / f"native__mypyc{SUFFIX}").unlink()
    assert compiled.built(package) and compiled.library(package) is None
    assert compiled.stale(package) == ["board.py", "core/game.py"]
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match="incomplete"):
            compiled.guard(package)
    finally:
        sys.meta_path[:] = before


def test_a_build_without_its_record_says_so(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    (package / compiled.MANIFEST).unlink()
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match="no readable record"):
            compiled.guard(package)
    finally:
        sys.meta_path[:] = before


def test_a_source_that_went_is_not_replaced_by_its_native_module(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    (package / "core" / "game.py").unlink()
    with pytest.raises(ModuleNotFoundError, match=r"rules\.core\.game"):
        compiled.SourceFirst().find_spec("rules.core.game", [str(package / "core")])


def test_a_stale_build_is_passed_over_for_the_sources_with_a_warning(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    (package / "core" / "game.py").write_text("X = 'changed'\n")
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match=r"older than their sources \(core/game.py\)"):
            assert compiled.guard(package) == ["core/game.py"]
        (finder,) = [f for f in sys.meta_path if f not in before]
        assert isinstance(finder, compiled.SourceFirst)
        # Asked twice, it adds no second finder.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled.guard(package)
        assert len(sys.meta_path) == len(before) + 1
    finally:
        sys.meta_path[:] = before


def test_a_current_build_installs_nothing(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    before = list(sys.meta_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled.guard(package) == []
    assert sys.meta_path == before


def test_the_source_finder_takes_the_py_file_past_a_native_one(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    folder = str(package / "core")
    spec = compiled.SourceFirst().find_spec("rules.core.game", [folder])
    assert spec is not None and spec.origin == str(package / "core" / "game.py")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    # The normal finder would have taken the native file.
    normal = importlib.machinery.PathFinder.find_spec("rules.core.game", [folder])
    assert normal is not None and normal.origin == str(package / "core" / f"game{SUFFIX}")
    # Other packages' modules are left to the usual finders.
    assert compiled.SourceFirst().find_spec("render.board", [folder]) is None


def test_clean_removes_the_build_and_keeps_the_sources(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    build_it(package)
    assert compile_rules.clean(package) == 3
    assert compiled.native_files(package) == []
    assert not (package / compiled.MANIFEST).exists()
    assert (package / "core" / "game.py").read_text() == "X = 1\n"


def test_a_failed_build_leaves_no_native_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = make_package(tmp_path)
    build_it(package)  # an earlier build, which the new one replaces

    def failing_compiler(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        (package / "core" / f"board{SUFFIX}").write_bytes(b"half a build")
        return subprocess.CompletedProcess(args, 1, "", "gcc: error: out of memory\n")

    monkeypatch.setattr(compile_rules.subprocess, "run", failing_compiler)
    with pytest.raises(compile_rules.CompileError, match="out of memory"):
        compile_rules.build(package)
    assert compiled.native_files(package) == []
    assert not (package / compiled.MANIFEST).exists()


def test_compile_rules_clean_removes_the_build_it_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    package = make_package(tmp_path)
    build_it(package)
    monkeypatch.setattr(compile_rules, "package_dir", lambda: package)
    assert compile_rules.main(["--clean"]) == 0
    assert "removed 3 compiled files" in capsys.readouterr().out
    assert compiled.native_files(package) == [] and compiled.stale(package) == []


def test_compile_rules_refuses_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert compile_rules.main(["--fast"]) == 2
    assert "usage: dispatch compile-rules [--clean]" in capsys.readouterr().err


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the rules are not compiled here (CI builds them)")
def test_every_compiled_module_runs_native() -> None:
    assert compiled.stale() == []
    names = [
        "rules." + path.relative_to(compiled.PACKAGE).with_suffix("").as_posix().replace("/", ".")
        for path in compiled.sources()
    ]
    modules = [importlib.import_module(name) for name in names]
    assert len(modules) > 40
    assert [m.__name__ for m in modules if not compiled.is_compiled(m)] == []


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the rules are not compiled here (CI builds them)")
def test_an_edit_after_the_build_runs_the_sources(tmp_path: Path) -> None:
    """A copy of the compiled package with one source edited since the build: a fresh
    process imports every module of it from source, and says so. (The real tree is left
    alone: other tests run beside this one.)"""
    shutil.copytree(
        compiled.PACKAGE, tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    probe = (
        "import warnings; warnings.simplefilter('always')\n"
        "import rules, rules.core.game as g, rules.fort_sumter.steps as s, rules.compiled as c\n"
        "print(rules.__file__, c.is_compiled(g), c.is_compiled(s))\n"
    )

    def run() -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(tmp_path)}
        return subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=tmp_path,
        )

    assert run().stdout.split() == [str(tmp_path / "rules" / "__init__.py"), "True", "True"]
    edited = tmp_path / "rules" / "core" / "types.py"
    edited.write_text(edited.read_text() + "\n# an edit\n")
    done = run()
    assert done.stdout.split()[1:] == ["False", "False"]
    assert "older than their sources (core/types.py)" in done.stderr


async def test_the_bot_says_whether_its_searches_run_compiled(
    manager: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dispatch.bots")
    BotSeats.attach(manager, workers="thread")
    said = [r.getMessage() for r in caplog.records if r.name == "dispatch.bots"]
    want = "compiled (dispatch compile-rules)" if EXPECT_COMPILED else "from their sources"
    assert any(want in line for line in said), said
