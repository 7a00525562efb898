"""Persistent buttons and selects: the custom_id codec, the DynamicItems and the builder.

Every component Dispatch sends is a ``DynamicItem``: its ``custom_id`` carries all it needs
(game id, the game version it was built for, and the action), so a click still works after
a restart and is refused when the game has moved on. Nothing is kept in memory per message.

custom_id forms (all at most 100 characters, Discord's limit)::

    dsp:a:<game>:<version>:<verb>:<arg>   a button for one action (arg empty for True-verbs)
    dsp:s:<game>:<version>:<verb>:<part>  a select for one verb; the options' values are args
    dsp:j:<game>:<role>                   take a seat in a lobby
    dsp:d:<game>:<role>                   give that open seat to Dispatch; the options'
                                          values are its levels (easy, normal, hard)
    dsp:h:<game>                          "My prompt": show the clicker their private view
    dsp:r:<game>:<sides>                  Rematch (same, swap or random sides) after the end

Args keep their type: an int is written in decimal, a string as itself, or behind a ``'``
when it would otherwise read as an int (or starts with ``'``) or is empty.
Ids in the channel (join, Dispatch, my prompt) carry nothing hidden; action ids only ever go
to the acting player (DM or ephemeral reply).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot import errors

PREFIX = "dsp"
MAX_CUSTOM_ID = 100
MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5
#: A list verb with at most this many args is shown as buttons rather than a select.
MAX_BUTTON_ARGS = 5
LABEL_MAX = 80
OPTION_LABEL_MAX = 100

# ASCII digits only: ``\d`` and ``str.isdigit`` also accept "٣" or "²", and ``int`` then
# reads the first and fails on the second.
_INT = re.compile(r"-?[0-9]+")
#: The most digits an int arg may have (2**63 - 1 has 19): longer numbers stay text.
MAX_INT_DIGITS = 19
_VERB = r"[a-z][a-z0-9_]{0,31}"
_ROLE = r"[A-Za-z0-9_\-]{1,40}"
_NUM = r"[0-9]{1,18}"

ACTION_TEMPLATE = rf"dsp:a:(?P<game>{_NUM}):(?P<version>{_NUM}):(?P<verb>{_VERB}):(?P<arg>[^\n]*)"
SELECT_TEMPLATE = (
    rf"dsp:s:(?P<game>{_NUM}):(?P<version>{_NUM}):(?P<verb>{_VERB}):(?P<part>\d{{1,2}})"
)
JOIN_TEMPLATE = rf"dsp:j:(?P<game>{_NUM}):(?P<role>{_ROLE})"
DISPATCH_TEMPLATE = rf"dsp:d:(?P<game>{_NUM}):(?P<role>{_ROLE})"
PROMPT_TEMPLATE = rf"dsp:h:(?P<game>{_NUM})"
REMATCH_TEMPLATE = rf"dsp:r:(?P<game>{_NUM}):(?P<sides>same|swap|random)"
SHOW_TEMPLATE = rf"dsp:t:(?P<game>{_NUM}):(?P<what>status|board)"

_PATTERNS = {
    "action": re.compile(ACTION_TEMPLATE),
    "select": re.compile(SELECT_TEMPLATE),
    "join": re.compile(JOIN_TEMPLATE),
    "dispatch": re.compile(DISPATCH_TEMPLATE),
    "prompt": re.compile(PROMPT_TEMPLATE),
    "rematch": re.compile(REMATCH_TEMPLATE),
    "show": re.compile(SHOW_TEMPLATE),
}


class BadCustomId(ValueError):
    """A custom_id Dispatch did not make (forged, truncated, or from another bot)."""


# ------------------------------------------------------------------------ the codec


def encode_arg(arg: Any) -> str:
    if arg is None or arg is True:
        return ""
    if isinstance(arg, bool):
        raise BadCustomId(f"cannot encode arg {arg!r}")
    if isinstance(arg, int):
        return str(arg)
    if isinstance(arg, str):
        if arg == "" or arg.startswith("'") or _INT.fullmatch(arg):
            return "'" + arg
        if "\n" in arg:
            raise BadCustomId("an arg may not contain a newline")
        return arg
    raise BadCustomId(f"cannot encode arg {arg!r}")


def decode_arg(text: str) -> int | str | None:
    if text == "":
        return None
    if text.startswith("'"):
        return text[1:]
    if _is_int_text(text):
        return int(text)
    return text


def _is_int_text(text: str) -> bool:
    return bool(_INT.fullmatch(text)) and len(text.lstrip("-")) <= MAX_INT_DIGITS


# ------------------------------------------------- the /game play action text

#: Longer than any choice the autocomplete offers (a 100-character value at most).
PLAY_TEXT_MAX = 300
PICK_FROM_LIST = "Pick one of the offered actions from the list (start typing to see them)."


def play_value(version: int, verb: str, arg: Any = None) -> str:
    """The value ``/game play`` autocomplete offers for one action: ``version:verb:arg``."""
    return f"{int(version)}:{verb}:{encode_arg(arg)}"


def parse_play_value(text: str) -> tuple[int, str, int | str | None]:
    """Read back ``version:verb:arg`` as typed or picked; a malformed one is refused politely.

    The arg is written as in a custom_id (see ``encode_arg``), so a picked value round-trips.
    """
    if not isinstance(text, str) or len(text) > PLAY_TEXT_MAX:
        raise errors.BadInput(PICK_FROM_LIST)
    version_text, _, rest = text.partition(":")
    verb, sep, arg_text = rest.partition(":")
    if not sep or not verb:
        raise errors.BadInput(PICK_FROM_LIST)
    if not re.fullmatch(_NUM, version_text):
        raise errors.BadInput(
            f"“{version_text[:20]}” is not a prompt number (it is written in digits 0-9). "
            + PICK_FROM_LIST
        )
    if not re.fullmatch(_VERB, verb):
        raise errors.BadInput(f"“{verb[:40]}” is not an action. " + PICK_FROM_LIST)
    if _INT.fullmatch(arg_text) and not _is_int_text(arg_text):
        raise errors.BadInput("That number is too large to be one of your choices.")
    return int(version_text), verb, decode_arg(arg_text)


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id[:40]}...")
    return custom_id


def action_id(game_id: int, version: int, verb: str, arg: Any = None) -> str:
    cid = f"{PREFIX}:a:{int(game_id)}:{int(version)}:{verb}:{encode_arg(arg)}"
    if not _PATTERNS["action"].fullmatch(cid):
        raise BadCustomId(f"cannot encode action {verb!r} {arg!r}")
    return _checked(cid)


def select_id(game_id: int, version: int, verb: str, part: int = 0) -> str:
    cid = f"{PREFIX}:s:{int(game_id)}:{int(version)}:{verb}:{int(part)}"
    if not _PATTERNS["select"].fullmatch(cid):
        raise BadCustomId(f"cannot encode select {verb!r}")
    return _checked(cid)


def join_id(game_id: int, role: str) -> str:
    cid = f"{PREFIX}:j:{int(game_id)}:{role}"
    if not _PATTERNS["join"].fullmatch(cid):
        raise BadCustomId(f"cannot encode role {role!r}")
    return _checked(cid)


def dispatch_id(game_id: int, role: str) -> str:
    cid = f"{PREFIX}:d:{int(game_id)}:{role}"
    if not _PATTERNS["dispatch"].fullmatch(cid):
        raise BadCustomId(f"cannot encode role {role!r}")
    return _checked(cid)


def prompt_id(game_id: int) -> str:
    return f"{PREFIX}:h:{int(game_id)}"


def show_id(game_id: int, what: str) -> str:
    cid = f"{PREFIX}:t:{int(game_id)}:{what}"
    if not _PATTERNS["show"].fullmatch(cid):
        raise BadCustomId(f"cannot encode a look {what!r}")
    return cid


@dataclass(frozen=True)
class Parsed:
    """A decoded custom_id."""

    kind: str  # "action" | "select" | "join" | "dispatch" | "prompt" | "rematch" | "show"
    game_id: int
    version: int | None = None
    verb: str | None = None
    arg: int | str | None = None
    role: str | None = None
    part: int | None = None


def parse(custom_id: str) -> Parsed:
    """Decode any Dispatch custom_id; :class:`BadCustomId` for anything else."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId("not a Dispatch component")
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(custom_id)
        if match:
            return _from_match(kind, match)
    raise BadCustomId("not a Dispatch component")


