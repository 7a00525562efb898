"""What the players are told after a change: the table post and the private messages.

The play-by-post etiquette:
- a table post only when the turn completes: someone new must act, the game ended, or a
  simultaneous step the table was told about is complete. A player's small decisions
  within one turn (place, place, done) post nothing, so the channel gets one message per
  turn with all the new log lines;
- a private "your turn" message to each role that has just become active;
- a private "reveal" to a non-acting role whose private log grew (the acting player gets
  their own new lines in the ``ActResult``).

``bot.tables.turn`` queues what is built here in the same transaction as the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rules
from bot.delivery.port import PrivateMessage, TableKind, TablePost, View


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def public_log(view: View) -> list[str]:
    return [str(x) for x in _list(view.get("log"))]


def private_log(view: View) -> list[str]:
    # Not part of the minimal contract: games built on rules.core put a role's private
    # lines in view["private_log"]; a game without it simply sends no reveals.
    return [str(x) for x in _list(view.get("private_log"))]


def role_name(game: rules.Game | None, role: str | None) -> str:
    if role is None:
        return "nobody"
    names = game.role_names if game is not None else {}
    return str(names.get(role, role.title()))


def result_line(rules_game: rules.Game | None, outcome: dict[str, Any]) -> str:
    winner = outcome.get("winner")
    reason = str(outcome.get("reason") or "").strip()
    if rules_game is not None and rules_game.one_seat:  # a solo session has no winner
        return "Session over" + (f" ({reason})." if reason else ".")
    head = f"{role_name(rules_game, winner)} wins" if winner else "The game is drawn"
    return f"Game over: {head}" + (f" ({reason})." if reason else ".")


#: The most of the final turn's lines an end post carries: War's last post was a wall of
#: 3,943 characters on a phone (every battle the automated side fought alone), while the
#: result is what the table wants to read.
END_POST_LINES = 8
END_POST_CHARS = 700


def end_lines(lines: list[str]) -> list[str]:
    """The last lines of the final turn that fit an end post, with a first line saying
    how many earlier ones are in ``/game log`` when some were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if len(kept) == END_POST_LINES or (kept and size + len(line) + 1 > END_POST_CHARS):
            break
        kept.append(line)
        size += len(line) + 1
    left_out = len(lines) - len(kept)
    if left_out:
        kept.append(f"({left_out} earlier lines of the last turn: /game log)")
    return kept[::-1]


@dataclass(frozen=True)
class TurnNews:
    """What a completed turn did, as the table post tells it."""

    version: int
    #: The public view after it.
    public: View
    #: The public log lines the table has not been shown yet.
    new_lines: tuple[str, ...]
    #: Who is to act now.
    active_now: tuple[str, ...]
    #: The players the post pings.
    mention: tuple[str, ...] = ()
    #: The game's first post.
    start: bool = False
    #: The role whose decision ended the turn (None: the start, or no one's).
    acting: str | None = None


def turn_post(rules_game: rules.Game, game_name: str, turn: TurnNews) -> TablePost:
    """The table post of a completed turn: the start, a hand-over, or the end.

    A hand-over always says what happened: when the decision that ended ``acting``'s turn
    wrote nothing to the log (Fort Sumter's Final Crisis Done without moving a token), the
    post says that side is done, instead of only who is to act.
    """
    public, new_lines, active_now = turn.public, list(turn.new_lines), turn.active_now
    start, acting, mention, version = turn.start, turn.acting, turn.mention, turn.version
    outcome = public.get("outcome")
    kind: TableKind
    if outcome is not None:
        kind = "end"
        headline = result_line(rules_game, outcome)
        new_lines = end_lines(new_lines)
    else:
        kind = "start" if start else "turn"
        names = " and ".join(role_name(rules_game, r) for r in active_now)
        headline = f"{names} to act." if names else ""
        if start:
            headline = f"{rules_game.title or game_name} begins. {headline}".strip()
        elif not new_lines and acting is not None:
            new_lines = [f"{role_name(rules_game, acting)} is done."]
    return TablePost(
        kind=kind,
        version=version,
        headline=headline,
        view=public,
        log_lines=tuple(new_lines),
        mention_user_ids=mention,
        active_roles=active_now,
        outcome=outcome,
    )


def end_message(
    rules_game: rules.Game | None, role: str, *, version: int, view: View
) -> PrivateMessage:
    """The DM that closes a player's prompt: "Game over: you won 5–3 (most victory points)."."""
    outcome = view.get("outcome") or {}
    winner = outcome.get("winner")
    verdict = "it is a draw" if winner is None else ("you won" if winner == role else "you lost")
    score = outcome.get("score") or {}
    roles = tuple(rules_game.roles) if rules_game is not None else ()
    other = next((r for r in score if r != role and r in roles), None)
    if role in score and other is not None:
        verdict += f" {score[role]}–{score[other]}"
    reason = str(outcome.get("reason") or "").strip()
    headline = f"Game over: {verdict}" + (f" ({reason})." if reason else ".")
    return PrivateMessage(kind="end", role=role, version=version, headline=headline, view=view)


def private_message(
    role: str, *, version: int, view: View, new_lines: tuple[str, ...], your_turn: bool
) -> PrivateMessage | None:
    """A seat's DM after a change: its prompt when its turn begins, else what it has newly
    learnt; None when there is nothing to tell."""
    if your_turn:
        return PrivateMessage(
            kind="turn",
            role=role,
            version=version,
            headline=str(view.get("prompt", "")) or "Your turn.",
            view=view,
            log_lines=new_lines,
        )
    if new_lines:
        return PrivateMessage(
            kind="reveal",
            role=role,
            version=version,
            headline="New information for you.",
            view=view,
            log_lines=new_lines,
        )
    return None
