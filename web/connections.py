"""The connections ``tantrix-web`` accepts: each must ask soon, the idle ones make room, and no
one client address holds more than a few.

uvicorn's HTTP/1.1 protocol (h11, the one installed) arms no timer on a connection until it has
answered a request on it, and its ``limit_concurrency`` counts every open connection as one in
use. A socket that never sends a byte, or sends a request's head a line at a time, was therefore
held for ever, and a hundred of them (a café guest's script, a broken phone retrying) had every
staff request answered "503" for as long as they stayed open. None of uvicorn's options covers
this: ``timeout_keep_alive`` starts only once a response is sent, and any byte received resets it;
``backlog`` sizes the kernel's queue of connections not yet accepted; the httptools protocol
behaves the same. :class:`GuardedH11Protocol`, given to uvicorn as its ``http`` protocol, adds
three rules to uvicorn's own:

- a connection sends its whole request (head and body) within :data:`REQUEST_SECONDS` of
  opening or of its previous answer, else it is closed; an answer being sent is never cut (a
  spectator's stream runs as long as it watches);
- while every place under ``limit_concurrency`` is taken, a new connection closes the one that has
  waited longest for a request, so a flood of idle sockets only pushes itself out, and staff,
  whose browser asks as soon as it connects, are answered at once. A connection whose request is
  being received or answered is never closed for room: beyond those, uvicorn still answers "503";
- so one client address holds at most :data:`MAX_PER_ADDRESS` connections: else a script sending
  a hundred requests' heads and never the whole of their bodies (re-opening each as it is closed)
  held every place, none of them idle, and staff got "503". A new connection from an address
  holding its share first closes that address's own idle ones that waited longest (a browser's
  kept-alive spares); if all of them are busy it is answered "429" at once, and closed once
  the client has read that (an idle connection meanwhile, the first to make room). The address
  is the socket's peer, never a header (any client can set one).

Behind a reverse proxy every connection comes from the proxy, so this server cannot tell its
guests apart: the proxy's address (``[web] proxy``) is not capped, and the proxy's own limit per
client (nginx's ``limit_conn``) is what keeps one guest from holding every place (README).
"""

from __future__ import annotations

import asyncio
import math

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0
"""How long a connection may take to send a whole request: far more than a phone on weak Wi-Fi
needs for a request of at most a kilobyte (``web.app.MAX_BODY``)."""
MAX_PER_ADDRESS = 8
"""Connections one client address may hold at once: a browser opens at most 6 to one server over
HTTP/1.1, its live streams included, so a phone or laptop never needs more, and a script on one
address holds 8 of the server's 100 places, never all."""
REFUSAL_TEXT = (b"Too many connections from your address (at most %d at once): "
                b"close one and try again." % MAX_PER_ADDRESS)
REFUSAL = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"retry-after: %d\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
           % (REQUEST_SECONDS, len(REFUSAL_TEXT), REFUSAL_TEXT))
"""The whole answer to a connection beyond its address's share, sent as it opens (its request is
not needed to refuse it); ``retry-after`` is when its address's hung requests end."""


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request, room made by the idle and a
    share of the places for each client address."""

    proxy = ""
    """The reverse proxy's address, whose connections are not capped ("": none; see
    :func:`behind`)."""
    _deadline: asyncio.TimerHandle | None = None
    _waiting_since = 0.0
    _refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self._within_share():
            self._await_request()
            self._make_room()
            return
        self._refused = True
        transport.write(REFUSAL)
        transport.write_eof()
        self._await_request()
        self._waiting_since = -math.inf  # the first to make room, for anyone

    def data_received(self, data: bytes) -> None:
        """A refused connection's request is read and dropped until the client closes (a
        lingering close, as nginx's): closed with bytes unread, its socket would be reset, and
        the client could lose the refusal."""
        if not self._refused:
            super().data_received(data)

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

    def _others(self) -> list[GuardedH11Protocol]:
        return [other for other in self.connections if isinstance(other, GuardedH11Protocol) and other is not self]

    def _within_share(self) -> bool:
        """Whether this connection's address holds fewer than :data:`MAX_PER_ADDRESS` others, once
        its own idle ones that waited longest are closed to make it so (the proxy's: always)."""
        address = self.client[0] if self.client is not None else None
        if address is None or address == self.proxy:
            return True
        same = [other for other in self._others() if other.client is not None and other.client[0] == address]
        return len(same) - self._close_idle(same, len(same) - MAX_PER_ADDRESS + 1) < MAX_PER_ADDRESS

    def _make_room(self) -> None:
        """Close the idle connections that have waited longest until this one's request, sent
        now, finds a place under ``limit_concurrency`` (uvicorn answers "503" at the limit, this
        connection included)."""
        if self.limit_concurrency is not None:
            self._close_idle(self._others(), len(self.connections) - self.limit_concurrency + 1)

    def _close_idle(self, among: list[GuardedH11Protocol], count: int) -> int:
        """Close up to ``count`` idle connections ``among`` these, those that have waited longest
        first; how many were closed. They leave the count at once, not when the event loop next
        reports them gone."""
        idle = sorted((other for other in among if other.idle()), key=lambda other: other._waiting_since)
        closing = idle[:max(count, 0)]
        for other in closing:
            other.transport.close()
            self.connections.discard(other)
        return len(closing)


def behind(proxy: str) -> type[GuardedH11Protocol]:
    """:class:`GuardedH11Protocol` for a server whose reverse proxy connects from ``proxy`` ("":
    none): all its guests come from that one address, so capping it would cap them all together
    (at :data:`MAX_PER_ADDRESS`, a few spectators); the proxy's own limit per client stands in."""
    address = proxy

    class Behind(GuardedH11Protocol):
        proxy = address

    return Behind
