"""The LED rings: cue rendering, brightness, colour order, SPI encoding, backends, frame rate."""

from __future__ import annotations

import errno
import io
import os
import sys
import time
import types

import pytest

from hardware.board import Board
from hardware.config import ConfigError, RingsConfig, RingSpec
from flaky_strip import FlakyStrip
from hardware.events import EventQueue, StripFailed, StripRecovered
from hardware.rings import (BAG_EMPTY_GROUND, ERROR_COLOUR, GAMMA, OTHER_SEAT_LEVEL, PULSE_FLOOR, PULSE_PERIOD_S,
                            RETRY_LONGEST_S, Attract, Lamp, Off, Play, Renderer, Rings, Winner, dim, pulse_level,
                            retry_delay)
from hardware.board import classify
from hardware.strips import PioStrip, SimulatedStrip, SpiStrip, Ws281xStrip, choose_backend, open_strip, spi_encode, \
    strip_order, wire_bytes

RED, YELLOW, BLUE = (255, 0, 0), (255, 220, 0), (0, 60, 255)
BLACK = (0, 0, 0)
SMALL = RingsConfig(backend="simulated", rings=[{"leds": 6}, {"leds": 6}, {"leds": 6}], centre={"leds": 8})


def test_turn_is_lit_others_glow_empty_seats_dark():
    frame = Renderer(SMALL).frame(Play(colours=(RED, None, BLUE), turn=2), error=False, t=0.7)
    assert frame[0] == (dim(RED, OTHER_SEAT_LEVEL),) * 6
    assert frame[1] == (BLACK,) * 6
    assert frame[2] == (BLUE,) * 6
    assert frame[3] == (BLACK,) * 8  # no forced spaces, bag not empty
    assert not Renderer.animated(Play(colours=(RED,), turn=0), error=False)


def test_a_seat_ring_is_lit_in_its_colours_arcs():
    rings = RingsConfig(backend="simulated", rings=[{"leds": 12}, {"leds": 12}, {"leds": 16}, {"leds": 6}])
    frame = Renderer(rings).frame(Play(colours=(RED, YELLOW, BLUE, BLUE), turn=1, arcs=(1, 2, 4, 4)), False, 0.0)
    assert frame[0] == (dim(RED, OTHER_SEAT_LEVEL),) * 12  # one arc: the whole ring
    assert [k for k, led in enumerate(frame[1]) if led == BLACK] == [0, 6]  # two halves, the turn's ring lit fully
    assert all(led == YELLOW for k, led in enumerate(frame[1]) if k not in (0, 6))
    assert [k for k, led in enumerate(frame[2]) if led == BLACK] == [0, 4, 8, 12]  # four quarters
    assert BLACK not in frame[3]  # six LEDs are too few for four arcs: the whole ring, not a mess


def test_pulse_shape():
    assert pulse_level(0) == pytest.approx(PULSE_FLOOR)
    assert pulse_level(PULSE_PERIOD_S / 2) == pytest.approx(1.0)
    assert pulse_level(PULSE_PERIOD_S) == pytest.approx(PULSE_FLOOR)
    samples = [pulse_level(PULSE_PERIOD_S * i / 40) for i in range(41)]
    assert all(a < b for a, b in zip(samples[:20], samples[1:21]))  # rises for half a period
    assert samples[:21] == pytest.approx(samples[20:][::-1])  # then falls symmetrically
    renderer, cue = Renderer(SMALL), Play(colours=(RED, YELLOW), turn=1, pulse=True)
    assert renderer.animated(cue, error=False)
    assert renderer.frame(cue, False, 0)[1] == (dim(YELLOW, PULSE_FLOOR),) * 6
    assert renderer.frame(cue, False, PULSE_PERIOD_S / 2)[1] == (YELLOW,) * 6
    assert renderer.frame(cue, False, 0)[0] == (dim(RED, OTHER_SEAT_LEVEL),) * 6  # only the turn pulses


def test_centre_shows_forced_spaces_and_empty_bag():
    renderer = Renderer(SMALL)
    centre = renderer.frame(Play(colours=(RED,), turn=0, forced=2, bag_empty=True), False, 0)[3]
    assert centre == (RED, BAG_EMPTY_GROUND, BAG_EMPTY_GROUND, BAG_EMPTY_GROUND,
                      RED, BAG_EMPTY_GROUND, BAG_EMPTY_GROUND, BAG_EMPTY_GROUND)
    crowded = renderer.frame(Play(forced=30), False, 0)[3]
    assert crowded == ((255, 255, 255),) * 8  # capped at the ring, white without a turn


