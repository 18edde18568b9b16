"""The kiosk's ``ui.services.Settings``: the configuration as the UI sees it, plus staff changes.

Staff may change the language, the LED brightness and whether the strategy game offers the coach
("Hint") from the menu. The configuration file is
read-only to the kiosk (systemd's ProtectSystem=strict), so those changes are kept in the store
(progress key :data:`OVERRIDES`) and win over the file until staff change them again. A new
brightness also goes to ``on_brightness`` (the runtime points it at the LED rings). The staff web
page (``web``) writes the same key; :meth:`KioskSettings.poll` takes its changes up.

Problems found while running (a full disk, a damaged database) are collected in :class:`Reports`
and shown to staff beside the configuration warnings.

The staff PIN fails closed: an installed kiosk (a Raspberry Pi, or a run under systemd) without a
``kiosk.staff_pin`` accepts no PIN at all (``install.sh`` sets one); only a desktop run accepts the
built-in :data:`DEFAULT_PIN`, with a warning, and none while the file's PIN is damaged. The PIN is
the one the file holds now (:class:`firmware.staff_pin.ConfiguredPin`, as on the staff web page):
read only at the start, a PIN the owner changed left the old one opening the menu until a restart.
Wrong PINs back off: after :data:`FREE_TRIES` wrong ones in a row, each further one locks the keypad for twice as long as the last (from
:data:`~firmware.pin.FIRST_LOCK_SECONDS` to :data:`~firmware.pin.LONGEST_LOCK_SECONDS`), and no PIN is even checked while it is
locked. The count and the end of the lock are kept in the store, so a power cycle resets nothing:
a 4-digit PIN would take over a year of tapping. Like the web page's (``web.lockout``), the keypad
fails closed: a record that is there but damaged (unreadable, or not holding together) is a lock
for the full :data:`~firmware.pin.LONGEST_LOCK_SECONDS` from when it is found; only a database
without one (a fresh start) has no wrong PINs.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import socket
import threading
import time
from typing import Any, Callable, Literal

from ui.services import Store

from .config import LANGUAGES, Config
from .pin import LONGEST_LOCK_SECONDS, full_lock_wrong, lock_end, lock_seconds, verify_pin
from .staff_pin import ConfiguredPin

log = logging.getLogger(__name__)

OVERRIDES = "kiosk-settings"
"""The store's progress key for staff changes."""
DEFAULT_PIN = "0000"
"""The staff PIN of a desktop run while ``kiosk.staff_pin`` is not set (a warning says so); never
accepted on an installed kiosk."""
PIN_STATE = "staff-pin"
"""The store's progress key for the wrong PINs in a row and the end of the lock."""
FREE_TRIES = 3
"""Wrong PINs in a row the keypad allows before it locks (``firmware.pin.lock_seconds``)."""


def local_address() -> str:
    """This machine's address on its network ("" without one): the source address the system would
    use for a route out, found by connecting a UDP socket, which sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any routable address does; none is contacted
            return str(probe.getsockname()[0])
        except OSError:
            return ""


def _loopback(host: str) -> bool:
    """Whether ``host`` (``[web] host``) is this machine only, which no phone reaches."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


class Reports:
    """Problems to show staff: the configuration's warnings, then whatever happens while running.
    Calling it adds one (a repeated line is kept once); whoever reports also logs."""

    def __init__(self, initial: tuple[str, ...] = ()) -> None:
        self._lock = threading.Lock()
        self._items = list(dict.fromkeys(initial))

    def __call__(self, message: str) -> None:
        with self._lock:
            if message not in self._items:
                self._items.append(message)

    def all(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._items)