def is_ours(custom_id: str) -> bool:
    try:
        parse(custom_id)
    except BadCustomId:
        return False
    return True


def _from_match(kind: str, match: re.Match[str]) -> Parsed:
    groups = match.groupdict()
    return Parsed(
        kind=kind,
        game_id=int(groups["game"]),
        version=int(groups["version"]) if groups.get("version") is not None else None,
        verb=groups.get("verb"),
        arg=decode_arg(groups["arg"]) if groups.get("arg") is not None else None,
        role=groups.get("role"),
        part=int(groups["part"]) if groups.get("part") is not None else None,
    )


# ---------------------------------------------------------------- the DynamicItems
#
# One class per kind of component. discord.py matches a click's custom_id against each
# class's ``template`` and builds the item from the match (``from_custom_id``); the item
# keeps the fields it needs and its ``callback`` hands them to its own handler in
# ``bot.discord_app.interactions`` (imported there, at call time: the handlers use the
# builders below).


def _fields(match: re.Match[str]) -> dict[str, str]:
    return match.groupdict()


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """One action of the clicker's prompt: ``dsp:a:<game>:<version>:<verb>:<arg>``."""

    def __init__(
        self,
        game_id: int,
        version: int,
        verb: str,
        arg: int | str | None = None,
        *,
        label: str = "?",
        style: Any = None,
    ) -> None:
        self.game_id, self.version, self.verb, self.arg = game_id, version, verb, arg
        custom_id = action_id(game_id, version, verb, arg)
        style = style or discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        f = _fields(match)
        return cls(int(f["game"]), int(f["version"]), f["verb"], decode_arg(f["arg"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        await interactions.on_action(interaction, self.game_id, self.version, self.verb, self.arg)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """One verb of the clicker's prompt, its args as options:
    ``dsp:s:<game>:<version>:<verb>:<part>`` (``part`` when they fill several selects)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        verb: str,
        part: int = 0,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        max_values: int = 1,
    ) -> None:
        self.game_id, self.version, self.verb, self.part = game_id, version, verb, part
        options = options or [discord.SelectOption(label="?", value="?")]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=select_id(game_id, version, verb, part),
            options=options,
            placeholder=placeholder,
            min_values=1,
            max_values=max(1, min(max_values, len(options))),
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        f = _fields(match)
        options = list(getattr(item, "options", None) or []) or None
        return cls(
            int(f["game"]),
            int(f["version"]),
            f["verb"],
            int(f["part"]),
            options=options,
            max_values=int(getattr(item, "max_values", 1) or 1),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        values = list(self.item.values)
        if not values or len(set(values)) != len(values):
            await interactions.refuse(interaction, self.game_id, "Choose one or more options.")
            return
        # Several values are one decision of several small parts (the view's ``batch``):
        # the manager applies them in the order Discord lists them, all or nothing. A
        # repeated pick ("texas|2") is the same arg again; the rules check every one.
        args = [picked_arg(v) for v in values] if self.item.max_values > 1 else values
        await interactions.on_action(
            interaction, self.game_id, self.version, self.verb, args[0], more=args[1:]
        )


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=JOIN_TEMPLATE):
    """Take a seat in a lobby: ``dsp:j:<game>:<role>``."""

    def __init__(self, game_id: int, role: str, *, label: str = "Join") -> None:
        self.game_id, self.role = game_id, role
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=join_id(game_id, role)
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        f = _fields(match)
        return cls(int(f["game"]), f["role"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        await interactions.on_join(interaction, self.game_id, self.role)


#: Dispatch's levels as the lobby offers them: (level, label, description).
DISPATCH_LEVELS: tuple[tuple[str, str, str], ...] = (
    ("easy", "Dispatch (easy)", "Moves at once, without looking ahead"),
    ("normal", "Dispatch (normal)", "Thinks about 1 second a move"),
    ("hard", "Dispatch (hard)", "Thinks about 5 seconds a move"),
)


class DispatchSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DISPATCH_TEMPLATE):
    """Under a lobby: give the open seat ``role`` to Dispatch at the level picked,
    ``dsp:d:<game>:<role>`` (only a player seated there, or a moderator, may)."""

    def __init__(self, game_id: int, role: str, *, placeholder: str | None = None) -> None:
        self.game_id, self.role = game_id, role
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=dispatch_id(game_id, role),
            options=[
                discord.SelectOption(label=label, value=level, description=description)
                for level, label, description in DISPATCH_LEVELS
            ],
            placeholder=placeholder,
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DispatchSelect:
        f = _fields(match)
        return cls(int(f["game"]), f["role"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        values = list(self.item.values)
        levels = [level for level, _, _ in DISPATCH_LEVELS]
        if len(values) != 1 or values[0] not in levels:
            await interactions.refuse(
                interaction, self.game_id, f"Choose one of Dispatch's levels: {', '.join(levels)}."
            )
            return
        await interactions.on_seat_dispatch(interaction, self.game_id, self.role, values[0])


class PromptButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PROMPT_TEMPLATE):
    """ "My prompt" under a table post: the clicker's own view, ephemerally: ``dsp:h:<game>``."""

    def __init__(self, game_id: int, *, label: str = "My prompt") -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=prompt_id(game_id)
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        return cls(int(_fields(match)["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        await interactions.on_my_prompt(interaction, self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_TEMPLATE):
    """Under a game's last post: play again, ``dsp:r:<game>:<sides>``."""

    LABELS: ClassVar[dict[str, str]] = {
        "same": "Rematch: same sides",
        "swap": "Rematch: swap sides",
        "random": "Rematch: random sides",
    }

    def __init__(self, game_id: int, sides: str) -> None:
        self.game_id, self.sides = game_id, sides
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[sides],
                style=discord.ButtonStyle.success
                if sides == "same"
                else discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:r:{int(game_id)}:{sides}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        f = _fields(match)
        return cls(int(f["game"]), f["sides"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        await interactions.on_rematch(interaction, self.game_id, self.sides)


class ShowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SHOW_TEMPLATE):
    """Under an ephemeral ``/game status`` or ``/game board``: post that look to the table,
    ``dsp:t:<game>:<status|board>``."""

    def __init__(self, game_id: int, what: str) -> None:
        self.game_id, self.what = game_id, what
        super().__init__(
            discord.ui.Button(
                label="Show to the table",
                style=discord.ButtonStyle.secondary,
                custom_id=show_id(game_id, what),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShowButton:
        f = _fields(match)
        return cls(int(f["game"]), f["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app import interactions

        await interactions.on_show_table(interaction, self.game_id, self.what)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    ActionSelect,
    JoinButton,
    DispatchSelect,
    PromptButton,
    RematchButton,
    ShowButton,
)


# --------------------------------------------------------------------- the builder


def _clip(text: Any, limit: int) -> str:
    words = " ".join(str(text).split()) or "?"
    return words if len(words) <= limit else words[: limit - 1] + "…"


@dataclass
class PromptComponents:
    view: discord.ui.View
    #: Some actions did not fit in five rows; use ``/game play`` for them.
    overflow: bool = False
    #: Whole texts of buttons whose labels had to be shortened, for the message.
    notes: list[str] = dataclasses.field(default_factory=list)


def _arg_label(labels: dict[str, Any], verb: str, arg: Any) -> str:
    table = labels.get(verb)
    if isinstance(table, dict):
        label = table.get(str(arg))
        if label:
            return str(label)
    return f"{verb} {arg}"


def _verb_label(labels: dict[str, Any], verb: str) -> str:
    label = labels.get(verb)
    return str(label) if isinstance(label, str) and label else verb.replace("_", " ").title()


def _style_for(verb: str) -> discord.ButtonStyle:
    if verb == "undo":
        return discord.ButtonStyle.secondary
    if verb in ("done", "pass", "confirm", "end"):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


#: Discord shows about this many characters of a button before cutting it off.
BUTTON_LABEL_MAX = 38
#: Verbs that close or take back a decision: always the last row, in this order.
CONTROLS = ("done", "undo")


def _split_words(text: str, limit: int) -> tuple[str, str]:
    """``text`` as a head of at most ``limit`` characters, cut between words, and the rest."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text, ""
    cut = text.rfind(" ", 0, limit + 1)
    cut = cut if cut > limit // 2 else limit
    return text[:cut].rstrip(), text[cut:].strip()


def _option(label: str, value: str) -> discord.SelectOption:
    """An option that shows its whole label: what the label cannot hold goes on in the
    description beneath it."""
    head, rest = _split_words(label, OPTION_LABEL_MAX)
    return discord.SelectOption(
        label=head or "?", value=value, description=_clip(rest, 100) if rest else None
    )


#: Marks the n-th pick of the same arg in a multi-choice select ("texas|2"): option
#: values must differ, two tokens in one space are two picks of it.
REPEAT_MARK = "|"
_ORDINALS = {2: "2nd", 3: "3rd"}


def _repeat_options(
    args: list[Any], texts: list[str], repeats: dict[str, int], used: int
) -> list[discord.SelectOption]:
    """Extra options for taking an arg again (a 2nd token in a space), as many as the rules
    allow (the view's ``repeats``) and the select has room for: every 2nd pick first."""
    extra: list[discord.SelectOption] = []
    most = max(repeats.values(), default=1)
    for n in range(2, most + 1):
        for arg, text in zip(args, texts, strict=True):
            if repeats.get(str(arg), 1) >= n and used + len(extra) < MAX_OPTIONS:
                value = f"{arg}{REPEAT_MARK}{n}"
                if len(value) <= OPTION_LABEL_MAX:
                    extra.append(_option(f"{text} ({_ORDINALS.get(n, f'{n}th')})", value))
    return extra


def picked_arg(value: str) -> str:
    """The arg a multi-choice option stands for ("texas|2" is a 2nd pick of "texas")."""
    head, mark, n = value.rpartition(REPEAT_MARK)
    return head if mark and head and n.isascii() and n.isdigit() else value


def _short(label: str) -> str:
    """A button label that fits whole: the words before a colon, or the verb's own word."""
    if len(label) <= BUTTON_LABEL_MAX:
        return label
    head = label.split(":", 1)[0].strip()
    return head if len(head) <= BUTTON_LABEL_MAX else _split_words(label, BUTTON_LABEL_MAX)[0]


def build_prompt_view(game_id: int, version: int, view: dict[str, Any]) -> PromptComponents:
    """Buttons and selects for every legal action in ``view["actions"]``, and nothing else.

    Every label shows whole (Discord cuts buttons at about 38 characters): a verb whose
    choices are short and few becomes buttons; otherwise a select, each option's label
    continued in its description, split into several selects past 25 options. Done and
    Undo always sit alone in the last row, in that order, so they never move between
    prompts. At most five rows; ``overflow`` says when some actions did not fit, and
    ``notes`` holds the whole text of a single-button label that had to be shortened.
    """
    actions: dict[str, Any] = view.get("actions") or {}
    labels: dict[str, Any] = view.get("labels") or {}
    batch: dict[str, int] = view.get("batch") or {}
    repeats: dict[str, dict[str, int]] = view.get("repeats") or {}
    ui = discord.ui.View(timeout=None)
    overflow = False
    notes: list[str] = []
    buttons: list[ActionButton] = []
    controls: list[ActionButton] = []
    selects: list[ActionSelect] = []

    def button(verb: str, arg: Any, label: str) -> ActionButton | None:
        nonlocal overflow
        try:
            return ActionButton(game_id, version, verb, arg, label=label, style=_style_for(verb))
        except BadCustomId:
            overflow = True
            return None

    for verb, args in actions.items():
        if args is True:
            full = _verb_label(labels, verb)
            made = button(verb, None, _short(full))
            if made is None:
                continue
            if made.item.label != full:
                notes.append(full)
            (controls if verb in CONTROLS else buttons).append(made)
            continue
        if not isinstance(args, list) or not args:
            continue
        texts = [_arg_label(labels, verb, arg) for arg in args]
        several = int(batch.get(verb, 1)) if len(args) <= MAX_OPTIONS else 1
        if (
            several < 2
            and len(args) <= MAX_BUTTON_ARGS
            and all(len(t) <= BUTTON_LABEL_MAX for t in texts)
        ):
            for arg, text in zip(args, texts, strict=True):
                made = button(verb, arg, text)
                if made is not None:
                    buttons.append(made)
            continue
        for part, start in enumerate(range(0, len(args), MAX_OPTIONS)):
            options = []
            for arg, text in zip(args[start : start + MAX_OPTIONS], texts[start:], strict=False):
                value = str(arg)
                if len(value) > OPTION_LABEL_MAX:
                    overflow = True
                    continue
                options.append(_option(text, value))
            if not options:
                continue
            if several >= 2:
                options += _repeat_options(args, texts, repeats.get(verb) or {}, len(options))
            placeholder = _clip(_verb_label(labels, verb), 150)
            if several >= 2:
                placeholder = _clip(f"{_verb_label(labels, verb)}: choose up to {several}", 150)
            if len(args) > MAX_OPTIONS:
                last = min(start + MAX_OPTIONS, len(args))
                placeholder = _clip(f"{placeholder} ({start + 1}–{last} of {len(args)})", 150)
            try:
                selects.append(
                    ActionSelect(
                        game_id,
                        version,
                        verb,
                        part,
                        options=options,
                        placeholder=placeholder,
                        max_values=several if start == 0 else 1,
                    )
                )
            except BadCustomId:
                overflow = True

    # Lay out: choice buttons, then selects, then the control row (done, undo) last.
    controls.sort(key=lambda b: CONTROLS.index(b.verb))
    rows: list[list[discord.ui.Item[Any]]] = [
        list(buttons[i : i + BUTTONS_PER_ROW]) for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]
    rows += [[select] for select in selects]
    budget = MAX_ROWS - (1 if controls else 0)
    if len(rows) > budget:
        overflow = True
        rows = rows[:budget]
    if controls:
        rows.append(list(controls))
    for number, row in enumerate(rows):
        for item in row:
            item.row = number
            ui.add_item(item)
    return PromptComponents(ui, overflow, notes)


def build_lobby_view(
    game_id: int, open_roles: list[tuple[str, str]], *, dispatch: tuple[str, str] | None = None
) -> discord.ui.View:
    """One join button per open seat (``open_roles`` is [(role, label)]), and with
    ``dispatch`` (role, label) a select in a row of its own that gives that seat to
    Dispatch at the level picked."""
    ui = discord.ui.View(timeout=None)
    rows = MAX_ROWS - (1 if dispatch else 0)
    buttons = open_roles[: rows * BUTTONS_PER_ROW]
    for index, (role, label) in enumerate(buttons):
        button = JoinButton(game_id, role, label=_clip(f"Join as {label}", LABEL_MAX))
        button.row = index // BUTTONS_PER_ROW
        ui.add_item(button)
    if dispatch:
        role, label = dispatch
        placeholder = _clip(f"Or let Dispatch (this bot) play {label}: choose its level", 150)
        select = DispatchSelect(game_id, role, placeholder=placeholder)
        select.row = (len(buttons) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
        ui.add_item(select)
    return ui


def build_end_view(game_id: int) -> discord.ui.View:
    """The last post's buttons: a rematch with the same, swapped or random sides."""
    ui = discord.ui.View(timeout=None)
    for sides in ("same", "swap", "random"):
        ui.add_item(RematchButton(game_id, sides))
    return ui


def build_table_view(game_id: int) -> discord.ui.View:
    """The channel post's one button: open your own prompt (ephemeral, works without DMs)."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(PromptButton(game_id))
    return ui


def build_show_view(game_id: int, what: str) -> discord.ui.View:
    """An ephemeral look's one button: show it to the table."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(ShowButton(game_id, what))
    return ui


def component_ids(message: discord.Message) -> set[str]:
    """Every custom_id on a received message (to spot ids that were never sent)."""
    found: set[str] = set()

    def walk(components: Any) -> None:
        for component in components or ():
            cid = getattr(component, "custom_id", None)
            if cid:
                found.add(cid)
            walk(getattr(component, "children", None))

    walk(message.components)
    return found
