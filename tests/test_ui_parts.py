"""The UI's parts that need no screen: hexagon geometry, seats around the table, the
registry of family screens, the translation catalogues and the in-memory services."""

from __future__ import annotations

import math

import pytest

from engine.geometry import DIRECTIONS, neighbour
from ui.hexes import cell_at, centre, rotated_quad
from ui.table import BOTTOM, LEFT, RIGHT, TOP, SeatBox, clearing_shift, facing_spot, overlaps, seat_boxes


@pytest.mark.parametrize("size", [17.0, 40.0, 63.5])
def test_cells_and_points_agree(size):
    for q in range(-6, 7):
        for r in range(-6, 7):
            x, y = centre((q, r), size)
            assert cell_at(x, y, size) == (q, r)
            # a point near the centre, anywhere inside the inscribed circle, is still the cell
            for k in range(6):
                a = math.radians(60 * k + 17)
                assert cell_at(x + 0.8 * size * math.cos(a), y + 0.8 * size * math.sin(a), size) == (q, r)


def test_directions_turn_clockwise_on_screen_from_east():
    size = 10.0
    angles = []
    for d in range(6):
        x, y = centre(neighbour((0, 0), d), size)
        angles.append(round(math.degrees(math.atan2(y, x))) % 360)
    # east, then clockwise (y up on screen, so angles decrease): 0, -60, -120, 180, 120, 60
    assert angles == [0, 300, 240, 180, 120, 60]
    assert len(DIRECTIONS) == 6


def test_a_turned_quad_keeps_its_size_and_centre():
    points = rotated_quad(5, 7, 10, 1)
    xs, ys = points[0::2], points[1::2]
    assert sum(xs) / 4 == pytest.approx(5) and sum(ys) / 4 == pytest.approx(7)
    assert math.dist(points[0:2], points[2:4]) == pytest.approx(20)


PX_PER_MM = {(800, 480): math.hypot(800, 480) / (7 * 25.4), (1280, 800): math.hypot(1280, 800) / (10.1 * 25.4),
             (720, 1280): math.hypot(720, 1280) / (7 * 25.4)}
"""The official 7" panel, a 10.1" panel and the 7" portrait Touch Display 2."""


def _rect(box):
    """The screen rectangle a seat's box covers once turned."""
    along, across = (box.length, box.depth) if box.angle in (BOTTOM, TOP) else (box.depth, box.length)
    return (box.cx - along / 2, box.cy - across / 2, box.cx + along / 2, box.cy + across / 2)


def _overlap(a, b):
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


@pytest.mark.parametrize("width,height", [(800, 480), (1280, 800), (720, 1280)])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_hands_sit_at_the_edges_face_their_players_and_never_overlap(width, height, players):
    boxes, (fx, fy, fw, fh) = seat_boxes(players, width, height, "flat")
    assert len(boxes) == players
    rects = [_rect(b) for b in boxes]
    for box, rect in zip(boxes, rects):
        assert rect[0] >= -1e-6 and rect[1] >= -1e-6 and rect[2] <= width + 1e-6 and rect[3] <= height + 1e-6
        # each hand touches its own edge, and its "up" points into the table
        edge_gap = {BOTTOM: rect[1], TOP: height - rect[3], LEFT: rect[0], RIGHT: width - rect[2]}[box.angle]
        assert edge_gap == pytest.approx(0, abs=1e-6)
        ux, uy = box.up()
        assert (width / 2 - box.cx) * ux + (height / 2 - box.cy) * uy > 0
        # a six-tile hand keeps tiles at least 9 mm wide on the kiosk's panel
        radius = min(box.depth * 0.47, box.length / (6 * math.sqrt(3) * 1.08))
        assert radius * math.sqrt(3) >= 9 * PX_PER_MM[(width, height)]
        assert not _overlap(rect, (fx, fy, fx + fw, fy + fh))
    for i in range(players):
        for j in range(i + 1, players):
            assert not _overlap(rects[i], rects[j]), (i, j, rects)
    assert fw > width * 0.5 and fh > height * 0.4
    if players == 2:
        assert [b.angle for b in boxes] == [BOTTOM, TOP]  # portrait: the short ends
    if height > width and players >= 3:  # portrait: around the edges, the long sides the most
        assert {LEFT, RIGHT} <= {b.angle for b in boxes}
        assert sum(b.angle in (LEFT, RIGHT) for b in boxes) >= sum(b.angle in (TOP, BOTTOM) for b in boxes)


