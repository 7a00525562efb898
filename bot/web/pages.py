"""The page's HTML, drawn on the server from a ``PublicGame`` (``bot.web.reading``) and
nothing else: every text is escaped, the board is the PNG the bot draws, and the script
(``assets.SCRIPT``) only zooms, pans and applies a committed turn's update.

A page is usable without its script: the step-through's back, forward and jump are
links and a form, and the live page says to reload where live updates are off.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from bot.web.reading import PublicGame, Turns

#: The head every page shares; the style and the script are files of the page's own
#: (``/static/...``), so the Content-Security-Policy can forbid anything inline.
HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="/static/web.css">
<script src="/static/web.js" defer></script>
</head>"""


def _head(title: str) -> str:
    return HEAD.format(title=escape(title))


def _lines(items: tuple[str, ...] | list[str], element: str, empty: str) -> str:
    if not items:
        return f'<p class="empty">{escape(empty)}</p>'
    rows = "".join(f"<li>{escape(item)}</li>" for item in items)
    return f"<{element}>{rows}</{element}>"


def _board(src: str, alt: str, has_board: bool) -> str:
    if not has_board:
        return '<p class="empty">This game draws no board.</p>'
    return (
        '<div class="viewport" id="viewport" tabindex="0" aria-label="The board: drag to '
        'pan, wheel or pinch to zoom">'
        f'<img id="board" src="{escape(src)}" alt="{escape(alt)}"></div>'
        '<div class="zoom"><button type="button" data-zoom="in" aria-label="Zoom in">+</button>'
        '<button type="button" data-zoom="out" aria-label="Zoom out">&minus;</button>'
        '<button type="button" data-zoom="fit">Fit</button></div>'
    )


def live_page(game: PublicGame, live: bool) -> str:
    """A game's page now. ``live``: the page is told of each committed turn (its script
    listens on ``events``); else it says a reload shows the latest."""
    events = f' data-events="events?v={game.version}"' if live and not game.over else ""
    note = (
        "This page updates by itself when a turn is committed."
        if live
        else "Reload the page to see the latest turn: this server does not send live updates."
    )
    replay_hidden = "" if game.over else " hidden"
    return (
        f"{_head(f'{game.title}, game #{game.id}')}\n"
        f'<body{events} data-version="{game.version}">\n'
        f"<header><h1>{escape(game.title)} <span>game #{game.id}</span></h1>\n"
        f'<p id="turn" role="status" aria-live="polite">{escape(game.turn)}</p>\n'
        f'<div id="clocks">{_lines(game.clocks, "ul", "No clock.")}</div></header>\n'
        f"<main>{_board(f'board/{game.version}.png', game.alt, game.has_board)}\n"
        f'<p id="replay"{replay_hidden}><a href="turns/0">Step through every turn</a></p>\n'
        f'<section aria-labelledby="loghead"><h2 id="loghead">Log</h2>\n'
        f'<div id="log">{_lines(game.log, "ol", "The log is empty.")}</div></section>\n'
        f'<p class="note" id="note">{escape(note if not game.over else "The game is over.")}</p>'
        "</main></body></html>\n"
    )


def update(game: PublicGame) -> dict[str, Any]:
    """What a live page is sent when a turn is committed: the same public pieces the page
    is drawn from (its script puts each text in place as text, never as HTML)."""
    return {
        "version": game.version,
        "turn": game.turn,
        "clocks": list(game.clocks),
        "log": list(game.log),
        "board": f"board/{game.version}.png" if game.has_board else None,
        "alt": game.alt,
        "over": game.over,
    }


def event(kind: str, data: dict[str, Any]) -> bytes:
    """One server-sent event (its data on one line: JSON has no raw newline)."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _step_links(step: int, last: int) -> str:
    back = (
        f'<a id="back" rel="prev" href="{step - 1}">&larr; Back</a>'
        if step > 0
        else '<span class="off">&larr; Back</span>'
    )
    forward = (
        f'<a id="forward" rel="next" href="{step + 1}">Forward &rarr;</a>'
        if step < last
        else '<span class="off">Forward &rarr;</span>'
    )
    jump = (
        '<form class="jump" action="jump" method="get"><label>Turn '
        f'<input name="turn" type="number" min="0" max="{last}" value="{step}" '
        'inputmode="numeric"></label> <button type="submit">Go</button></form>'
    )
    return f'<nav class="steps" aria-label="Turns">{back} {forward} {jump}</nav>'


def turn_page(game: PublicGame, turns: Turns, step: int) -> str:
    """Turn ``step`` of a finished game (0: the set-up), with back, forward and jump."""
    last = len(turns.views) - 1
    log = turns.log_at(step)
    said = log[-1] if log else "the set-up"
    alt = f"{game.title}, game #{game.id}, turn {step} of {last}, the board after: {said}"
    where = "the set-up" if step == 0 else f"turn {step} of {last}"
    return (
        f"{_head(f'{game.title}, game #{game.id}, {where}')}\n"
        f'<body data-step="{step}" data-last="{last}">\n'
        f"<header><h1>{escape(game.title)} <span>game #{game.id}</span></h1>\n"
        f'<p id="turn">{escape(where.capitalize())}. {escape(game.turn)}</p>\n'
        f"{_step_links(step, last)}</header>\n"
        f"<main>{_board(f'{step}.png', alt, game.has_board)}\n"
        f'<p><a href="../">Back to the game</a></p>\n'
        f'<section aria-labelledby="loghead"><h2 id="loghead">Log to this turn</h2>\n'
        f'<div id="log">{_lines(log[-200:], "ol", "The log is empty.")}</div></section>'
        "</main></body></html>\n"
    )


def plain_page(title: str, text: str) -> str:
    """A short page with one sentence (a link that does not open, too many requests)."""
    body = f"<body><main><h1>{escape(title)}</h1><p>{escape(text)}</p></main></body>"
    return f"{_head(title)}\n{body}</html>\n"
