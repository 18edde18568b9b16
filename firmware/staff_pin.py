"""The staff PIN as the configuration file holds it now: where the table's keypad
(``firmware.settings``) and the staff web page (``web.auth``) both take it from.

Each read the PIN once, at its start: after the owner set a new one (``install.sh --set-pin``
rewrites the file) the old PIN still opened the staff menu, or signed in on the web page, until the
process was restarted. :class:`ConfiguredPin` looks at the file's status at each use and reads it
again only when it changed, so the new PIN is the only one taken from the first use after it was
written. It fails closed: a file that cannot be used, or whose PIN is refused, gives no PIN
(:attr:`ConfiguredPin.damaged` tells that apart from a file that sets none), unless the kiosk's last
good copy gives one (``firmware.config``: the PIN the table had, never none nor a default).
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Callable

from .config import Config, load_config

log = logging.getLogger(__name__)


class ConfiguredPin:
    """The staff PIN's hash as the configuration file ``path`` holds it now (called: the hash, ""
    for none), as ``user`` ("the web page") takes it; ``pin_hash`` is the one taken at the start,
    kept while there is no file to look at (``path`` None). The file is read again only when its status
    changes (device, inode, size, modification and change times: one ``stat`` per use), and
    ``on_change`` is called once the hash differs from one that was set (what was opened with the
    old PIN ends). With ``last_good`` (the kiosk's copy, :func:`firmware.config.last_good_path`) a
    damaged file falls back on the copy's PIN, as the kiosk does when it starts."""

    def __init__(self, path: Path | None, user: str, pin_hash: str = "",
                 on_change: Callable[[], None] = lambda: None, last_good: Path | None = None) -> None:
        self._path = path
        self._user = user
        self._on_change = on_change
        self._last_good = last_good
        self._lock = threading.Lock()
        self._seen: tuple[int, ...] | None = None
        """The file's status when it was last read (None: not read yet, or it could not be looked at)."""
        self._hash = pin_hash
        self._damage = ""

    def __call__(self) -> str:
        with self._lock:
            self._look()
            return self._hash

    @property
    def damaged(self) -> bool:
        """Whether the file gives no PIN because it cannot be used or its PIN is refused (not
        because it sets none): then no PIN at all is taken, not even a desktop run's default."""
        with self._lock:
            self._look()
            return bool(self._damage)

    def _look(self) -> None:
        if self._path is None:
            return
        try:
            status = os.stat(self._path)
        except OSError:  # read each time until it can be looked at: the copy, or why none, said once
            seen = None
        else:
            seen = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
        if seen is None or seen != self._seen:  # looked at before it is read: a change while reading is read again
            self._seen = seen
            config = load_config(self._path, last_good=self._last_good)
            self._damage = "" if config.kiosk.staff_pin else _damage(config)
            self._replace(config.kiosk.staff_pin, self._damage or f"{self._path} sets no kiosk.staff_pin")

    def _replace(self, pin_hash: str, why_none: str) -> None:
        """Take ``pin_hash`` as the PIN; said in the log, and ``on_change`` called, when it changed."""
        if pin_hash == self._hash:
            return
        was_set, self._hash = bool(self._hash), pin_hash
        if pin_hash:
            log.info("the staff PIN in %s changed: %s takes the new one now", self._path, self._user)
        else:
            log.warning("%s accepts no staff PIN now: %s", self._user, why_none)
        if was_set:
            self._on_change()


def _damage(config: Config) -> str:
    """Why ``config`` gives no staff PIN when its file is at fault, in the words of its warning
    ("" when the file simply sets none)."""
    if config.source is None and config.warnings:  # the file as a whole cannot be used
        return config.warnings[0]
    if "kiosk.staff_pin" not in config.refused:
        return ""
    return next((warning for warning in config.warnings if "kiosk.staff_pin" in warning),
                "kiosk.staff_pin is refused")