def test_levels_are_gamma_corrected_and_lit_stays_lit():
    assert dim(RED, 0.5) == (round(255 * 0.5 ** GAMMA), 0, 0) == (55, 0, 0)  # half to the eye: a fifth of the light
    assert dim((255, 128, 1), 0.05) == (1, 1, 1)  # a lit channel never rounds down to dark
    assert dim(RED, 0.0) == BLACK and dim(RED, 1.0) == RED
    levels = [dim(RED, pulse_level(PULSE_PERIOD_S * i / 40))[0] for i in range(21)]
    steps = [b - a for a, b in zip(levels, levels[1:])]
    assert all(step >= 0 for step in steps) and steps[2] < steps[10]  # light rises slowly at first: an even fade


def test_winner_attract_lamp_and_error_blink():
    renderer = Renderer(SMALL)
    winner = Winner(seat=1, colour=BLUE)
    early, later = renderer.frame(winner, False, 0.0), renderer.frame(winner, False, 0.5)
    assert early[1] == (dim(BLUE, PULSE_FLOOR),) * 6
    assert early[0] != later[0] and sum(led != BLACK for led in early[0]) == 5  # a comet with its tail
    shared = renderer.frame(Winner(0, RED, shared=((2, BLUE),)), False, 0.0)  # a tie, or a team
    assert shared[0] == (dim(RED, PULSE_FLOOR),) * 6 and shared[2] == (dim(BLUE, PULSE_FLOOR),) * 6
    assert sum(led != BLACK for led in shared[1]) == 5  # the seat that did not win: a comet
    rainbow = renderer.frame(Attract(), False, 1.0)
    assert renderer.animated(Attract(), False) and len({led for ring in rainbow for led in ring}) > 10
    assert renderer.frame(Lamp(3), False, 0) == ((BLACK,) * 6,) * 3 + (((255, 255, 255),) * 8,)
    on, off = renderer.frame(Off(), True, 0.0), renderer.frame(Off(), True, 0.3)
    assert on[3] == (ERROR_COLOUR,) * 8 and off[3] == (BLACK,) * 8
    no_centre = Renderer(RingsConfig(rings=[{"leds": 4}])).frame(Play(colours=(BLUE,), turn=0), True, 0.0)
    assert no_centre == ((ERROR_COLOUR, BLUE, BLUE, BLUE),)


def wait_for(predicate, timeout: float = 30.0) -> None:
    """Poll ``predicate`` until it holds (``timeout`` only stops a broken test hanging)."""
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_simulated_rings_apply_brightness_and_notify():
    config = RingsConfig(backend="simulated", rings=[{"leds": 3}], brightness=0.5)
    strip = SimulatedStrip(config.all_rings)
    seen = []
    strip.on_change(seen.append)
    with Rings(config, strip=strip) as rings:
        rings.show(Play(colours=((200, 100, 51),), turn=0))
        wait_for(lambda: strip.frame == [[(44, 22, 11)] * 3])  # half as bright to the eye: 0.5 ** 2.2 of the light
        assert seen[-1] == [[(44, 22, 11)] * 3] and isinstance(seen[-1][0], list)
        assert rings.status().backend == "simulated" and not rings.status().found
    assert strip.frame == [[BLACK] * 3]  # closing darkens


def test_brightness_changes_while_running_and_is_checked():
    config = RingsConfig(backend="simulated", rings=[{"leds": 2}], brightness=1.0)
    strip = SimulatedStrip(config.all_rings)
    with Rings(config, strip=strip) as rings:
        rings.show(Play(colours=((200, 100, 50),), turn=0))
        wait_for(lambda: strip.frame == [[(200, 100, 50)] * 2])
        rings.set_brightness(0.5)  # the same static cue is drawn again, dimmer
        wait_for(lambda: strip.frame == [[(44, 22, 11)] * 2])
        with pytest.raises(ConfigError, match="rings.brightness: expected a number from 0 to 1, got 2"):
            rings.set_brightness(2)
        assert strip.frame == [[(44, 22, 11)] * 2] and rings.config.brightness == 1.0


