"""Persistent buttons and selects: the one DynamicItem of them all, the registry of what a
click does, and the builders of every message's components.

Every component Dispatch sends is a :class:`DispatchComponent`: its ``custom_id`` (one of
the forms in ``bot.discord_app.custom_ids``, the one codec) carries all it needs, so a
click still works after a restart and is refused when the game has moved on. Nothing is
kept in memory per message. A click is decoded once, by that codec, and handed to the
handler registered for its kind (:func:`handles`): the modules that answer clicks
(``interactions``, ``solo_components``, ``solo_modals``, ``seat_components``,
``history_ui``) register theirs when imported, so this module imports none of them.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_app.custom_ids import (
    ANY_ID,
    BadCustomId,
    Parsed,
    action_id,
    claim_id,
    dispatch_id,
    join_id,
    parse,
    prompt_id,
    rematch_id,
    select_id,
    show_id,
    solo_action_id,
    solo_select_id,
)
from bot.discord_app.room import stopping

log = logging.getLogger("dispatch.discord")

MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5
#: A list verb with at most this many args is shown as buttons rather than a select,
#: however long their texts: a menu costs two taps where a button costs one.
MAX_BUTTON_ARGS = 5
LABEL_MAX = 80
OPTION_LABEL_MAX = 100

#: What a click whose kind no handler answers is told (never expected: a test holds every
#: kind of ``custom_ids.KINDS`` to a handler).
UNHANDLED = "This button is not recognised. Use /game hand for your current prompt."
#: The answer to anything that arrives while the bot is stopping (a restart or an update):
#: a click handled then might not finish, so none is begun.
RESTARTING = "Dispatch is restarting; nothing changed. Please try again in a minute."


# ------------------------------------------------------------------ the one DynamicItem


class DispatchComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ANY_ID):
    """Any Dispatch button or select: the item as sent (or as read back from the clicked
    message, labels and options included) and its decoded custom_id, ``click``."""

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
    ) -> DispatchComponent:
        if not isinstance(item, discord.ui.Button | discord.ui.Select):
            raise BadCustomId("not a button or a select")
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = HANDLERS.get(self.click.kind)
        if stopping(interaction):
            await interaction.response.send_message(RESTARTING, ephemeral=True)
            return
        if handler is None:
            log.error("no handler for component kind %s", self.click.kind)
            await interaction.response.send_message(UNHANDLED, ephemeral=True)
            return
        await handler(interaction, self)


Handler = Callable[[discord.Interaction[Any], DispatchComponent], Awaitable[None]]
#: What a click of each kind of ``custom_ids.KINDS`` does, registered by :func:`handles`.
HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the decorated coroutine as what a click of ``kind`` does."""

    def register(handler: Handler) -> Handler:
        if kind in HANDLERS and HANDLERS[kind] is not handler:
            raise ValueError(f"two handlers for {kind}")
        HANDLERS[kind] = handler
        return handler

    return register


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (DispatchComponent,)


def button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary
) -> DispatchComponent:
    """A button of the family; ``BadCustomId`` if the id is not one of ours."""
    return DispatchComponent(discord.ui.Button(label=label, style=style, custom_id=custom_id))


def select(
    custom_id: str,
    options: list[discord.SelectOption],
    placeholder: str | None = None,
    max_values: int = 1,
) -> DispatchComponent:
    """A select of the family, choosing one to ``max_values`` of its options."""
    made: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="?", value="?")],
        placeholder=placeholder,
        min_values=1,
        max_values=max(1, min(max_values, len(options or [0]))),
    )
    return DispatchComponent(made)


#: Dispatch's levels as the lobby offers them: (level, label, description).
DISPATCH_LEVELS: tuple[tuple[str, str, str], ...] = (
    ("easy", "Dispatch (easy)", "Moves at once, without looking ahead"),
    ("normal", "Dispatch (normal)", "Thinks about 1 second a move"),
    ("hard", "Dispatch (hard)", "Thinks about 5 seconds a move"),
)

