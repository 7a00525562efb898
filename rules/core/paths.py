"""Where a game package's data files are.

Found from the top package ``rules``, which is never compiled, and not from a module's
own ``__file__``: in the compiled build (``dispatch compile-rules``) the modules of
``rules`` share one native library, and a compiled module's ``__file__`` names a place
beside that library rather than its own source file.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_dir(package: str) -> Path:
    """The ``data`` folder of the game package ``rules.<package>``."""
    return Path(str(files("rules"))) / package / "data"