def test_static_cues_are_written_once():
    config = RingsConfig(backend="simulated", rings=[{"leds": 4}], brightness=1.0)
    strip = SimulatedStrip(config.all_rings)
    with Rings(config, strip=strip) as rings:
        rings.show(Play(colours=(RED,), turn=0))
        wait_for(lambda: strip.frame[0][0] != BLACK and rings.writes == strip.writes)  # that write is over
        writes = strip.writes
        rings.show(Play(colours=(RED,), turn=0))  # the same cue again
        rings.show(Lamp(0, RED))  # another cue, but the very same frame
        time.sleep(0.2)
        assert strip.writes == writes
        rings.show(Play(colours=(RED,), turn=None))  # a new frame: the seat dims
        wait_for(lambda: strip.writes == writes + 1)
        time.sleep(0.2)
        assert strip.writes == writes + 1 and strip.frame[0][0] == dim(RED, OTHER_SEAT_LEVEL)


def test_animation_frame_rate_is_bounded():
    config = RingsConfig(backend="simulated", rings=[{"leds": 24}] * 4, fps=20)
    strip = SimulatedStrip(config.all_rings)
    with Rings(config, strip=strip) as rings:
        before, start = strip.writes, time.monotonic()
        rings.show(Attract())
        for _ in range(50):  # a flood of cue changes must not raise the rate either
            rings.show(Attract())
            rings.show(Winner(0, RED))
            time.sleep(0.01)  # the flood's pace (the input), not a wait
        wait_for(lambda: strip.writes - before >= 2)  # and it does animate
        elapsed = time.monotonic() - start
        assert strip.writes - before <= elapsed * 20 + 2


class DyingStrip:
    """A strip whose device went away: every write fails (SPI or /dev/leds0 answering EIO)."""

    name = "spi"

    def show(self, frame: object) -> None:
        raise OSError(5, "Input/output error")

    def close(self) -> None:
        self.show(None)


def test_a_dying_strip_is_reported_and_does_not_stop_the_shutdown():
    rings = Rings(RingsConfig(backend="spi", rings=[{"leds": 4}]), strip=DyingStrip())
    rings.show(Lamp(0, RED))
    wait_for(lambda: rings.error is not None)
    rings.close()  # must not raise: the caller's store and exit status come after it
    assert rings.error == "spi: OSError: [Errno 5] Input/output error" and rings.writes == 0


def test_retries_wait_longer_each_time_up_to_a_bound():
    assert [retry_delay(n) for n in range(1, 8)] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, RETRY_LONGEST_S])
    assert retry_delay(10_000) == RETRY_LONGEST_S  # a strip dead for days: no overflow


def test_a_still_picture_the_strip_refused_is_written_again_with_backoff_until_it_shows():
    strip, inbox = FlakyStrip(), EventQueue()
    with Rings(RingsConfig(backend="spi", rings=[{"leds": 4}], brightness=1.0), strip=strip, listener=inbox) as rings:
        wait_for(lambda: len(strip.frames) == 1)  # the dark start
        strip.refuse = 3
        rings.show(Lamp(0, RED))  # a still picture: nothing changes after it
        wait_for(lambda: len(strip.frames) == 2)
        assert strip.frames[-1] == ((RED,) * 4,)  # the picture, shown once the strip takes it
        attempts = strip.tried[1:]
        assert len(attempts) == 4
        for failures, (before, after) in enumerate(zip(attempts, attempts[1:]), start=1):
            assert after - before >= retry_delay(failures) - 0.01  # 0.1, 0.2, 0.4 s: backing off
        failed, recovered = inbox.drain()  # the first refusal and the recovery, not each retry
        assert failed == StripFailed("spi", "spi: OSError: [Errno 5] Input/output error", failed.at)
        assert recovered == StripRecovered("spi", recovered.at) and recovered.at > failed.at
        assert rings.error is None and rings.status().last_error is None and rings.failures == 0


def test_strip_order_rotation_and_colour_order():
    rings = (RingSpec(4, rotate=1), RingSpec(2))
    frame = (((1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)), ((5, 0, 0), (6, 0, 0)))
    assert [p[0] for p in strip_order(frame, rings)] == [4, 1, 2, 3, 5, 6]  # strip LED 1 shows LED 0
    assert wire_bytes([(1, 2, 3), (4, 5, 6)], "GRB") == bytes([2, 1, 3, 5, 4, 6])
    assert wire_bytes([(1, 2, 3)], "BGR") == bytes([3, 2, 1])


