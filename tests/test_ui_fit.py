"""Every screen at every supported panel size and turn, in every language: text fits its box and
never breaks a word, every control is at least 9 mm, text contrasts at least 4.5 : 1 (the rules are
:mod:`ui.audit`'s, the screens :mod:`ui_matrix`'s).

The whole matrix (7 panels and turns x 4 languages x every screen) takes about ten minutes on this
machine, too long for every run of the suite: by default the two tightest panels are audited (the
7" 800x480 one and the 7" portrait 720x1280 one, the densest: 71 px to a fingertip), each screen
in one language per panel, the languages taking turns; ``FIT_FULL=1`` audits every panel, turn and
language (``bench/ui_screenshots.py --matrix`` also saves the pictures). A turn of 180 degrees lays
a screen out as 0 does; the turned panels of the matrix are 90 degree ones, the turn applied before
the app is built, as ``[display] rotation`` does. That picture and touches turn together is
``test_ui_rotation``'s.
"""

from __future__ import annotations

import json
import os

import pytest

from ui_harness import run_scenario

import ui_matrix

LANGUAGES = ("en", "fr", "nl", "pl")
PANELS = [((800, 480), 0), ((1024, 600), 0), ((1280, 800), 0), ((1920, 1080), 0), ((720, 1280), 0),
          ((800, 480), 90), ((720, 1280), 90)]
QUICK = [((800, 480), 0), ((720, 1280), 0)]
FULL = bool(os.environ.get("FIT_FULL"))

def scenario_survey(app):
    spec = json.loads(os.environ["FIT_SPEC"])
    only = tuple(filter(None, os.environ.get("FIT_ONLY", "").split(",")))
    return (yield from ui_matrix.audit_all(app, LANGUAGES, only, os.environ.get("FIT_SHOTS", ""),
                                           rotation=spec["rotation"], turn=spec["turn"]))


scenario_survey.prepare = ui_matrix.kiosk_services


@pytest.mark.parametrize("size, rotation", PANELS if FULL else QUICK,
                         ids=[f"{w}x{h}-{r}" for (w, h), r in (PANELS if FULL else QUICK)])
def test_every_screen_fits_every_panel(size, rotation, monkeypatch):
    turn = -1 if FULL else 2 * QUICK.index((size, rotation))
    monkeypatch.setenv("FIT_SPEC", json.dumps({"rotation": rotation, "turn": turn}))
    problems = run_scenario("test_ui_fit", "scenario_survey", size=size, timeout=1800, rotation=rotation,
                            settings={"idle_seconds": 1e6})
    problems.pop("timings", None)
    assert not problems, "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, found in problems.items())
