"""The staff statistics: sentences in the kiosk's language (with each language's plurals), bars per
mode, and an export of statistics and records to a USB stick or a file."""

from __future__ import annotations

import json

from ui.i18n import i18n
from ui.memory import MemoryStore
from ui.screens.statistics import export, export_directory, summary
from ui_harness import labels, run_scenario

STATS = {"games": {"strategy": 5, "gobbles": 1}, "robots": {"club": {"won": 3, "lost": 1, "drawn": 0}},
         "records": 6, "storage": "in memory"}


def test_the_statistics_read_as_sentences_in_each_language():
    i18n.language = "en"  # whatever an earlier test left
    try:
        assert summary(STATS) == ["6 games played in all.", "Tantrix: 5 games", "Gobbles: 1 game",
                                  "Robot Club: won 3 of 4 games (75 %)"]
        assert summary({"games": {}, "robots": {}}) == ["No games played yet."]
        i18n.language = "pl"
        polish = summary(STATS)
        assert polish[0] == "Rozegrano 6 gier." and polish[1] == "Tantrix: 5 gier" and polish[2] == "Gobbles: 1 gra"
        assert "wygrane 3 z 4 gier (75 %)" in polish[3]
        i18n.language = "fr"
        assert summary(STATS)[2] == "Gobbles : 1 partie"
    finally:
        i18n.language = "en"


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
    bars = [w for w in app.staff.walk() if isinstance(w, Bars)]
    assert len(bars) == 1 and [row[1] for row in bars[0].rows] == [3, 1]
    return labels(app.staff)


def test_the_statistics_page_shows_words_and_bars():
    shown = run_scenario("test_ui_statistics", "scenario_statistics_page", size=(800, 480),
                         settings={"idle_seconds": 1e6})
    text = "\n".join(shown)
    assert "4 games played in all." in text and "Tantrix: 3 games" in text
    assert "Robot Expert: won 3 of 3 games (100 %)" in text and "Export to a USB stick" in shown