REMATCH_LABELS: dict[str, str] = {
    "same": "Rematch: same sides",
    "swap": "Rematch: swap sides",
    "random": "Rematch: random sides",
}


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
    """The components of one prompt while they are made: ``solo`` chooses the solo
    session's ids (``dsp:o``/``dsp:q``) over a player's prompt's (``dsp:a``/``dsp:s``)."""

    game_id: int
    version: int
    solo: bool
    labels: dict[str, Any]
    buttons: list[DispatchComponent] = dataclasses.field(default_factory=list)
    controls: list[DispatchComponent] = dataclasses.field(default_factory=list)
    selects: list[DispatchComponent] = dataclasses.field(default_factory=list)
    overflow: bool = False
    notes: list[str] = dataclasses.field(default_factory=list)

    def button(self, verb: str, arg: Any, label: str) -> DispatchComponent | None:
        make_id = solo_action_id if self.solo else action_id
        try:
            return button(make_id(self.game_id, self.version, verb, arg), label, _style_for(verb))
        except BadCustomId:
            self.overflow = True
            return None

    def select(
        self, verb: str, part: int, options: list[discord.SelectOption], placeholder: str, most: int
    ) -> None:
        make_id = solo_select_id if self.solo else select_id
        try:
            custom_id = make_id(self.game_id, self.version, verb, part)
        except BadCustomId:
            self.overflow = True
            return
        self.selects.append(select(custom_id, options, placeholder, most))


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
        placeholder = _clip(title, 150)
        if len(args) > MAX_OPTIONS:
            last = min(start + MAX_OPTIONS, len(args))
            placeholder = _clip(f"{placeholder} ({start + 1}–{last} of {len(args)})", 150)
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
        layout.select(verb, PLAN_PART, options, _clip(title, 150), 1)


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


def build_prompt_view(
    game_id: int, version: int, view: dict[str, Any], *, solo: bool = False
) -> PromptComponents:
    """Buttons and selects for every legal action in ``view["actions"]``, and nothing else.

    Every label shows whole (Discord cuts buttons at about 38 characters): a verb with
    five choices or fewer becomes buttons (one tap, where a menu costs two), a long text
    shortened on its button and given whole in ``notes`` for the message; more choices
    become a select, each option's label continued in its description, split into
    several selects past 25 options. Done and Undo always sit alone in the last row, in
    that order, so they never move between prompts. At most five rows; ``overflow`` says
    when some actions did not fit.
    With ``solo`` the ids are a solo session's, laid out by the very same rules.
    """
    actions: dict[str, Any] = view.get("actions") or {}
    batch: dict[str, int] = view.get("batch") or {}
    repeats: dict[str, dict[str, int]] = view.get("repeats") or {}
    layout = _Layout(game_id, version, solo, view.get("labels") or {})
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
        join = button(
            join_id(game_id, role),
            _clip(f"Join as {label}", LABEL_MAX),
            discord.ButtonStyle.success,
        )
        join.row = index // BUTTONS_PER_ROW
        ui.add_item(join)
    if dispatch:
        role, label = dispatch
        placeholder = _clip(f"Or let Dispatch (this bot) play {label}: choose its level", 150)
        levels = [
            discord.SelectOption(label=text, value=level, description=description)
            for level, text, description in DISPATCH_LEVELS
        ]
        choose = select(dispatch_id(game_id, role), levels, placeholder)
        choose.row = (len(buttons) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
        ui.add_item(choose)
    return ui


def build_end_view(game_id: int) -> discord.ui.View:
    """The last post's buttons: a rematch with the same, swapped or random sides."""
    ui = discord.ui.View(timeout=None)
    for sides, label in REMATCH_LABELS.items():
        style = discord.ButtonStyle.success if sides == "same" else discord.ButtonStyle.secondary
        ui.add_item(button(rematch_id(game_id, sides), label, style))
    return ui


def with_claim(view: discord.ui.View | None, game_id: int) -> discord.ui.View:
    """``view`` (or a new one) with the game's **Claim the win** button added (a clock ran
    out on a server whose clocks are claimed)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(button(claim_id(game_id), "Claim the win", discord.ButtonStyle.danger))
    return view


def build_table_view(game_id: int) -> discord.ui.View:
    """The channel post's one button: open your own prompt (ephemeral, works without DMs)."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(button(prompt_id(game_id), "My prompt", discord.ButtonStyle.secondary))
    return ui


def build_show_view(game_id: int, what: str) -> discord.ui.View:
    """An ephemeral look's one button: show it to the table."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(button(show_id(game_id, what), "Show to the table", discord.ButtonStyle.secondary))
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
