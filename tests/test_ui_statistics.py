"""The staff statistics: sentences in the kiosk's language (with each language's plurals), the games
of the last four weeks day by day, bars per mode and per robot level, and an export of statistics
and records to a USB stick or a file."""

from __future__ import annotations

import datetime
import json
import time

import pytest

from ui.i18n import i18n
from ui.memory import MemoryStore
from ui.screens.statistics import export, export_directory, summary
from ui.services import clock_wrong, games_per_day
from ui_harness import labels, run_scenario

STATS = {"games": {"strategy": 5, "gobbles": 1}, "robots": {"club": {"won": 3, "lost": 1, "drawn": 0}},
         "records": 6, "storage": "in memory"}


def test_the_statistics_read_as_sentences_in_each_language():
    i18n.language = "en"  # whatever an earlier test left
    try:
        assert summary(STATS) == ["6 games played in all.", "No games in the last four weeks.", "Tantrix: 5 games",
                                  "Gobbles: 1 game", "Robot Club: won 3 of 4 games (75 %)"]
        recent = {**STATS, "days": {"2026-11-18": {"strategy": 2}, "2026-11-21": {"strategy": 2, "gobbles": 1}}}
        assert summary(recent)[1:3] == ["5 games in the last four weeks.", "Busiest day: Sat, Nov 21, 3 games."]
        assert summary({"games": {}, "robots": {}}) == ["No games played yet."]
        i18n.language = "pl"
        polish = summary(STATS)
        assert polish[0] == "Rozegrano łącznie 6 gier." and polish[2] == "Tantrix: 5 gier" and polish[3] == "Gobbles: 1 gra"
        assert "wygrane 3 z 4 gier (75%)" in polish[4]
        assert summary(recent)[1:3] == ["5 gier w ostatnich czterech tygodniach.", "Najwięcej gier: sob., 21 lis, 3 gry."]
        i18n.language = "fr"
        assert summary(STATS)[3] == "Gobbles : 1 partie"
    finally:
        i18n.language = "en"


def test_games_are_counted_per_local_day_over_the_last_four_weeks():
    noon = time.mktime(datetime.datetime(2026, 11, 26, 12).timetuple())
    day = 86400
    games = [(noon, "strategy"), (noon - 3600, "strategy"), (noon - 3600, "gobbles"), (noon - day, "strategy"),
             (noon - 27 * day, "tanagra"), (noon - 28 * day, "puzzle"), (noon + day, "strategy")]
    assert games_per_day(games, now=noon) == {"2026-10-30": {"tanagra": 1}, "2026-11-25": {"strategy": 1},
                                              "2026-11-26": {"strategy": 2, "gobbles": 1}}
    assert games_per_day(games, now=noon, days=1) == {"2026-11-26": {"strategy": 2, "gobbles": 1}}


def test_the_export_holds_statistics_and_records_and_finds_a_stick(tmp_path):
    store = MemoryStore()
    store.add_record("strategy", {"moves": [1, 2], "robots": {"club": "won"}})
    store.add_record("gobbles", {"moves": [3]})
    path = export(store, tmp_path, now=0)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["statistics"]["games"] == {"gobbles": 1, "strategy": 1}
    assert data["statistics"]["robots"] == {"club": {"won": 1, "lost": 0, "drawn": 0}}
    assert [r["kind"] for r in data["records"]] == ["gobbles", "strategy"] and data["records"][1]["record"]["moves"] == [1, 2]
    assert list(tmp_path.iterdir()) == [path]  # no partial file left
    media = tmp_path / "media"
    stick = media / "pi" / "STICK"
    stick.mkdir(parents=True)
    assert export_directory(media, home=tmp_path / "home") == stick
    assert export_directory(tmp_path / "none", home=tmp_path / "home") == tmp_path / "home"


def scenario_statistics_page(app):
    from ui.screens.statistics import Bars

    store = app.services.store
    for _ in range(3):
        store.add_record("strategy", {"robots": {"expert": "won"}})
    store.add_record("tanagra", {})
    app.manager.current = "staff"
    app.staff.open_page("statistics")
    yield 0.2
    from ui.screens.statistics import DayChart

    bars = [w for w in app.staff.walk() if isinstance(w, Bars)]
    assert len(bars) == 2 and [row[1] for row in bars[0].rows] == [3, 1] and [row[1] for row in bars[1].rows] == [1.0]
    chart = [w for w in app.staff.walk() if isinstance(w, DayChart)]
    assert len(chart) == 1 and chart[0].totals[-1] == 4 and sum(chart[0].totals) == 4  # all of them today
    return labels(app.staff)


def test_the_statistics_page_shows_words_and_bars():
    shown = run_scenario("test_ui_statistics", "scenario_statistics_page", size=(800, 480),
                         settings={"idle_seconds": 1e6})
    text = "\n".join(shown)
    assert "4 games played in all." in text and "Tantrix: 3 games" in text
    assert "Robot Expert: won 3 of 3 games (100 %)" in text and "Export to a USB stick" in shown
    assert "4 games in the last four weeks." in text and "Expert: 100 %" in shown


def test_a_clock_before_this_program_or_behind_the_newest_game_is_wrong():
    """A Pi without a battery clock starts in 1970, or at the time it last saved, until a time server
    sets it: before the newest game kept it is clearly wrong; a time server's small step is not."""
    now = time.mktime(datetime.datetime(2026, 12, 5, 12).timetuple())
    assert clock_wrong(0.0, None) and clock_wrong(now - 400 * 86400, None)  # 1970; before this program
    assert clock_wrong(now, now + 30 * 86400) and clock_wrong(now, now + 3700)  # months, an hour behind
    assert not clock_wrong(now, None) and not clock_wrong(now, now + 60) and not clock_wrong(now, now - 86400)


