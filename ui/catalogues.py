"""Keep the translation catalogues in step with the code: the kiosk's and the web pages'.

    python -m ui.catalogues check    # list what is missing, untranslated or stale (exit 1 if any)
    python -m ui.catalogues update   # add new messages (untranslated) and drop stale ones

Two domains, each with its own catalogue per language (``<domain>/locale/<lang>/LC_MESSAGES/...po``):

- the kiosk (``ui``): the English strings in ``_()``, ``N_()`` and ``n_()`` (plural: each
  language's forms by its own plural rule) calls under ``ui/``;
- the web pages (``web``, its own process, which never imports ``ui``): ``t()`` and ``N_()`` in their
  scripts, elements marked ``data-t`` (their text) and ``data-t-label`` (their ``aria-label``) in
  their HTML, the server's
  ``said()``, ``refused()`` and ``refusal()``; and the same in ``replay/index.html``, the replay page a phone opens
  from a QR code, which holds its words itself (it must work with no server): ``update`` writes
  them into its ``WORDS`` line from the web catalogues, ``check`` says when that line is stale.

A ``{field}`` in a message must appear unchanged in its translation (it is filled in at run time).
"""

from __future__ import annotations

import html.parser
import io
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Collection, Iterator, Mapping, Sequence

from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_javascript
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
Message = str | tuple[str, str]
"""A message: its English text, or for a plural its singular and plural."""


def key(message: str | Sequence[str]) -> str:
    """A message's singular text (babel gives a plural's forms as a tuple or a list)."""
    return message if isinstance(message, str) else message[0]
_FIELD = re.compile(r"\{(\w*)\}")


JAVASCRIPT = {"parse_template_string": True}
"""Babel's options for scripts: messages inside `...${t("...")}...` are found too."""