def decode_spi(data: bytes) -> bytes:
    """Read WS2812 bits back from an SPI stream (110 = 1, 100 = 0), skipping the latch gaps."""
    bits = "".join(f"{byte:08b}" for byte in data.strip(b"\0"))
    assert len(bits) % 3 == 0
    symbols = [bits[i:i + 3] for i in range(0, len(bits), 3)]
    assert set(symbols) <= {"110", "100"}
    values = "".join("1" if s == "110" else "0" for s in symbols)
    return bytes(int(values[i:i + 8], 2) for i in range(0, len(values), 8))


def test_spi_encoding_and_strip():
    assert spi_encode(b"\x80", 2_400_000)[90:93] == bytes([0b11010010, 0b01001001, 0b00100100])
    assert len(spi_encode(b"", 2_400_000)) == 2 * 90  # 300 us of low before and after
    config = RingsConfig(backend="spi", rings=[{"leds": 2, "rotate": 1}], colour_order="GRB")
    sink = io.BytesIO()
    sink.close = lambda: None  # keep it readable after the strip closes it
    strip = SpiStrip(config, sink=sink)
    strip.show((((10, 20, 30), (40, 50, 60)),))
    assert decode_spi(sink.getvalue()) == bytes([50, 40, 60, 20, 10, 30])


@pytest.fixture
def fake_ws281x(monkeypatch):
    """A stand-in for the rpi_ws281x module (not installed off ARM, and never to be run off a Pi)."""
    calls: list = []

    class PixelStrip:
        def __init__(self, *args, **kwargs):
            calls.append(("init", args, kwargs))

        def begin(self):
            calls.append(("begin",))

        def setPixelColor(self, n, colour):
            calls.append(("set", n, colour))

        def show(self):
            calls.append(("show",))

    module = types.SimpleNamespace(PixelStrip=PixelStrip, ws=types.SimpleNamespace(
        WS2811_STRIP_GRB=0x00081000, WS2811_STRIP_RGB=0x00100800))
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module)
    return calls


def test_ws281x_backend_drives_the_library(fake_ws281x):
    config = RingsConfig(backend="ws281x", rings=[{"leds": 2}, {"leds": 1}], pin=13, dma=5)
    strip, why, error = open_strip(config, board=Board.PI)
    assert isinstance(strip, Ws281xStrip) and error is None and why == "asked for in rings.backend"
    assert fake_ws281x[:2] == [("init", (3, 13), {"freq_hz": 800_000, "dma": 5, "invert": False, "brightness": 255,
                                                   "channel": 1, "strip_type": 0x00081000}), ("begin",)]
    fake_ws281x.clear()
    strip.show((((1, 2, 3), (4, 5, 6)), ((255, 0, 0),)))
    assert fake_ws281x == [("set", 0, 0x010203), ("set", 1, 0x040506), ("set", 2, 0xFF0000), ("show",)]
    fake_ws281x.clear()
    strip.close()
    assert fake_ws281x[-1] == ("show",) and {c[2] for c in fake_ws281x[:-1]} == {0}


def test_ws281x_is_never_constructed_off_a_pi(fake_ws281x):
    for board in (Board.OTHER, Board.PI5):
        strip, _, error = open_strip(RingsConfig(backend="ws281x"), board=board)
        assert isinstance(strip, SimulatedStrip) and "rpi-ws281x does not run" in error
    assert fake_ws281x == []


@pytest.mark.parametrize("backend, board, pio, chosen", [
    ("auto", Board.PI, False, "spi"), ("auto", Board.PI5, False, "spi"), ("auto", Board.PI5, True, "pio"),
    ("auto", Board.PI, True, "spi"), ("auto", Board.OTHER, True, "simulated"), ("spi", Board.OTHER, False, "spi"),
    ("simulated", Board.PI, False, "simulated"), ("ws281x", Board.PI5, False, "simulated"),
    ("ws281x", Board.PI, False, "ws281x"), ("pio", Board.PI, False, "pio"),
])
def test_backend_choice(backend, board, pio, chosen):
    choice = choose_backend(RingsConfig(backend=backend), board, pio_ready=pio)
    assert choice.backend == chosen and choice.why
    assert choice.refused == (backend == "ws281x" and board is not Board.PI)