@pytest.mark.parametrize("width,height", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 6])
def test_upright_puts_every_hand_at_the_bottom_facing_the_same_way(width, height, players):
    boxes, (fx, fy, fw, fh) = seat_boxes(players, width, height, "upright")
    assert {b.angle for b in boxes} == {BOTTOM}
    rects = [_rect(b) for b in boxes]
    assert all(r[3] <= fy + 1e-6 and r[0] >= -1e-6 and r[2] <= width + 1e-6 for r in rects)
    for i in range(players):
        for j in range(i + 1, players):
            assert not _overlap(rects[i], rects[j])
    for box in boxes:
        radius = min(box.depth * 0.47, box.length / (6 * math.sqrt(3) * 1.06))
        assert radius * math.sqrt(3) >= 9 * PX_PER_MM[(width, height)]
    assert fy + fh == pytest.approx(height) and fh >= height * 0.55


def test_the_shortest_slide_clears_the_cells_and_keeps_them_on_the_table():
    table = (0.0, 100.0, 800.0, 300.0)
    cells = [(350.0, 110.0, 100.0, 100.0), (400.0, 190.0, 100.0, 100.0)]
    message = (200.0, 90.0, 400.0, 70.0)  # over the lower cell's bottom
    move = clearing_shift(cells, [message], table, gap=5.0)
    assert move == (0.0, pytest.approx(55.0))  # up, just clear of it: sideways is further
    moved = [(x + move[0], y + move[1], w, h) for x, y, w, h in cells]
    assert not any(overlaps(cell, message) for cell in moved)
    assert all(0 <= x and x + w <= 800 and 100 <= y and y + h <= 400 for x, y, w, h in moved)
    assert clearing_shift(cells, [(0.0, 0.0, 10.0, 10.0)], table) == (0.0, 0.0)  # nothing covers them
    # a message as high as the table: only sideways; as wide as it too: no slide shows the cells
    assert clearing_shift(cells, [(300.0, 100.0, 400.0, 300.0)], table, gap=5.0) == (pytest.approx(-205.0), 0.0)
    assert clearing_shift(cells, [(0.0, 150.0, 800.0, 200.0)], table) is None


@pytest.mark.parametrize("angle", [BOTTOM, LEFT, TOP, RIGHT])
def test_a_card_facing_any_edge_slides_along_it_into_the_free_span(angle):
    """The hand lies near one end of its edge: a card longer than the room left there slides
    towards the middle, within the span, whichever way the hand faces (at the top and left edges
    it once slid the other way, off the table)."""
    box = SeatBox(cx=550.0, cy=550.0, length=100.0, depth=60.0, angle=angle)
    x, y = facing_spot(box, (300.0, 80.0), 80.0, (100.0, 600.0), [], 0.0)
    along = y if box.across else x
    assert along == pytest.approx(450.0)  # 300 long, its end at the span's end


def test_every_family_on_the_home_screen_opens_its_own_screen():
    from ui.modes import FAMILIES, screen_factory

    assert all(callable(screen_factory(fam.key)) for fam in FAMILIES)


def test_every_message_is_translated_in_every_language():
    """The kiosk's and the web pages' (the replay page's own copy of its words included)."""
    from ui.catalogues import DOMAINS, problems, stale_replay

    found = [p for domain in DOMAINS for language in ("fr", "nl", "pl") for p in problems(language, domain)]
    assert found + stale_replay() == []


def test_the_web_pages_say_what_the_kiosk_says_in_the_same_words():
    """A message both the kiosk and the web pages show ("Red", "Robot: {level}", "Final standings")
    reads the same on the table and on a phone."""
    from ui.catalogues import KIOSK, WEB, read
    from ui.i18n import LANGUAGE_NAMES
    from web.words import LANGUAGE_NAMES as WEB_LANGUAGE_NAMES  # a copy: web never imports ui

    assert dict(WEB_LANGUAGE_NAMES) == LANGUAGE_NAMES  # the pickers name each language as the flags do
    for language in ("fr", "nl", "pl"):
        kiosk = read(language, KIOSK)
        for message in read(language, WEB):
            if message.id and kiosk.get(message.id) is not None:
                assert message.string == kiosk[message.id].string, (language, message.id)


