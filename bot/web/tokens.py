"""A link's token: ``<game>-<nonce>-<signature>``, the signature an HMAC-SHA256 of the
game and the nonce with the page's secret.

The nonce is random (16 bytes), so a token cannot be guessed; the signature lets the
page turn a made-up token away without reading the store, and ties the nonce to its game
(a nonce moved onto another game's number does not verify). Whether the link still opens
(not revoked) is the store's to say (``db.web.link_opens``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

#: Bytes of a nonce and of a stored secret.
NONCE_BYTES = 16
SECRET_BYTES = 32
#: The signature's length kept in a token, in base64url characters (128 bits).
SIGNATURE_CHARS = 22
TOKEN = re.compile(r"([1-9][0-9]{0,18})-([A-Za-z0-9_-]{22})-([A-Za-z0-9_-]{22})")


@dataclass(frozen=True)
class Token:
    game_id: int
    nonce: str


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_nonce() -> str:
    return _b64(secrets.token_bytes(NONCE_BYTES))


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def _signature(secret: str, game_id: int, nonce: str) -> str:
    mac = hmac.new(secret.encode(), f"{game_id}:{nonce}".encode(), hashlib.sha256)
    return _b64(mac.digest())[:SIGNATURE_CHARS]


def make_token(secret: str, game_id: int, nonce: str) -> str:
    return f"{game_id}-{nonce}-{_signature(secret, game_id, nonce)}"


def read_token(secret: str, text: str) -> Token | None:
    """The game and nonce of a well-made token signed with ``secret``; None for anything
    else (compared in constant time)."""
    match = TOKEN.fullmatch(text)
    if match is None:
        return None
    game_id, nonce, signature = int(match[1]), match[2], match[3]
    if not hmac.compare_digest(signature, _signature(secret, game_id, nonce)):
        return None
    return Token(game_id, nonce)


def make_league_token(secret: str, league_id: int, nonce: str) -> str:
    """A league page's token: signed over other words than a game's, so a league's token
    never opens the game of the same number (nor the reverse)."""
    return make_token(secret, -league_id, nonce).removeprefix("-")


def read_league_token(secret: str, text: str) -> Token | None:
    """The league (as ``Token.game_id``) and nonce of a well-made league token."""
    match = TOKEN.fullmatch(text)
    if match is None:
        return None
    league_id, nonce, signature = int(match[1]), match[2], match[3]
    if not hmac.compare_digest(signature, _signature(secret, -league_id, nonce)):
        return None
    return Token(league_id, nonce)


def game_nonce(secret: str, league_nonce: str, game_id: int) -> str:
    """The nonce a league's page links game ``game_id`` with: drawn from the league's live
    link, so the link is made on demand without a write (the page's store is read-only),
    opens only while the league's link does, and cannot be guessed without the secret."""
    mac = hmac.new(secret.encode(), f"league-game:{league_nonce}:{game_id}".encode(), "sha256")
    return _b64(mac.digest()[:NONCE_BYTES])