class FakeSpidev:
    """A spidev stand-in: a plain file takes the frames; the SPI ioctls are recorded, not sent."""

    def __init__(self, monkeypatch, path):
        path.write_bytes(b"")
        self.path, self.ioctls = path, []
        monkeypatch.setattr("hardware.strips.fcntl.ioctl", lambda fd, request, arg: self.ioctls.append(request))

    def last_frame(self, leds: int, colour_order: str = "GRB") -> list[tuple[int, int, int]]:
        """The colours of the last frame written, in RGB (the stream holds frames back to back)."""
        data = decode_spi(self.path.read_bytes()[-len(spi_encode(bytes(3 * leds), 2_400_000)):])
        pick = ["GRB".index(c) for c in "RGB"] if colour_order == "GRB" else [0, 1, 2]
        return [tuple(data[i + k] for k in pick) for i in range(0, len(data), 3)]


@pytest.mark.parametrize("model, backend", [
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "spi"), ("Raspberry Pi 4 Model B Rev 1.4", "spi"),
    ("Raspberry Pi 5 Model B Rev 1.0", "spi"), ("Raspberry Pi 5 Model B Rev 1.0", "pio"),
    ("Raspberry Pi 7 Model Z Rev 9.9", "spi"),  # a model this code has never heard of
])
def test_every_pi_model_lights_a_ring_by_default_without_root(model, backend, monkeypatch, tmp_path, fake_ws281x):
    """The shipped ``auto`` on the unprivileged service: a lit ring, never rpi-ws281x (root)."""
    spidev, leds = FakeSpidev(monkeypatch, tmp_path / "spidev0.0"), tmp_path / "leds0"
    if backend == "pio":
        leds.write_bytes(b"")
    config = RingsConfig(rings=[{"leds": 3}], spi_device=str(spidev.path), pio_device=str(leds), brightness=1.0)
    with Rings(config, board=classify(model)) as rings:
        assert rings.status().found and rings.status().backend == backend and rings.error is None
        assert "no root" in rings.why
        rings.show(Lamp(0, RED))
        if backend == "spi":
            wait_for(lambda: spidev.path.stat().st_size and spidev.last_frame(3) == [RED] * 3)
        else:
            wait_for(lambda: leds.read_bytes()[-12:] == bytes([255, 0, 0, 0]) * 3)  # R G B W per LED
    assert fake_ws281x == []  # rpi-ws281x (/dev/mem, root) was never touched
    assert classify("Linux on a laptop") is Board.OTHER
    assert choose_backend(RingsConfig(), classify(None)).backend == "simulated"


def driver(value: int) -> int:
    """What the Pi 5's driver (ws2812-pio-rp1) sends for the byte ``value`` (its gamma table, at the
    overlay's default brightness)."""
    return int(255 * (value / 255) ** (1 / 0.45))


def test_pio_strip_puts_the_colour_order_on_the_wire(tmp_path):
    """The driver sends each LED's bytes as G, R, B: we place them so the wire has ``colour_order``."""
    config = RingsConfig(backend="pio", rings=[{"leds": 2, "rotate": 1}], colour_order="RGB",
                         pio_device=str(tmp_path / "leds0"))
    (tmp_path / "leds0").write_bytes(b"")
    PioStrip(config).show((((10, 20, 30), (40, 50, 60)),))
    data = bytes(map(driver, (tmp_path / "leds0").read_bytes()))
    wire = bytes(b for i in range(0, len(data), 4) for b in (data[i + 1], data[i], data[i + 2]))  # what goes out
    assert len(data) == 8 and wire == bytes([40, 50, 60, 10, 20, 30])


def test_pio_strip_writes_every_frame_at_the_start_of_the_device(tmp_path, monkeypatch):
    """The Pi 5's driver takes a frame at the file position and refuses bytes past its LEDs
    (ENOSPC): a frame written after the last one would be refused, the rings stuck on the first.
    It has no seek (ESPIPE), so the strip must not need one: each frame has an open of its own."""
    def no_seek(*_args: object) -> None:
        raise OSError(errno.ESPIPE, os.strerror(errno.ESPIPE))

    monkeypatch.setattr("hardware.strips.os.lseek", no_seek)
    monkeypatch.setattr("hardware.strips.os.pwrite", no_seek)
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    strip = PioStrip(RingsConfig(backend="pio", rings=[{"leds": 2}], pio_device=str(device)))
    strip.show(((RED, RED),))
    strip.show(((BLUE, BLACK),))
    assert bytes(map(driver, device.read_bytes())) == bytes([0, 60, 255, 0]) + bytes(4)  # the last frame, from byte 0
    strip.close()
    assert device.read_bytes() == bytes(8)


