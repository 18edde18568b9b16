"""The kiosk's ``ui.services.Settings``: the configuration as the UI sees it, plus staff changes.

Staff may change the language and the LED brightness from the menu. The configuration file is
read-only to the kiosk (systemd's ProtectSystem=strict), so those changes are kept in the store
(progress key :data:`OVERRIDES`) and win over the file until staff change them again. A new
brightness also goes to ``on_brightness`` (the runtime points it at the LED rings). The staff web
page (``web``) writes the same key; :meth:`KioskSettings.poll` takes its changes up.

Problems found while running (a full disk, a damaged database) are collected in :class:`Reports`
and shown to staff beside the configuration warnings.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Literal

from ui.services import Store

from .config import LANGUAGES, Config
from .pin import verify_pin

log = logging.getLogger(__name__)

OVERRIDES = "kiosk-settings"
"""The store's progress key for staff changes."""
DEFAULT_PIN = "0000"
"""The staff PIN while ``kiosk.staff_pin`` is not set (a warning says so)."""
PIN_TRIES = 5
PIN_LOCKOUT_SECONDS = 60.0
"""After PIN_TRIES wrong PINs in a row, every PIN is refused for this long."""


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
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._config = config
        self._store = store
        self._reports = reports
        self._clock = clock
        self.idle_seconds: float = config.kiosk.idle_seconds
        self.orientation: Literal["flat", "upright"] = config.display.orientation
        self.physical_bag: bool = config.rules.physical_bag
        self.end_rule: Literal["all-placed", "first-out"] = config.rules.end_rule
        self.confirm_moves: bool = config.rules.confirm_moves
        self.language: str = config.kiosk.language
        self.brightness: float = float(config.rings.brightness)
        if not config.kiosk.staff_pin:
            self._warn(f"{config.source or 'the configuration'}: kiosk.staff_pin is not set, so the staff PIN is "
                       f"{DEFAULT_PIN}; set your own with: tantrix-kiosk hash-pin")
        self._wrong_pins = 0
        self._locked_until = 0.0
        self._overrides = store.progress(OVERRIDES)
        self._apply(self._overrides)
        self.on_brightness: Callable[[float], None] = lambda brightness: None
        """Called with each brightness staff set (after it is checked and kept)."""
        self.on_language: Callable[[str], None] = lambda language: None
        """Called with a language staff set from elsewhere (the web page), found by :meth:`poll`."""

    @property
    def warnings(self) -> tuple[str, ...]:
        return self._reports.all()

    def check_pin(self, pin: str) -> bool:
        """Whether ``pin`` is the staff PIN; after PIN_TRIES wrong ones, all are refused for a while."""
        now = self._clock()
        if now < self._locked_until:
            return False
        pin_hash = self._config.kiosk.staff_pin
        right = verify_pin(pin, pin_hash) if pin_hash else pin == DEFAULT_PIN
        if right:
            self._wrong_pins = 0
            return True
        self._wrong_pins += 1
        if self._wrong_pins >= PIN_TRIES:
            self._wrong_pins = 0
            self._locked_until = now + PIN_LOCKOUT_SECONDS
            log.warning("%d wrong staff PINs: the staff menu is locked for %.0f s", PIN_TRIES, PIN_LOCKOUT_SECONDS)
        return False

    def set_language(self, language: str) -> None:
        self.language = _language(language)
        self._save()

    def set_brightness(self, brightness: float) -> None:
        self.brightness = _brightness(brightness)
        self._save()
        self.on_brightness(self.brightness)

    def poll(self) -> None:
        """Take up staff changes another process (the staff web page) wrote to the store. The
        runtime calls this from the UI's clock about once a second; it costs one small read."""
        overrides = self._store.progress(OVERRIDES)
        if overrides == self._overrides:
            return
        self._overrides = overrides
        language, brightness = self.language, self.brightness
        self._apply(overrides)
        if self.brightness != brightness:
            self.on_brightness(self.brightness)
        if self.language != language:
            self.on_language(self.language)

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self._reports(message)

    def _save(self) -> None:
        self._overrides = {"language": self.language, "brightness": self.brightness}
        self._store.set_progress(OVERRIDES, self._overrides)

    def _apply(self, overrides: dict[str, Any]) -> None:
        try:
            language = _language(overrides.get("language", self.language))
            brightness = _brightness(overrides.get("brightness", self.brightness))
        except ValueError as exc:
            self._warn(f"a setting staff changed earlier is no longer valid ({exc}); using the configuration's")
            return
        self.language, self.brightness = language, brightness


def _language(language: Any) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    return str(language)


def _brightness(brightness: Any) -> float:
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) or not 0 <= brightness <= 1:
        raise ValueError(f"brightness is a number from 0 to 1, got {brightness!r}")
    return float(brightness)
