"""The per-seat reader controller's firmware (controller/, MicroPython) run on CPython against
simulated readers: the scenarios of the kiosk's own reader tests (tag on, tag off, two seats at
once, a reader unplugged), every line checked by the kiosk's decoder, and end to end through a
pseudo-terminal into the kiosk's ``SerialTileReader`` found by its USB identity."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from hardware.config import ConfigError, ReaderConfig
from hardware.events import EventQueue, ReaderConnected, ReaderLost, TagRead, TagRemoved, UnknownTag
from hardware.protocols import Gone, Heartbeat, Hello, LineDecoder, Seen
from hardware.reader import CONTROLLER_USB, SerialTileReader
from hardware.registry import TagRegistry

CONTROLLER = Path(__file__).resolve().parent.parent / "controller"
PICO = CONTROLLER.parent / "bench" / "pico"
sys.path.insert(0, str(CONTROLLER))
import tiles_controller as tc  # noqa: E402  (the firmware's module, as the Pico imports it)

NTAG_A, NTAG_B = bytes.fromhex("04A1B2C3D4E5F6"), bytes.fromhex("04112233445566")


class SimulatedReader:
    """A reader with ``card`` (bytes or None) in its field; ``plugged = False`` is a pulled wire;
    ``flaky``: every other poll misses the tag, as real readers sometimes do."""

    def __init__(self) -> None:
        self.card: bytes | None = None
        self.plugged = True
        self.flaky = False
        self.inits = 0
        self._polls = 0

    def init(self) -> None:
        if not self.plugged:
            raise OSError("no MFRC522 answers (version register FF)")
        self.inits += 1

    def uid(self) -> bytes | None:
        if not self.plugged:
            raise OSError("no MFRC522 answers (version register 00)")
        self._polls += 1
        return None if self.flaky and self._polls % 2 else self.card


class Bench:
    """The controller with simulated readers and a clock moved by hand; its lines, decoded by the
    kiosk's own ``LineDecoder`` (which must find none malformed)."""

    def __init__(self, readers: int = 5, start: int = 0) -> None:
        self.now = start
        self.readers = [SimulatedReader() for _ in range(readers)]
        self.lines: list[str] = []
        self.decoder = LineDecoder()
        self.controller = tc.Controller(self.readers, self.lines.append, ticks=lambda: self.now)
        self.controller.start()

    def run(self, ms: int) -> list:
        """Step every ``POLL_MS`` for ``ms``; the messages sent meanwhile (heartbeats left out)."""
        first = len(self.lines)
        for _ in range(ms // tc.POLL_MS):
            self.now = tc.ticks_add(self.now, tc.POLL_MS)  # wrapping as the Pico's ticks do
            self.controller.step()
        messages = self.decoder.feed("".join(line + "\n" for line in self.lines[first:]).encode("ascii"))
        assert self.decoder.malformed == 0, self.lines[first:]
        return [m for m in messages if not isinstance(m, Heartbeat)]


def test_hello_first_then_heartbeats_at_least_once_a_second():
    bench = Bench()
    assert LineDecoder().feed(f"{bench.lines[0]}\n".encode()) == [Hello(tc.VERSION, 5)]
    assert bench.run(3000) == []  # nothing on the readers: heartbeats only
    beats = [int(line.split()[1]) for line in bench.lines if line.startswith("HB ")]
    assert beats == list(range(len(beats))) and len(beats) >= 3000 // 1000 + 1
    assert tc.HEARTBEAT_MS <= 1000 and tc.REPEAT_MS <= 250  # the protocol's bounds


def test_tag_on_is_reported_at_once_and_repeated_then_gone():
    bench = Bench()
    bench.readers[2].card = NTAG_A
    messages = bench.run(1000)
    assert messages[0] == Seen(2, NTAG_A.hex().upper())
    assert set(messages) == {Seen(2, NTAG_A.hex().upper())} and len(messages) >= 1000 // 250
    sent = [bench.lines.index(line) for line in bench.lines if line.startswith("TAG")]
    assert len(sent) == len(messages)
    bench.readers[2].card = None
    assert bench.run(tc.POLL_MS * tc.MISSES) == [Gone(2)]
    assert bench.run(500) == []  # gone once


def test_a_reader_that_misses_now_and_then_does_not_lift_the_tag():
    bench = Bench()
    bench.readers[0].flaky = True
    bench.readers[0].card = NTAG_A
    messages = bench.run(2000)
    assert Gone(0) not in messages and Seen(0, NTAG_A.hex().upper()) in messages


def test_two_seats_at_once_and_a_tag_swapped_on_one():
    bench = Bench()
    bench.readers[0].card, bench.readers[3].card = NTAG_A, NTAG_B
    messages = bench.run(100)
    assert messages[:2] == [Seen(0, NTAG_A.hex().upper()), Seen(3, NTAG_B.hex().upper())]
    bench.readers[3].card = NTAG_A  # another tile put straight down on seat 3
    assert Seen(3, NTAG_A.hex().upper()) in bench.run(tc.POLL_MS)
    bench.readers[0].card = None
    messages = bench.run(300)
    assert Gone(0) in messages and Gone(3) not in messages


def test_a_reader_unplugged_drops_its_tag_and_comes_back_the_others_go_on():
    bench = Bench()
    bench.readers[1].card, bench.readers[4].card = NTAG_A, NTAG_B
    bench.run(100)
    bench.readers[1].plugged = False
    messages = bench.run(500)
    assert messages[0] == Gone(1) and Seen(4, NTAG_B.hex().upper()) in messages and Gone(4) not in messages
    assert Seen(1, NTAG_A.hex().upper()) not in messages
    bench.readers[1].plugged = True
    messages = bench.run(tc.RETRY_MS + 100)  # retried, found, and its tag read again
    assert Seen(1, NTAG_A.hex().upper()) in messages and bench.readers[1].inits == 2


def test_a_reader_failing_just_before_the_ticks_wrap_is_retried_after_it():
    """The Pico's ticks_ms wraps every 2**30 ms (12.4 days) and its ticks_diff reads its arguments
    as small ints unchecked: a retry time computed as ``now + RETRY_MS`` past the wrap is a long int
    there, and the reader was never retried (seen under MicroPython 1.26, bench/controller_micropython.py)."""
    bench = Bench(start=tc.ticks_add(0, -1500))
    bench.readers[0].card, bench.readers[1].card = NTAG_A, NTAG_B
    bench.run(1000)
    bench.readers[1].plugged = False
    assert Gone(1) in bench.run(tc.POLL_MS)  # its retry falls due after the wrap
    bench.readers[1].plugged = True
    messages = bench.run(tc.RETRY_MS + 100)
    assert Seen(1, NTAG_B.hex().upper()) in messages and bench.now < 1000  # across the wrap
    assert messages.count(Seen(0, NTAG_A.hex().upper())) >= (tc.RETRY_MS + 100) // 250


def test_tags_are_repeated_within_250_ms_though_every_poll_waits_out_the_readers_timer():
    """On the Pico every MFRC522 poll waits out the chip's 25 ms timer (for an answer to WUPA
    that does not come, or after HLTA, which none follows): a round over five readers takes about
    145 ms, and a tag due again at 200 ms went out at the second round, 290 ms after the last."""

    class TimedReader(SimulatedReader):
        def uid(self) -> bytes | None:
            now[0] += 25
            return super().uid()

    now = [0]
    sent: list[tuple[int, str]] = []
    readers = [TimedReader() for _ in range(5)]
    readers[0].card = NTAG_A
    controller = tc.Controller(readers, lambda line: sent.append((now[0], line)), ticks=lambda: now[0])
    controller.start()
    while now[0] < 3000:
        now[0] += tc.POLL_MS
        controller.step()
    times = [at for at, line in sent if line == "TAG 0 " + NTAG_A.hex().upper()]
    assert len(times) > 10 and max(b - a for a, b in zip(times, times[1:])) <= 250


def test_a_reader_missing_at_start_up_is_retried():
    readers = [SimulatedReader(), SimulatedReader()]
    readers[1].plugged = False
    readers[1].card = NTAG_B
    now = [0]
    lines: list[str] = []
    controller = tc.Controller(readers, lines.append, ticks=lambda: now[0])
    controller.start()
    assert lines == ["HELLO %s 2" % tc.VERSION, "HB 0"]
    readers[1].plugged = True
    now[0] += tc.RETRY_MS
    controller.step()
    assert lines[-2:] == ["TAG 1 " + NTAG_B.hex().upper(), "HB 1"]
    with pytest.raises(ValueError):
        tc.Controller([], lines.append)


def is_ticks(node: ast.expr) -> bool:
    """A ticks value by the firmware's names: ``now``, ``start``, or a call of ``ticks_ms()`` or
    ``self.ticks()``."""
    if isinstance(node, ast.Name):
        return node.id in ("now", "start")
    function = node.func if isinstance(node, ast.Call) else None
    return (isinstance(function, ast.Name) and function.id == "ticks_ms"
            or isinstance(function, ast.Attribute) and function.attr == "ticks")


def test_the_firmware_is_micropython_shaped():
    """Nothing the Pico lacks: no typing, dataclasses or f-strings; the modules parse. Ticks are
    only added and compared through ticks_add and ticks_diff: ``now + RETRY_MS`` can leave the small
    ints that MicroPython's ticks functions read unchecked (the test of the wrap shows what follows)."""
    for path in CONTROLLER.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and node.module}
        assert imported <= {"time", "sys", "machine", "mfrc522", "tiles_controller"}, (path.name, imported)
        assert not any(isinstance(node, ast.JoinedStr) for node in ast.walk(tree)), path.name
        arithmetic = [ast.unparse(node) for node in ast.walk(tree)
                      if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))
                      and (is_ticks(node.left) or is_ticks(node.right))
                      or isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub))
                      and is_ticks(node.target)]
        assert arithmetic == [], (path.name, arithmetic)


