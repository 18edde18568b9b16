"""The bag button: our debounce, hold and rearm rules, pure and through gpiozero's MockFactory."""

from __future__ import annotations

import time

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from hardware.board import Board
from hardware.button import ButtonLogic, GpioButton, SimulatedButton, open_button
from hardware.config import ButtonConfig
from hardware.events import ButtonHeld, ButtonPressed, EventQueue


def run(logic: ButtonLogic, steps: list[tuple[float, bool]], until: float) -> list:
    """Drive the pure logic like the button thread does: edges at given times, polls at deadlines."""
    events, level = [], False
    pending = sorted(steps)
    while True:
        deadline = logic.deadline()
        next_edge = pending[0][0] if pending else None
        if next_edge is not None and (deadline is None or next_edge < deadline):
            t, level = pending.pop(0)
            logic.edge(t)
        elif deadline is not None and deadline <= until:
            events += logic.poll(deadline, level)
        else:
            return events


def logic() -> ButtonLogic:
    return ButtonLogic(bounce_s=0.05, hold_s=3.0, rearm_s=0.5)


def test_a_clean_press_is_reported_on_release():
    events = run(logic(), [(1.0, True), (1.2, False)], until=5)
    assert events == [ButtonPressed(at=pytest.approx(1.25))]


def test_contact_bounce_on_press_and_release_gives_one_press():
    bounces = [(1.0 + 0.004 * i, i % 2 == 0) for i in range(9)]  # ends pressed at 1.032
    bounces += [(1.3 + 0.003 * i, i % 2 == 1) for i in range(7)]  # ends released at 1.318
    events = run(logic(), bounces, until=5)
    assert [type(e) for e in events] == [ButtonPressed]


def test_a_spike_shorter_than_bounce_is_not_a_press():
    assert run(logic(), [(1.0, True), (1.01, False)], until=5) == []


def test_double_press_within_rearm_draws_once_and_later_press_counts():
    presses = [(1.0, True), (1.1, False), (1.3, True), (1.4, False),  # second starts 0.3 s later
               (2.0, True), (2.1, False)]                              # 1.0 s after the first
    events = run(logic(), presses, until=5)
    assert events == [ButtonPressed(at=pytest.approx(1.15)), ButtonPressed(at=pytest.approx(2.15))]


def test_long_hold_reports_held_once_and_no_press():
    events = run(logic(), [(1.0, True), (6.0, False)], until=10)
    assert events == [ButtonHeld(at=pytest.approx(4.0))]


def test_release_still_settling_at_hold_time_is_not_a_hold():
    # Released 10 ms before the hold would fire; the release settles after the hold deadline.
    events = run(logic(), [(1.0, True), (3.99, False)], until=10)
    assert [type(e) for e in events] == [ButtonPressed]


def test_noise_during_a_hold_does_not_break_it():
    events = run(logic(), [(1.0, True), (2.0, False), (2.01, True), (5.0, False)], until=10)
    assert [type(e) for e in events] == [ButtonHeld]


def test_a_missed_edge_is_noticed_by_sampling_and_debounced():
    button = logic()
    button.edge(1.0)
    assert button.poll(1.05, True) == []  # pressed; hold due at 4.0
    # The release edge never arrived; at the hold deadline the pin reads released.
    assert button.poll(4.0, False) == []
    assert button.deadline() == pytest.approx(4.05)  # a settle was scheduled, no busy loop
    assert button.poll(4.05, False) == [ButtonPressed(at=4.05)]
    assert button.deadline() is None


# Through gpiozero's MockFactory (its MockPin ignores bounce_time: the debounce here is ours). The
# button's thread runs on the real clock, so the tests wait for what it has seen (``is_pressed``, an
# event) rather than for fixed times, and give it windows no scheduling delay reaches: long holds
# and rearms where those are not under test, a long debounce where bounces are.

STEADY = ButtonConfig(backend="gpio", bounce_s=0.02, hold_s=60, rearm_s=10)


@pytest.fixture
def gpio_button():
    """``open(config) -> (pin, inbox, button)``: a GpioButton on a MockFactory pin."""
    factory = MockFactory()
    buttons = []

    def open(config: ButtonConfig = STEADY):
        inbox = EventQueue()
        button = GpioButton(config, pin_factory=factory)
        buttons.append(button)
        button.subscribe(inbox)
        return factory.pin(config.pin), inbox, button

    yield open
    for button in buttons:
        button.close()
    factory.close()


