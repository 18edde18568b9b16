"""KioskDevices with simulated backends: UI events at the sink, cues on the rings, enrolment,
brightness from the settings, and broken device tables that fall back to defaults."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware.config import load_config
from firmware.devices import PLAYER_COLOURS, ring_cue
from firmware.runtime import Launch, Runtime
from firmware.store import SqliteStore
from firmware_devices_support import Sink, open_devices, wait_until
from flaky_strip import FlakyStrip
from hardware import Attract, ButtonConfig, Off, Play, ReaderConfig, RegistryError, RingsConfig, Winner
from hardware.board import Board
from hardware.registry import synthetic_uid
from hardware.rings import ERROR_COLOUR, OTHER_SEAT_LEVEL, WHITE, dim
from hardware.strips import Opened
from ui import services as ui

ROOT = Path(__file__).resolve().parent.parent
SMALL_RINGS = """
[rings]
backend = "simulated"
brightness = 1.0
rings = [{leds = 3}, {leds = 3}, {leds = 3}, {leds = 3}]
"""
BLACK = (0, 0, 0)


@pytest.fixture
def store(tmp_path):
    with SqliteStore(tmp_path / "state") as store:
        yield store


def test_simulated_presses_and_scans_arrive_as_ui_events(tmp_path, store):
    devices, sink, reports = open_devices(tmp_path, store, simulate=True)
    with devices:
        members = set(ui.Devices.__annotations__) | {name for name in vars(ui.Devices) if not name.startswith("_")}
        assert members and all(callable(getattr(devices, name)) for name in members)
        assert devices.simulated() and reports == []
        devices.press_button()
        devices.press_button(held=True)
        devices.scan(17, 2)
        devices.scan(17, 2)  # the same tile put down again: a second scan
        devices.scan(40, None)
        devices.reader.scan("99887766AA", reader=1)  # a tag no tile has
        devices.reader.scan("99887766AB", reader=4)  # the central pad of four seats
        assert sink.inputs() == [ui.BagButtonPressed(), ui.BagButtonHeld(), ui.TileScanned(17, 2),
                                 ui.TileScanned(17, 2), ui.TileScanned(40, None), ui.UnknownTag("99887766AA", 1),
                                 ui.UnknownTag("99887766AB", None)]
        with pytest.raises(ValueError, match="no seat 4: the seats are 0 to 3"):
            devices.scan(17, 4)
        with pytest.raises(RegistryError, match="tile 57"):
            devices.scan(57, 0)
        assert devices.status() == [ui.DeviceStatus("button", True, "simulated"),
                                    ui.DeviceStatus("reader", True, "simulated"),
                                    ui.DeviceStatus("rings", True, "simulated", "asked for in rings.backend")]


def test_attach_sends_the_state_then_the_events_and_close_stops_them(tmp_path, store):
    devices, _, _ = open_devices(tmp_path, store, SMALL_RINGS, simulate=True)
    late = Sink()
    with devices:
        devices.attach(None)
        devices.press_button()  # nobody listens yet: dropped
        devices.attach(late)
        assert [e.name for e in late.events[:3]] == ["button", "reader", "rings"]
        assert ui.RingFrames(((BLACK,) * 3,) * 4) in late.events
        devices.scan(5, 0)
        assert late.inputs() == [ui.TileScanned(5, 0)]
    threads = {thread.name for thread in threading.enumerate()}
    assert not threads & {"led-rings", "tile-reader", "bag-button"}
    count = len(late.events)
    devices.close()  # twice is fine
    assert len(late.events) == count  # the dark frame of closing is not posted


def test_a_turn_lights_that_seat_in_its_colour_and_frames_reach_the_sink(tmp_path, store):
    devices, sink, _ = open_devices(tmp_path, store, SMALL_RINGS + "centre = {leds = 2}\n", simulate=True)
    red, yellow, green = PLAYER_COLOURS["R"], PLAYER_COLOURS["Y"], PLAYER_COLOURS["G"]
    expected = ((dim(red, OTHER_SEAT_LEVEL),) * 3, (yellow,) * 3, (dim(green, OTHER_SEAT_LEVEL),) * 3,
                (BLACK,) * 3, (yellow, BLACK))  # seat 3 empty; centre: one forced space
    with devices:
        devices.cue(ui.Cue(turn=1, colours=("R", "Y", "G", ""), forced=1))
        assert sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings == expected)
        assert tuple(map(tuple, devices.rings.strip.frame)) == expected
        devices.cue(ui.Cue())
        assert sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings == ((BLACK,) * 3,) * 4 + ((BLACK,) * 2,))


def test_ring_frames_are_bounded_by_the_ring_frame_rate(tmp_path, store):
    devices, sink, _ = open_devices(tmp_path, store, SMALL_RINGS + "fps = 20\n", simulate=True)
    with devices:
        start = time.monotonic()
        devices.cue(ui.Cue(attract=True))
        sink.next(ui.RingFrames)
        wait_until(lambda: len(sink.since(ui.RingFrames)) >= 3)  # it animates
        frames = sink.since(ui.RingFrames)
        elapsed = time.monotonic() - start
    assert len(frames) <= elapsed * 20 + 2  # and never faster than fps, however long the wait took
    assert len({frame.rings for frame in frames}) == len(frames)  # each one new


def test_ui_cues_become_ring_cues():
    blue = PLAYER_COLOURS["B"]
    assert ring_cue(ui.Cue()) == Off()
    assert ring_cue(ui.Cue(attract=True, turn=0, colours=("R",))) == Attract()
    # a shared win (a tie, a Doubles team) celebrates every winning seat, not only the first
    assert ring_cue(ui.Cue(winners=(1, 0), colours=("R", "B"), turn=1)) == Winner(1, blue, ((0, PLAYER_COLOURS["R"]),))
    assert ring_cue(ui.Cue(winners=(1,), colours=("R", "B"))) == Winner(1, blue)
    assert ring_cue(ui.Cue(winners=(2,), colours=("R", "B"))) == Winner(2, WHITE)
    assert ring_cue(ui.Cue(turn=1, colours=("R", "B"), pulse=True, forced=2, bag_empty=True)) == \
        Play((PLAYER_COLOURS["R"], blue), 1, True, 2, True, arcs=(1, 4))
    assert ring_cue(ui.Cue(colours=("", "B"))) == Play((None, blue), None, arcs=(1, 4))
    assert ring_cue(ui.Cue(colours=("Y", "G"))).arcs == (2, 3)  # each colour's shape (ui.theme.SEAT_ARCS)
    with pytest.raises(ValueError, match="unknown player colour 'P'"):
        ring_cue(ui.Cue(turn=0, colours=("P",)))


def test_brightness_from_the_settings_scales_the_frames_and_persists(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path / "state"}"\n' + SMALL_RINGS)
    yellow = PLAYER_COLOURS["Y"]
    with Runtime(Launch(config=str(config), simulate=True), environ={}) as runtime:
        sink = Sink()
        runtime.devices.attach(sink)
        runtime.devices.cue(ui.Cue(turn=0, colours=("Y",)))
        sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings[0] == (yellow,) * 3)
        runtime.settings.set_brightness(0.5)  # staff turn it down
        sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings[0] == (dim(yellow, 0.5),) * 3)
    with Runtime(Launch(config=str(config), simulate=True), environ={}) as runtime:  # remembered
        runtime.devices.cue(ui.Cue(turn=0, colours=("Y",)))
        wait_until(lambda: runtime.devices.rings.strip.frame[0] == [dim(yellow, 0.5)] * 3)


def test_enrolment_learns_tags_in_order_and_posts_progress(tmp_path, store):
    devices, sink, _ = open_devices(tmp_path, store, simulate=True)
    new_3, new_2 = "A000000003", "A000000002"
    with devices:
        registry = devices.reader.registry
        devices.start_enrolment([3, 1, 2])
        devices.reader.scan(new_3, reader=4)  # tile 3 had a tag: the new one replaces it
        devices.reader.scan(new_3, reader=4)  # still lying there: nothing new
        devices.reader.scan(synthetic_uid(40), reader=4)  # tile 40's tag while tile 1 is expected
        devices.scan(1, None)  # tile 1 with the tag it already had
        devices.scan(1, None)  # put down again: a repeat, ignored
        devices.reader.scan(new_2, reader=0)
        devices.scan(3, 0)  # enrolment over: scans are tiles again
        progress = [e for e in sink.inputs() if isinstance(e, ui.EnrolmentProgress)]
        assert progress == [
            ui.EnrolmentProgress(0, 3), ui.EnrolmentProgress(1, 1),
            ui.EnrolmentProgress(1, 1, f"tag {synthetic_uid(40)} is already enrolled as tile 40"),
            ui.EnrolmentProgress(2, 2), ui.EnrolmentProgress(3, None)]
        assert [e for e in sink.inputs() if isinstance(e, ui.TileScanned)] == [ui.TileScanned(3, 0)]
        assert (registry.tile(new_3), registry.tile(new_2), registry.uid(1)) == (3, 2, synthetic_uid(1))
        assert registry.tile(synthetic_uid(3)) is None and registry.tile(synthetic_uid(40)) == 40

        devices.start_enrolment([7])
        devices.cancel_enrolment()
        devices.scan(7, 1)
        assert sink.inputs()[-2:] == [ui.EnrolmentProgress(0, 7), ui.TileScanned(7, 1)]
        with pytest.raises(RegistryError, match="names a tile twice"):
            devices.start_enrolment([4, 4])


def test_a_simulated_run_never_writes_tags_into_the_kiosk_database(tmp_path, store):
    devices, _, _ = open_devices(tmp_path, store, simulate=True)
    with devices:
        devices.start_enrolment([9])
        devices.reader.scan("A000000009", reader=0)
        assert devices.reader.registry.tile("A000000009") == 9
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM tile_tags").fetchone() == (0,)


BROKEN = """
[button]
pin = 40
pins = 3
bounce_s = 0.9
hold_s = 0.5
[reader]
protocol = "rfid"
baudrate = 115200
[rings]
backend = "simulated"
rings = [{leds = 12}, {leds = 0}]
brightness = 3
fps = 20
"""


def test_a_broken_device_table_names_file_and_key_and_keeps_the_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(BROKEN)
    config = load_config(path, environ={})
    assert config.warnings == tuple(f"{path}: {warning}" for warning in (
        ("unknown key button.pins (did you mean pin?); ignored "
         "(the keys of [button] are backend, pin, pull_up, bounce_s, hold_s, rearm_s)"),
        "button.pin: expected an integer from 0 to 27, got 40; using the default 17",
        "button.hold_s: expected more than bounce_s (0.9), got 0.5; using the default 3.0",
        "reader.protocol: expected one of 'rdm6300', 'pn532', 'lines', got 'rfid'; using the default \"rdm6300\"",
        "rings.rings[1].leds: expected an integer from 1 to 300, got 0; using the default",
        "rings.brightness: expected a number from 0 to 1, got 3; using the default 0.4",
    ))
    # every other key of the tables still applies
    assert config.button == ButtonConfig(bounce_s=0.9)
    assert config.reader == ReaderConfig(baudrate=115200)
    assert config.rings == RingsConfig(backend="simulated", fps=20)


def test_broken_device_tables_reach_staff_and_check_config(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path / "state"}"\n' + BROKEN)
    with Runtime(Launch(config=str(config), simulate=True), environ={}) as runtime:
        assert [w for w in runtime.settings.warnings if "button.pin: expected an integer" in w]
        assert runtime.devices.seats == 4 and all(status.ok for status in runtime.devices.status())
    done = subprocess.run([sys.executable, "-m", "firmware", "check-config", str(config)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 6 and all(line.startswith(f"{config}: ") for line in lines)
    assert any("rings.rings[1].leds: expected an integer from 1 to 300, got 0" in line for line in lines)


def test_a_device_that_fails_is_reported_shown_and_blinks_the_rings(tmp_path, store, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    devices, sink, reports = open_devices(tmp_path, store, SMALL_RINGS + '[button]\nbackend = "gpio"\n',
                                          board=Board.PI)
    with devices:
        button = devices.status()[0]
        assert not button.ok and button.backend == "simulated" and "GPIO17" in button.detail
        (report,) = reports
        assert report.startswith("the bag button cannot be used (GPIO17: ") and "a simulated one stands in" in report
        blink = ((ERROR_COLOUR, BLACK, BLACK),) * 4  # no centre ring: each seat ring's first LED
        assert sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings == blink)
        assert devices.simulated()  # the stand-in button can be pressed from the screen
        devices.press_button()
        assert ui.BagButtonPressed() in sink.inputs()


def test_a_strip_that_refuses_a_still_picture_is_reported_then_shows_it_again(tmp_path, store, monkeypatch):
    strip = FlakyStrip()
    monkeypatch.setattr("hardware.rings.open_strip", lambda config, board: Opened(strip, "asked for", None))
    devices, sink, reports = open_devices(tmp_path, store, SMALL_RINGS.replace('"simulated"', '"spi"')
                                          + '[button]\nbackend = "simulated"\n', board=Board.PI)
    red = PLAYER_COLOURS["R"]
    with devices:
        wait_until(lambda: strip.frames)  # the dark start
        strip.refuse = 3  # the connector works loose...
        devices.cue(ui.Cue(turn=0, colours=("R",)))  # ...as the game shows a still picture
        lost = sink.next(lambda e: isinstance(e, ui.DeviceStatus) and e.name == "rings")
        assert lost == ui.DeviceStatus("rings", False, "spi", "spi: OSError: [Errno 5] Input/output error")
        back = sink.next(lambda e: isinstance(e, ui.DeviceStatus) and e.name == "rings")
        assert back == ui.DeviceStatus("rings", True, "spi", "/dev/spidev0.0")
        picture = ((red,) * 3,) + ((BLACK,) * 3,) * 3
        wait_until(lambda: strip.frames[-1] == picture)  # shown again
        assert all(status.ok for status in devices.status()) and reports == []


def test_auto_backends_off_a_pi_are_simulated_and_fine(tmp_path, store):
    devices, sink, reports = open_devices(tmp_path, store, board=Board.OTHER)
    with devices:
        assert devices.simulated() and reports == []
        assert [(s.name, s.ok, s.backend) for s in devices.status()] == [
            ("button", True, "simulated"), ("reader", True, "simulated"), ("rings", True, "simulated")]
        assert devices.status()[2].detail.startswith("not a Raspberry Pi")
        time.sleep(0.3)  # longer than a blink
        frames = [e.rings for e in sink.events if isinstance(e, ui.RingFrames)] + [devices.rings.strip.frame]
        assert all(led == BLACK for frame in frames for ring in frame for led in ring)  # no error blink


def test_a_damaged_tag_table_is_reported_kept_and_the_reader_runs_on(tmp_path, store):
    db = sqlite3.connect(store.path)
    with db:
        db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('not hex', 3)")
    missing = tmp_path / "no-reader"
    devices, sink, reports = open_devices(tmp_path, store, f'[reader]\nport = "{missing}"\n', board=Board.OTHER)
    with devices:
        (report,) = reports
        assert report.startswith(f"the tile tags in {store.path} cannot be read (a tag UID is 4 to 32 hex digits")
        lost = sink.next(ui.DeviceStatus)
        assert (lost.name, lost.ok, lost.backend) == ("reader", False, f"serial:{missing}")
        assert "could not open port" in lost.detail and devices.status()[1] == lost
        devices.reader.registry.enrol("0A1B2C3D4E", 3)  # learning goes on, in memory
    assert db.execute("SELECT uid, tile FROM tile_tags").fetchall() == [("not hex", 3)]  # nothing lost
    db.close()


def test_a_store_in_memory_hands_the_reader_every_enrolled_tag(tmp_path):
    store = SqliteStore(tmp_path / "state", busy_seconds=0.05)
    store._db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('0A1B2C3D4E', 5), ('not hex', 6)")
    blocker = sqlite3.connect(store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock: the store goes to memory
    store.save_current({"kind": "x", "state": {}})
    blocker.execute("ROLLBACK")
    blocker.close()
    try:
        assert store.in_memory
        devices, _sink, _reports = open_devices(tmp_path, store, f'[reader]\nport = "{tmp_path / "none"}"\n',
                                                board=Board.OTHER)
        with devices:
            registry = devices.reader.registry
            assert registry.tile("0A1B2C3D4E") == 5 and registry.tile(synthetic_uid(5)) is None
    finally:
        store.close()