def test_the_sqlite_store_says_when_its_newest_game_ended(tmp_path):
    from unittest import mock

    from firmware.store import SqliteStore

    store = SqliteStore(tmp_path)
    assert store.statistics()["newest"] is None
    for when in (1_796_000_000.0, 1_797_000_000.0, 1_700_000_000.0):  # the last one: a clock set back
        with mock.patch("time.time", return_value=when):
            store.add_record("strategy", {})
    assert SqliteStore(tmp_path).statistics()["newest"] == 1_797_000_000.0


def scenario_statistics_with_the_clock_wrong(app):
    """The page opened with the clock three months behind the game just kept, then in 1970: what it
    says each time, and whether a day chart was drawn."""
    from unittest import mock

    from ui.screens.statistics import DayChart
    from ui_harness import until

    app.services.store.add_record("strategy", {"robots": {"expert": "won"}})  # ended now, the clock right
    app.manager.current = "staff"
    shown = {}
    for name, said in (("behind", time.time() - 90 * 86400), ("1970", 43200.0)):
        with mock.patch("time.time", return_value=said):
            app.staff.open_page("statistics")
        yield until(lambda: any("clock is not set" in text for text in labels(app.staff)))
        shown[name] = {"labels": labels(app.staff),
                       "chart": any(isinstance(w, DayChart) for w in app.staff.walk())}
    return shown


def test_a_wrong_clock_is_named_on_the_statistics_page_and_no_day_chart_is_drawn():
    """With no battery clock and no network yet, the chart showed the month the clock said (in 1970:
    four empty weeks), without a word. Now the page says the clock is not set, and what it says."""
    shown = run_scenario("test_ui_statistics", "scenario_statistics_with_the_clock_wrong", size=(800, 480),
                         settings={"idle_seconds": 1e6})
    for name, day in (("behind", None), ("1970", "Jan 1, 1970")):
        text = "\n".join(shown[name]["labels"])
        assert not shown[name]["chart"] and "Games per day" not in text and "last four weeks" not in text, name
        assert "1 game played in all." in text and "Robot Expert: won 1 of 1 game (100 %)" in text, name
        assert "The table's clock is not set: it says " in text, name
        assert day is None or f"it says {day}." in text, text


def _eight_weeks(services):
    """Games on each of the last eight weeks' days, one to five a day, each finished on its day."""
    from unittest import mock

    now = time.time()
    for day in range(56):
        for _ in range(day % 5 + 1):
            with mock.patch("time.time", return_value=now - day * 86400):
                services.store.add_record("strategy" if day % 2 else "gobbles", {})


def scenario_chart_dates_apart(app):
    """In each language, the dates under the day chart's columns as drawn: each on one line, clear
    of the next by a gap, none past the chart's edges: {language: [(date, left, right)]}."""
    from ui import theme
    from ui.audit import fonts
    from ui.screens.statistics import DayChart
    from ui_harness import settled_screens

    app.manager.current = "staff"
    drawn = {}
    for language in ("en", "fr", "nl", "pl"):
        app.set_language(language)
        app.staff.open_page("statistics")
        yield from settled_screens()
        yield 0.2
        chart = next(w for w in app.staff.walk() if isinstance(w, DayChart))
        assert sum(chart.totals) == sum(day % 5 + 1 for day in range(28)), chart.totals  # four weeks of the eight
        shown = [label for label in chart.dates if label.opacity > 0 and label.text]
        boxes = []
        for label in shown:
            assert label.texture_size[1] <= label.height + 1, (language, label.text, label.texture_size)  # one line
            left = label.x + label.padding[0]
            boxes.append((label.text, round(left), round(left + fonts.width(label.text, label.font_size, label.bold,
                                                                             label.font_name))))
        gap = theme.unit() * 0.2
        assert len(boxes) >= 2 and boxes[0][1] >= chart.x - 1 and boxes[-1][2] <= chart.right + 1, (language, boxes)
        crowded = [(a, b) for a, b in zip(boxes, boxes[1:]) if a[2] + gap > b[1]]
        assert not crowded, (language, crowded, chart.width)
        drawn[language] = boxes
    app.set_language("en")
    return drawn


scenario_chart_dates_apart.prepare = _eight_weeks


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)])
def test_the_chart_dates_never_touch(size):
    drawn = run_scenario("test_ui_statistics", "scenario_chart_dates_apart", size=size,
                         settings={"idle_seconds": 1e6})
    assert set(drawn) == {"en", "fr", "nl", "pl"}


def test_an_export_that_loses_the_database_part_way_fails_and_writes_nothing(tmp_path):
    """A page of the records that could not be read while the export read them made that read
    give nothing: the stick got a file with the statistics and no game, that looked whole. The
    export fails now, saying why, and nothing is written."""
    from firmware.store import SqliteStore
    from store_damage import damage_page_holding
    from ui.services import StoreUnreadable

    state, stick = tmp_path / "state", tmp_path / "stick"
    stick.mkdir()
    with SqliteStore(state) as store:
        for n in range(200):
            store.add_record("strategy", {"moves": [n] * 40, "mark": f"game-{n:03d}"})
        store.wait_for_backup()
    with SqliteStore(state) as store:
        damage_page_holding(store.path, b"game-100")
        with pytest.raises(StoreUnreadable, match="cannot be read .*malformed"):
            export(store, stick, now=0)
    assert list(stick.iterdir()) == []