@pytest.fixture
def controller_on_a_pty(monkeypatch):
    """The firmware running in a thread, its USB serial a pty that the kiosk finds by VID:PID."""
    master, slave = os.openpty()
    readers = [SimulatedReader() for _ in range(5)]
    stop = threading.Event()

    def write(line: str) -> None:
        os.write(master, (line + "\r\n").encode("ascii"))  # MicroPython's stdout ends lines with \r\n

    def run() -> None:
        controller = tc.Controller(readers, write)
        controller.start()
        while not stop.wait(tc.POLL_MS / 1000):
            controller.step()

    ports = [types.SimpleNamespace(device="/dev/ttyS9", vid=None, pid=None),
             types.SimpleNamespace(device=os.ttyname(slave), vid=CONTROLLER_USB[0], pid=CONTROLLER_USB[1])]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield readers
    stop.set()
    thread.join()
    os.close(master)
    os.close(slave)


def expect(inbox: EventQueue, kind: type):
    """The next event, which must be a ``kind`` (as soon as it comes: the 30 s only stop a broken
    test hanging, never a slow machine's pass)."""
    event = inbox.get(timeout=30)
    assert isinstance(event, kind), f"expected {kind.__name__}, got {event!r}"
    return event


def test_end_to_end_into_the_kiosks_reader_found_by_usb_identity(controller_on_a_pty):
    readers = controller_on_a_pty
    registry = TagRegistry()
    registry.enrol(NTAG_A.hex(), 5)
    inbox = EventQueue()
    with SerialTileReader(ReaderConfig(port="auto", protocol="lines"), registry, listener=inbox) as reader:
        connected = expect(inbox, ReaderConnected)
        assert connected.port == reader.port != "auto" and reader.port.startswith("/dev/pts/")  # not ttyS9
        readers[1].card = NTAG_A  # tag on
        assert (expect(inbox, TagRead).reader, reader.present()) == (1, {1: NTAG_A.hex().upper()})
        readers[3].card = NTAG_B  # a second seat at once
        assert expect(inbox, UnknownTag).reader == 3
        readers[1].card = None  # tag off
        removed = expect(inbox, TagRemoved)
        assert (removed.reader, removed.tile) == (1, 5)
        readers[3].plugged = False  # a reader unplugged: its tag is dropped, the link stays up
        assert expect(inbox, TagRemoved).reader == 3
        assert reader.status().found and reader.status().details["malformed"] == 0
        # (the HELLO went out before the kiosk opened the port, as when the Pico boots first: not needed)


