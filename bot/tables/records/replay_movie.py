"""A finished game's replay you can watch: an animated GIF of the public board after each
turn, and the public log as text.

Built from the game's record alone (``export_game``: set-up and action log), replayed
action by action; the only view ever taken is the public one (``view(state, None)``), and
each frame is that view's board exactly as ``render.board_png`` draws it, scaled down
(``scaled_frame``). A turn ends when who must act changes, or at the end of the game; in a
one-seat game (the CDG Solo System), with each decision that adds to the public log.

To stay under the upload limit, the movie starts at ``START_WIDTH`` pixels wide with at
most ``MAX_FRAMES`` frames; when the GIF is too large, it is drawn again narrower (down to
``MIN_WIDTH``, the width guessed from how much too large it was), then with fewer frames
sampled evenly, always keeping the first and the last (``next_plan``). A board is
drawn twice at most, whatever the attempts (``Boards``).

Building is CPU work: ``ReplayCache.movie`` runs it in a worker thread, one build at a
time, and keeps the movies of finished games (which never change) in a small LRU in
memory, bounded by their bytes (``CACHE_BYTES``).
"""

from __future__ import annotations

import asyncio
import io
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

import render
from bot import errors
from bot.delivery.notices import public_log, result_line
from bot.storage.errors import Damaged
from bot.tables.loading import rules_or_none
from rules.core.errors import RulesError

#: Discord's upload limit outside a server (a DM), and on a server without boosts.
DEFAULT_UPLOAD_LIMIT = 10 * 2**20
#: Below this no replay is attempted: not even two small frames would fit.
MIN_UPLOAD_LIMIT = 64 * 2**10
#: The widest a replay is drawn: a board is 960-1600 px; Discord shows about 550.
START_WIDTH = 800
#: The narrowest a replay is drawn before frames are dropped instead.
MIN_WIDTH = 320
#: The most frames a replay holds (sampled evenly from the game's turns beyond it).
MAX_FRAMES = 160
#: How long a frame shows, in milliseconds; the first and last ones show longer.
FRAME_MS = 800
FIRST_MS = 2000
LAST_MS = 5000
#: The room kept for the log file, which is posted with the movie.
LOG_ROOM = 512 * 2**10
#: How many bytes of movies the cache keeps.
CACHE_BYTES = 64 * 2**20
#: How many times a movie is drawn again smaller before giving up.
MAX_ATTEMPTS = 8


@dataclass(frozen=True)
class Movie:
    """A replay ready to post: the GIF, the public log, and how it was made."""

    game_id: int
    gif: bytes
    log_text: str
    frames: int
    turns: int
    width: int
    seconds: float

    @property
    def size(self) -> int:
        return len(self.gif) + len(self.log_text.encode())


def upload_limit(limit: Any) -> int:
    """The upload limit a front end reported, checked: a whole number of bytes, at least
    ``MIN_UPLOAD_LIMIT``; none (a DM, a front end that does not say): Discord's default."""
    if limit is None:
        return DEFAULT_UPLOAD_LIMIT
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < MIN_UPLOAD_LIMIT:
        raise errors.BadNumber(
            f"The upload limit must be a whole number of bytes, at least {MIN_UPLOAD_LIMIT}."
        )
    return limit