def extract_html(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for a page: the text of each element marked ``data-t`` (as
    ``web/static/words.js`` translates it: spaces run together), the ``aria-label`` of each marked
    ``data-t-label``, and the messages of its inline scripts."""
    found: list[tuple[int, str | None, str, list[str]]] = []

    class Page(html.parser.HTMLParser):
        marked: tuple[int, list[str]] | None = None
        script: tuple[int, list[str]] | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            line = self.getpos()[0]
            if "data-t-label" in named and named.get("aria-label"):
                found.append((line, None, str(named["aria-label"]), []))
            if "data-t" in named:
                self.marked = (line, [])
            elif tag == "script" and "src" not in named:
                self.script = (line, [])

        def handle_data(self, data: str) -> None:
            for kept in (self.marked, self.script):
                if kept is not None:
                    kept[1].append(data)

        def handle_endtag(self, tag: str) -> None:
            if self.marked is not None:
                text = " ".join("".join(self.marked[1]).split())
                if text:
                    found.append((self.marked[0], None, text, []))
                self.marked = None
            if tag == "script" and self.script is not None:
                code = io.BytesIO("".join(self.script[1]).encode())
                # babel annotates this as extract()'s (line, message, comments, context); it yields
                # (line, function, message, comments), as every extraction method does
                found.extend(extract_javascript(code, keywords, [], JAVASCRIPT, lineno=self.script[0]))  # type: ignore[arg-type]
                self.script = None

    page = Page(convert_charrefs=True)
    page.feed(fileobj.read().decode())
    page.close()
    yield from found


@dataclass(frozen=True)
class Domain:
    """One program's messages: where its code is, how to read each kind of file, its catalogues."""

    name: str
    sources: tuple[tuple[str, str, str], ...]
    """(directory under the repository, file pattern, babel method) for each kind of file."""
    keywords: Mapping[str, Any]
    locale: str
    """The directory under the repository holding ``<lang>/LC_MESSAGES/<name>.po``."""


KIOSK = Domain(DOMAIN, (("ui", "**/*.py", "python"),), {"_": None, "N_": None, "n_": (1, 2)}, "ui/locale")
WEB = Domain("web", (("web", "**/*.py", "python"), ("web/static", "**/*.js", "javascript"),
                     ("web/static", "**/*.html", "ui.catalogues:extract_html"),
                     ("replay", "**/*.html", "ui.catalogues:extract_html")),
             {"t": None, "N_": None, "said": (2,), "refused": (3,), "refusal": (2,)}, "web/locale")
DOMAINS = (KIOSK, WEB)
REPLAY = ROOT / "replay" / "index.html"
_REPLAY_WORDS = re.compile(r"^const WORDS = .*$", re.MULTILINE)


def extract_messages(domain: Domain = KIOSK) -> dict[Message, list[str]]:
    """Every message in ``domain``'s code, with where it is used."""
    found: dict[Message, list[str]] = {}
    for directory, pattern, method in domain.sources:
        for source in sorted((ROOT / directory).glob(pattern)):
            if "__pycache__" in source.parts:
                continue
            with source.open("rb") as code:
                for lineno, message, _comments, _context in extract(method, code, keywords=domain.keywords,
                                                                     options=JAVASCRIPT if method == "javascript" else {}):
                    place = f"{source.relative_to(ROOT)}:{lineno}"
                    if isinstance(message, tuple) and all(isinstance(m, str) and m for m in message):
                        found.setdefault((message[0], message[1]), []).append(place)
                    elif isinstance(message, str) and message:
                        found.setdefault(message, []).append(place)
    return found


def path(language: str, domain: Domain = KIOSK) -> Path:
    return ROOT / domain.locale / language / "LC_MESSAGES" / f"{domain.name}.po"


def read(language: str, domain: Domain = KIOSK) -> Catalog:
    with path(language, domain).open("rb") as po:
        return read_po(po, locale=language, domain=domain.name)


def replay_words() -> str:
    """The replay page's ``WORDS`` line: its own messages in every language, from the web catalogues."""
    mine = sorted(key(m) for m, places in extract_messages(WEB).items()
                  if any(place.startswith("replay/") for place in places))
    table = {}
    for language in LANGUAGES:
        if language != "en":
            catalog = read(language, WEB)
            table[language] = {m: str(catalog[m].string) for m in mine if catalog.get(m) is not None and catalog[m].string}
    return f"const WORDS = {json.dumps(table, ensure_ascii=False, sort_keys=True)};"


def problems(language: str, domain: Domain = KIOSK) -> list[str]:
    """What is wrong with ``language``'s catalogue of ``domain`` compared with the code (empty when
    nothing)."""
    messages = extract_messages(domain)
    catalog = read(language, domain)
    where = f"{domain.locale}/{language}"
    found: list[str] = []
    for message in messages:
        entry = catalog.get(key(message))
        forms = entry.string if entry is not None and isinstance(entry.string, tuple) else None
        if entry is None:
            found.append(f"{where}: missing {message!r}")
        elif isinstance(message, tuple) != (forms is not None):
            found.append(f"{where}: {message!r} must be {'a plural' if forms is None else 'a single'} entry")
        elif not entry.string or (forms is not None and (len(forms) != catalog.num_plurals or not all(forms))):
            found.append(f"{where}: untranslated {message!r} (a plural needs {catalog.num_plurals} forms)")
        elif entry.fuzzy:
            found.append(f"{where}: fuzzy {message!r}")
        elif any(sorted(set(_FIELD.findall(key(message)))) != sorted(set(_FIELD.findall(form)))
                 for form in (forms or (key(entry.string),))):
            found.append(f"{where}: fields differ in {message!r} -> {entry.string!r}")
    keys = {key(m) for m in messages}
    for entry in catalog:
        if entry.id and key(entry.id) not in keys:
            found.append(f"{where}: stale {entry.id!r} (no longer in the code)")
    return found


WIDTH = 100
"""Where the catalogues' lines wrap (the width they have always been written at)."""


def update(domain: Domain = KIOSK) -> None:
    """Bring ``domain``'s catalogues in step: new messages added untranslated, stale ones removed
    (and for the web, the replay page's words rewritten).

    An update changes only what the code changed, so its diff can be read: the messages keep their
    places in the file (new ones follow, in the code's order), their locations name files without
    line numbers (which move with every edit above them), and the header is kept as it was (babel
    would stamp the day and its own version)."""
    messages = extract_messages(domain)
    for language in LANGUAGES:
        if language == "en":
            continue
        where = path(language, domain)
        old = read(language, domain) if where.exists() else Catalog(locale=language, domain=domain.name)
        new = Catalog(locale=language, domain=domain.name, project="Tantrix Table", version="1", fuzzy=False,
                      header_comment=old.header_comment, language_team=old.language_team)
        # the catalogue's own plural rule, not the one this babel's CLDR has (French went from 2
        # forms to 3 there: every plural would read as untranslated)
        new.mime_headers = [(name, value) for name, value in old.mime_headers if name.lower() == "plural-forms"]
        placed = {key(entry.id): at for at, entry in enumerate(old) if entry.id}
        for message in sorted(messages, key=lambda m: placed.get(key(m), len(placed))):
            entry = old.get(key(message))
            blank = ("",) * new.num_plurals if isinstance(message, tuple) else ""
            kept = entry.string if entry and isinstance(entry.string, tuple) == isinstance(blank, tuple) else blank
            new.add(message, kept,
                    locations=[(p.split(":")[0], int(p.split(":")[1])) for p in messages[message]])
        # the header: everything up to the first blank line
        header = where.read_bytes().split(b"\n\n", 1)[0] + b"\n\n" if where.exists() else b""
        body = io.BytesIO()
        write_po(body, new, width=WIDTH, omit_header=bool(header), include_lineno=False)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(header + body.getvalue())
    if domain is WEB:
        REPLAY.write_text(_REPLAY_WORDS.sub(lambda _: replay_words(), REPLAY.read_text(), count=1))


def stale_replay() -> list[str]:
    """The replay page's words, when they are not what the web catalogues say (empty when they are)."""
    found = _REPLAY_WORDS.search(REPLAY.read_text())
    if found is None:
        return ["replay/index.html: no `const WORDS = ...;` line"]
    return [] if found.group(0) == replay_words() else ["replay/index.html: its WORDS differ from the web catalogues"]


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        for domain in DOMAINS:
            update(domain)
        return 0
    if command == "check":
        found = [p for domain in DOMAINS for language in LANGUAGES if language != "en" for p in problems(language, domain)]
        found += stale_replay()
        print("\n".join(found) or "catalogues are complete")
        return 1 if found else 0
    print("usage: python -m ui.catalogues check|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
