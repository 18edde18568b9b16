"""The device runtime that boots on the Pi: entry point, configuration, persistence and watchdog.

It reads the configuration, starts the hardware backends, the engine and the UI, journals every step
to SQLite so a power cut loses nothing, and talks to systemd (readiness and watchdog).
"""
