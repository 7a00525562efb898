"""``dispatch compile-rules``: build (or with ``--clean`` remove) the compiled rules.

The rules engines and the search are plain Python, and stay so: this compiles the very
same sources with mypyc (part of mypy, which checks them already) into native modules
beside them, which Python then imports instead. Same code, same moves, about twice the
search iterations a second (figures in ``docs/ai.md``). It needs mypy, setuptools and a
C compiler with the Python headers (``pip install -e ".[compiled]"``; Debian's gcc and
python3-dev); the Docker image builds it. ``rules/compiled.py`` keeps a stale build from
ever running.

The build happens in a fresh process, in a temporary folder; only the finished native
modules and the manifest land in the package. Old native files are removed first, so a
process still running the old build keeps its own copy open.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from rules import compiled

USAGE = """usage: dispatch compile-rules [--clean]

Compiles the rules engines and the search (rules/) into native modules with mypyc:
the same moves, about twice as fast. Needs mypy, setuptools and a C compiler:
  pip install -e ".[compiled]"      (and on Debian: apt-get install gcc python3-dev)
--clean removes the compiled modules, so the plain sources run again."""

#: The build script, run by a fresh Python in the folder that holds the package: the
#: sources to compile come as arguments, the build folder and jobs in the environment.
_SETUP = """
import os, sys
from mypyc.build import mypycify
from setuptools import setup

build = os.environ["DISPATCH_BUILD_DIR"]
setup(
    name="dispatch-rules-native",
    ext_modules=mypycify(
        sys.argv[1:], group_name="rules.native", target_dir=os.path.join(build, "c")
    ),
    script_args=[
        "--quiet", "build_ext", "--inplace", "--build-temp", os.path.join(build, "o"),
        "--build-lib", os.path.join(build, "lib"),
        "--parallel", os.environ["DISPATCH_BUILD_JOBS"],
    ],
)
"""


class CompileError(Exception):
    """The build could not run or failed; the message says why."""


def package_dir() -> Path:
    """The installed ``rules`` package's folder, found without importing it."""
    spec = importlib.util.find_spec("rules")
    if spec is None or not spec.submodule_search_locations:
        raise CompileError("the rules package is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def clean(package: Path) -> int:
    """Remove every native module and the manifest; how many files went."""
    gone = 0
    for path in [*compiled.native_files(package), package / compiled.MANIFEST]:
        if path.exists():
            path.unlink()
            gone += 1
    return gone


def build(package: Path, jobs: int | None = None) -> list[str]:
    """Compile every source ``rules.compiled.sources`` lists; the modules compiled."""
    for needed in ("mypyc", "setuptools"):
        if importlib.util.find_spec(needed) is None:
            raise CompileError(f"{needed} is not installed: pip install -e '.[compiled]' first")
    clean(package)
    names = [
        (Path("rules") / path.relative_to(package)).as_posix() for path in compiled.sources(package)
    ]
    before = compiled.digests(package)
    with tempfile.TemporaryDirectory(prefix="dispatch-compile-") as folder:
        # The compiler runs in a folder holding nothing but ``rules`` (a link to the
        # package): in site-packages, beside every other installed module, mypy would
        # take those for sources too. The native modules land in the package itself.
        root = Path(folder) / "src"
        root.mkdir()
        (root / "rules").symlink_to(package, target_is_directory=True)
        env = {
            **os.environ,
            "DISPATCH_BUILD_DIR": folder,
            "DISPATCH_BUILD_JOBS": str(jobs or os.cpu_count() or 1),
        }
        script = Path(folder) / "setup.py"
        script.write_text(_SETUP, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script), *names],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        clean(package)  # never leave half a build
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise CompileError(f"mypyc failed (the sources still run):\n{tail}")
    if compiled.digests(package) != before:
        clean(package)
        raise CompileError("the sources changed while they were compiled; run it again")
    manifest = {"python": sys.version.split()[0], "sources": before}
    (package / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return names


def main(args: list[str]) -> int:
    """``dispatch compile-rules [--clean]``: 0 done, 1 the build failed, 2 usage."""
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if args not in ([], ["--clean"]):
        print(f"dispatch compile-rules: unknown argument {args[-1]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        package = package_dir()
        if args == ["--clean"]:
            gone = clean(package)
            print(f"dispatch: removed {gone} compiled files; the rules run from their sources.")
            return 0
        print(f"dispatch: compiling the rules in {package} (a few minutes)...", flush=True)
        names = build(package)
    except CompileError as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return 1
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import rules.core.game as g, rules.compiled as c; print(c.is_compiled(g))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if check.stdout.strip() != "True":
        print(f"dispatch: built, but Python does not import it:\n{check.stderr}", file=sys.stderr)
        return 1
    print(f"dispatch: compiled {len(names)} modules; they run from now on.")
    return 0
