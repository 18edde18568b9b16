"""Every screen at every supported panel size and turn, in every language: text fits its box and
never breaks a word, every control is at least 9 mm, text contrasts at least 4.5 : 1 (the rules are
:mod:`ui.audit`'s, the screens :mod:`ui_matrix`'s).

Each size runs in its own process; to stay quick, each screen is audited in one language per size,
the languages taking turns, so that over the sizes every screen is seen in all four (``FIT_FULL=1``
audits every language everywhere; ``bench/ui_screenshots.py --matrix`` saves the pictures). A turn
of 180 degrees lays a screen out as 0 does, so the turned panels checked are 90 degrees ones (the
portrait panel turned to landscape, the 7" one to portrait); that the picture and the touches turn
together is ``test_ui_rotation``'s.
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


def scenario_survey(app):
    spec = json.loads(os.environ["FIT_SPEC"])
    only = tuple(filter(None, os.environ.get("FIT_ONLY", "").split(",")))
    return (yield from ui_matrix.audit_all(app, LANGUAGES, only, os.environ.get("FIT_SHOTS", ""),
                                           rotation=spec["rotation"], turn=spec["turn"]))


@pytest.mark.parametrize("size, rotation", PANELS, ids=[f"{w}x{h}-{r}" for (w, h), r in PANELS])
def test_every_screen_fits_every_panel(size, rotation, monkeypatch):
    turn = -1 if os.environ.get("FIT_FULL") else PANELS.index((size, rotation))
    monkeypatch.setenv("FIT_SPEC", json.dumps({"rotation": rotation, "turn": turn}))
    problems = run_scenario("test_ui_fit", "scenario_survey", size=size, timeout=900,
                            settings={"idle_seconds": 1e6})
    problems.pop("timings", None)
    assert not problems, "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, found in problems.items())