def test_pio_strip_leaves_the_light_to_the_rings_gamma_not_the_drivers_too(tmp_path):
    """The driver puts every byte through its own gamma (255 * (v / 255) ** (1 / 0.45), rounded
    down) before the LEDs: the rings' levels, already gamma-corrected, must reach the LEDs as they
    are (to the driver's nearest level), or a dim seat goes dark and yellow turns orange."""
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    PioStrip(RingsConfig(backend="pio", rings=[{"leds": 256}], pio_device=str(device))).show(
        (tuple((value, 255 - value, 0) for value in range(256)),))
    data = device.read_bytes()
    shown = [(driver(data[i]), driver(data[i + 1])) for i in range(0, len(data), 4)]
    for value, (red, green) in enumerate(shown):
        assert abs(red - value) <= 1 and (red > 0) == (value > 0), (value, red)
        assert abs(green - (255 - value)) <= 1 and (green > 0) == (value < 255), (value, green)
    assert shown[1][0] == 1 and shown[128][0] == 128  # lit stays lit; half stays half


def test_pio_strip_sets_the_drivers_brightness_to_full_when_it_opens(tmp_path):
    """The driver multiplies each byte by its brightness (the overlay's ``brightness``, 0-255)
    before its gamma, which the strip undoes as it is at 255: the strip first writes that one byte
    alone at the device's start (how the driver takes a brightness), so an overlay line set to
    128 neither dims the rings twice nor turns the undoing wrong; the staff's brightness dims them."""
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    strip = PioStrip(RingsConfig(backend="pio", rings=[{"leds": 2}], pio_device=str(device)))
    assert device.read_bytes() == b"\xff"
    strip.show(((RED, RED),))
    assert len(device.read_bytes()) == 8  # the frame over it, from the start


def test_more_leds_than_the_pio_overlay_names_are_reported_with_the_fix(tmp_path, monkeypatch):
    """The driver refuses a frame longer than its ``num_leds`` (EFBIG, "File too large") after
    showing its start: the staff must read which number to put in config.txt."""
    overlay_leds = 96

    def driver_write(fd: int, data: bytes) -> int:  # ws2812-pio-rp1's answer to a frame (at its start)
        if len(data) > 4 * overlay_leds:
            raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
        return len(data)

    monkeypatch.setattr("hardware.strips.os.write", driver_write)
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    config = RingsConfig(backend="pio", rings=[{"leds": 24}] * 4, centre={"leds": 16}, pio_device=str(device))
    inbox = EventQueue()
    with Rings(config, board=Board.PI5, listener=inbox) as rings:
        rings.show(Lamp(0, RED))
        failed = inbox.get(timeout=30)
        assert isinstance(failed, StripFailed)
        assert failed.error == (f"pio: OSError: {device} drives fewer LEDs than the rings' 112: set num_leds=112 in "
                                "the dtoverlay=ws2812-pio line of /boot/firmware/config.txt and reboot")
    with Rings(RingsConfig(backend="pio", pio_device=str(device)), board=Board.PI5, listener=inbox) as rings:
        rings.show(Lamp(0, RED))
        wait_for(lambda: rings.writes >= 2)  # 96 LEDs: taken
        assert rings.error is None and inbox.drain() == []


def test_a_missing_spi_device_falls_back_to_simulated(tmp_path):
    config = RingsConfig(backend="spi", spi_device=str(tmp_path / "spidev9.9"))
    with Rings(config, board=Board.PI5) as rings:
        status = rings.status()
        assert status.backend == "simulated" and not status.found
        assert status.last_error.startswith("spi: FileNotFoundError")


def test_selftest_lights_each_real_ring_in_turn(fake_ws281x):
    from hardware.config import ButtonConfig, ReaderConfig
    from hardware.selftest import selftest

    config = RingsConfig(backend="ws281x", rings=[{"leds": 2}, {"leds": 2}], centre={"leds": 1}, brightness=1.0)
    report = selftest(ButtonConfig(backend="simulated"), ReaderConfig(), config, listen_s=0, ring_s=0.15,
                      board=Board.PI)
    assert report["rings"]["found"] and report["rings"]["backend"] == "ws281x"
    lit, frames = [], []
    for call in fake_ws281x:
        if call[0] == "set" and call[2]:
            lit.append(call[1])
        elif call[0] == "show":
            if not frames or frames[-1] != lit:
                frames.append(lit)
            lit = []
    assert frames == [[], [0, 1], [2, 3], [4], []]  # dark, each ring in turn, dark again
