"""Player tokens: 256 random bits handed out once, only their SHA-256 kept.

A token is as strong as a key, so a fast hash is enough (no password stretching: nobody can guess
256 bits, and the database never holds what a client sends). Tokens travel in
``Authorization: Bearer TOKEN`` or, for the websocket, ``/ws?token=TOKEN``.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Mapping, Optional

TOKEN_BYTES = 32  # 256 bits (the issue asks for at least 128)
_MAX_TOKEN = 128  # characters; anything longer is not one of ours and is not hashed


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def plausible(token: Optional[str]) -> bool:
    """A cheap shape check before the database is asked (url-safe base64, sane length)."""
    if not token or len(token) > _MAX_TOKEN:
        return False
    return all(c.isascii() and (c.isalnum() or c in "-_") for c in token)


def bearer(headers: Mapping[str, str]) -> Optional[str]:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    value = headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer":
        return None
    token = token.strip()
    return token if plausible(token) else None
