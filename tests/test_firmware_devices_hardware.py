"""KioskDevices over real driver code: a serial reader on a pseudo-terminal (unplugged and plugged
back), and the gpiozero button through its MockFactory."""

from __future__ import annotations

import sqlite3
import time

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.devices import NotSimulated
from firmware.store import SqliteStore
from firmware_devices_support import open_devices, wait_until
from hardware import SqliteTagStore, TagRegistry
from hardware.board import Board
from hardware.protocols import rdm6300_frame
from hardware.rings import ERROR_COLOUR
from test_hardware_reader import PtyDevice  # the pty that plays the reader hardware, unplug and all
from ui import services as ui

TAG = "0A1B2C3D4E"
BLACK = (0, 0, 0)


def blinking(event: ui.Event) -> bool:
    """A frame of the error blink: the centre ring (the third ring here) all red."""
    return isinstance(event, ui.RingFrames) and event.rings[2] == (ERROR_COLOUR,) * 2


@pytest.fixture
def store(tmp_path):
    with SqliteStore(tmp_path / "state") as store:
        yield store


def test_serial_reader_enrols_persists_and_blinks_while_unplugged(tmp_path, store):
    pty = PtyDevice(tmp_path / "usb-reader")
    devices, sink, _ = open_devices(tmp_path, store, f"""
        [button]
        backend = "simulated"
        [reader]
        port = "{pty.link}"
        reconnect_s = 0.1
        [rings]
        backend = "simulated"
        brightness = 1.0
        rings = [{{leds = 2}}, {{leds = 2}}]
        centre = {{leds = 2}}
    """)
    try:
        with devices:
            assert sink.next(ui.DeviceStatus) == ui.DeviceStatus("reader", True, f"serial:{pty.link}")
            assert not devices.simulated()
            with pytest.raises(NotSimulated, match="the tile reader is real"):
                devices.scan(5, None)

            devices.start_enrolment([5])
            pty.write(rdm6300_frame(TAG) * 2)
            assert sink.next(lambda e: e == ui.EnrolmentProgress(1, None))
            assert TagRegistry(SqliteTagStore(store.path)).tile(TAG) == 5  # in the kiosk's database

            pty.unplug()
            lost = sink.next(ui.DeviceStatus)
            assert (lost.name, lost.ok, lost.backend) == ("reader", False, f"serial:{pty.link}") and lost.detail
            assert not devices.status()[1].ok
            sink.next(blinking)

            pty.plug()
            assert sink.next(ui.DeviceStatus) == ui.DeviceStatus("reader", True, f"serial:{pty.link}")
            sink.next(lambda e: isinstance(e, ui.RingFrames) and e.rings[2] == (BLACK,) * 2)
            time.sleep(0.35)  # longer than half a blink period
            assert not [e for e in sink.since(ui.RingFrames) if blinking(e)]
            assert devices.status()[1].ok

            pty.write(rdm6300_frame(TAG) * 2)  # a single RDM6300 reader is the central pad
            assert sink.next(ui.TileScanned) == ui.TileScanned(5, None)
    finally:
        if pty.link.is_symlink():
            pty.unplug()


def test_a_tag_the_disk_refuses_during_enrolment_is_told_to_staff_and_learnt_when_put_again(tmp_path, store):
    pty = PtyDevice(tmp_path / "usb-reader")
    devices, sink, _ = open_devices(tmp_path, store, f'[reader]\nport = "{pty.link}"\n', board=Board.OTHER)
    db = sqlite3.connect(store.path)
    db.execute("CREATE TRIGGER full BEFORE INSERT ON tile_tags BEGIN SELECT RAISE(ABORT, 'disk is full'); END")
    db.commit()
    try:
        with devices:
            # the port is set raw before a frame is sent: a tty still in its cooked mode reads the
            # frame's ETX (0x03) as ^C and throws the line away
            sink.next(lambda e: e == ui.DeviceStatus("reader", True, f"serial:{pty.link}"))
            devices.start_enrolment([5, 6])
            pty.write(rdm6300_frame(TAG) * 2)
            refused = sink.next(lambda e: isinstance(e, ui.EnrolmentProgress) and e.error)
            assert refused == ui.EnrolmentProgress(0, 5, f"tag {TAG} could not be saved (disk is full); "
                                                         "lift the tile and put it down again")
            assert devices.reader.registry.tile(TAG) is None  # not claimed while the disk lacks it
            db.execute("DROP TRIGGER full")
            db.commit()
            wait_until(lambda: not devices.reader.present())  # lifted: the reader fell silent
            pty.write(rdm6300_frame(TAG) * 2)
            assert sink.next(ui.EnrolmentProgress) == ui.EnrolmentProgress(1, 6)
        assert TagRegistry(SqliteTagStore(store.path)).tile(TAG) == 5
    finally:
        db.close()
        pty.unplug()


