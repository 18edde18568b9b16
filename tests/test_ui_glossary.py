"""The catalogues say the game's words as the booklets in the box do (``ui/locale/glossary.tsv``).

The French, Polish and Dutch words were written by us; the rule booklets were written by native
speakers, and a player at a café knows the booklet's words ("Espace Forcé", "miejsce przymusu",
"opvulruimte"). A translation of an English message holding a glossary term must hold that
language's booklet word: one of its stems, matched inside words so that Polish cases and French
or Dutch plurals count ("płyt": płytka, płytki, płytek)."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from ui.catalogues import DOMAINS, Domain, key, read

GLOSSARY = Path(__file__).resolve().parent.parent / "ui" / "locale" / "glossary.tsv"
LANGUAGES = ("fr", "pl", "nl")
_FIELD = re.compile(r"\{\w*\}")


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]
    stems: dict[str, tuple[str, ...]]
    unless: tuple[str, ...]

    def said_in(self, message: str) -> bool:
        """Whether an English message uses the term (as whole words, a plural too), once the
        phrases where the word means something else and the ``{fields}`` are taken out."""
        text = _FIELD.sub(" ", message)
        for phrase in self.unless:
            text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
        return any(re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, term.split())) + r"(?:s|es)?(?!\w)",
                             text, re.IGNORECASE) for term in self.english)

    def kept_in(self, language: str, translation: str) -> bool:
        text = _FIELD.sub(" ", translation).casefold()
        return any(stem.casefold() in text for stem in self.stems[language])


def split(cell: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in cell.split("|") if part.strip())


def glossary() -> list[Term]:
    with GLOSSARY.open(encoding="utf-8") as table:
        rows = csv.DictReader((line for line in table if not line.startswith("#")), delimiter="\t",
                              quoting=csv.QUOTE_NONE)
        return [Term(split(row["en"]), {lang: split(row[lang]) for lang in LANGUAGES}, split(row["unless"]))
                for row in rows]


def test_the_glossary_names_each_term_with_its_source():
    terms = glossary()
    assert len(terms) >= 30
    with GLOSSARY.open(encoding="utf-8") as table:
        rows = list(csv.DictReader((line for line in table if not line.startswith("#")), delimiter="\t",
                                   quoting=csv.QUOTE_NONE))
    assert all(row["en"] and row["where"] for row in rows), "every term needs the booklet passages it comes from"
    english = [t for term in terms for t in term.english]
    assert len(english) == len(set(english)), "a term is listed twice"


def misworded(domain: Domain, language: str, terms: list[Term]) -> tuple[list[str], int]:
    """The translations lacking a booklet word, and how many (message, term) pairs were checked."""
    found: list[str] = []
    checked = 0
    for entry in read(language, domain):
        if not entry.id or not entry.string:
            continue
        english = " ".join(entry.id) if not isinstance(entry.id, str) else entry.id
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for term in terms:
            if term.stems[language] and term.said_in(english):
                checked += 1
                for form in forms:
                    if not term.kept_in(language, form):
                        found.append(f"{domain.locale}/{language}: {key(entry.id)!r} -> {form!r} lacks "
                                     f"{' or '.join(term.stems[language])!r} ({term.english[0]})")
    return found, checked


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_says_the_booklets_words(language):
    terms = glossary()
    found: list[str] = []
    checked = 0
    for domain in DOMAINS:
        missing, count = misworded(domain, language, terms)
        found += missing
        checked += count
    assert checked > 300  # the terms are found in the messages: the check is not vacuous
    assert found == [], "\n".join(found)


def test_the_check_catches_a_translation_that_drops_the_booklet_word():
    """The matching itself: a plural, a Polish case and a stem inside a compound all count; a
    missing word, a phrase listed under ``unless`` and a word inside another word do not."""
    terms = {term.english[0]: term for term in glossary()}
    tile, forced, line = terms["tile"], terms["forced space"], terms["line"]
    assert tile.said_in("Place all your tiles.") and not tile.said_in("Tilesx hostile")
    assert forced.said_in("Fill the forced spaces") and forced.kept_in("pl", "Zapełnij miejsca przymusu")
    assert not forced.kept_in("pl", "Zajmij pomarańczowe pole")
    assert tile.kept_in("pl", "Brak {count} płytek") and tile.kept_in("nl", "Stenenlezer")
    assert not tile.kept_in("nl", "{name} · nog {count}")
    assert not line.said_in("Export the finished games (JSON lines)") and not line.said_in("online")
    assert line.said_in("One red line") and not tile.said_in("{tile}")


REGISTER = {
    "fr": r"\b(tu|te|toi|ton|ta|tes)\b|\bt'",  # 000 and 004: "Choisissez votre couleur", "Vous devez"
    "nl": r"\b(je|jij|jou|jouw|jullie)\b",  # 002: "Kies uw kleur", "Controleer ... of u stenen hebt"
    "pl": r"\b(Pan|Pani|Pana|Panu|Państwo)\b",  # 001: "Gra wprowadzi Cię", "Jeśli jesteś nowym graczem"
}
"""How each booklet speaks to the player (vous, u, ty), as every message of that language must:
the words of the other register."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_speaks_to_the_player_as_the_booklet_does(language):
    found = [f"{domain.locale}/{language}: {form!r}" for domain in DOMAINS for entry in read(language, domain)
             if entry.id and entry.string
             for form in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
             if re.search(REGISTER[language], _FIELD.sub(" ", form), re.IGNORECASE if language != "pl" else 0)]
    assert found == [], "\n".join(found)
