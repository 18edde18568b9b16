"""The device runtime that boots on the Pi: entry point, configuration, persistence and watchdog.

It reads the configuration, starts the hardware backends, the engine and the UI, journals every step
to SQLite so a power cut loses nothing, and talks to systemd (readiness and watchdog).

Modules: ``config`` (the TOML file, typed and forgiving), ``pin`` (the hashed staff PIN),
``store`` (``SqliteStore``, the UI's Store), ``settings`` (``KioskSettings``, the UI's Settings,
and ``Reports``), ``devices`` (``KioskDevices``, the UI's Devices over ``hardware``), ``notify``
(sd_notify readiness and watchdog), ``logs`` (journal logging), ``status`` and ``restart`` (what
the kiosk leaves in the database for the web pages, and a restart they ask for), ``backoff`` (slower
starts while every start fails), ``runtime`` (opens and closes it all), ``__main__``
(``tantrix-kiosk`` and its commands).
"""