def test_gpio_button_through_mock_factory(tmp_path, store):
    factory = MockFactory()
    devices, sink, reports = open_devices(tmp_path, store, """
        [button]
        backend = "gpio"
        pin = 27
        bounce_s = 0.01
        hold_s = 1.0
        [rings]
        backend = "simulated"
    """, board=Board.PI, pin_factory=factory)
    pin = factory.pin(27)
    try:
        with devices:
            assert devices.status()[0] == ui.DeviceStatus("button", True, "gpio", "GPIO27") and reports == []
            pin.drive_low()
            wait_until(lambda: devices.button.is_pressed)  # held down until the button has seen it
            pin.drive_high()
            assert sink.next(ui.BagButtonPressed)
            pin.drive_low()
            assert sink.next(ui.BagButtonHeld)
            pin.drive_high()
            assert not devices.simulated()
            with pytest.raises(NotSimulated, match="the bag button is real"):
                devices.press_button()
        assert sink.inputs() == [ui.BagButtonPressed(), ui.BagButtonHeld()]
    finally:
        factory.close()


def test_staff_write_tile_numbers_on_blank_stickers_with_a_pn532(tmp_path, store):
    from hardware.ntag import tile_tlv
    from test_hardware_pn532 import UID, SimulatedPn532, ntag213

    pn532 = SimulatedPn532()
    devices, sink, _ = open_devices(tmp_path, store, f"""
        [button]
        backend = "simulated"
        [reader]
        port = "{pn532.path}"
        protocol = "pn532"
        removal_silence_s = 0.3
        [rings]
        backend = "simulated"
    """)
    try:
        with devices:
            sink.next(lambda e: e == ui.DeviceStatus("reader", True, f"serial:{pn532.path}"))
            devices.start_writing(55)
            assert sink.next(ui.StickerProgress) == ui.StickerProgress(0, 55)
            pn532.tag = ntag213(UID)
            assert sink.next(ui.StickerProgress) == ui.StickerProgress(1, 56, 55)  # "now tile 55"
            pn532.tag = None
            wait_until(lambda: devices.reader.present() == {})  # the reader has seen the sticker go
            pn532.tag = ntag213(UID[::-1])
            assert sink.next(ui.StickerProgress) == ui.StickerProgress(2, None, 56)  # the last tile: done
            assert not any(isinstance(e, (ui.TileScanned, ui.UnknownTag)) for e in sink.events)  # no moves
            pn532.tag = None
            wait_until(lambda: devices.reader.present() == {})  # the reader has seen the sticker go
            pn532.tag = ntag213(bytes.fromhex("04 AA BB CC DD EE FF"), tile_tlv(55))
            assert sink.next(ui.TileScanned) == ui.TileScanned(55, None)  # writing over: a move again
    finally:
        pn532.close()


def test_a_reader_that_cannot_write_says_so(tmp_path, store):
    pty = PtyDevice(tmp_path / "usb-reader")
    devices, sink, _ = open_devices(tmp_path, store, f"""
        [button]
        backend = "simulated"
        [reader]
        port = "{pty.link}"
        [rings]
        backend = "simulated"
    """)
    try:
        with devices:
            devices.start_writing(1)
            progress = sink.next(ui.StickerProgress)
            assert progress.next_tile is None and "rdm6300 reader cannot write tags; a PN532 reader can" in progress.error
    finally:
        pty.unplug()
