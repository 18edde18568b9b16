"""Readiness and watchdog messages to systemd (the sd_notify protocol).

The protocol is one datagram of ``KEY=VALUE`` lines sent to the AF_UNIX socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` means Linux's abstract namespace). That is a few lines with the
socket module, so no library is needed: the Python bindings of libsystemd must be compiled against
it on the Pi, and the small pure-Python packages would wrap exactly these lines.

* ``READY=1`` is sent once the first frame is on screen (the UI's ``on_first_frame``), so systemd
  counts the kiosk as started only when people can see it.
* ``WATCHDOG=1`` is sent from the UI's own clock (``on_tick``, about once a second), at most every
  half of ``$WATCHDOG_USEC``: a UI that freezes stops the pings and systemd restarts the kiosk,
  which a ping from a separate thread would never notice.

Without ``$NOTIFY_SOCKET`` (desktop runs, tests) nothing is sent.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Talks to systemd if it is listening; every method is a no-op otherwise."""

    def __init__(self, environ: Mapping[str, str] = os.environ, clock: Callable[[], float] = time.monotonic) -> None:
        address = environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._clock = clock
        self._socket: socket.socket | None = None
        self._ready = False
        self._last_ping: float | None = None
        self._failed = False
        self.watchdog_interval: float | None = None
        """Seconds systemd waits for a ping before restarting us (None: no watchdog)."""
        usec, pid = environ.get("WATCHDOG_USEC", ""), environ.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.watchdog_interval = int(usec) / 1_000_000

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def ready(self) -> None:
        """The first frame is on screen: tell systemd once that start-up is complete."""
        if not self._ready:
            self._ready = self.send("READY=1", "STATUS=Playing")

    def tick(self) -> None:
        """Called from the UI clock: ping the watchdog when half its interval has passed."""
        if self.watchdog_interval is None:
            return
        now = self._clock()
        if self._last_ping is None or now - self._last_ping >= self.watchdog_interval / 2:
            if self.send("WATCHDOG=1"):
                self._last_ping = now

    def status(self, text: str) -> None:
        """A one-line status shown by ``systemctl status`` (e.g. why storage is in memory)."""
        self.send("STATUS=" + text.replace("\n", " "))

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=VALUE`` lines in one datagram; False if not sent (no socket, or it failed)."""
        if not self._address:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto("\n".join(assignments).encode(), self._address)
        except OSError as exc:
            if not self._failed:  # say it once, not once a second
                log.error("cannot notify systemd at %s: %s", self._address.replace("\0", "@"), exc)
                self._failed = True
            return False
        self._failed = False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
