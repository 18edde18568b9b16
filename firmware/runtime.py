"""The kiosk's life: configuration, storage, settings, devices and systemd, then the UI, then a clean stop.

:class:`Runtime` opens everything in an order where each part can report what went wrong to the
next: the configuration first (its warnings, device tables included, start the :class:`Reports`),
then the store (which reports a full or damaged disk there, and to systemd's status line), then the
settings (which read staff changes from the store and hand all the reports to the UI), then the
devices (whose tag registry lives in the store, whose LEDs start at the settings' brightness, and
which report a device that cannot be used). Nothing in here can stop the kiosk from starting: every
problem becomes a report and a working default.

:meth:`Runtime.run` then prepares the window, hands the store, devices, settings and players to the
touchscreen UI (``ui.app.KioskApp``) as its ``ui.services.Services``, attaches the devices' events
to the app and runs it until staff quit to the system; :meth:`close` stops the devices before the
store.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Callable, Mapping

from engine.compiled import summary as engine_summary
from hardware.board import Board, detect_board
from ui.services import DeviceStatus

from .club import open_club
from .config import Config, config_path, last_good_path, load_config
from .devices import KioskDevices
from .notify import Notifier
from .players import Players
from .restart import EXIT_RESTART, RestartWatch
from .settings import KioskSettings, Reports
from .staff_pin import ConfiguredPin
from .status import StatusSnapshot
from .store import SqliteStore
from .version import installed_version

log = logging.getLogger(__name__)

QUIT_TO_SYSTEM = 64
"""The exit status of the staff menu's "quit to the system": the only exit the unit does not
restart after (``RestartPreventExitStatus=`` and ``SuccessExitStatus=`` name it); any other exit,
a clean one included, brings the kiosk back."""


def installed(environ: Mapping[str, str], board: Board | None = None) -> bool:
    """An installed kiosk: on a Raspberry Pi, or started by systemd (which sets INVOCATION_ID)."""
    return bool(environ.get("INVOCATION_ID")) or (board if board is not None else detect_board()) is not Board.OTHER


@dataclass(frozen=True)
class Launch:
    """What the command line asked for."""

    config: str | None = None
    """The configuration file (None: ``$TANTRIX_KIOSK_CONFIG``, else the default path)."""
    simulate: bool = False
    """Simulated devices even on a Pi (desktop runs pick them anyway when no hardware is found)."""
    size: tuple[int, int] | None = None
    """The window size for desktop runs (None: the UI's default)."""
    fullscreen: bool = False


class Runtime:
    """The opened parts of the kiosk; :meth:`close` (or ``with``) stops them cleanly."""

    def __init__(self, launch: Launch, environ: Mapping[str, str] = os.environ) -> None:
        self.launch = launch
        self.version = installed_version()
        log.info("Tantrix Table kiosk %s, engine %s", self.version, engine_summary())
        self.config: Config = load_config(launch.config, environ, last_good=last_good_path(environ))
        for warning in self.config.warnings:
            log.warning("%s", warning)
        self.reports = Reports(self.config.warnings)
        self.notifier = Notifier(environ)
        storage = self.config.storage
        self.store = SqliteStore(storage.path(environ), max_bytes=storage.max_mb * 1024 * 1024,
                                 keep_records=storage.keep_records, report=self._report)
        pin = ConfiguredPin(config_path(launch.config, environ)[0], "the table's keypad",
                            self.config.kiosk.staff_pin, last_good=last_good_path(environ))
        self.settings = KioskSettings(self.config, self.store, self.reports, installed=installed(environ),
                                      version=self.version, pin=pin)
        self.devices = KioskDevices(self.config, self.store, self._report, simulate=launch.simulate,
                                    brightness=self.settings.brightness)
        self.settings.on_brightness = self.devices.set_brightness
        self.players = Players(self.store)
        self.club = open_club(self.config.club, self.players, self._report, self.store)
        self.status = StatusSnapshot(self.store, self.devices, self.settings,
                                     club=self.club.status if self.club is not None else None)
        self.restart = RestartWatch(self.store)
        self._stop_app: Callable[[], None] = lambda: None
        self.restarting = False
        log.info("configuration %s, storage %s (%s journal)", self.config.source or "built-in defaults",
                 self.store.memory_reason or self.store.path, self.store.journal_mode)

    def run(self) -> int:
        """Run the touchscreen UI until staff quit to the system; returns the exit status."""
        os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy's log joins ours, to the journal
        os.environ.setdefault("KIVY_NO_FILELOG", "1")  # and no log files pile up on the SD card
        from ui.window import prepare_window

        display = self.config.display
        prepare_window(self.launch.size, self.launch.fullscreen, display.rotation, display.pixels_per_inch)
        from ui.app import KioskApp
        from ui.i18n import i18n
        from ui.services import Services

        app: KioskApp | None = None
        quitting = False

        def quit_to_system() -> None:
            nonlocal quitting
            quitting = True
            log.info("staff quit to the system")
            if app is not None:
                app.stop()

        services = Services(store=self.store, devices=self.devices, settings=self.settings,
                            on_first_frame=self.notifier.ready, on_tick=self.tick,
                            quit_to_system=quit_to_system, players=self.players, club=self.club)
        self.settings.on_language = lambda language: setattr(i18n, "language", language)
        app = KioskApp(services, kiosk=self.launch.fullscreen)
        self._stop_app = app.stop
        self.devices.attach(app.post)
        self.store.on_state = lambda: app.post(self.storage_status())
        if self.store.in_memory:
            app.post(self.storage_status())
        try:
            app.run()
        finally:
            self.devices.attach(None)  # device threads must not post into a stopped app
            self.store.on_state = lambda: None
        return QUIT_TO_SYSTEM if quitting else EXIT_RESTART if self.restarting else 0

    def storage_status(self) -> DeviceStatus:
        """The store as a badge: players see while finished games are not being kept."""
        if self.store.in_memory:
            return DeviceStatus("storage", False, "memory", self.store.memory_reason)
        return DeviceStatus("storage", True, "sqlite")

    def tick(self) -> None:
        """The UI's clock, about once a second: the watchdog, staff changes made on the web page,
        the health snapshot the web page shows, a restart asked for there."""
        self.notifier.tick()
        self.settings.poll()
        self.status.tick()
        if not self.restarting and self.restart.requested():
            log.info("staff asked for a restart from the web page")
            self.restarting = True
            self._stop_app()

    def close(self) -> None:
        self.notifier.stopping()
        if self.club is not None:
            self.club.close()
        self.devices.close()
        self.store.close()
        self.notifier.close()

    def __enter__(self) -> Runtime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _report(self, message: str) -> None:
        self.reports(message)
        self.notifier.status(message)