def test_no_controller_plugged_in_is_said_plainly(monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    inbox = EventQueue()
    with SerialTileReader(ReaderConfig(port="auto", protocol="lines"), TagRegistry(), listener=inbox):
        lost = expect(inbox, ReaderLost)
        assert "no reader controller (USB 2E8A:0005" in lost.error
    with pytest.raises(ConfigError, match='"auto" finds only the controller'):
        ReaderConfig(port="auto", protocol="rdm6300")


def test_an_unplugged_controller_is_looked_for_again_never_opened_at_its_old_name(monkeypatch, tmp_path):
    class Port:
        """What pyserial's list_ports gives for the Pico."""

        vid, pid = CONTROLLER_USB

        def __init__(self, device: str) -> None:
            self.device = device

    link, (master, slave) = tmp_path / "ttyACM0", os.openpty()
    link.symlink_to(os.ttyname(slave))
    plugged = [Port(str(link))]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: list(plugged))
    inbox = EventQueue()
    with SerialTileReader(ReaderConfig(port="auto", protocol="lines", reconnect_s=0.05), TagRegistry(),
                          listener=inbox) as reader:
        assert expect(inbox, ReaderConnected).port == str(link)
        plugged.clear()  # the Pico unplugged, and another USB serial device takes its name
        other_master, other_slave = os.openpty()
        link.unlink()
        link.symlink_to(os.ttyname(other_slave))
        os.close(master)
        os.close(slave)
        expect(inbox, ReaderLost)
        deadline = time.monotonic() + 30
        while "no reader controller" not in (reader.status().last_error or ""):
            assert time.monotonic() < deadline, reader.status()
            time.sleep(0.01)
        assert inbox.drain() == [] and not reader.status().found  # the other device was never opened
    os.close(other_master)
    os.close(other_slave)


