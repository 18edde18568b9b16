"""ui/countdown.py: a message's or a mark's few seconds count from the latest time it was shown.
Kivy's trigger, called again while pending, kept its first deadline: a message said a second or two
after another went with the first one's time. Driven by ticking Kivy's clock in this process; the
checks are lower bounds on the time waited, so a slow machine cannot fail them."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("kivy")

from kivy.clock import Clock  # noqa: E402

from ui.countdown import Countdown  # noqa: E402
from ui_harness import tick_until  # noqa: E402

DELAY = 3.0


def test_a_restart_counts_the_whole_delay_again_and_the_action_runs_once():
    ended: list[float] = []
    countdown = Countdown(lambda: ended.append(time.monotonic()), DELAY)
    Clock.tick()  # the clock counts from its latest tick: another test of this process may be long ago
    first = time.monotonic()
    countdown.start()
    tick_until(lambda: ended or time.monotonic() - first >= DELAY / 3)
    assert not ended  # a third of the delay: not yet
    again = time.monotonic()
    countdown.start()  # shown again: its time starts over
    tick_until(lambda: ended)
    assert ended[0] - again >= DELAY * 0.95, ended[0] - again
    Clock.tick()
    assert len(ended) == 1


def test_a_cancelled_countdown_never_ends():
    ended: list[bool] = []
    countdown = Countdown(lambda: ended.append(True), 0.05)
    Clock.tick()
    countdown.start()
    countdown.cancel()
    other = Countdown(lambda: ended.append(False), 0.2)  # a later one that does end, to wait on
    other.start()
    tick_until(lambda: ended)
    assert ended == [False]
