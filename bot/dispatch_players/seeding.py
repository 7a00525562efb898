"""How a bot seat's searches are seeded.

Search seeds are fixed per game and role (made with the game's secret key when it was
dealt from one, so that no player can rerun the bot's search: :func:`search_seed`), so a
bot's decision depends only on what its view shows, never on the machine.
"""

from __future__ import annotations

import hashlib


def search_seed(game_id: int, role: str, secret: str | None = None) -> int:
    """The seed of a bot seat's searches: fixed for the game and role, so the same view
    gets the same move on any machine. ``secret``: the key of a game dealt from one
    (``game_keys``), which no player knows, so that nobody can run the bot's own search
    on each hand it might hold and keep those that give the move it made. None for a
    game dealt from a chosen seed, whose cards anyone who knows the seed can work out."""
    text = f"dispatch bot {game_id} {role}".encode()
    key = secret.encode()[:64] if secret else b""
    digest = hashlib.blake2b(text, digest_size=8, key=key).digest()
    return int.from_bytes(digest, "little")
