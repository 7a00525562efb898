"""``games finished`` and ``stats`` in the sandbox, as plain text: the same
pages and record as ``/games show:finished`` and ``/stats`` on Discord."""

from __future__ import annotations

from datetime import UTC, datetime

import rules
from bot import errors
from bot.storage.finished_pages import FinishedGame
from bot.tables.manager import GameManager
from bot.tables.records import pages
from bot.tables.records.pages import Page, Stats
from rules.core.log import plural

USAGE = "games finished [older|newer <game number>]"
STATS_USAGE = "Type stats [player] [game], e.g. `stats bob war`."


def page_key(args: list[str]) -> tuple[bool, int]:
    """``[]``: the first page; ``older 12`` / ``newer 3``: the page beyond that game."""
    if not args:
        return True, pages.FIRST
    if len(args) != 2 or args[0] not in ("older", "newer") or not args[1].isascii():
        raise errors.Usage(f"Type {USAGE}.")
    if not args[1].isdigit() or len(args[1]) > 18:
        raise errors.Usage(f"“{args[1][:20]}” is not a game number ({USAGE}).")
    return args[0] == "older", int(args[1])


def row_line(game: FinishedGame, viewer: str) -> str:
    when = datetime.fromtimestamp(game.finished_at, tz=UTC).strftime("%Y-%m-%d")
    mine = [pages.role_name(game.game_name, r) for r, u in game.seats if u == viewer]
    others = [f"{u} ({pages.role_name(game.game_name, r)})" for r, u in game.seats if u != viewer]
    sides = f"as {', '.join(mine)} vs {', '.join(others) or 'yourself'}"
    if not mine:  # a seat they passed on: who played it at the end
        sides = ", ".join(others)
    elif not others and len(game.seats) == 1:  # a solo session: nobody to be against
        sides = f"as {', '.join(mine)}"
    result = pages.result_for(game, viewer)
    where = f"channel {game.channel_id}"
    return (
        f"   #{game.id} {when} {pages.game_title(game.game_name)} {sides}: {result}"
        f" ({game.reason}) · {where}"
    )


def page_lines(page: Page, viewer: str) -> list[str]:
    if not page.games:
        return ["   No finished games there. Type `new <game>` to start one."]
    lines = [row_line(g, viewer) for g in page.finished()]
    if page.newer is not None:
        lines.append(f"   newer: games finished newer {page.newer}")
    if page.older is not None:
        lines.append(f"   older: games finished older {page.older}")
    return lines


async def finished(manager: GameManager, user: str, args: list[str]) -> list[str]:
    older, key = page_key(args)
    return page_lines(await manager.records.finished_page("mine", user, older=older, key=key), user)


def stats_lines(stats: Stats) -> list[str]:
    which = f" of {pages.game_title(stats.game_name)}" if stats.game_name else ""
    if not stats.games:
        return [f"   {stats.user_id} has no finished games{which} yet."]
    lines = [f"   Record of {stats.user_id}: {plural(stats.games, 'finished game')}{which}"]
    for (game_name, role), tally in sorted(stats.by_side.items()):
        side = pages.role_name(game_name, role)
        lines.append(f"   {pages.game_title(game_name)} as {side}: {tally.text()}")
    lines.append(f"   On time: {stats.on_time.text()}")
    if stats.median_turn_s is not None:
        median = pages.duration(stats.median_turn_s)
        turns = f"{stats.turns} turn{'s' if stats.turns != 1 else ''}"
        lines.append(f"   Median time per turn: {median} (over {turns})")
    for level, tally in stats.against_levels.items():
        lines.append(f"   Against Dispatch ({level}): {tally.text()}")
    return lines


async def stats(
    manager: GameManager, user: str, args: list[str], players: tuple[str, ...]
) -> list[str]:
    """``stats [player] [game]``: the player defaults to the one at the keyboard. One word
    is a game if a game has that name, else a player: one of ``players`` or anyone with a
    finished game; any other word is neither, and is answered so."""
    if len(args) > 2:
        raise errors.Usage(STATS_USAGE)
    if len(args) == 2:
        return stats_lines(await manager.records.stats(args[0], _game(args[1])))
    if not args:
        return stats_lines(await manager.records.stats(user))
    word = args[0]
    if word.strip().lower() in rules.GAMES:
        return stats_lines(await manager.records.stats(user, word))
    found = await manager.records.stats(word)
    if word not in players and not found.games:
        raise errors.Usage(f"There is no player or game called {word[:40]}. {STATS_USAGE}")
    return stats_lines(found)


def _game(word: str) -> str:
    if word.strip().lower() not in rules.GAMES:
        names = ", ".join(sorted(rules.GAMES))
        raise errors.Usage(f"There is no game called {word[:40]} (games: {names}).")
    return word
