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
from bot.discord_app.components import RESTARTING, DispatchComponent, handles
from bot.discord_app.interactions import game_in_reach, handling, manager_of, reply, user_id
from bot.discord_app.room import stopping
from bot.discord_app.solo_components import apply_and_show
from bot.discord_app.solo_message import asks_facts
from rules.solo.sheets import SHEETS, sheet

YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}
#: The values the engine accepts (``rules.solo.steps.VALUES``).
VALUE_RANGE = range(0, 7)


class CardFactsModal(discord.ui.Modal):
    """One form for the card the session asks about; built from the playsheet's questions."""

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
                    raise errors.BadInput(f"The card number “{text[:10]}” is not a number.")
                offered = [str(n) for n in actions.get("number") or []]
                if text.lstrip("0") not in offered:
                    raise errors.BadInput(
                        f"Card #{text[:10]} cannot be this card: it is outside the deck or "
                        "already face up. Check the number and try again."
                    )
                moves.append(("number", int(text)))
        if "value" in self.inputs:
            text = self.inputs["value"].value.strip()
            if not (text.isascii() and text.isdigit()) or int(text) not in VALUE_RANGE:
                raise errors.BadInput("The value must be a whole number from 0 to 6.")
            moves.append(("value", int(text)))
        if "event" in self.inputs:
            text = self.inputs["event"].value.strip().lower()
            if text not in YES | NO:
                raise errors.BadInput("Answer yes or no to whether it has an event.")
            moves.append(("event", "yes" if text in YES else "no"))
        if "kind" in self.inputs:
            text = self.inputs["kind"].value.strip().lower().replace(" ", "_")
            if text not in self.kinds:
                raise errors.BadInput(f"The kind must be one of {', '.join(self.kinds)}.")
            moves.append(("kind", text))
        return moves

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        if stopping(interaction):
            await interaction.response.send_message(RESTARTING, ephemeral=True)
            return
        async with handling(interaction, self.game_id, "solo facts"):
            manager = manager_of(interaction)
            pv = await manager.view_for(self.game_id, user_id(interaction))
            if not asks_facts(pv.view) or pv.version != self.version:
                await reply(interaction, "That card's facts were given already; nothing changed.")
                return
            moves = self.moves(pv.view)  # checked before anything is applied
            await interaction.response.defer()
            await apply_and_show(interaction, self.game_id, moves, self.version)


async def open_facts_modal(
    interaction: discord.Interaction[Any], game_id: int, version: int
) -> None:
    """The facts button: open the form for the card asked about now."""
    async with handling(interaction, game_id, "solo facts form"):
        await game_in_reach(interaction, game_id)
        pv = await manager_of(interaction).view_for(game_id, user_id(interaction))
        if pv.role is None:
            raise errors.NotSeated()
        playsheet = str(pv.view.get("playsheet") or "")
        if playsheet not in SHEETS or not asks_facts(pv.view) or pv.version != version:
            raise errors.NotAllowed("This question was answered already; use the newest message.")
        modal = CardFactsModal(game_id, version, playsheet, str(pv.view.get("prompt") or ""))
        await interaction.response.send_modal(modal)


@handles("facts")
async def facts_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    await open_facts_modal(interaction, item.click.game_id, int(item.click.version or 0))
