"""The web application: Starlette routes over the kiosk's database.

Why Starlette (on uvicorn): a small, well-kept ASGI toolkit with no template engine or ORM to carry,
so the process stays light on a Pi; asyncio lets one process hold many spectators' open
server-sent-event streams (``sse-starlette``, which adds keep-alive pings and clean disconnects)
without a thread each. The pages are static files that fetch JSON; nothing is rendered into HTML
on the server, so no value from the database or a request can inject markup.

Routes: ``/`` the spectator page (the game at the table, and the club evening when one runs),
``/events`` its live stream, ``/api/table`` the same view once; ``/api/words`` both pages' words in
the visitor's language (``web.words``); ``/staff`` the staff page over
``/api/login``, ``/api/logout``, ``/api/staff``, ``/api/settings``, ``/api/restart`` and
``/api/records`` (an export). Every response carries a strict Content-Security-Policy; staff
requests need the session cookie, and changes need a JSON body from this page's own origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import json
import logging
import socket
import time
import urllib.parse
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.staticfiles import StaticFiles

from firmware.config import LANGUAGES, Config
from firmware.settings import STAFF_SETTINGS
from firmware.staff_pin import ConfiguredPin

from .auth import PinGuard, Sessions
from .database import KioskDatabase, NoDatabase
from .evening import evening_view
from .lockout import Unrecorded
from .table import table_view
from .words import LANGUAGE_NAMES, chosen, said, words

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
COOKIE = "tantrix_staff"
POLL_SECONDS = 0.1
"""How often the feed asks SQLite whether the kiosk committed (a read of shared memory)."""
MAX_CONNECTIONS = 100
"""Open connections served at once (uvicorn's ``limit_concurrency``): more get "503 busy", so a flood
of connections cannot exhaust the Pi's memory or file descriptors. Connections that ask nothing
neither stay nor hold a place (``web.connections``)."""
MAX_STREAMS = MAX_CONNECTIONS - 20
"""Spectators' live streams served at once (each holds a connection for as long as it watches):
fewer than :data:`MAX_CONNECTIONS`, so a crowd of spectators never leaves staff without one."""
MAX_BODY = 1024
"""The largest request body accepted (a PIN or a setting fits in far less). Starlette's own limit
refuses a larger one as it arrives, before it is read into memory: a body of any size, sent
without a PIN, must not run the process into its memory cap, whose restart would cut every
spectator's stream and staff session."""
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class TableFeed:
    """The spectator view of the game in progress, refreshed whenever the kiosk commits."""

    def __init__(self, database: KioskDatabase) -> None:
        self._database = database
        self._changed = asyncio.Condition()
        self.sequence = 0
        """Counts the views published; a stream sends each one it has not sent yet."""
        self.streams = 0
        """The live streams open now."""
        self.text = json.dumps(table_view(None) | {"waiting": True})

    async def run(self) -> None:
        """Poll the database's version; on a commit, publish the new view: the game (rebuilt on a
        new game step only) and the club evening (``web.evening``)."""
        seen_version: int | None = None
        seen_updated: float | None = -1.0
        game: dict[str, Any] = {}
        while True:
            try:
                changed, seen_version = await asyncio.to_thread(self._database.changed, seen_version)
                if changed:
                    try:
                        saved, updated = await asyncio.to_thread(self._database.current)
                        if updated != seen_updated:
                            seen_updated = updated
                            game = await asyncio.to_thread(table_view, saved, updated)
                    except ValueError as exc:  # a damaged saved game: shown as none until the kiosk replaces it
                        seen_updated, game = -1.0, {"kind": None, "error": str(exc)}
                    evening = await asyncio.to_thread(evening_view, self._database)
                    await self._publish(game | {"evening": evening})
            except NoDatabase as exc:
                seen_version, seen_updated = None, -1.0
                await self._publish({"kind": None, "waiting": True, "error": str(exc)})
            await asyncio.sleep(POLL_SECONDS)

    async def _publish(self, view: dict[str, Any]) -> None:
        text = json.dumps(view, separators=(",", ":"))
        if text == self.text:
            return
        async with self._changed:
            self.text = text
            self.sequence += 1
            self._changed.notify_all()

    def open_stream(self) -> Response | None:
        """A spectator's live stream, or None while :data:`MAX_STREAMS` are open. The place is
        taken here, as the request is answered, and given back when the stream ends however it
        ends: counted only once a stream began, a burst of requests all passed the check first
        (98 streams of 99 sent at once) and staff found no connection left."""
        if self.streams >= MAX_STREAMS:
            return None
        self.streams += 1
        return _CountedStream(self._views(), self._release, ping=15)

    def _release(self) -> None:
        self.streams -= 1

    async def _views(self) -> AsyncIterator[dict[str, str]]:
        """Each view from now on, as server-sent events (the current one first)."""
        sent = -1
        while True:
            async with self._changed:
                await self._changed.wait_for(lambda: self.sequence != sent)
                sent, text = self.sequence, self.text
            yield {"event": "table", "id": str(sent), "data": text}


class _CountedStream(EventSourceResponse):
    """An event stream that calls ``release`` when it ends, whether it ran, failed or never began
    (a spectator gone before the first byte)."""

    def __init__(self, views: AsyncIterator[dict[str, str]], release: Callable[[], None], ping: int) -> None:
        super().__init__(views, ping=ping)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def create_app(config: Config, directory: Path, clock: Callable[[], float] = time.monotonic) -> Starlette:
    """The application for ``config``, reading the kiosk's database in ``directory`` (and keeping
    the staff PIN's lockout there); ``clock`` times the staff sessions."""
    database = KioskDatabase(directory)
    feed = TableFeed(database)
    sessions = Sessions(config.web.session_minutes * 60.0, clock)
    guard = PinGuard(ConfiguredPin(config.source, "the web page", config.kiosk.staff_pin,
                                   on_change=sessions.end_all), directory)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(feed.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            database.close()

    def table_language() -> str:
        """The language the table shows now (a staff change included), else its configuration's."""
        try:
            applied = database.status().get("applied")
            shown = applied.get("language") if isinstance(applied, dict) else database.overrides().get("language")
        except NoDatabase:
            shown = None
        return shown if shown in LANGUAGES else config.kiosk.language

    def refused(request: Request, status: int, message: str, headers: dict[str, str] | None = None,
                **fields: object) -> Response:
        """An error for the page to show as it is (:func:`refusal`)."""
        return JSONResponse(refusal(request, message, **fields), status, headers=headers)

    def refusal(request: Request, message: str, **fields: object) -> dict[str, object]:
        """An error's words for the page to show as they are, in the request's language (the page
        sends its own), else in the configured one (no database read for a refusal); its fields
        beside it, for a program."""
        language = chosen(request.headers.get("accept-language"), config.kiosk.language)
        return {"error": said(language, message, **fields)} | fields

    def spectators(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            if not config.web.spectators:
                return refused(request, 404, "The spectator page is off ([web] spectators = false).")
            return await endpoint(request)
        return guarded

    def staff(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            if not sessions.valid(request.cookies.get(COOKIE)):
                return refused(request, 401, "Sign in with the staff PIN.")
            return await endpoint(request)
        return guarded

    async def page_words(request: Request) -> Response:
        language = chosen(request.headers.get("accept-language"), await asyncio.to_thread(table_language))
        return JSONResponse({"language": language, "languages": dict(LANGUAGE_NAMES), "words": dict(words(language))})

    @spectators
    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    @spectators
    async def table_now(request: Request) -> Response:
        return Response(feed.text, media_type="application/json")

    @spectators
    async def events(request: Request) -> Response:
        stream = feed.open_stream()
        if stream is None:
            return refused(request, 503, "Too many spectators at once: try again in a minute.",
                           headers={"retry-after": "60"})
        return stream

    async def staff_page(request: Request) -> Response:
        return FileResponse(STATIC / "staff.html")

    async def login(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        if not guard.configured:
            return refused(request, 403, "No staff PIN is set in the configuration ([kiosk] staff_pin): "
                                         "the web page accepts none until one is.")
        try:
            checked = await asyncio.to_thread(guard.check, body.get("pin"))
        except Unrecorded as exc:
            return refused(request, 503, "No PIN is checked while wrong PINs cannot be counted ({detail}).",
                           detail=str(exc))
        if checked.wait > 0:
            return locked(request, checked.wait)
        if not checked.right:
            return refused(request, 401, "Wrong PIN.")
        response = JSONResponse({"ok": True})
        response.set_cookie(COOKIE, sessions.start(), httponly=True, samesite="strict", path="/",
                            secure=_over_tls(request))
        return response

    async def logout(request: Request) -> Response:
        body = await _json_body(request)  # a form from another site must not sign staff out
        if isinstance(body, Response):
            return body
        sessions.end(request.cookies.get(COOKIE))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=_over_tls(request))
        return response

    @staff
    async def staff_state(request: Request) -> Response:
        try:
            status, overrides, statistics, ladder = await asyncio.to_thread(
                lambda: (database.status(), database.overrides(), database.statistics(), database.ladder()))
        except NoDatabase as exc:
            return refused(request, 503, "The kiosk's database cannot be used now ({detail}).", detail=str(exc))
        settings = {"language": config.kiosk.language, "brightness": config.rings.brightness,
                    "coach": config.rules.coach, "languages": list(LANGUAGES)}
        settings.update({k: v for k, v in overrides.items() if k in STAFF_SETTINGS})
        seen = status.get("seen")
        return JSONResponse({"kiosk": {"devices": status.get("devices", []), "reports": status.get("reports", []),
                                       "applied": status.get("applied"),
                                       "seen_seconds_ago": time.time() - seen if isinstance(seen, (int, float)) else None},
                             "club": status.get("club"),
                             "ladder": [{"name": row.player.name, "avatar": row.player.avatar,
                                         "points": row.rating.points, "games": row.games} for row in ladder],
                             "settings": settings, "statistics": statistics, "game": json.loads(feed.text)})

    @staff
    async def change_settings(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        if not body or set(body) - set(STAFF_SETTINGS):
            return refused(request, 422, "Send some of {settings}, nothing else.", settings=", ".join(STAFF_SETTINGS))
        try:
            changes = {key: STAFF_SETTINGS[key](value) for key, value in body.items()}
        except ValueError as exc:
            return refused(request, 422, "This setting is refused ({detail}).", detail=str(exc))
        try:
            merged = await asyncio.to_thread(database.set_overrides, changes)
        except NoDatabase as exc:
            return refused(request, 503, "The kiosk's database cannot be used now ({detail}).", detail=str(exc))
        return JSONResponse({"ok": True, "settings": merged})

    @staff
    async def restart(request: Request) -> Response:
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            await asyncio.to_thread(database.request_restart)
        except NoDatabase as exc:
            return refused(request, 503, "The kiosk's database cannot be used now ({detail}).", detail=str(exc))
        return JSONResponse({"ok": True})

    @staff
    async def export_records(request: Request) -> Response:
        """The finished games as JSON lines; refused while the database cannot be read (an empty
        file would say no game was ever kept). Its first batch is read before the answer begins;
        one the database fails part-way ends with why, then is broken off (:class:`_BrokenOffOnFailure`)."""
        records = database.records()
        try:
            first = await asyncio.to_thread(list, itertools.islice(records, 1))
        except NoDatabase as exc:
            return refused(request, 503, "The kiosk's database cannot be used now ({detail}).", detail=str(exc))

        lines = (json.dumps(record, separators=(",", ":")) + "\n" for record in itertools.chain(first, records))
        stamp = time.strftime("%Y%m%d-%H%M%S")

        def why(exc: NoDatabase) -> dict[str, object]:
            return refusal(request, "The export was broken off: the kiosk's database could not be read "
                                    "part-way ({detail}).", detail=str(exc))

        return _BrokenOffOnFailure(lines, why, media_type="application/x-ndjson", headers={
            "content-disposition": f'attachment; filename="tantrix-records-{stamp}.jsonl"'})

    async def _json_body(request: Request) -> dict[str, Any] | Response:
        """A small JSON object from this site's own pages (a form or script elsewhere cannot send
        one without a CORS preflight, which this server never grants). Where a request comes from
        is the browser's word, ``Sec-Fetch-Site``, when it gives it (no page can set it): behind a
        reverse proxy the Host is the upstream address and the Origin the proxy's, so only that
        tells the staff page from another site there. A browser without it (or over plain HTTP,
        where Chromium leaves it out) is judged by its Origin, which must name the Host."""
        fetched_from = request.headers.get("sec-fetch-site")
        origin = request.headers.get("origin")
        if fetched_from is not None:
            foreign = fetched_from != "same-origin"
        else:
            foreign = origin is not None and origin.split("://", 1)[-1] != request.headers.get("host")
        if foreign:
            return refused(request, 403, "Requests from other sites are refused.")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return refused(request, 415, "Send JSON (content-type: application/json).")
        try:
            data = json.loads(await request.body())
        except (ValueError, RecursionError):  # RecursionError: brackets nested a thousand deep
            return refused(request, 400, "The request is not valid JSON.")
        return data if isinstance(data, dict) else refused(request, 400, "Send a JSON object.")

    def locked(request: Request, seconds: float) -> Response:
        wait = int(seconds) + 1
        return refused(request, 429, "Too many wrong PINs: try again in {retry_after} s.",
                       headers={"retry-after": str(wait)}, retry_after=wait)

    app = Starlette(routes=[
        Route("/", table_page),
        Route("/api/table", table_now),
        Route("/api/words", page_words),
        Route("/events", events),
        Route("/staff", staff_page),
        Route("/api/login", login, methods=["POST"], max_body_size=MAX_BODY),
        Route("/api/logout", logout, methods=["POST"], max_body_size=MAX_BODY),
        Route("/api/staff", staff_state),
        Route("/api/settings", change_settings, methods=["POST"], max_body_size=MAX_BODY),
        Route("/api/restart", restart, methods=["POST"], max_body_size=MAX_BODY),
        Route("/api/records", export_records),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(SecurityHeaders), Middleware(OwnHost)])

    return app


class _BrokenOffOnFailure(StreamingResponse):
    """A streamed answer (the records' export) that, when the database cannot be read part-way
    (NoDatabase), is broken off: the end of its body is never sent and the connection is closed,
    so a browser marks the download failed and a script sees a body cut short. Ended as usual, it
    gave the lines before the failure as a whole file, as if no game came after them. Its last
    line before the break says why (``why(exc)``: ``{"error": ...}``, as a refusal), so that the
    staff page tells staff, not only the browser's "download failed"."""

    def __init__(self, content: Iterator[str], why: Callable[[NoDatabase], dict[str, object]],
                 **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._why = why

    async def stream_response(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        try:
            async for chunk in self.body_iterator:
                await send({"type": "http.response.body", "body": chunk.encode(self.charset)
                            if isinstance(chunk, str) else bytes(chunk), "more_body": True})
        except NoDatabase as exc:
            log.error("the export was broken off (the browser is told it failed): %s", exc)
            said = json.dumps(self._why(exc), ensure_ascii=False) + "\n"
            await send({"type": "http.response.body", "body": said.encode(), "more_body": True})
            return  # uvicorn closes the connection of an answer left unfinished
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _over_tls(request: Request) -> bool:
    """Whether the browser reached the pages over HTTPS, through a TLS reverse proxy that says
    so (``X-Forwarded-Proto: https``, as nginx's ``proxy_set_header X-Forwarded-Proto
    $scheme`` sends): then the session cookie is ``Secure``, never sent back over plain HTTP.
    Over plain HTTP it cannot be (browsers drop a Secure cookie set there). The header is
    believed from anyone: all it can do is make the sender's own cookie stricter."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (a plain ASGI middleware, so the event
    streams pass through unbuffered)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class OwnHost:
    """Answers only requests addressed to this Pi: by an IP address, ``localhost`` or the Pi's own
    name (with ``.local``, as mDNS gives it). A DNS-rebinding page on the Internet reaches the Pi
    through the browser of someone on the café's Wi-Fi with its own domain name in ``Host``; that
    is refused, so such a page can neither try PINs (locking staff out) nor read the table."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        name = socket.gethostname().lower()
        self.names = {"localhost", name, f"{name}.local", socket.getfqdn().lower()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.allowed(Headers(scope=scope).get("host", "")):
            language = chosen(Headers(scope=scope).get("accept-language"), "en")
            await JSONResponse({"error": said(language, "This page answers only at the table's own address.")},
                               400)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def allowed(self, host: str) -> bool:
        """Whether ``host`` (a Host header: a name or address, maybe with a port) names this Pi."""
        try:
            name = urllib.parse.urlsplit(f"//{host}").hostname or ""
        except ValueError:  # "[::1" and the like
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name.rstrip(".") in self.names
        return True  # an address is never a rebinding: the attacker's page cannot send one as its own
