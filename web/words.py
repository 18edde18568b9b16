"""The web pages' words in the visitor's language: the spectator page on a café visitor's phone,
the staff page on the owner's laptop, and the server's own messages to them.

The catalogues are ``web/locale/<lang>/LC_MESSAGES/web.po`` (English is the source language), kept
in step with the pages by ``python -m ui.catalogues`` like the kiosk's own. The pages fetch their
language's words once (``/api/words``) and translate in the browser; the language is the first of
the browser's ``Accept-Language`` the table speaks (a page sends the one its visitor picked
there), else the language the table itself shows: a visitor whose phone speaks none of the
booklets' languages reads the café's.
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files
from types import MappingProxyType
from typing import Mapping

from babel.messages.pofile import read_po

from firmware.config import LANGUAGES

DOMAIN = "web"
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français", "nl": "Nederlands", "pl": "Polski"}
"""Each language by its own name (the pages' language pickers), as the kiosk's flags name them
(``ui.i18n.LANGUAGE_NAMES``, which this process may not import; a test holds the two equal: Babel's
locale data would give the names too, for 8 MB resident)."""
_FIELD = re.compile(r"\{(\w+)\}")


@functools.cache
def words(language: str) -> Mapping[str, str]:
    """``language``'s translation of every message of the pages (empty for English, the source).
    Untranslated and fuzzy entries are left out, so the page shows their English."""
    if language not in LANGUAGES or language == "en":
        return MappingProxyType({})
    with files(__package__).joinpath(f"locale/{language}/LC_MESSAGES/{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    return MappingProxyType({str(m.id): str(m.string) for m in catalog
                             if m.id and isinstance(m.id, str) and m.string and not m.fuzzy})


def said(language: str, message: str, **fields: object) -> str:
    """``message`` in ``language`` with its ``{fields}`` filled in (the server's own messages)."""
    text = words(language).get(message, message)
    return _FIELD.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), text)


def chosen(accept_language: str | None, fallback: str) -> str:
    """The language for a request: the first language of ``accept_language`` (an HTTP
    ``Accept-Language``: "fr-BE,fr;q=0.9,en;q=0.8", by quality, then order) that the table speaks,
    else ``fallback`` (the table's own language). A region ("fr-BE") counts as its language; "*"
    and anything garbled count for nothing. (Written here: twenty lines, where a library for it
    would add a dependency to the Pi's web process.)"""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:32]):
        tag, _, parameters = part.strip().partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        language = tag.strip().lower().split("-")[0]
        if language in LANGUAGES and 0.0 < quality <= 1.0:
            ranked.append((-quality, index, language))
    return min(ranked)[2] if ranked else (fallback if fallback in LANGUAGES else "en")