def pico_machine() -> types.ModuleType:
    """The Pico's ``machine`` as bench/pico/ stubs it for MicroPython (SPI, pins and simulated MFRC522
    chips: one chip simulation for both), loaded under its own name."""
    spec = importlib.util.spec_from_file_location("pico_machine", PICO / "machine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_mfrc522_driver_reads_7_and_4_byte_uids_through_the_chips_registers():
    import mfrc522

    machine = pico_machine()
    machine.CHIPS[17] = chip = machine.SimulatedChip(NTAG_A)
    spi = machine.SPI(0, sck=machine.Pin(18), mosi=machine.Pin(19), miso=machine.Pin(16))
    reader = mfrc522.Mfrc522(spi, machine.Pin(17, machine.Pin.OUT, value=1))
    reader.init()
    assert chip.registers[0x14] & 0x03 == 0x03  # the antenna is on
    assert reader.uid() == NTAG_A and chip.halted  # read through two cascade levels, then halted
    assert reader.uid() == NTAG_A  # woken again by the next poll
    chip.uid = bytes.fromhex("DEADBEEF")
    assert reader.uid() == bytes.fromhex("DEADBEEF")
    chip.uid = None
    assert reader.uid() is None
    chip.plugged = False  # the reader's wires pulled
    with pytest.raises(OSError, match="no MFRC522 answers"):
        reader.uid()
    lines: list[str] = []
    chip.plugged, chip.uid = True, NTAG_B
    tc.Controller([reader], lines.append).start()
    assert lines[1] == "TAG 0 " + NTAG_B.hex().upper()