class KioskSettings:
    """Settings from ``config``, staff overrides from ``store``, problems from ``reports``."""

    def __init__(self, config: Config, store: Store, reports: Reports,
                 clock: Callable[[], float] = time.time, installed: bool = False, version: str = "",
                 pin: ConfiguredPin | None = None) -> None:
        self._config = config
        self._store = store
        self._reports = reports
        self._clock = clock
        self.idle_seconds: float = config.kiosk.idle_seconds
        self.orientation: Literal["flat", "upright"] = config.display.orientation
        self.physical_bag: bool = config.rules.physical_bag
        self.end_rule: Literal["all-placed", "first-out"] = config.rules.end_rule
        self.confirm_moves: bool = config.rules.confirm_moves
        self.coach: bool = config.rules.coach
        self.clock_minutes: int = config.rules.clock_minutes
        self.time_out: Literal["penalty", "loss"] = config.rules.time_out
        self.replay_url: str = config.replay.url
        self.language: str = config.kiosk.language
        self.brightness: float = float(config.rings.brightness)
        self.version = version
        """The installed version (shown in the staff menu)."""
        self._installed = installed
        self._pin = pin if pin is not None else ConfiguredPin(config.source, "the table's keypad", config.kiosk.staff_pin)
        """The PIN as the file holds it now (the runtime's also falls back on the last good copy)."""
        where = config.source or "the configuration"
        if not config.kiosk.staff_pin and installed:
            self._warn(f"{where}: kiosk.staff_pin is not set, so the staff menu cannot be opened; set a PIN "
                       f"with: sudo systemd/install.sh --set-pin (or tantrix-kiosk hash-pin)")
        elif not config.kiosk.staff_pin:
            self._warn(f"{where}: kiosk.staff_pin is not set, so the staff PIN is {DEFAULT_PIN} (on this "
                       f"desktop only; an installed kiosk accepts none); set your own with: tantrix-kiosk hash-pin")
        self._overrides = store.progress(OVERRIDES)
        self._apply(self._overrides)
        self.on_brightness: Callable[[float], None] = lambda brightness: None
        """Called with each brightness staff set (after it is checked and kept)."""
        self.on_language: Callable[[str], None] = lambda language: None
        """Called with a language staff set from elsewhere (the web page), found by :meth:`poll`."""

    @property
    def warnings(self) -> tuple[str, ...]:
        return self._reports.all()

    @property
    def staff_pin_set(self) -> bool:
        """False while no PIN opens the staff menu: on an installed kiosk without a staff PIN, or
        while the file's PIN is damaged."""
        return bool(self._pin()) or self._default_pin_opens()

    def _default_pin_opens(self) -> bool:
        """Whether :data:`DEFAULT_PIN` is the staff PIN: on a desktop run whose file sets none
        (never on an installed kiosk, nor in place of a PIN the file holds but damaged)."""
        return not self._installed and not self._pin.damaged

    @property
    def web_address(self) -> str:
        """The spectators' page as a phone on the table's network opens it ("" while ``[web]`` is
        off, listens on this machine only, or the table has no network address yet): worked out
        each time, as the address may come after the start (DHCP). A loopback host (behind a reverse
        proxy, whose public address the kiosk cannot know) gave a QR code no phone could open."""
        web = self._config.web
        if not web.enabled or not web.spectators or _loopback(web.host):
            return ""
        host = local_address() if web.host in ("0.0.0.0", "::") else web.host
        return f"http://{host}:{web.port}/" if host else ""

    def check_pin(self, pin: str) -> bool:
        """Whether ``pin`` is the staff PIN; while the keypad is locked (:meth:`pin_wait`) every
        PIN is refused without being checked."""
        if self.pin_wait() > 0:
            return False
        pin_hash = self._pin()  # the file's PIN now: one set since the start is the only one taken
        if pin_hash:
            right = verify_pin(pin, pin_hash)
        else:
            right = self._default_pin_opens() and pin == DEFAULT_PIN
        wrong = 0 if right else self._pin_state()[0] + 1
        lock = lock_seconds(wrong, FREE_TRIES)
        self._store.set_progress(PIN_STATE, {"wrong": wrong, "until": self._clock() + lock, "lock": lock})
        if lock:
            log.warning("%d wrong staff PINs in a row: the keypad is locked for %.0f s", wrong, lock)
        return right

    def pin_wait(self) -> float:
        """Seconds until a PIN may be tried again (0: now). A clock set back while locked (a Pi has
        no battery clock) moves the lock's end to a full lock from now (:func:`firmware.pin.lock_end`),
        kept, so the lock still runs out."""
        wrong, until, lock = self._pin_state()
        now = self._clock()
        end = lock_end(until, lock, now)
        if end != until:
            self._store.set_progress(PIN_STATE, {"wrong": wrong, "until": end, "lock": lock})
        return max(0.0, end - now)

    def _pin_state(self) -> tuple[int, float, float]:
        """The wrong PINs in a row, when the lock ends and how long it is (none kept: none). A
        damaged record was read as no wrong PINs, so damaging it unlocked the keypad; it is now
        :meth:`_lock_for_damage`."""
        try:
            saved = self._store.saved_progress(PIN_STATE)
        except ValueError as exc:
            return self._lock_for_damage(str(exc))
        if saved is None:
            return (0, 0.0, 0.0)
        state = _pin_state(saved)
        return state if state is not None else self._lock_for_damage(f"it does not hold together: {saved!r:.80}")

    def _lock_for_damage(self, why: str) -> tuple[int, float, float]:
        """The full lock from now, written back: so it ends a full lock after the damage was found,
        not a full lock after every look (the keypad asks every second while it counts down)."""
        wrong = full_lock_wrong(FREE_TRIES)
        lock = lock_seconds(wrong, FREE_TRIES)
        until = self._clock() + lock
        self._store.set_progress(PIN_STATE, {"wrong": wrong, "until": until, "lock": lock})
        self._warn(f"the record of wrong staff PINs ({PIN_STATE!r} in the store) was damaged ({why}): "
                   f"the keypad is locked for {lock:.0f} s")
        return (wrong, until, lock)

    def set_language(self, language: str) -> None:
        self._save("language", language)

    def set_brightness(self, brightness: float) -> None:
        self._save("brightness", brightness)
        self.on_brightness(self.brightness)

    def set_coach(self, coach: bool) -> None:
        self._save("coach", coach)

    def poll(self) -> None:
        """Take up staff changes another process (the staff web page) wrote to the store. The
        runtime calls this from the UI's clock about once a second; it costs one small read."""
        overrides = self._store.progress(OVERRIDES)
        if overrides == self._overrides:
            return
        self._overrides = overrides
        language, brightness = self.language, self.brightness
        self._apply(overrides)  # the coach needs no call: a strategy table reads it as it lays out
        if self.brightness != brightness:
            self.on_brightness(self.brightness)
        if self.language != language:
            self.on_language(self.language)

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self._reports(message)

    def _save(self, key: str, value: Any) -> None:
        """Check ``value``, apply it and keep it: only the setting staff changed, so the others
        still follow the configuration file."""
        setattr(self, key, STAFF_SETTINGS[key](value))
        self._overrides = {**self._overrides, key: getattr(self, key)}
        self._store.set_progress(OVERRIDES, self._overrides)

    def _apply(self, overrides: dict[str, Any]) -> None:
        """Apply each kept change that still passes its check; one that no longer does (a language
        since removed, a hand-edited database) is reported and the configuration's value stays."""
        for key, check in STAFF_SETTINGS.items():
            if key not in overrides:
                continue
            try:
                setattr(self, key, check(overrides[key]))
            except ValueError as exc:
                self._warn(f"a setting staff changed earlier is no longer valid ({exc}); using the configuration's")


