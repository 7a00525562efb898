"""Message text: table posts, private prompts, results and errors. No I/O here.

The rules' log is plain text with light markup; Discord formatting is added only here.
Everything that goes to the channel is built from public views and public log lines.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TypedDict, Unpack

import discord

from bot import errors
from bot.delivery.port import GameInfo, PrivateMessage, TablePost
from bot.tables.bot_users import is_bot
from rules import get_game

EMBED_DESCRIPTION_MAX = 4096
CONTENT_MAX = 2000
FIELD_MAX = 1024

COLOUR_TABLE = discord.Colour.dark_teal()
COLOUR_END = discord.Colour.gold()
COLOUR_PRIVATE = discord.Colour.blurple()
COLOUR_ERROR = discord.Colour.red()

#: Every message pings only the users it names: never @everyone, a role, or a reply.
ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)


#: The most characters Discord keeps of an attachment's description (its alt text).
ALT_MAX = 1024


def png_file(data: bytes, name: str, alt: str) -> discord.File:
    """A picture to upload, with ``alt`` as its alt text (the attachment's description),
    which a screen reader reads out in place of the picture."""
    return discord.File(io.BytesIO(data), filename=name, description=clip(alt, ALT_MAX) or None)


def alt_text(*parts: object) -> str:
    """Alt text from words of the turn (a title, a status, a prompt, log lines): plain
    sentences, log headings without their ``#``, empty parts left out."""
    words = []
    for part in parts:
        line = str(part or "").strip()
        line = line[2:] if line.startswith("# ") else line
        if line:
            words.append(line if line[-1] in ".:!?" else f"{line}.")
    return clip(" ".join(words), ALT_MAX)


def board_alt(game: GameInfo, view: dict[str, Any] | None, lines: Sequence[str] = ()) -> str:
    """A public board picture's alt text: the game, its status and the turn's news, from
    its first line (cut at Discord's 1024 characters)."""
    status = (view or {}).get("status") or ""
    return alt_text(f"Board of {game.title} (#{game.id}):", status, *lines)


def _card_names(view: dict[str, Any]) -> list[str]:
    """The names of the cards a role's view shows in hand (or placed face down)."""
    cards = list(view.get("hand") or [])
    cards += [p.get("card") for p in view.get("placements") or [] if isinstance(p, dict)]
    names = []
    for card in cards:
        name = (card.get("name") or card.get("title")) if isinstance(card, dict) else card
        if name:
            names.append(str(name))
    return names


def hand_alt(game: GameInfo, role: str | None, view: dict[str, Any]) -> str:
    """A player's own hand picture (sent to them alone): their cards, by name."""
    names = _card_names(view)
    cards = f"Cards: {', '.join(names)}" if names else ""
    return alt_text(f"Your hand in {game.title} (#{game.id}), {role_label(game, role)}", cards)


def choices_alt(game: GameInfo, view: dict[str, Any], *, closeup: bool = False) -> str:
    """The board with a decision's choices marked (or its close-up): the prompt's words."""
    what = "Close-up of your choices" if closeup else "The board with your choices marked"
    return alt_text(f"{what} in {game.title} (#{game.id})", view.get("prompt") or "")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention(user_id: str | int) -> str:
    text = str(user_id)
    return f"<@{text}>" if text.isascii() and text.isdigit() else text


def mentions(user_ids: Iterable[str | int]) -> str:
    return " ".join(mention(u) for u in dict.fromkeys(str(u) for u in user_ids))


def escape(text: str) -> str:
    """Log text as plain text: Discord markdown and mentions neutralised."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(str(text)))


def _markup(line: str) -> str:
    """One log line for Discord: a ``# heading`` in bold, anything else as plain text.

    The heading is recognised before escaping: escaping turns its ``#`` into ``\\#``.
    """
    if line.startswith("# "):
        return "**" + escape(line[2:].strip()) + "**"
    return escape(line)


def merge_repeats(lines: Sequence[str]) -> list[str]:
    """Consecutive identical lines as one, counted: three placements in one space read
    "… Fort Sumter. (×3)" instead of the same line three times."""
    merged: list[tuple[str, int]] = []
    for line in lines:
        if merged and merged[-1][0] == line and not line.startswith("# "):
            merged[-1] = (line, merged[-1][1] + 1)
        else:
            merged.append((line, 1))
    return [line if n == 1 else f"{line} (×{n})" for line, n in merged]


def log_block(lines: Sequence[str], limit: int = EMBED_DESCRIPTION_MAX) -> str:
    """The newest lines that fit, with a marker when older ones were cut."""
    kept: list[str] = []
    size = 0
    shown = [_markup(x) for x in merge_repeats(lines)]
    for line in reversed(shown):
        if size + len(line) + 1 > limit - 40:
            kept.append(f"… ({len(shown) - len(kept)} earlier lines: /game log)")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))


def role_label(game: GameInfo, role: str | None) -> str:
    if role is None:
        return "observer"
    try:
        return get_game(game.game_name).role_name(role)
    except Exception:
        return role.title()


def seat_line(game: GameInfo) -> str:
    parts = []
    for role in game.roles or tuple(s.role for s in game.seats):
        seat = game.seat_of(role)
        who = mention(seat.user_id) if seat else "*open*"
        parts.append(f"{role_label(game, role)}: {who}")
    return " · ".join(parts)


def since(epoch: float | None) -> str:
    if not epoch:
        return ""
    return discord.utils.format_dt(datetime.fromtimestamp(epoch, tz=UTC), "R")


# --------------------------------------------------------------- channel posts


def table_content(post: TablePost, game: GameInfo | None = None) -> str:
    """The message text: who must act (named; only ``post.mention_user_ids`` are pinged,
    see ``pinged``), and the headline."""
    head = escape(post.headline) if post.headline else ""
    named = list(post.mention_user_ids)
    if names_its_people(post):
        return clip(_mentions_kept(head, named), CONTENT_MAX)
    if game is not None and post.kind in ("start", "turn", "reminder"):
        named += [s.user_id for r in post.active_roles if (s := game.seat_of(r)) is not None]
    who = mentions(list(dict.fromkeys(named)))
    if post.kind == "end":  # the result first, then everyone it concerns
        return clip(f"{head} {who}".strip(), CONTENT_MAX)
    if game is not None and post.kind in ("start", "turn"):
        head = f"{head} {thinking_line(game, post.active_roles)}".strip()
    return clip(f"{who} {head}".strip(), CONTENT_MAX)


#: Said wherever a seat of Dispatch's owes the decision: its search may take a while.
THINKING = "Dispatch is thinking…"


def thinking_line(game: GameInfo, roles: Iterable[str]) -> str:
    """``THINKING`` when one of ``roles`` is a seat of Dispatch's, else nothing."""
    seats = [game.seat_of(role) for role in roles]
    return THINKING if any(seat and is_bot(seat.user_id) for seat in seats) else ""


def names_its_people(post: TablePost) -> bool:
    """A notice whose headline itself mentions everyone it is for (a seat changing hands:
    "@bob now plays the Union, in place of @alice")."""
    return (
        post.kind == "notice"
        and bool(post.mention_user_ids)
        and all(mention(u) in post.headline for u in post.mention_user_ids)
    )


def _mentions_kept(head: str, users: Iterable[str]) -> str:
    """The escaped headline with the mentions of ``users`` working again."""
    for user in users:
        head = head.replace(escape(mention(user)), mention(user))
    return head


def pinged(post: TablePost) -> discord.AllowedMentions:
    """Only the players this post is meant to notify are pinged; others are only named."""
    users = [discord.Object(int(u)) for u in post.mention_user_ids if str(u).isdecimal()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def table_embed(game: GameInfo, post: TablePost, *, with_image: bool) -> discord.Embed | None:
    if post.view is None and not post.log_lines:
        return None
    colour = COLOUR_END if post.kind == "end" else COLOUR_TABLE
    embed = discord.Embed(title=clip(game.title, 256), colour=colour)
    description = log_block(post.log_lines) if post.log_lines else ""
    if post.view is not None:
        status = str(post.view.get("status") or "")
        if status:
            description = (description + "\n\n" if description else "") + f"*{escape(status)}*"
        score = view_score(game, post.view)
        if score and post.kind != "end":
            description += f"\n**Score:** {score}"
    embed.description = clip(description, EMBED_DESCRIPTION_MAX) or None
    if post.kind == "end" and post.outcome:
        embed.add_field(name="Result", value=clip(result_text(game, post.outcome), FIELD_MAX))
    if post.kind == "end" and post.ratings:
        embed.add_field(name="Ratings", value=clip(ratings_text(game, post), FIELD_MAX))
    if post.kind == "end" and post.turned:
        embed.add_field(name="Where it turned", value=clip(escape(post.turned), FIELD_MAX))
    if with_image:
        embed.set_image(url="attachment://board.png")
    embed.set_footer(text=f"Game #{game.id} · move {post.version}")
    return embed


def result_text(game: GameInfo, outcome: dict[str, Any]) -> str:
    winner = outcome.get("winner")
    reason = str(outcome.get("reason") or "").strip()
    if winner:
        seat = game.seat_of(winner)
        who = f"{role_label(game, winner)}" + (f" ({mention(seat.user_id)})" if seat else "")
        text = f"{who} wins"
    else:
        text = "Drawn"
    if reason:
        text += f": {escape(reason)}"
    score = outcome.get("score") or {}
    if isinstance(score, dict) and score:
        text += "\n" + score_text(game, score)
    return text


def ratings_text(game: GameInfo, post: TablePost) -> str:
    """Each seat's rating change after a rated game, one line a seat:
    ``Unionist (@alice): 1500 → 1706 (+206)``."""
    return "\n".join(
        f"{role_label(game, c.role)} ({mention(c.player_id)}): "
        f"{c.before} → {c.after} ({c.delta_text})"
        for c in post.ratings
    )


def score_text(game: GameInfo, score: dict[str, Any]) -> str:
    """``Unionist 3 · Secessionist 5``: sides by name, other counts by their word."""
    roles = game.roles or tuple(s.role for s in game.seats)
    parts = [f"{role_label(game, r)} {score[r]}" for r in roles if r in score]
    parts += [
        f"{str(k).replace('_', ' ').capitalize()} {v}" for k, v in score.items() if k not in roles
    ]
    return escape(" · ".join(parts))


def view_score(game: GameInfo, view: dict[str, Any] | None) -> str:
    """The running score of a public view (or the final one), as words; "" when none."""
    if not view:
        return ""
    outcome = view.get("outcome")
    score = (outcome or {}).get("score") if outcome else view.get("score")
    return score_text(game, score) if isinstance(score, dict) and score else ""


def lobby_text(game: GameInfo) -> str:
    open_roles = [r for r in game.roles if game.seat_of(r) is None]
    lines = [f"**{escape(game.title)}**: a new game (#{game.id}) by {mention(game.creator_id)}."]
    lines.append(seat_line(game))
    if open_roles:
        lines.append("Press a button below (or use `/game join`) to take a seat.")
        lines.append("No opponent? A seated player can let Dispatch (this bot) play instead.")
    return "\n".join(lines)


# ------------------------------------------------------------- private prompts


class PromptWords(TypedDict, total=False):
    """What a private prompt says beside its view: the news above it (``headline``), the
    player's new private log lines, and a bold ``notice`` (e.g. "Updated.")."""

    headline: str
    log_lines: Sequence[str]
    notice: str


def prompt_embed(
    game: GameInfo,
    role: str | None,
    view: dict[str, Any],
    *,
    hand_file: str | None = None,
    overflow: bool = False,
    notes: Sequence[str] = (),
    **words: Unpack[PromptWords],
) -> discord.Embed:
    """A player's private view: their new private lines, prompt and (optionally) hand."""
    headline = words.get("headline", "")
    log_lines = words.get("log_lines", ())
    notice = words.get("notice", "")
    title = f"{game.title} (#{game.id})"
    if role:
        title += f" · {role_label(game, role)}"
    embed = discord.Embed(title=clip(title, 256), colour=COLOUR_PRIVATE)
    parts: list[str] = []
    if notice:
        parts.append(f"**{escape(notice)}**")
    if headline and headline != view.get("prompt"):
        parts.append(escape(headline))
    if log_lines:
        parts.append(log_block(log_lines, 1500))
    prompt = str(view.get("prompt") or "")
    if prompt:
        parts.append(f"**{escape(prompt)}**")
    elif view.get("outcome"):
        parts.append(escape(str(view.get("status") or "The game is over.")))
    else:
        status = str(view.get("status") or "")
        parts.append(escape(status) if status else "Nothing to decide right now.")
    if notes:
        parts.append("\n".join(f"• {escape(note)}" for note in notes))
    clocks = view.get("clocks")
    if isinstance(clocks, list) and clocks:  # ``<t:...:R>``, kept unescaped
        parts.append("\n".join(str(line) for line in clocks[:4]))
    if overflow:
        parts.append("Some choices did not fit here: use `/game play` to pick any of them.")
    embed.description = clip("\n\n".join(parts), EMBED_DESCRIPTION_MAX)
    if hand_file:
        embed.set_image(url=f"attachment://{hand_file}")
    embed.set_footer(text=f"Game #{game.id} · move {game.version}")
    return embed


def private_headline(message: PrivateMessage) -> str:
    if message.kind in ("reminder", "end", "notice"):
        return message.headline
    if message.kind == "reveal":
        return message.headline or "New information for you."
    return "Your turn."


def game_line(game: GameInfo, *, user_id: str, my_turn: bool, since_at: float | None) -> str:
    roles = ", ".join(role_label(game, r) for r in game.roles_of(user_id))
    where = (
        f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
        if game.guild_id
        else f"<#{game.channel_id}>"
    )
    if game.status == "lobby":
        state = "waiting for players"
    elif my_turn:
        state = "**your turn**"
    else:
        waiting = mentions(game.waiting_on) or "nobody"
        state = f"waiting for {waiting}"
    when = f" {since(since_at)}" if since_at and game.status == "active" else ""
    return f"#{game.id} {escape(game.title)} as {roles}: {state}{when} · {where}"


def error_text(error: BaseException) -> str:
    said = error.message if isinstance(error, errors.DispatchError) else None
    message = said or str(error) or "Something went wrong."
    return clip(str(message), CONTENT_MAX)
