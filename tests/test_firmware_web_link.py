"""The kiosk's side of the web pages: it takes up staff changes written to its database by another
process, and leaves its health there; the ``[web]`` table of the configuration."""

from __future__ import annotations

import time
from pathlib import Path

from firmware.config import load_config
from firmware.restart import EXIT_RESTART, RestartWatch
from firmware.settings import OVERRIDES, KioskSettings, Reports
from firmware.status import STATUS, StatusSnapshot
from firmware.store import SqliteStore, open_read_only
from ui.memory import memory_services
from web.database import KioskDatabase
from kiosk_process import kiosk_process



def settings_over(tmp_path: Path) -> tuple[KioskSettings, SqliteStore, list[object]]:
    store = SqliteStore(tmp_path / "state")
    settings = KioskSettings(load_config(tmp_path / "none.toml", environ={}), store, Reports())
    seen: list[object] = []
    settings.on_brightness, settings.on_language = seen.append, seen.append
    return settings, store, seen


def test_poll_takes_up_what_another_process_wrote_once(tmp_path):
    settings, store, seen = settings_over(tmp_path)
    settings.poll()
    assert seen == [] and settings.brightness == 0.4
    KioskDatabase(tmp_path / "state").set_overrides({"brightness": 0.8})
    settings.poll()
    settings.poll()
    assert settings.brightness == 0.8 and settings.language == "en" and seen == [0.8]
    KioskDatabase(tmp_path / "state").set_overrides({"language": "pl"})
    settings.poll()
    assert settings.language == "pl" and seen == [0.8, "pl"]
    settings.set_brightness(0.3)  # at the table: the kiosk's own write is no news to its poll
    settings.poll()
    assert seen == [0.8, "pl", 0.3] and store.progress(OVERRIDES) == {"language": "pl", "brightness": 0.3}


def test_a_bad_value_written_elsewhere_is_reported_not_applied(tmp_path):
    settings, store, seen = settings_over(tmp_path)
    KioskDatabase(tmp_path / "state").set_overrides({"brightness": 7})
    settings.poll()
    settings.poll()
    assert settings.brightness == 0.4 and seen == []
    assert [w for w in settings.warnings if "no longer valid" in w] != []


def test_the_read_only_connection_cannot_write(tmp_path):
    SqliteStore(tmp_path / "state").close()
    db = open_read_only(tmp_path / "state")
    try:
        db.execute("INSERT INTO progress (key, value) VALUES ('x', '{}')")
    except Exception as exc:
        assert "readonly" in str(exc).replace("-", "").replace(" ", "").lower()
    else:
        raise AssertionError("a read-only connection wrote")
    finally:
        db.close()


def test_the_status_snapshot_is_written_on_change_and_as_a_heartbeat(tmp_path):
    services = memory_services()
    now = [1000.0]
    snapshot = StatusSnapshot(services.store, services.devices, services.settings, clock=lambda: now[0],
                              heartbeat=60.0, running=lambda: now[0])
    snapshot.tick()
    first = services.store.progress(STATUS)
    assert first["seen"] == 1000.0 and first["applied"] == {"language": services.settings.language,
                                                            "brightness": services.settings.brightness,
                                                            "coach": services.settings.coach}
    now[0] = 1030.0
    snapshot.tick()
    assert services.store.progress(STATUS)["seen"] == 1000.0  # nothing new: no write
    services.devices.set_status("reader", False, "unplugged")
    snapshot.tick()
    changed = services.store.progress(STATUS)
    assert changed["seen"] == 1030.0 and {"name": "reader", "ok": False, "backend": "simulated",
                                          "detail": "unplugged"} in changed["devices"]
    now[0] = 1090.0
    snapshot.tick()
    assert services.store.progress(STATUS)["seen"] == 1090.0


