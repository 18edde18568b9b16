"""A restart of the kiosk asked for from the staff web page, through the database.

The web page cannot signal the kiosk (they share no socket, and its sandbox sees no other
processes), so it writes the time of its request under the progress key :data:`RESTART`; the kiosk
compares that with what it found at start on its UI clock and, on a new request, stops with
:data:`EXIT_RESTART`. systemd's ``Restart=always`` starts it again, and the game in progress is
offered for resuming as after a power cut.
"""

from __future__ import annotations

from ui.services import Store

RESTART = "kiosk-restart"
"""The store's progress key: ``{"requested": seconds since the epoch}``."""
EXIT_RESTART = 75
"""The kiosk's exit status when staff asked for a restart (EX_TEMPFAIL: systemd starts it again)."""


class RestartWatch:
    """Tells whether a restart was asked for since the kiosk started."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._seen = store.progress(RESTART)

    def requested(self) -> bool:
        return self._store.progress(RESTART) != self._seen
