"""replay/index.html, the page a phone opens from a game's QR code, run in a real headless
browser (Debian's chromium): it decodes the code exactly as engine.compact does and draws every
placement; a broken code gets a message, not a blank page."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.compact import Compact, decode, encode, of_record
from engine.strategy.game import StrategyGame
from engine.tiles import TILES
from engine.strategy.robots import robot_move
from web_support import chromium

PAGE = Path(__file__).resolve().parent.parent / "replay" / "index.html"


def dom(code: str, languages: str = "en-GB,en", query: str = "") -> str:
    """The page as a phone speaking ``languages`` shows it (``query``: what the table put before "#")."""
    browser = shutil.which("chromium")
    assert browser, "the Debian package chromium is needed (./dev test installs it)"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--accept-lang={languages}",
                           "--dump-dom", f"{PAGE.as_uri()}{query}#{code}"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split("<script>")[0]  # the document without the page's own code


def test_the_pages_tiles_are_the_engines():
    found = re.search(r"const EDGES = \[(.*?)\];", PAGE.read_text()).group(1)
    assert json.loads(f"[{found}]") == [t.edges for t in TILES]


@pytest.fixture(scope="module")
def game_code() -> tuple[str, dict]:
    game = StrategyGame.new(4, robots=["beginner", "club"] * 2, doubles=True, colours="YB", seed=3)
    while not game.finished:
        robot_move(game)
    return encode(of_record(game.record())), game.record()


def test_the_page_shows_the_game_from_its_code(game_code):
    code, record = game_code
    page = dom(code)
    assert 'data-ready="yes"' in page
    decoded = json.loads(html.unescape(re.search(r'<pre id="decoded" hidden="">(.*?)</pre>', page).group(1)))
    expected = decode(code)
    assert decoded["colours"] == list(expected.colours) and decoded["doubles"] is True
    assert decoded["scores"] == list(expected.scores) and decoded["winner"] == expected.winner
    assert [[p["seat"], p["tile"], p["q"], p["r"], p["rot"]] for p in decoded["placements"]] == \
        [list(p) for p in expected.placements]
    assert page.count('class="tile"') == len(expected.placements) == len(
        [e for e in record["events"] if "place" in e])
    assert "Yellow team" in page and "Blue team" in page


def test_the_page_speaks_the_phones_language_when_the_table_does(game_code):
    """A phone set to French (Belgian first) or Polish reads the replay in it, its words as the
    web catalogues have them; a phone in a language the table does not speak reads the table's
    (``?hl=`` in the QR code's address), else English."""
    from web.words import words

    code, _record = game_code
    french = dom(code, "fr-BE,fr")
    assert '<html lang="fr">' in french and ">Revoir une partie de Tantrix</title>" in french
    assert f'{words("fr")["Tantrix, Doubles"]}</h1>' in french and "Équipe jaune" in french and "Équipe bleue" in french
    assert 'aria-label="Précédent"' in french and 'aria-label="Suivant"' in french
    polish = dom("not-a-code", "pl")
    assert words("pl")["This is not a Tantrix Table game code ({reason})."].split(" (")[0] in polish
    assert "nie jest kod gry tej wersji" in polish or "kończy się za wcześnie" in polish
    german = dom(code, "de-DE,de")
    assert '<html lang="en">' in german and "Yellow team" in german
    # the table's language, from its QR code, for a phone that speaks none of the table's
    from_a_dutch_table = dom(code, "de-DE,de", "?hl=nl")
    assert '<html lang="nl">' in from_a_dutch_table and "Team Geel" in from_a_dutch_table
    assert '<html lang="fr">' in dom(code, "fr", "?hl=nl")  # the phone's own language first


def test_a_broken_code_gets_a_message():
    page = dom("not-a-code")
    assert "This is not a Tantrix Table game code" in page and 'class="tile"' not in page


def test_a_score_below_zero_is_shown_as_it_is():
    """Time penalties can take a score below 0 (engine.clock): the page shows the kiosk's score."""
    code = encode(Compact(3, False, ("R", "Y", "G"), (-17, 26, 16), 1, ((0, 5, 0, 0, 1),)))
    page = dom(code)
    assert "Red: -17" in page and "Yellow: 26" in page


def test_another_games_address_in_the_same_tab_shows_that_game():
    """A second QR code opened in the same tab, or Back to the first, changes only the address's
    fragment, which does not load the page again by itself."""
    first = encode(Compact(2, False, ("R", "Y"), (3, 4), 1, ((0, 5, 0, 0, 1),)))
    second = encode(Compact(2, False, ("G", "B"), (9, 2), 0, ((1, 7, 0, 0, 2), (0, 8, 1, 0, 0))))
    browser = chromium(412, 800)
    try:
        shown = []
        for go in (lambda: browser.get(f"{PAGE.as_uri()}#{first}"), lambda: browser.get(f"{PAGE.as_uri()}#{second}"),
                   browser.back):
            go()
            shown.append(browser.execute_script(
                "return document.body.dataset.ready === 'yes' && document.getElementById('scores').textContent"))
        assert shown == ["Red: 3Yellow: 4 \u2605", "Green: 9 \u2605Blue: 2", "Red: 3Yellow: 4 \u2605"]
    finally:
        browser.quit()