def test_the_catalogue_tool_finds_a_web_message_wherever_the_pages_hold_one(tmp_path, monkeypatch):
    """Each kind of place a page keeps its words is read: a script's t() and N_() (inside a
    template literal too), an element's data-t text and data-t-label aria-label, the server's
    said() and refused(); and no t("...") or N_("...") written in a script is missed (Babel skips
    one nested in another's arguments: the page would show it in English, unnoticed)."""
    import re

    from ui import catalogues

    for where, found in (("web/static/words.js", 'N_("Red")'), ("web/static/staff.html", "Sign in"),
                         ("web/static/table.html", 'aria-label="The board"'), ("web/app.py", "Wrong PIN."),
                         ("replay/index.html", 'aria-label="Previous"')):
        assert found in (catalogues.ROOT / where).read_text()
    messages = catalogues.extract_messages(catalogues.WEB)
    for message, where in (("Red", "web/static/words.js"), ("Sign in", "web/static/staff.html"),
                           ("The board", "web/static/table.html"), ("Wrong PIN.", "web/app.py"),
                           ("NOT WORKING", "web/static/staff.js"),
                           ("Previous", "replay/index.html"), ("Tantrix, {players} players", "replay/index.html")):
        assert any(place.startswith(where + ":") for place in messages[message]), (message, messages.get(message))
    written = {m for script in (*sorted((catalogues.ROOT / "web" / "static").glob("*.js")), catalogues.REPLAY)
               for m in re.findall(r'\b(?:t|N_)\("((?:[^"\\]|\\.)*)"',  # in the code, not its comments
                                   re.sub(r"(?m)^\s*//.*$", "", script.read_text()))}
    assert len(written) > 80 and written - set(messages) == set()
    sample = tmp_path / "sample.js"
    sample.write_text('const a = `${ok ? t("inside a template") : ""} and ${N_("another")}`;\n')
    found = {m for _line, m, _c, _x in catalogues.extract("javascript", sample.open("rb"), keywords=catalogues.WEB.keywords,
                                                          options=catalogues.JAVASCRIPT)}
    assert found == {"inside a template", "another"}
    # a message changed on a page is missing until translated, the old one stale, and the replay
    # page's words out of step until `update` writes them again
    import shutil

    for part in ("web", "replay"):
        shutil.copytree(catalogues.ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(catalogues, "ROOT", tmp_path)
    monkeypatch.setattr(catalogues, "REPLAY", tmp_path / "replay" / "index.html")
    page = catalogues.REPLAY.read_text()
    catalogues.REPLAY.write_text(page.replace('t("Tantrix, Doubles")', 't("Tantrix, in pairs")'))
    found = catalogues.problems("fr", catalogues.WEB)
    assert "web/locale/fr: missing 'Tantrix, in pairs'" in found
    assert "web/locale/fr: stale 'Tantrix, Doubles' (no longer in the code)" in found
    assert catalogues.stale_replay() == ["replay/index.html: its WORDS differ from the web catalogues"]


def test_updating_the_catalogues_keeps_every_translation(tmp_path, monkeypatch):
    """``python -m ui.catalogues update`` on complete catalogues leaves them complete (it once took
    babel's plural rule for French, 3 forms, over the catalogue's 2: every plural then lacked one);
    the replay page's words are written again the same."""
    import shutil

    from ui import catalogues

    for domain in catalogues.DOMAINS:
        for language in ("fr", "nl", "pl"):
            (tmp_path / domain.name / language).mkdir(parents=True)
            shutil.copy(catalogues.path(language, domain), tmp_path / domain.name / language / "x.po")
    page, real_page = tmp_path / "index.html", catalogues.REPLAY
    shutil.copy(real_page, page)
    monkeypatch.setattr(catalogues, "path", lambda language, domain=catalogues.KIOSK: tmp_path / domain.name / language / "x.po")
    monkeypatch.setattr(catalogues, "REPLAY", page)
    page.write_text(page.read_text().replace("const WORDS = {", 'const WORDS = {"xx": {}, '))
    assert catalogues.stale_replay() != []
    for domain in catalogues.DOMAINS:
        catalogues.update(domain)
    assert [p for domain in catalogues.DOMAINS for language in ("fr", "nl", "pl")
            for p in catalogues.problems(language, domain)] == []
    assert catalogues.stale_replay() == [] and page.read_text() == real_page.read_text()


def test_catalogues_compile_and_use_the_booklets_words():
    from ui.i18n import load_catalogue
    from ui.refusals import RULE_MESSAGES

    words = {"fr": ("règle d'or", "Espace Forcé"), "nl": ("Gouden Regel", "opvulruimte"),
             "pl": ("Podstawowa zasada", "miejsce przymusu")}
    for language, (golden, forced) in words.items():
        catalogue = load_catalogue(language)
        assert golden in catalogue.gettext(RULE_MESSAGES["golden-rule"])
        assert forced in catalogue.gettext(RULE_MESSAGES["restriction-1"])


def test_memory_services_keep_their_promises():
    from ui.memory import MemorySettings, memory_services
    from ui.services import BagButtonHeld, Cue, EnrolmentProgress, RingFrames, TileScanned

    seen = []
    services = memory_services(MemorySettings(pin="4321"))
    services.devices.listener = seen.append
    assert services.settings.check_pin("4321") and not services.settings.check_pin("1234")
    with pytest.raises(ValueError):
        services.settings.set_brightness(1.5)
    saved = {"kind": "k", "state": {"a": [1]}}
    services.store.save_current(saved)
    saved["state"]["a"].append(2)  # the store keeps a copy, as a database would
    assert services.store.load_current() == {"kind": "k", "state": {"a": [1]}}
    services.devices.press_button(held=True)
    services.devices.scan(7, 2)
    services.devices.start_enrolment([3, 4])
    services.devices.scan(4, None)  # wrong tile: an error, nothing learned
    services.devices.scan(3, None)
    services.devices.cue(Cue(turn=1, colours=("R", "G")))
    assert seen[0] == BagButtonHeld() and seen[1] == TileScanned(7, 2)
    assert seen[2] == EnrolmentProgress(0, 3)
    assert seen[3].learned == 0 and "expected tile 3" in seen[3].error
    assert seen[4] == EnrolmentProgress(1, 4)
    frames = seen[5]
    assert isinstance(frames, RingFrames) and len(frames.rings) == 5
    assert frames.rings[1][0][1] > frames.rings[0][0][0]  # seat 1's turn: its green ring is lit


def test_plurals_follow_each_languages_rule():
    from ui.i18n import i18n, n_

    def all_placed(language: str, total: int) -> str:
        i18n.language = language
        return n_("All {total} tile placed: you did it!", "All {total} tiles placed: you did it!", total, total=total)

    try:
        assert "56 płytek" in all_placed("pl", 56) and "3 płytki" in all_placed("pl", 3)
        assert "22 płytki" in all_placed("pl", 22) and "12 płytek" in all_placed("pl", 12)
        assert "1 płytkę" in all_placed("pl", 1)
        assert "1 steen ligt" in all_placed("nl", 1) and "2 stenen liggen" in all_placed("nl", 2)
        assert all_placed("en", 56) == "All 56 tiles placed: you did it!"
    finally:
        i18n.language = "en"


def test_updating_the_catalogues_from_unchanged_code_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    """`python -m ui.catalogues update` is used: run on code whose messages did not change, it
    writes nothing new (no rewrapped line, moved entry, line number or date), even when the code
    moved its messages to other lines. (The files are first brought to the form this Babel writes:
    a hand edit wrapped otherwise, or another Babel's wrapping, is not what this checks.)"""
    import shutil

    from ui import catalogues

    for part in ("ui", "web", "replay"):
        shutil.copytree(catalogues.ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(catalogues, "ROOT", tmp_path)
    monkeypatch.setattr(catalogues, "REPLAY", tmp_path / "replay" / "index.html")
    written = [*sorted(tmp_path.glob("*/locale/*/LC_MESSAGES/*.po")), catalogues.REPLAY]
    assert len(written) == 7
    assert catalogues.main(["update"]) == 0
    before = {place: place.read_bytes() for place in written}
    board = tmp_path / "ui" / "board.py"
    board.write_text("# a line above every message\n" + board.read_text())
    assert catalogues.main(["update"]) == 0
    assert [place.relative_to(tmp_path) for place in written if place.read_bytes() != before[place]] == []
