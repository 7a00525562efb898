"""The facts of a card just turned face up, asked in one Discord form (a modal).

Games without a public card list (all but Paths of Glory) show their cards as anonymous
tokens until one turns face up; the session then asks its facts one question at a time
(buttons and selects). "Tell all its facts at once" opens this form instead: the card's
number (blank: it has none), its value, whether it has an event, its kind, only those the
playsheet asks. Every answer is checked before anything is applied; a wrong one is
explained and changes nothing. The answers are then applied as the same small actions
the buttons make (so undo takes them back one by one, and replays are unchanged).
"""

from __future__ import annotations

from typing import Any

import discord

from bot import errors
from bot.delivery.port import View
from rules.solo.sheets import sheet

YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}
#: The values the engine accepts (``rules.solo.steps.VALUES``).
VALUE_RANGE = range(0, 7)


class CardFactsModal(discord.ui.Modal):
    """One form for the card the session asks about; built from the playsheet's questions.
    What a submitted form does is the session's (``solo_message.FactsForm``)."""

    def __init__(self, game_id: int, version: int, playsheet: str, prompt: str) -> None:
        data = sheet(playsheet)
        super().__init__(title="The card just turned face up", timeout=600)
        self.game_id, self.version, self.playsheet = game_id, version, playsheet
        self.questions: list[str] = list(data["questions"])
        self.kinds: list[str] = list(data["kinds"])
        self.inputs: dict[str, discord.ui.TextInput[Any]] = {}
        where = prompt.split(":", 1)[0][:100] if prompt else "Its card number"
        fields: dict[str, discord.ui.TextInput[Any]] = {
            "number": discord.ui.TextInput(
                custom_id="number",
                label="Card number (blank if it has none)",
                placeholder=where,
                required=False,
                max_length=4,
            ),
            "value": discord.ui.TextInput(
                custom_id="value",
                label=f"Its {data['value_word']} value (0 to 6)"[:45],
                required=True,
                max_length=1,
            ),
            "event": discord.ui.TextInput(
                custom_id="event",
                label="Has it an event you could play? (yes/no)",
                required=True,
                max_length=3,
            ),
            "kind": discord.ui.TextInput(
                custom_id="kind",
                label="Its kind",
                placeholder=", ".join(self.kinds)[:100],
                default=self.kinds[0],
                required=True,
                max_length=20,
            ),
        }
        for question in self.questions:
            if question in fields:
                self.inputs[question] = fields[question]
                self.add_item(fields[question])

    def moves(self, view: View) -> list[tuple[str, Any]]:
        """The answers as actions, each checked; BadInput names the first wrong one."""
        moves: list[tuple[str, Any]] = []
        actions = view.get("actions") or {}
        if "number" in self.inputs:
            text = self.inputs["number"].value.strip().lstrip("#")
            if not text:
                moves.append(("unnumbered", None))
            else:
                if not (text.isascii() and text.isdigit()):
                    raise errors.BadNumber(f"The card number “{text[:10]}” is not a number.")
                offered = [str(n) for n in actions.get("number") or []]
                if text.lstrip("0") not in offered:
                    raise errors.NotOffered(
                        f"Card #{text[:10]} cannot be this card: it is outside the deck or "
                        "already face up. Check the number and try again."
                    )
                moves.append(("number", int(text)))
        if "value" in self.inputs:
            text = self.inputs["value"].value.strip()
            if not (text.isascii() and text.isdigit()) or int(text) not in VALUE_RANGE:
                raise errors.BadNumber("The value must be a whole number from 0 to 6.")
            moves.append(("value", int(text)))
        if "event" in self.inputs:
            text = self.inputs["event"].value.strip().lower()
            if text not in YES | NO:
                raise errors.UnknownWord("Answer yes or no to whether it has an event.")
            moves.append(("event", "yes" if text in YES else "no"))
        if "kind" in self.inputs:
            text = self.inputs["kind"].value.strip().lower().replace(" ", "_")
            if text not in self.kinds:
                raise errors.UnknownWord(f"The kind must be one of {', '.join(self.kinds)}.")
            moves.append(("kind", text))
        return moves
