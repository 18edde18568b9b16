"""The table's web pages on the local network (``tantrix-web``): its own process and systemd unit.

Staff see the kiosk's health, the current game, statistics and records, and change the brightness
and language after the staff PIN; spectators follow the live board, scores and hands, read-only and
without a PIN. Everything comes from the kiosk's SQLite database, read in WAL mode beside the kiosk
(a slow phone can never slow the table); the only write there is the staff overrides the kiosk
already keeps there and takes up once a second (``firmware.settings.KioskSettings.poll``), and
the staff PIN's lockout has a small file of its own beside it. The kiosk itself opens no listening
socket, and this process opens none unless ``[web] enabled = true``.

Modules: ``database`` (the read-only reader and the one write), ``table`` (the game in progress as
the page draws it), ``auth`` (the staff PIN's check and sessions), ``lockout`` (the PIN's backoff,
kept on disk), ``app`` (the Starlette application), ``connections`` (uvicorn's HTTP protocol, with
a deadline for each request, room made by idle connections and a few for each client address), ``__main__`` (``tantrix-web``:
configuration, then uvicorn). The pages themselves are static files under ``static/`` that draw
with SVG and need nothing from the Internet.
"""
