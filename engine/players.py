"""The people a table knows: what a player's name and avatar may be.

A player is chosen at setup by name and avatar and has no password (the table is a shared object in a
café, not an account system). Names are typed on the table's own keyboard, so they are made of the
letters of the four languages the table speaks (English, French, Dutch, Polish: :data:`LETTERS`),
digits, spaces and a few marks; an avatar is a colour from a palette told apart by colour-blind
players (Okabe and Ito's) with a symbol, so two players never depend on colour alone.

Ids are random UUIDs (hex), so tables that later share their players never collide.
"""

from __future__ import annotations

import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any, Mapping

NAME_MAX = 16
"""Long enough for "Małgorzata K." and short enough for a name button at 800x480."""

BASE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTED = {
    "fr": "ÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸ",
    "nl": "ÁÉÈËÍÏÓÖÚÜĲ",
    "pl": "ĄĆĘŁŃÓŚŹŻ",
}
"""The capital letters beyond A-Z that each language's keyboard offers (English needs none)."""
LETTERS = BASE_LETTERS + "".join(sorted(set("".join(ACCENTED.values())) - set(BASE_LETTERS)))
MARKS = " -'.&"
DIGITS = "0123456789"

COLOURS: Mapping[str, tuple[int, int, int]] = {
    "orange": (230, 159, 0),
    "sky": (86, 180, 233),
    "green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermilion": (213, 94, 0),
    "purple": (204, 121, 167),
    "grey": (153, 153, 153),
}
"""Okabe-Ito's palette, made to be told apart with every common colour-vision deficiency."""
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "hexagon")
DEFAULT_AVATAR = "orange:circle"


class BadName(ValueError):
    """A name the table cannot take: ``rule`` says why (``empty``, ``too-long``, ``characters``,
    ``taken``; the UI words each in the player's language), ``values`` fill its message."""

    def __init__(self, rule: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.rule, self.values = rule, values


def allowed(char: str) -> bool:
    """Whether ``char`` may be part of a name (either case of :data:`LETTERS`, digits, marks)."""
    return char.upper() in LETTERS or char in DIGITS or char in MARKS


def clean_name(name: str) -> str:
    """``name`` normalised (NFC, single spaces, trimmed), or :class:`BadName` saying what is
    wrong with it."""
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise BadName("empty", "a name needs at least one letter")
    if len(text) > NAME_MAX:
        raise BadName("too-long", f"a name has at most {NAME_MAX} characters", max=NAME_MAX)
    bad = sorted({c for c in text if not allowed(c)})
    if bad:
        raise BadName("characters", f"a name cannot contain {' '.join(bad)}", chars=" ".join(bad))
    if not any(c.isalpha() for c in text):
        raise BadName("empty", "a name needs at least one letter")
    return text


def check_avatar(avatar: str) -> str:
    """``avatar`` ("colour:symbol") if both parts are known, else ValueError naming them."""
    colour, _, symbol = avatar.partition(":")
    if colour not in COLOURS or symbol not in SYMBOLS:
        raise ValueError(f"avatar {avatar!r}: expected colour:symbol with a colour of {', '.join(COLOURS)} "
                         f"and a symbol of {', '.join(SYMBOLS)}")
    return avatar


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    avatar: str
    created: float

    @property
    def colour(self) -> tuple[int, int, int]:
        return COLOURS.get(self.avatar.partition(":")[0], COLOURS["grey"])

    @property
    def symbol(self) -> str:
        symbol = self.avatar.partition(":")[2]
        return symbol if symbol in SYMBOLS else SYMBOLS[0]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "avatar": self.avatar, "created": self.created}