def _pin_state(saved: dict[str, Any]) -> tuple[int, float, float] | None:
    """The keypad's record as :meth:`KioskSettings.check_pin` writes it; None for one that does not
    hold together (a field missing, of another type, out of range or not finite)."""
    wrong, until, lock = saved.get("wrong"), saved.get("until"), saved.get("lock")
    if any(isinstance(value, bool) for value in (wrong, until, lock)):  # JSON's true and false are no numbers
        return None
    if not (isinstance(wrong, int) and wrong >= 0 and isinstance(until, (int, float)) and math.isfinite(until)
            and isinstance(lock, (int, float)) and 0 <= lock <= LONGEST_LOCK_SECONDS):
        return None
    return (wrong, float(until), float(lock))


def _language(language: Any) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    return str(language)


def _brightness(brightness: Any) -> float:
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) or not 0 <= brightness <= 1:
        raise ValueError(f"brightness is a number from 0 to 1, got {brightness!r}")
    return float(brightness)


def _coach(coach: Any) -> bool:
    if not isinstance(coach, bool):
        raise ValueError(f"coach is true or false, got {coach!r}")
    return coach


STAFF_SETTINGS: dict[str, Callable[[Any], Any]] = {"language": _language, "brightness": _brightness, "coach": _coach}
"""What staff may change (from the menu or the staff web page), each with the check its value passes."""
