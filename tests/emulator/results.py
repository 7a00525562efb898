"""Handles on interactions the tests send, to await and inspect the bot's answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import PATIENCE_S, Interaction, Message

if TYPE_CHECKING:
    from .actors import Emulator


class InteractionResult:
    """Handle on one interaction sent to the bot; await its acknowledgement/response."""

    def __init__(self, emu: Emulator, record: Interaction) -> None:
        self.emu = emu
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def callback_type(self) -> int | None:
        return self.record.callback_type

    @property
    def original(self) -> Message | None:
        mid = self.record.original_message_id
        return self.emu.world.messages.get(mid) if mid else None

    @property
    def messages(self) -> list[Message]:
        """Original response message (if any) followed by followups, current versions."""
        out = [self.original] if self.original is not None else []
        out += [self.emu.world.messages[i] for i in self.record.followup_ids]
        return [m for m in out if not m.deleted]

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    @property
    def text(self) -> str:
        return "\n".join(m.text() for m in self.messages)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    async def acknowledged(self, timeout: float = PATIENCE_S) -> Interaction:
        """Wait for the callback. Discord's 3 s deadline is not this wait's: the emulator
        refuses a late callback itself (10062), on a clock a loaded machine cannot trip."""
        await self.emu.world.wait_until(
            lambda: self.record.callback_type is not None,
            timeout,
            f"the bot to acknowledge interaction {self.record.payload.get('data')}",
        )
        return self.record

    async def response(self, timeout: float = PATIENCE_S) -> list[Message]:
        """Wait until answered: a message (4), an update (7), a modal/choices, or a deferral
        (5) replaced by its followup/edit. Type 6 returns as soon as it is acknowledged."""
        await self.acknowledged(timeout)
        rec = self.record
        await self.emu.world.wait_until(
            lambda: not rec.deferred_pending, timeout, "the deferred response to be completed"
        )
        return self.messages

    async def followups(self, count: int, timeout: float = PATIENCE_S) -> list[Message]:
        """Wait until ``count`` followup messages (not counting the original) exist."""
        await self.emu.world.wait_until(
            lambda: len(self.record.followup_ids) >= count, timeout, f"{count} followups"
        )
        return [self.emu.world.messages[i] for i in self.record.followup_ids]