def wait_until(condition, limit: float = 30.0) -> None:
    """Poll ``condition`` until it holds (the limit only stops a broken test hanging)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the button never got there"
        time.sleep(0.002)


def press(pin, button) -> float:
    """A short press the button sees: down until it counts as down, up until it counts as up.
    Returns when it began."""
    began = time.monotonic()
    pin.drive_low()
    wait_until(lambda: button.is_pressed)
    pin.drive_high()
    wait_until(lambda: not button.is_pressed)
    return began


def test_mock_pin_bounce_draws_one_tile(gpio_button):
    pin, inbox, button = gpio_button(ButtonConfig(backend="gpio", bounce_s=0.5, hold_s=60, rearm_s=10))
    for _ in range(20):  # rapid toggles while the contact closes
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    wait_until(lambda: button.is_pressed)
    assert inbox.drain() == []  # not drawn while still down
    for _ in range(20):  # and while it opens
        pin.drive_high()
        pin.drive_low()
    released = time.monotonic()
    pin.drive_high()
    drawn = inbox.get(timeout=30)
    assert isinstance(drawn, ButtonPressed) and drawn.at >= released
    button.close()  # its thread has stopped: whatever it was to report is in the inbox
    assert inbox.drain() == []


def test_mock_pin_double_press_draws_once(gpio_button):
    pin, inbox, button = gpio_button()
    press(pin, button)
    press(pin, button)  # within rearm_s of the first
    assert isinstance(inbox.get(timeout=30), ButtonPressed)
    button.close()
    assert inbox.drain() == []


def test_mock_pin_press_after_rearm_draws_again(gpio_button):
    config = ButtonConfig(backend="gpio", bounce_s=0.02, hold_s=60, rearm_s=0.3)
    pin, inbox, button = gpio_button(config)
    first = press(pin, button)
    assert isinstance(inbox.get(timeout=30), ButtonPressed)
    wait_until(lambda: time.monotonic() >= first + config.rearm_s)  # the time under test: rearm_s has passed
    second = press(pin, button)
    drawn = inbox.get(timeout=30)
    assert isinstance(drawn, ButtonPressed) and drawn.at >= second


def test_mock_pin_hold_opens_staff_menu_without_drawing(gpio_button):
    pin, inbox, button = gpio_button(ButtonConfig(backend="gpio", bounce_s=0.02, hold_s=0.3, rearm_s=0.4))
    pin.drive_low()
    held = inbox.get(timeout=30)
    assert isinstance(held, ButtonHeld)
    assert button.status().details == {"pressed": True}
    pin.drive_high()
    wait_until(lambda: not button.is_pressed)
    button.close()  # its thread has stopped: whatever the release was to report is in the inbox
    assert inbox.drain() == []


def test_pull_down_wiring_presses_on_high():
    factory = MockFactory()
    with GpioButton(ButtonConfig(backend="gpio", pin=5, pull_up=False, bounce_s=0.01, hold_s=60), factory) as button:
        inbox = EventQueue()
        button.subscribe(inbox)
        pin = factory.pin(5)
        pin.drive_high()
        wait_until(lambda: button.is_pressed)
        pin.drive_low()
        assert isinstance(inbox.get(timeout=30), ButtonPressed)
        status = button.status()
        assert status.found and status.backend == "gpiozero/MockFactory" and status.port == "GPIO5"
    factory.close()


def test_simulated_button_uses_the_same_rules():
    button = SimulatedButton(ButtonConfig(rearm_s=10))
    got: list = []
    unsubscribe = button.subscribe(got.append)
    button.press()
    button.press()  # within rearm_s: ignored
    button.hold()
    assert [type(e) for e in got] == [ButtonPressed, ButtonHeld]
    unsubscribe()
    button.hold()
    assert len(got) == 2
    assert button.status().backend == "simulated" and not button.status().found


def test_open_button_chooses_and_falls_back():
    assert isinstance(open_button(ButtonConfig(backend="simulated")), SimulatedButton)
    off_pi = open_button(ButtonConfig(), board=Board.OTHER)
    assert isinstance(off_pi, SimulatedButton) and off_pi.status().last_error == "not a Raspberry Pi"

    factory = MockFactory()
    squatter = DigitalInputDevice(17, pin_factory=factory)  # the pin is taken
    fallback = open_button(ButtonConfig(backend="gpio"), board=Board.PI, pin_factory=factory)
    assert isinstance(fallback, SimulatedButton)
    assert "GPIO17" in fallback.status().last_error and "in use" in fallback.status().last_error
    squatter.close()
    with open_button(ButtonConfig(backend="gpio"), board=Board.PI, pin_factory=factory) as real:
        assert isinstance(real, GpioButton)
    factory.close()
