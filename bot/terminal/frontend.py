"""The terminal front end: implements the port by printing, and writes board PNGs.

Two local players (alice and bob) share one terminal, so private messages are printed only
to the player currently at the keyboard; the others wait in a queue until ``as bob``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bot.delivery.images import board_image, hand_image
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost, View

#: The Discord commands the game's texts point at, as the sandbox spells them (the texts
#: are shared; on Discord they name slash commands).
SANDBOX_COMMANDS = {
    "/game log": "`log`",
    "/game hand": "`hand`",
    "/game status": "`status`",
    "/game hint": "`hint`",
}
_DISCORD_COMMAND = re.compile("|".join(re.escape(c) + r"\b" for c in SANDBOX_COMMANDS))


def in_sandbox_words(text: str) -> str:
    """``text`` with each Discord command it names replaced by the sandbox's own, and
    Discord's markup written out (``plain_markup``)."""
    return plain_markup(_DISCORD_COMMAND.sub(lambda found: SANDBOX_COMMANDS[found.group(0)], text))


_MENTION = re.compile(r"<[@#][!&]?([^<>]+)>")
_TIMESTAMP = re.compile(r"<t:([0-9]{1,11})(?::[tTdDfFR])?>")


def _when(found: re.Match[str]) -> str:
    return datetime.fromtimestamp(int(found.group(1)), UTC).strftime("%Y-%m-%d %H:%M UTC")


def plain_markup(text: str) -> str:
    """``text`` with Discord's markup as a terminal reads it: a mention (``<@carol>``,
    ``<#thread>``) as the name it stands for, a timestamp (``<t:1700000000:R>``) as the
    date and time in UTC. The league's texts are shared with Discord, where the markup
    pings and links."""
    return _MENTION.sub(lambda found: found.group(1), _TIMESTAMP.sub(_when, text))


@dataclass
class Pending:
    game_id: int
    message: PrivateMessage


@dataclass
class TerminalFrontEnd:
    out: TextIO
    out_dir: Path
    #: The user at the keyboard; their private messages print at once.
    current_user: str = "alice"
    #: False while ``auto`` plays many moves: one board at the end, not one per turn.
    draw_boards: bool = True
    pending: dict[str, list[Pending]] = field(default_factory=dict)
    last_post: tuple[GameInfo, TablePost] | None = None
    images_written: int = 0

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def say_block(self, text: str, indent: str = "   ") -> None:
        """``text`` at ``indent``, every line of it. A prompt or a log line may hold
        several lines (a Fort Sumter event's text, then what is left to do), and a second
        line at column 0 reads like a message of its own: later lines hang two spaces
        further in, under the first."""
        first, *rest = in_sandbox_words(text).split("\n")
        self.say(f"{indent}{first}")
        for line in rest:
            self.say(f"{indent}  {line}")

    # -- the port ---------------------------------------------------------------------

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        self.last_post = (game, post)
        self.say(f"── table · {game.title} #{game.id} · v{post.version} ──")
        for line in post.log_lines:
            self.say_block(line)
        # Both players sit at this terminal: it names whoever must act, pinged or not.
        actors = [s.user_id for r in post.active_roles if (s := game.seat_of(r)) is not None]
        mentions = " ".join(f"@{user}" for user in (actors or post.mention_user_ids))
        if post.kind == "notice" and all(u in post.headline for u in post.mention_user_ids):
            mentions = ""  # the notice names its people itself (a seat changing hands)
        if post.kind in ("turn", "start") and mentions:
            self.say(f"   {mentions} to act.")
        elif post.headline:
            # Once, the end's result included: it used to be printed a second time.
            self.say_block(f"{mentions + ' ' if mentions else ''}{post.headline}")
        for change in post.ratings:  # a rated game's end: each player's new rating
            self.say(
                f"   rating of {change.player_id}: {change.before} → {change.after}"
                f" ({change.delta_text})"
            )
        if post.turned:  # a game against Dispatch's search: where its estimate turned
            self.say_block(post.turned)
        if post.view is not None and self.draw_boards:
            await self.write_board(game, post.view, post.version)

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        if seat.user_id == self.current_user:
            self.show_private(seat.user_id, message)
            return
        queue = self.pending.setdefault(seat.user_id, [])
        queue.append(Pending(game.id, message))
        if self.draw_boards:
            n = len(queue)
            plural = "s" if n > 1 else ""
            self.say(
                f"   ({n} private message{plural} for {seat.user_id} — type `as {seat.user_id}`)"
            )

    # -- helpers ----------------------------------------------------------------------

    def show_private(self, user: str, message: PrivateMessage) -> None:
        if message.kind == "turn" and not message.log_lines:
            return  # the prompt itself is printed with the player's actions
        self.say(f"── private to {user} ({message.role}) ──")
        if message.kind != "turn":
            self.say_block(message.headline)
        for line in message.log_lines:
            self.say_block(line)

    def take_pending(self, user: str) -> list[Pending]:
        return self.pending.pop(user, [])

    def _path(self, game: GameInfo, what: str, version: int) -> Path:
        self.images_written += 1
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return self.out_dir / f"{self.images_written:04d}-game{game.id}-{what}-v{version}.png"

    async def write_board(self, game: GameInfo, view: View, version: int) -> Path | None:
        png = await board_image(game.game_name, view)
        if png is None:
            return None
        path = self._path(game, "board", version)
        path.write_bytes(png)
        self.say(f"   board: {path}")
        return path

    async def write_hand(self, game: GameInfo, view: View, version: int, role: str) -> Path | None:
        png = await hand_image(game.game_name, view)
        if png is None:
            return None
        path = self._path(game, f"hand-{role}", version)
        path.write_bytes(png)
        self.say(f"   hand: {path}")
        return path
