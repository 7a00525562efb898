"""The sides a paired bench compares: this checkout ("now") and, with ``--compare REF``,
the same bench's view of another commit ("ref"), checked out in a throwaway git worktree
for the length of the run and removed after it, whatever happens."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def compared_sides(ref: str | None, prefix: str) -> Iterator[dict[str, Path]]:
    """``{"now": ROOT}``, and ``"ref"``'s checkout first when ``ref`` names a commit."""
    if not ref:
        yield {"now": ROOT}
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        old = Path(scratch) / "ref"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(old), ref], cwd=ROOT, check=True
        )
        try:
            yield {"ref": old, "now": ROOT}
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False
            )
