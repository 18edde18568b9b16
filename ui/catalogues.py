"""Keep the translation catalogues in step with the code.

    python -m ui.catalogues check    # list what is missing, untranslated or stale (exit 1 if any)
    python -m ui.catalogues update   # add new messages (untranslated) and drop stale ones

Messages are the English strings in ``_()``, ``N_()`` and ``n_()`` (plural: each language's forms by
its own plural rule) calls under ``ui/``; each language's
catalogue is ``ui/locale/<lang>/LC_MESSAGES/tantrix.po``. A ``{field}`` in a message must appear
unchanged in its translation (it is filled in at run time).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Sequence

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LANGUAGES

UI = Path(__file__).resolve().parent
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
Message = str | tuple[str, str]
"""A message: its English text, or for a plural its singular and plural."""


def key(message: str | Sequence[str]) -> str:
    """A message's singular text (babel gives a plural's forms as a tuple or a list)."""
    return message if isinstance(message, str) else message[0]
_FIELD = re.compile(r"\{(\w*)\}")


def extract() -> dict[Message, list[str]]:
    """Every message in the UI's code, with where it is used."""
    found: dict[Message, list[str]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(UI), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        if isinstance(message, tuple) and all(isinstance(m, str) and m for m in message):
            found.setdefault((message[0], message[1]), []).append(f"ui/{filename}:{lineno}")
        elif isinstance(message, str) and message:
            found.setdefault(message, []).append(f"ui/{filename}:{lineno}")
    return found


def path(language: str) -> Path:
    return UI / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with path(language).open("rb") as po:
        return read_po(po, locale=language, domain=DOMAIN)


def problems(language: str) -> list[str]:
    """What is wrong with ``language``'s catalogue compared with the code (empty when nothing)."""
    messages = extract()
    catalog = read(language)
    found: list[str] = []
    for message in messages:
        entry = catalog.get(key(message))
        forms = entry.string if entry is not None and isinstance(entry.string, tuple) else None
        if entry is None:
            found.append(f"{language}: missing {message!r}")
        elif isinstance(message, tuple) != (forms is not None):
            found.append(f"{language}: {message!r} must be {'a plural' if forms is None else 'a single'} entry")
        elif not entry.string or (forms is not None and (len(forms) != catalog.num_plurals or not all(forms))):
            found.append(f"{language}: untranslated {message!r} (a plural needs {catalog.num_plurals} forms)")
        elif entry.fuzzy:
            found.append(f"{language}: fuzzy {message!r}")
        elif any(sorted(set(_FIELD.findall(key(message)))) != sorted(set(_FIELD.findall(form)))
                 for form in (forms or (key(entry.string),))):
            found.append(f"{language}: fields differ in {message!r} -> {entry.string!r}")
    keys = {key(m) for m in messages}
    for entry in catalog:
        if entry.id and key(entry.id) not in keys:
            found.append(f"{language}: stale {entry.id!r} (no longer in the code)")
    return found


def update() -> None:
    """Bring every catalogue in step: new messages added untranslated, stale ones removed."""
    messages = extract()
    for language in LANGUAGES:
        if language == "en":
            continue
        old = read(language) if path(language).exists() else Catalog(locale=language, domain=DOMAIN)
        new = Catalog(locale=language, domain=DOMAIN, project="Tantrix Table", version="1", fuzzy=False,
                      header_comment=old.header_comment, language_team=old.language_team)
        # the catalogue's own plural rule, not the one this babel's CLDR has (French went from 2
        # forms to 3 there: every plural would read as untranslated)
        new.mime_headers = [(name, value) for name, value in old.mime_headers if name.lower() == "plural-forms"]
        for message, places in messages.items():
            entry = old.get(key(message))
            blank = ("",) * new.num_plurals if isinstance(message, tuple) else ""
            kept = entry.string if entry and isinstance(entry.string, tuple) == isinstance(blank, tuple) else blank
            new.add(message, kept,
                    locations=[(p.split(":")[0], int(p.split(":")[1])) for p in places])
        path(language).parent.mkdir(parents=True, exist_ok=True)
        with path(language).open("wb") as po:
            write_po(po, new, width=100, omit_header=False, sort_output=False)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
        return 0
    if command == "check":
        found = [p for language in LANGUAGES if language != "en" for p in problems(language)]
        print("\n".join(found) or "catalogues are complete")
        return 1 if found else 0
    print("usage: python -m ui.catalogues check|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