def test_the_heartbeat_goes_on_when_the_wall_clock_is_set_back(tmp_path):
    services = memory_services()
    wall, running = [2_000_000_000.0], [50.0]
    snapshot = StatusSnapshot(services.store, services.devices, services.settings, clock=lambda: wall[0],
                              heartbeat=60.0, running=lambda: running[0])
    snapshot.tick()
    wall[0] -= 30 * 86400  # the network's time a month behind the time the Pi booted on
    running[0] += 61
    wall[0] += 61
    snapshot.tick()  # a heartbeat is due: the page must see the kiosk alive, at the clock's time now
    assert services.store.progress(STATUS)["seen"] == wall[0]
    wall[0] += 30 * 86400  # and forward again: a heartbeat is not written at every tick
    running[0] += 1
    snapshot.tick()
    assert services.store.progress(STATUS)["seen"] == 2_000_000_061.0 - 30 * 86400


def test_the_web_table_is_checked_like_the_others(tmp_path):
    path = tmp_path / "config.toml"
    assert load_config(path, environ={}).web.enabled is False
    path.write_text('[web]\nenabled = "yes"\nport = 80\nhost = "0.0.0.0; rm -rf"\nsession_minutes = 30\n')
    config = load_config(path)
    assert not config.web.enabled and config.web.port == 8080 and config.web.host == "0.0.0.0"
    assert any("web.enabled = \"yes\": expected true or false" in w for w in config.warnings)
    assert any("web.port = 80: expected a port number from 1024 to 65535" in w for w in config.warnings)
    assert any("web.host" in w for w in config.warnings)


def test_the_running_kiosk_takes_up_changes_and_a_restart_made_in_its_database(tmp_path):
    """The real kiosk process: a brightness and a language written as the web page writes them are
    applied on its UI clock, which says so in its status snapshot; a restart request stops it with
    the status systemd restarts."""
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path / "state"}"\n')
    with kiosk_process(tmp_path, config) as kiosk:
        kiosk.said("READY=1")
        database = KioskDatabase(tmp_path / "state")
        database.set_overrides({"brightness": 0.7, "language": "fr", "coach": False})
        deadline = time.monotonic() + 60
        while database.status().get("applied") != {"language": "fr", "brightness": 0.7, "coach": False}:
            assert time.monotonic() < deadline, f"the kiosk did not take the change up: {database.status()}"
            time.sleep(0.05)
        assert {d["name"] for d in database.status()["devices"]} == {"button", "reader", "rings"}
        database.request_restart()
        database.close()
        kiosk.process.wait(timeout=60)  # the kiosk stops by itself, for systemd to start it again
    process, stderr = kiosk.process, kiosk.stderr
    assert process.returncode == EXIT_RESTART, stderr
    assert "staff asked for a restart from the web page" in stderr


def test_only_a_restart_asked_for_after_the_start_counts(tmp_path):
    store = SqliteStore(tmp_path / "state")
    KioskDatabase(tmp_path / "state").request_restart()  # before this kiosk started: old news
    watch = RestartWatch(store)
    assert not watch.requested()
    KioskDatabase(tmp_path / "state").request_restart()
    assert watch.requested()


def test_the_spectators_address_for_the_staff_menus_qr_code(tmp_path):
    store = SqliteStore(tmp_path / "state")
    try:
        def address(web: str) -> str:
            (tmp_path / "web.toml").write_text(f"[web]\n{web}\n")
            return KioskSettings(load_config(tmp_path / "web.toml", environ={}), store, Reports()).web_address

        assert address("enabled = false") == ""
        assert address('enabled = true\nhost = "192.168.7.2"\nport = 8081') == "http://192.168.7.2:8081/"
        assert address('enabled = true\nhost = "192.168.7.2"\nspectators = false') == ""
        # this machine only (behind a reverse proxy): a QR code of it no phone could open
        for loopback in ("127.0.0.1", "127.0.1.1", "::1", "localhost", "LOCALHOST"):
            assert address(f'enabled = true\nhost = "{loopback}"') == "", loopback
        from firmware.settings import local_address
        found = local_address()
        assert address("enabled = true") == (f"http://{found}:8080/" if found else "")
    finally:
        store.close()
