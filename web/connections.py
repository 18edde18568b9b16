"""The connections ``tantrix-web`` accepts: each must ask soon, and the idle ones make room.

uvicorn's HTTP/1.1 protocol (h11, the one installed) arms no timer on a connection until it has
answered a request on it, and its ``limit_concurrency`` counts every open connection as one in
use. A socket that never sends a byte, or sends a request's head a line at a time, was therefore
held for ever, and a hundred of them (a café guest's script, a broken phone retrying) had every
staff request answered "503" for as long as they stayed open. None of uvicorn's options covers
this: ``timeout_keep_alive`` starts only once a response is sent, and any byte received resets it;
``backlog`` sizes the kernel's queue of connections not yet accepted; the httptools protocol
behaves the same. :class:`GuardedH11Protocol`, given to uvicorn as its ``http`` protocol, adds
two rules to uvicorn's own:

- a connection sends its whole request (head and body) within :data:`REQUEST_SECONDS` of
  opening or of its previous answer, else it is closed; an answer being sent is never cut (a
  spectator's stream runs as long as it watches);
- while every place under ``limit_concurrency`` is taken, a new connection closes the one that has
  waited longest for a request, so a flood of idle sockets only pushes itself out, and staff,
  whose browser asks as soon as it connects, are answered at once. A connection whose request is
  being received or answered is never closed for room: beyond those, uvicorn still answers "503".
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0
"""How long a connection may take to send a whole request: far more than a phone on weak Wi-Fi
needs for a request of at most a kilobyte (``web.app.MAX_BODY``)."""


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and room made by the idle."""

    _deadline: asyncio.TimerHandle | None = None
    _waiting_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_request()
        self._make_room()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)

    def idle(self) -> bool:
        """Whether the connection waits for a request: none has arrived whole since it opened or
        since its last answer (a head sent in part counts as none)."""
        return (self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)
                and not self.transport.is_closing())

    def _await_request(self) -> None:
        """Start the time the next request has to arrive in."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._waiting_since = self.loop.time()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._overdue)

    def _overdue(self) -> None:
        """Close the connection if its request is still not all there (its head or its body)."""
        self._deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        """Close the idle connections that have waited longest until this one's request, sent
        now, finds a place under ``limit_concurrency`` (uvicorn answers "503" at the limit, this
        connection included). They leave the count at once, not when the event loop next reports
        them gone."""
        if self.limit_concurrency is None:
            return
        excess = len(self.connections) - self.limit_concurrency + 1
        if excess <= 0:
            return
        idle = sorted((other for other in self.connections
                       if isinstance(other, GuardedH11Protocol) and other is not self and other.idle()),
                      key=lambda other: other._waiting_since)
        for other in idle[:excess]:
            other.transport.close()
            self.connections.discard(other)
