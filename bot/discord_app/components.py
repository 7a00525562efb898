"""Persistent buttons and selects: what every one of them is, and the layout of a
prompt's choices.

Every component Dispatch sends is a :class:`DispatchComponent` of one kind of
``bot.discord_app.custom_ids.KINDS``: its ``custom_id`` carries all it needs, so a click
still works after a restart and is refused when the game has moved on. Nothing is kept in
memory per message. Each kind has its own subclass (``class JoinButton(DispatchComponent,
kind="join")``), its template that kind's pattern in the frozen table, defined in the
module of the feature whose click it is, and registered by that feature's cog; a click is
decoded once, by that codec, and answered by its class's ``clicked``.
"""

from __future__ import annotations

import abc
import dataclasses
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot.discord_app.custom_ids import (
    ANY_ID,
    BadCustomId,
    Parsed,
    encode,
    parse,
    template,
)
from bot.discord_app.room import stopping

MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5
#: A list verb with at most this many args is shown as buttons rather than a select,
#: however long their texts: a menu costs two taps where a button costs one.
MAX_BUTTON_ARGS = 5
LABEL_MAX = 80
OPTION_LABEL_MAX = 100

#: The answer to anything that arrives while the bot is stopping (a restart or an update):
#: a click handled then might not finish, so none is begun.
RESTARTING = "Dispatch is restarting; nothing changed. Please try again in a minute."


# ------------------------------------------------------------- every DynamicItem


class DispatchComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], abc.ABC, template=ANY_ID):
    """A Dispatch button or select of one kind: the item as sent (or as read back from the
    clicked message, labels and options included) and its decoded custom_id, ``click``.

    Never sent itself: each kind's subclass names its ``kind``, which gives its template
    (that kind's pattern in ``custom_ids.KINDS``), and says what a click does."""

    #: The kind of ``custom_ids.KINDS`` this class answers.
    kind: ClassVar[str]

    def __init_subclass__(cls, *, kind: str) -> None:
        super().__init_subclass__(template=template(kind))
        cls.kind = kind

    def __init__(self, item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> None:
        self.click: Parsed = parse(str(item.custom_id))
        super().__init__(item)

    @property
    def values(self) -> list[str]:
        """The options chosen in a select (none for a button)."""
        item = self.item
        return list(item.values) if isinstance(item, discord.ui.Select) else []

    @property
    def max_values(self) -> int:
        item = self.item
        return int(item.max_values or 1) if isinstance(item, discord.ui.Select) else 1

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        if not isinstance(item, discord.ui.Button | discord.ui.Select):
            raise BadCustomId("not a button or a select")
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if stopping(interaction):
            await interaction.response.send_message(RESTARTING, ephemeral=True)
            return
        await self.clicked(interaction)

    @abc.abstractmethod
    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """What a click of this kind does (the bot is not stopping)."""

    @classmethod
    def button(
        cls, custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary
    ) -> Self:
        """A button of this kind; ``BadCustomId`` if the id is not one of ours."""
        return cls(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    @classmethod
    def select(
        cls,
        custom_id: str,
        options: list[discord.SelectOption],
        placeholder: str | None = None,
        max_values: int = 1,
    ) -> Self:
        """A select of this kind, choosing one to ``max_values`` of its options."""
        made: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id,
            options=options or [discord.SelectOption(label="?", value="?")],
            placeholder=placeholder,
            min_values=1,
            max_values=max(1, min(max_values, len(options or [0]))),
        )
        return cls(made)


@dataclass(frozen=True)
class PromptItems:
    """The kinds a prompt's choices are sent as: a player's (``dsp:a``/``dsp:s``) or a
    solo session's (``dsp:o``/``dsp:q``), laid out by the very same rules."""

    button: type[DispatchComponent]
    select: type[DispatchComponent]


# --------------------------------------------------------------------- the builder


def clip(text: Any, limit: int) -> str:
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
        label=head or "?", value=value, description=clip(rest, 100) if rest else None
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


def button_labels(texts: list[str]) -> list[tuple[str, str | None]]:
    """For these few choices, each button's label that fits whole, and the whole text for
    the message when the label had to be shortened (None: the label is the text). A long
    text is shortened to the words before its colon, or its first words. Two choices must
    never look alike: when shortening makes two labels equal, each shortened one is
    numbered, "(1) Play Virginia Convention", and its note carries the same number."""
    short = [_short(text) for text in texts]
    if len(set(short)) == len(short):
        pairs = zip(short, texts, strict=True)
        return [(label, None if label == text else text) for label, text in pairs]
    room = BUTTON_LABEL_MAX - len(f"({len(texts)}) ")
    labels: list[tuple[str, str | None]] = []
    for n, text in enumerate(texts, 1):
        if len(text) <= BUTTON_LABEL_MAX:
            labels.append((text, None))
        else:
            labels.append((f"({n}) {_split_words(text, room)[0]}", f"({n}) {text}"))
    return labels


@dataclass
class _Layout:
    """The components of one prompt while they are made, of the kinds of ``items``."""

    game_id: int
    version: int
    items: PromptItems
    labels: dict[str, Any]
    buttons: list[DispatchComponent] = dataclasses.field(default_factory=list)
    controls: list[DispatchComponent] = dataclasses.field(default_factory=list)
    selects: list[DispatchComponent] = dataclasses.field(default_factory=list)
    overflow: bool = False
    notes: list[str] = dataclasses.field(default_factory=list)

    def button(self, verb: str, arg: Any, label: str) -> DispatchComponent | None:
        kind = self.items.button
        try:
            custom_id = encode(kind.kind, self.game_id, self.version, verb, arg)
            return kind.button(custom_id, label, _style_for(verb))
        except BadCustomId:
            self.overflow = True
            return None

    def select(
        self, verb: str, part: int, options: list[discord.SelectOption], placeholder: str, most: int
    ) -> None:
        kind = self.items.select
        try:
            custom_id = encode(kind.kind, self.game_id, self.version, verb, part)
        except BadCustomId:
            self.overflow = True
            return
        self.selects.append(kind.select(custom_id, options, placeholder, most))


def _add_true_verb(layout: _Layout, verb: str) -> None:
    """A verb without args: one button, its label shortened to fit (noted whole)."""
    full = _verb_label(layout.labels, verb)
    made = layout.button(verb, None, _short(full))
    if made is None:
        return
    shown = made.item.label if isinstance(made.item, discord.ui.Button) else None
    if shown != full:
        layout.notes.append(full)
    (layout.controls if verb in CONTROLS else layout.buttons).append(made)


def _add_list_verb(
    layout: _Layout, verb: str, args: list[Any], several: int, repeats: dict[str, int]
) -> None:
    """A verb with args: a button each when they are few (and the rows have room), else
    selects of at most 25 options (``several`` picks at once in the first when the view
    batches them)."""
    texts = [_arg_label(layout.labels, verb, arg) for arg in args]
    room = (MAX_ROWS - 1) * BUTTONS_PER_ROW - len(layout.buttons)
    if several < 2 and len(args) <= min(MAX_BUTTON_ARGS, room):
        for arg, (label, whole) in zip(args, button_labels(texts), strict=True):
            made = layout.button(verb, arg, label)
            if made is None:
                continue
            layout.buttons.append(made)
            if whole is not None:
                layout.notes.append(whole)
        return
    title = _verb_label(layout.labels, verb)
    if several >= 2:
        title = f"{title}: choose up to {several}"
    for part, start in enumerate(range(0, len(args), MAX_OPTIONS)):
        options = []
        for arg, text in zip(args[start : start + MAX_OPTIONS], texts[start:], strict=False):
            if len(str(arg)) > OPTION_LABEL_MAX:
                layout.overflow = True
                continue
            options.append(_option(text, str(arg)))
        if not options:
            continue
        if several >= 2:
            options += _repeat_options(args, texts, repeats, len(options))
        placeholder = clip(title, 150)
        if len(args) > MAX_OPTIONS:
            last = min(start + MAX_OPTIONS, len(args))
            placeholder = clip(f"{placeholder} ({start + 1}–{last} of {len(args)})", 150)
        layout.select(verb, part, options, placeholder, several if start == 0 else 1)


#: The select part that offers a view's ``plans``: a whole decision per option (a prompt
#: has at most five rows, so the parts of a long list of args never reach it).
PLAN_PART = 9
#: Between the args of a plan in its option's value: "left:U1+centre:U2+right:U3".
PLAN_JOIN = "+"


def _add_plans(layout: _Layout, verb: str, plans: list[Any]) -> None:
    """A view's ``plans`` of ``verb`` (War's whole placement of a battle): one select
    whose every option makes a whole decision, its small actions applied in order."""
    options = []
    for plan in plans[:MAX_OPTIONS]:
        args = [str(arg) for arg in plan] if isinstance(plan, list) else []
        value = PLAN_JOIN.join(args)
        if not args or len(value) > OPTION_LABEL_MAX or any(PLAN_JOIN in a for a in args):
            continue
        text = " · ".join(_arg_label(layout.labels, verb, arg) for arg in args)
        options.append(_option(text, value))
    if len(options) >= 2:
        title = f"{_verb_label(layout.labels, verb)}: all at once, in one choice"
        layout.select(verb, PLAN_PART, options, clip(title, 150), 1)


def plan_args(value: str) -> list[str]:
    """The args of a plan's option value, in the order they are applied."""
    return value.split(PLAN_JOIN)


def _laid_out(layout: _Layout) -> PromptComponents:
    """Choice buttons, then selects, then the control row (done, undo) last; at most five
    rows (``overflow`` when some did not fit)."""
    layout.controls.sort(key=lambda b: CONTROLS.index(str(b.click.verb)))
    buttons = layout.buttons
    rows: list[list[DispatchComponent]] = [
        list(buttons[i : i + BUTTONS_PER_ROW]) for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]
    rows += [[one] for one in layout.selects]
    budget = MAX_ROWS - (1 if layout.controls else 0)
    if len(rows) > budget:
        layout.overflow = True
        rows = rows[:budget]
    if layout.controls:
        rows.append(list(layout.controls))
    ui = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row:
            item.row = number
            ui.add_item(item)
    return PromptComponents(ui, layout.overflow, layout.notes)


def lay_out_prompt(
    game_id: int, version: int, view: dict[str, Any], items: PromptItems
) -> PromptComponents:
    """Buttons and selects for every legal action in ``view["actions"]``, and nothing else.

    Every label shows whole (Discord cuts buttons at about 38 characters): a verb with
    five choices or fewer becomes buttons (one tap, where a menu costs two), a long text
    shortened on its button and given whole in ``notes`` for the message; more choices
    become a select, each option's label continued in its description, split into
    several selects past 25 options. Done and Undo always sit alone in the last row, in
    that order, so they never move between prompts. At most five rows; ``overflow`` says
    when some actions did not fit.
    The ids are of the kinds of ``items``: a player's, or a solo session's.
    """
    actions: dict[str, Any] = view.get("actions") or {}
    batch: dict[str, int] = view.get("batch") or {}
    repeats: dict[str, dict[str, int]] = view.get("repeats") or {}
    layout = _Layout(game_id, version, items, view.get("labels") or {})
    for verb, plans in (view.get("plans") or {}).items():
        if isinstance(actions.get(verb), list) and isinstance(plans, list):
            _add_plans(layout, verb, plans)
    for verb, args in actions.items():
        if args is True:
            _add_true_verb(layout, verb)
        elif isinstance(args, list) and args:
            several = int(batch.get(verb, 1)) if len(args) <= MAX_OPTIONS else 1
            _add_list_verb(layout, verb, args, several, repeats.get(verb) or {})
    return _laid_out(layout)


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
