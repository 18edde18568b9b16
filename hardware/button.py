"""The bag button: a short press draws a tile, a long hold opens the staff menu.

Use ``open_button(config)``; it returns a ``GpioButton`` (gpiozero) or a ``SimulatedButton``, both
with ``subscribe(listener)``, ``status()`` and ``close()`` (and usable as context managers).

Events: ``ButtonPressed`` when a short press is *released* (so a staff member's long hold never
also draws a tile), ``ButtonHeld`` as soon as the button has been down for ``hold_s``.

The debounce is ours, not gpiozero's ``bounce_time``: every edge only schedules a look at the pin
``bounce_s`` later, and the level seen then (not the edge's direction, which real edge detection
can drop or repeat) decides. A press starting within ``rearm_s`` of the previous press is ignored,
so neither contact bounce nor a nervous double press ever draws two tiles.

Simulator (desktop run, tests)::

    button = SimulatedButton()      # or open_button(ButtonConfig(backend="simulated"))
    button.press()                  # a short press: ButtonPressed (subject to the rearm rule)
    button.hold()                   # a long hold: ButtonHeld
"""

from __future__ import annotations

import threading
import time
import warnings
from typing import Any

from .board import Board, detect_board
from .config import ButtonConfig
from .events import ButtonHeld, ButtonPressed, DeviceStatus, Event, EventSource


class ButtonLogic:
    """Debounce, hold and rearm rules as a pure state machine over explicit times (seconds).

    Feed it ``edge(t)`` whenever the pin may have changed, and ``poll(t, level)`` at (or after)
    ``deadline()`` with the pin's level then (True: pressed). Both real and simulated buttons
    go through it, so the rules live in one place and can be tested without clocks.
    """

    def __init__(self, bounce_s: float, hold_s: float, rearm_s: float) -> None:
        self.bounce_s, self.hold_s, self.rearm_s = bounce_s, hold_s, rearm_s
        self._down = False  # the debounced level
        self._settle_at: float | None = None  # look at the pin then
        self._last_edge = 0.0
        self._down_at = 0.0  # when the current press began
        self._hold_at: float | None = None  # report a hold then, if still down
        self._held = False
        self._last_press: float | None = None  # when the last accepted press began

    def edge(self, t: float) -> None:
        self._last_edge = t
        self._settle_at = t + self.bounce_s

    @property
    def down(self) -> bool:
        """The debounced level: True from a press's settling to its release's."""
        return self._down

    def deadline(self) -> float | None:
        """When to poll next (a pending settle first: the pin is moving, a hold can wait for it)."""
        return self._settle_at if self._settle_at is not None else self._hold_at

    def poll(self, t: float, level: bool) -> list[Event]:
        events: list[Event] = []
        if self._settle_at is not None and t >= self._settle_at:
            self._settle_at = None
            if level != self._down:
                self._down = level
                if level:
                    self._down_at, self._held = self._last_edge, False
                    self._hold_at = self._down_at + self.hold_s
                else:
                    self._hold_at = None
                    if not self._held:
                        events += self._press(self._down_at, t)
        elif self._settle_at is None and level != self._down:
            self.edge(t)  # the pin moved without an edge reaching us: look again after bounce_s
        # A hold needs the pin still down now: a release still settling must not count as held.
        if self._hold_at is not None and t >= self._hold_at and self._down and level:
            self._hold_at, self._held = None, True
            events.append(ButtonHeld(at=t))
        return events

    def click(self, t: float) -> list[Event]:
        """A complete short press at ``t`` (the simulator's ``press()``)."""
        return self._press(t, t)

    def long_hold(self, t: float) -> list[Event]:
        """A complete long hold ending at ``t`` (the simulator's ``hold()``)."""
        return [ButtonHeld(at=t)]

    def _press(self, down_at: float, t: float) -> list[Event]:
        if self._last_press is not None and down_at - self._last_press < self.rearm_s:
            return []
        self._last_press = down_at
        return [ButtonPressed(at=t)]


class _Button(EventSource):
    """What both buttons share: listeners, the rules, and the context-manager protocol."""

    def __init__(self, config: ButtonConfig) -> None:
        super().__init__()
        self.config = config
        self._logic = ButtonLogic(config.bounce_s, config.hold_s, config.rearm_s)
        self._cond = threading.Condition()

    @property
    def is_pressed(self) -> bool:
        """Whether the button is down now, debounced (as gpiozero's ``Button.is_pressed``, but
        by our rules): what a test waits on to know a press was seen, however slow the machine."""
        with self._cond:
            return self._logic.down


class SimulatedButton(_Button):
    """A button pressed from code or the keyboard; events are delivered on the caller's thread."""

    def __init__(self, config: ButtonConfig = ButtonConfig(backend="simulated"), error: str | None = None) -> None:
        super().__init__(config)
        self._error = error

    def press(self) -> None:
        with self._cond:
            events = self._logic.click(time.monotonic())
        self._emit(events)

    def hold(self) -> None:
        with self._cond:
            events = self._logic.long_hold(time.monotonic())
        self._emit(events)

    def status(self) -> DeviceStatus:
        return DeviceStatus("button", found=False, backend="simulated", port=f"GPIO{self.config.pin}",
                            last_error=self._error)


class GpioButton(_Button):
    """The real button through gpiozero (``pin_factory``: None for the default, or a MockFactory).

    gpiozero calls us on its pin thread for every edge; our own thread wakes only at the
    debounce and hold deadlines, samples the pin and emits the events.
    """

    def __init__(self, config: ButtonConfig, pin_factory: Any = None) -> None:
        super().__init__(config)
        from gpiozero import DigitalInputDevice
        from gpiozero.exc import PinFactoryFallback

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # the failure itself says enough
            self._device = DigitalInputDevice(config.pin, pull_up=config.pull_up, bounce_time=None,
                                              pin_factory=pin_factory)
        self._closed = False
        self._device.when_activated = self._edge
        self._device.when_deactivated = self._edge
        self._thread = threading.Thread(target=self._run, name="bag-button", daemon=True)
        self._thread.start()

    def _edge(self) -> None:
        with self._cond:
            self._logic.edge(time.monotonic())
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    deadline = self._logic.deadline()
                    now = time.monotonic()
                    if deadline is not None and now >= deadline:
                        break
                    self._cond.wait(None if deadline is None else deadline - now)
                if self._closed:
                    return
                events = self._logic.poll(now, bool(self._device.is_active))
            self._emit(events)

    def status(self) -> DeviceStatus:
        factory = type(self._device.pin_factory).__name__
        return DeviceStatus("button", found=True, backend=f"gpiozero/{factory}", port=f"GPIO{self.config.pin}",
                            details={"pressed": bool(self._device.is_active)})

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify()
        self._device.close()
        self._thread.join()


Button = GpioButton | SimulatedButton


def open_button(config: ButtonConfig, board: Board | None = None, pin_factory: Any = None) -> Button:
    """The configured button; a ``SimulatedButton`` carrying the error if the GPIO cannot be used."""
    if config.backend == "simulated":
        return SimulatedButton(config)
    if config.backend == "auto" and (board or detect_board()) is Board.OTHER and pin_factory is None:
        return SimulatedButton(config, error="not a Raspberry Pi")
    try:
        return GpioButton(config, pin_factory)
    except Exception as exc:  # gpiozero raises many kinds: no factory, pin in use, no permission
        return SimulatedButton(config, error=f"GPIO{config.pin}: {type(exc).__name__}: {exc}")
