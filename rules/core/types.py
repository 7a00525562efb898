"""Type aliases shared by every rules engine.

A game state is one plain JSON document; views are JSON documents too. We keep the
aliases loose (``dict[str, Any]``) because each game owns the shape of its own state,
and strict typing inside a game comes from its own helpers.
"""

from __future__ import annotations

from typing import Any, TypeAlias

State: TypeAlias = dict[str, Any]
View: TypeAlias = dict[str, Any]
Arg: TypeAlias = int | str | None
#: Every legal action now: a verb maps to the list of its legal args, or to True when
#: the verb takes no argument.
Actions: TypeAlias = dict[str, list[int | str] | bool]
Outcome: TypeAlias = dict[str, Any]
