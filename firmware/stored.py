"""How the kiosk reads back the text it stored: tolerant of damage, and telling damage apart.

SQLite does not check that stored text is UTF-8, and has no page checksums, so a flipped bit on
the card can leave bytes that are not. Decoded strictly (Python's default), that one row made a
whole query fail: every finished game vanished from the statistics at once. Decoded with U+FFFD
for such bytes (:func:`decode_text`, every connection's ``text_factory``), the row reads, and
:func:`read_json` finds the damage in that row alone, which is then skipped and reported.
"""

from __future__ import annotations

import json
from typing import Any


def decode_text(data: bytes) -> str:
    """A stored text as Python reads it, with U+FFFD for bytes that are not UTF-8."""
    return data.decode("utf-8", "replace")


def undecodable(text: str) -> bool:
    """Whether ``text`` holds bytes :func:`decode_text` could not decode: damage, since the kiosk
    stores JSON as ASCII (``json.dumps``' default)."""
    return "\ufffd" in text


def read_json(text: Any) -> Any:
    """A stored JSON value; ValueError for anything that is not (a flipped bit, a wrong type, text
    :func:`undecodable` even where it would still parse)."""
    if not isinstance(text, (str, bytes)):
        raise ValueError(f"a stored value is {type(text).__name__}, not JSON text")
    if isinstance(text, str) and undecodable(text):
        raise ValueError("damaged JSON: bytes that are not UTF-8 text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"damaged JSON: {str(exc)[:80]}") from None