def drawable(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (an exported game), or a polite refusal when its game draws no board."""
    game = rules_or_none(data["game"])
    if game is None or game.renderer is None:
        raise errors.NotAllowed(f"Game #{data['id']} has no board to replay.")
    return data


def public_turns(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The public view after the set-up and after each turn, and the public log at the
    end, from an exported game (``export_game``). No other view is ever taken."""
    game = rules_or_none(data["game"])
    if game is None or data["options"] is None or data["seed"] is None:
        raise Damaged(data["id"], "cannot replay this game")
    step = "its set-up"
    try:
        state = game.setup(seed=data["seed"], options=data["options"])
        views = [game.view(state, None)]
        acting = tuple(game.active_roles(state))
        alone = game.one_seat
        for n, action in enumerate(data["actions"], 1):
            step = f"action {n}"
            state = game.act(state, action["role"], action["verb"], action["arg"])
            now = tuple(game.active_roles(state))
            if now != acting or n == len(data["actions"]):
                views.append(game.view(state, None))
            elif alone:  # one seat: who acts never changes; a step that was logged ends
                view = game.view(state, None)
                if len(public_log(view)) > len(public_log(views[-1])):
                    views.append(view)
            acting = now
    except (RulesError, KeyError, TypeError, ValueError, AttributeError, IndexError):
        # As in replayed_state: the rules' message could name hidden cards.
        raise Damaged(data["id"], f"{step} does not replay") from None
    return views, public_log(views[-1])


def closing_line(data: dict[str, Any]) -> str:
    """How the game ended, as its end post said it: a resignation or an abandonment is
    not in the rules' log, which only replays the actions."""
    if data.get("status") == "abandoned" or not data.get("result"):
        return "The game was abandoned, without a result."
    return result_line(rules_or_none(data["game"]), data["result"])


def sample(count: int, keep: int) -> list[int]:
    """``keep`` indexes spread evenly over ``range(count)``, the first and last among them."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def scaled_frame(board: Image.Image, width: int, game_name: str) -> Image.Image:
    """A board (``render.board_image``) scaled to ``width`` pixels wide (never enlarged),
    back on the game's palette."""
    if board.width <= width:
        return board
    height = max(1, round(board.height * width / board.width))
    smaller = board.convert("RGB").resize((width, height), Image.Resampling.BOX)
    scaled: Image.Image = render.quantized(smaller, game_name)
    return scaled


class Boards:
    """The boards of a build's views. Most movies fit at the first attempt, which keeps
    nothing (keeping a board costs about a fifth of drawing it). Once one did not fit,
    ``keep`` is set and each board is drawn once more at most, whatever the attempts
    after: the next ones scale the boards kept, as PNG bytes at zlib's fastest level (a
    Lincoln board is 1.2 MB as pixels, under 100 KiB so), which give its pixels back
    exactly."""

    def __init__(self, game_name: str, views: list[dict[str, Any]]) -> None:
        self.game_name = game_name
        self.views = views
        self.keep = False
        self._png: dict[int, bytes] = {}

    def frames(self, indexes: list[int], width: int) -> list[Image.Image]:
        """The boards of ``indexes`` at ``width``, all on one canvas size (a board that is
        shorter than the tallest is padded below with its own bottom-left colour)."""
        scaled = [scaled_frame(self._board(i), width, self.game_name) for i in indexes]
        size = (max(f.width for f in scaled), max(f.height for f in scaled))
        return [_padded(frame, size) for frame in scaled]

    def _board(self, index: int) -> Image.Image:
        kept = self._png.get(index)
        if kept is not None:
            return Image.open(io.BytesIO(kept))
        board = render.board_image(self.game_name, self.views[index])
        if self.keep:
            buffer = io.BytesIO()
            board.save(buffer, format="PNG", compress_level=1)
            self._png[index] = buffer.getvalue()
        return board


def _padded(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    if frame.size == size:
        return frame
    canvas = Image.new(frame.mode, size, frame.getpixel((0, frame.height - 1)))
    if frame.mode == "P":
        canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas


def encode_gif(frames: list[Image.Image]) -> bytes:
    """The frames as a looping GIF: each after the previous, held ``FRAME_MS`` (the first
    and last longer); a frame identical to the one before lengthens it instead."""
    kept: list[Image.Image] = []
    durations: list[int] = []
    for number, frame in enumerate(frames):
        ms = FIRST_MS if number == 0 else LAST_MS if number == len(frames) - 1 else FRAME_MS
        if kept and frame.tobytes() == kept[-1].tobytes():
            durations[-1] += ms
            continue
        kept.append(frame)
        durations.append(ms)
    buffer = io.BytesIO()
    kept[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=kept[1:],
        duration=durations if len(kept) > 1 else durations[0],
        loop=0,
        disposal=1,
    )
    return buffer.getvalue()


def next_plan(width: int, frames: int, size: int, budget: int) -> tuple[int, int] | None:
    """The (width, frames) to try after a movie of ``size`` bytes did not fit in
    ``budget``: narrower first (a GIF's size goes about with its area), down to
    ``MIN_WIDTH``, then fewer frames (about in proportion); None when nothing is left."""
    ratio = budget / size
    if width > MIN_WIDTH:
        guess = int(width * math.sqrt(ratio) * 0.95)
        return max(MIN_WIDTH, min(width * 4 // 5, guess)), frames
    if frames > 2:
        return width, max(2, min(frames * 2 // 3, int(frames * ratio * 0.9)))
    return None


def build_movie(
    data: dict[str, Any], limit: int, clock: Callable[[], float] = time.perf_counter
) -> Movie:
    """The replay of an exported game whose GIF and log together fit in ``limit`` bytes."""
    started = clock()
    views, log = public_turns(data)
    log_text = "\n".join([*log, closing_line(data)]) + "\n"
    budget = limit - min(len(log_text.encode()), LOG_ROOM)
    if len(log_text.encode()) > LOG_ROOM:  # a log this long is cut from its start
        log_text = log_text.encode()[-LOG_ROOM:].decode(errors="ignore")
    plan = (START_WIDTH, min(len(views), MAX_FRAMES)) if budget > 0 else None
    boards = Boards(data["game"], views)
    for _ in range(MAX_ATTEMPTS):
        if plan is None:
            break
        width, keep = plan
        chosen = sample(len(views), keep)
        gif = encode_gif(boards.frames(chosen, width))
        if len(gif) <= budget:
            seconds = clock() - started
            return Movie(data["id"], gif, log_text, len(chosen), len(views), width, seconds)
        plan = next_plan(width, keep, len(gif), budget)
        boards.keep = True
    raise errors.NotAllowed(
        f"Game #{data['id']}'s replay does not fit in this server's upload limit "
        f"({limit // 1024} KiB), even drawn small."
    )


class ReplayCache:
    """Movies of finished games, built one at a time off the event loop and kept in a
    least-recently-used cache bounded by bytes (a finished game never changes)."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.movies: OrderedDict[tuple[int, int, int], Movie] = OrderedDict()
        self.builds = 0
        self._lock = asyncio.Lock()

    @property
    def held(self) -> int:
        return sum(m.size for m in self.movies.values())

    async def movie(self, data: dict[str, Any], limit: int) -> Movie:
        """The movie of ``data`` (an export of a finished game) within ``limit`` bytes."""
        key = (int(data["id"]), int(data["version"]), limit)
        async with self._lock:
            found = self.movies.get(key)
            if found is None:
                found = await asyncio.to_thread(build_movie, data, limit)
                self.builds += 1
                self._keep(key, found)
            self.movies.move_to_end(key)
            return found

    def _keep(self, key: tuple[int, int, int], movie: Movie) -> None:
        self.movies[key] = movie
        while len(self.movies) > 1 and self.held > self.max_bytes:
            self.movies.popitem(last=False)
