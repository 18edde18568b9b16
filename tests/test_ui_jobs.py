"""The UI's background jobs (ui/jobs.py): a slow call runs off the UI thread and its outcome, value
or error, comes back on the Kivy clock; a cancelled job says so; a forgotten one is never delivered.
Driven by ticking Kivy's clock in this process (no window needed)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("kivy")

from kivy.clock import Clock  # noqa: E402

from ui.jobs import Job  # noqa: E402
from ui_harness import tick_until  # noqa: E402


def test_the_value_comes_back_on_the_clock_in_the_ui_thread():
    job: Job[int] = Job("test-job")
    outcomes = []
    ui_thread = threading.current_thread()
    assert job.start(lambda cancel: threading.current_thread() is not ui_thread and 41 + 1,
                     lambda outcome: outcomes.append((outcome, threading.current_thread())))
    assert job.busy and not job.start(lambda cancel: 0, outcomes.append)  # one at a time
    tick_until(lambda: outcomes)
    outcome, thread = outcomes[0]
    assert outcome.value == 42 and outcome.error is None and not outcome.cancelled
    assert thread is ui_thread and not job.busy and outcome.seconds >= 0


def test_an_error_reaches_done_instead_of_leaving_the_table_waiting():
    job: Job[int] = Job("test-job")
    outcomes = []

    def broken(cancel):
        raise RuntimeError("the robot broke")

    job.start(broken, outcomes.append)
    tick_until(lambda: outcomes)
    assert outcomes[0].value is None and isinstance(outcomes[0].error, RuntimeError) and not job.busy


def test_cancel_is_seen_by_the_work_and_marked_and_forget_drops_the_outcome():
    job: Job[str] = Job("test-job")
    outcomes = []
    started = threading.Event()

    def patient(cancel):
        started.set()
        assert cancel.wait(30)
        return "stopped"

    job.start(patient, outcomes.append)
    assert started.wait(30)
    job.cancel()
    tick_until(lambda: outcomes)
    assert outcomes[0].value == "stopped" and outcomes[0].cancelled
    # forgotten: the slow outcome never arrives, and a new job may start at once
    release, old_done = threading.Event(), threading.Event()

    def old(cancel):
        release.wait(30)
        old_done.set()
        return "old"

    job.start(old, outcomes.append)
    job.forget()
    assert not job.busy
    job.start(lambda cancel: "new", outcomes.append)
    release.set()
    tick_until(lambda: len(outcomes) == 2 and old_done.is_set())
    for worker in [t for t in threading.enumerate() if t.name == "test-job"]:
        worker.join(30)  # the old thread has handed its outcome to the clock once it has ended
        assert not worker.is_alive()
    for _ in range(5):  # ... which would deliver it on the next ticks, were it not forgotten
        Clock.tick()
    assert [o.value for o in outcomes] == ["stopped", "new"]
