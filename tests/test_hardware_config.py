"""Device configuration: defaults, TOML-shaped input, and errors that name the field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hardware.board import Board, board_model, classify, detect_board
from hardware.bootconfig import filter_board, read_pio_overlays
from hardware.config import (ButtonConfig, ConfigError, PioOverlay, ReaderConfig, RingsConfig, RingSpec, check_pins,
                             check_pio_leds)


def test_defaults_are_valid_and_documented_values():
    assert ButtonConfig() == ButtonConfig(backend="auto", pin=17, pull_up=True, bounce_s=0.05, hold_s=3.0)
    assert ReaderConfig().port is None and ReaderConfig().protocol == "rdm6300"
    rings = RingsConfig()
    assert [ring.leds for ring in rings.rings] == [24] * 4 and rings.centre is None
    assert rings.led_count == 96 and rings.colour_order == "GRB"


def test_toml_tables_map_directly():
    table = {"backend": "spi", "rings": [{"leds": 16}, {"leds": 16, "rotate": 4}],
             "centre": {"leds": 12}, "brightness": 0.25}
    config = RingsConfig(**table)
    assert config.rings == (RingSpec(16), RingSpec(16, 4)) and config.centre == RingSpec(12)
    assert config.all_rings[-1] == RingSpec(12) and config.led_count == 44
    assert ReaderConfig(**{"port": "/dev/ttyUSB0", "protocol": "lines", "baudrate": 115200}).baudrate == 115200


@pytest.mark.parametrize("make, field, expected", [
    (lambda: ButtonConfig(pin=40), "button.pin", "an integer from 0 to 27"),
    (lambda: ButtonConfig(bounce_s=-1), "button.bounce_s", "a number from 0.001 to 1"),
    (lambda: ButtonConfig(pull_up="yes"), "button.pull_up", "true or false"),
    (lambda: ButtonConfig(hold_s=0.2, bounce_s=0.5), "button.hold_s", "more than bounce_s"),
    (lambda: ButtonConfig(backend="gpiod"), "button.backend", "one of 'auto', 'gpio', 'simulated'"),
    (lambda: ReaderConfig(protocol="wiegand"), "reader.protocol", "one of 'rdm6300', 'pn532', 'lines'"),
    (lambda: ReaderConfig(port=""), "reader.port", "a device path or pyserial URL"),
    (lambda: ReaderConfig(confirm_reads=True), "reader.confirm_reads", "an integer from 1 to 10"),
    (lambda: ReaderConfig(reconnect_s=5), "reader.reconnect_s", "a number from 0.05 to 1.5"),
    (lambda: ReaderConfig(baudrate=-1), "reader.baudrate", "0 (the protocol's own speed) or an integer from 300"),
    (lambda: ReaderConfig(baudrate=False), "reader.baudrate", "0 (the protocol's own speed) or an integer from 300"),
    (lambda: ReaderConfig(protocol="lines", removal_silence_s=0.3), "reader.removal_silence_s",
     'at least 0.5 with protocol "lines"'),
    (lambda: ReaderConfig(protocol="pn532", removal_silence_s=0.1), "reader.removal_silence_s",
     'at least 0.3 with protocol "pn532" (the kiosk polls it every 0.05 s'),
    (lambda: ReaderConfig(protocol="lines", heartbeat_s=1), "reader.heartbeat_s",
     '0 (off) or at least 2 with protocol "lines"'),
    (lambda: RingsConfig(brightness=3), "rings.brightness", "a number from 0 to 1"),
    (lambda: RingsConfig(colour_order="GRBW"), "rings.colour_order", "one of 'RGB'"),
    (lambda: RingsConfig(pin=17), "rings.pin", "one of 10, 12, 13, 18, 19, 21"),
    (lambda: RingsConfig(rings=[{"leds": 24}, {"leds": 0}]), "rings.rings[1].leds", "an integer from 1 to 300"),
    (lambda: RingsConfig(rings=[{"leds": 8, "rotate": 8}]), "rings.rings[0].rotate", "an integer from 0 to 7"),
    (lambda: RingsConfig(rings=[{"led": 8}]), "rings.rings[0]", "a table with keys leds, rotate"),
    (lambda: RingsConfig(rings=[]), "rings.rings", "1 to 8 seat rings"),
    (lambda: RingsConfig(centre=12), "rings.centre", "a ring table"),
    (lambda: RingsConfig(spi_hz=8_000_000), "rings.spi_hz", "an integer from 2000000 to 3000000"),
])
def test_bad_values_name_field_and_expectation(make, field, expected):
    with pytest.raises(ConfigError) as caught:
        make()
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: expected {expected}")


def test_timings_only_the_controller_constrains_are_free_with_other_readers():
    assert ReaderConfig(protocol="lines", heartbeat_s=0, removal_silence_s=0.5).heartbeat_s == 0
    assert ReaderConfig(protocol="rdm6300", removal_silence_s=0.3, heartbeat_s=1).removal_silence_s == 0.3
    assert ReaderConfig(protocol="pn532", removal_silence_s=0.3).removal_silence_s == 0.3  # its least, exactly


def test_unknown_key_is_refused():
    with pytest.raises(TypeError, match="colour"):
        ButtonConfig(colour="red")


@pytest.mark.parametrize("model, board", [
    ("Raspberry Pi 4 Model B Rev 1.4", Board.PI),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", Board.PI),
    ("Raspberry Pi Zero 2 W Rev 1.0", Board.PI),
    ("Raspberry Pi 400 Rev 1.0", Board.PI),
    ("Raspberry Pi Compute Module 4 Rev 1.0", Board.PI),
    ("Raspberry Pi 5 Model B Rev 1.0", Board.PI5),
    ("Raspberry Pi 500 Rev 1.0", Board.PI5),
    ("Raspberry Pi Compute Module 5 Rev 1.0", Board.PI5),
    ("Rockchip RK3588", Board.OTHER),
    (None, Board.OTHER),
])
def test_board_classification(model, board):
    assert classify(model) is board


def test_board_model_reads_device_tree_string(tmp_path):
    path = tmp_path / "model"
    path.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert board_model(path) == "Raspberry Pi 5 Model B Rev 1.0"
    assert detect_board(path) is Board.PI5
    assert detect_board(tmp_path / "missing") is Board.OTHER


@pytest.mark.parametrize("pin, reader, rings, why", [
    (10, ReaderConfig(), RingsConfig(), "GPIO 10 carries the LED rings' data (SPI MOSI of /dev/spidev0.0)"),
    (10, ReaderConfig(), RingsConfig(backend="spi"), "GPIO 10 carries the LED rings' data"),
    (20, ReaderConfig(), RingsConfig(spi_device="/dev/spidev1.0"), "GPIO 20 carries the LED rings' data"),
    (18, ReaderConfig(), RingsConfig(backend="ws281x"), "GPIO 18 carries the LED rings' data (rings.pin)"),
    (15, ReaderConfig(port="/dev/serial0"), RingsConfig(), "GPIO 15 is the tile reader's UART (RXD of /dev/serial0)"),
    (14, ReaderConfig(port="/dev/ttyAMA0", protocol="pn532"), RingsConfig(), "GPIO 14 is the tile reader's UART (TXD"),
])
def test_a_button_on_a_pin_another_device_drives_is_refused(pin, reader, rings, why):
    """gpiozero would take the pin from the SPI, PWM or UART block without a word: the LEDs or the
    reader would die while the button "works"."""
    with pytest.raises(ConfigError) as caught:
        check_pins(ButtonConfig(pin=pin), reader, rings)
    assert caught.value.field == "button.pin"
    assert str(caught.value).startswith(f"button.pin: expected a GPIO no other device uses: {why}")
    assert str(caught.value).endswith(f"got {pin}")


@pytest.mark.parametrize("pin, reader, rings", [
    (17, ReaderConfig(port="/dev/serial0"), RingsConfig()),  # the defaults, wired as the README says
    (10, ReaderConfig(), RingsConfig(backend="simulated")),  # no LED data on the pin
    (18, ReaderConfig(), RingsConfig()),  # rings.pin matters only to rpi-ws281x
    (14, ReaderConfig(port="/dev/ttyUSB0"), RingsConfig()),  # a USB reader leaves the UART free
    (10, ReaderConfig(), RingsConfig(backend="pio")),  # no PIO overlay in the boot configuration
])
def test_a_button_on_a_free_pin_is_accepted(pin, reader, rings):
    check_pins(ButtonConfig(pin=pin), reader, rings)


def test_the_pi5_led_overlays_are_read_from_the_boot_configuration(tmp_path):
    """Their keys on the dtoverlay line or on the dtparam lines after it (until the next dtoverlay),
    in decimal or hex, the overlay's defaults for the rest; other overlays, comments and a missing
    file give nothing."""
    boot = tmp_path / "config.txt"
    assert read_pio_overlays(boot) == ()
    boot.write_text("dtparam=spi=on\n#dtoverlay=ws2812-pio,gpio=5\ndtoverlay=ws2812-pio,gpio=10,num_leds=112\n"
                    "dtoverlay=i2c-rtc,pcf85063\ndtparam=gpio=6\n[pi5]\n dtoverlay = ws2812-pio\n"
                    "dtparam=gpio=0x16,dev_name=strip%d,rgbw\n")
    first, second = read_pio_overlays(boot)
    assert (first.line, first.gpio, first.num_leds, first.device) == (3, 10, 112, "/dev/leds0")
    assert (second.line, second.gpio, second.num_leds, second.device) == (7, 22, 60, "/dev/strip1")
    check_pins(ButtonConfig(pin=22), ReaderConfig(), RingsConfig(), (first,))
    with pytest.raises(ConfigError, match=rf"GPIO 22 carries LED data \({boot} line 7: dtoverlay=ws2812-pio gpio=22\)"):
        check_pins(ButtonConfig(pin=22), ReaderConfig(), RingsConfig(backend="simulated"), (first, second))


RASPBERRY_PI_OS_END = "[cm4]\notg_mode=1\n\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n\n[all]\n"
"""How Raspberry Pi OS's own config.txt ends (its Bookworm image)."""


@pytest.mark.parametrize("model, gpios", [
    ("Raspberry Pi 5 Model B Rev 1.0", [10, 12, 13]), ("Raspberry Pi Compute Module 5 Rev 1.0", [10, 11, 12, 13]),
    ("Raspberry Pi 500 Rev 1.0", [10, 12, 13]),
    ("Raspberry Pi 4 Model B Rev 1.5", [10, 26]),  # the [pi4] dtparam line goes on setting the last overlay's keys
    (None, [10, 11, 12, 26]),  # off a Pi: every model filter may hold
])
def test_only_the_lines_the_firmware_applies_on_this_board_are_counted(tmp_path, model, gpios):
    """Model filters keep their lines for the boards they name ([pi5] for a Pi 5, a Compute Module 5
    and a Pi 500; [cm5] for the Compute Module 5 alone) until the next model filter or [all];
    [none] drops every line until [all]; a filter this program cannot evaluate (a monitor's) is
    taken to hold. A line added after Raspberry Pi OS's closing [cm5] and before its [all] does
    nothing on a Pi 5: the checks must not count it, nor number the devices with it."""
    boot = tmp_path / "config.txt"
    boot.write_text("[all]\ndtoverlay=ws2812-pio,gpio=10\n[cm5]\ndtoverlay=ws2812-pio,gpio=11\n[none]\n"
                    "dtoverlay=ws2812-pio,gpio=21\n[pi5]\ndtoverlay=ws2812-pio,gpio=22\n[all]\n[pi5]\n"
                    "[EDID=DEL-DELL_U2422H]\ndtoverlay=ws2812-pio,gpio=12\n[all]\ndtoverlay=ws2812-pio,gpio=13\n"
                    "[pi4]\n[pi5]\n[pi4]\ndtparam=gpio=26\n" + RASPBERRY_PI_OS_END)
    overlays = read_pio_overlays(boot, model)
    assert [overlay.gpio for overlay in overlays] == gpios
    assert [overlay.device for overlay in overlays] == [f"/dev/leds{n}" for n in range(len(gpios))]


def test_an_included_file_is_read_in_its_place_under_the_filters_of_that_place(tmp_path):
    """``include extra.txt`` reads the file beside config.txt where the line stands (a line there
    is named by its own file); a dtoverlay there takes the dtparam lines after the include; an
    include under a filter that does not hold, a missing file and a file including itself are
    what the firmware makes of them: nothing, nothing, and one reading."""
    boot = tmp_path / "config.txt"
    (tmp_path / "leds.txt").write_text("# the rings\ndtoverlay=ws2812-pio\ninclude leds.txt\n")
    (tmp_path / "other.txt").write_text("dtoverlay=ws2812-pio,gpio=23\n")
    boot.write_text("include missing.txt\n[pi4]\ninclude other.txt\n[pi5]\ninclude leds.txt\ndtparam=num_leds=96\n"
                    + RASPBERRY_PI_OS_END)
    (overlay,) = read_pio_overlays(boot, "Raspberry Pi 5 Model B Rev 1.0")
    assert (overlay.file, overlay.line, overlay.gpio, overlay.num_leds) == (str(tmp_path / "leds.txt"), 2, 4, 96)
    with pytest.raises(ConfigError, match=rf"^{tmp_path / 'leds.txt'} line 2: dtoverlay=ws2812-pio num_leds: "):
        check_pio_leds(RingsConfig(backend="pio", rings=[{"leds": 40}] * 4), (overlay,))


def test_a_chain_of_includes_made_by_mistake_ends(tmp_path):
    """Each file including the next, thousands deep (a script run in a loop): read to a depth, not
    to the end of Python's stack at the kiosk's start."""
    for n in range(3000):
        (tmp_path / f"{n}.txt").write_text(f"include {n + 1}.txt\n" if n else "dtoverlay=ws2812-pio\ninclude 1.txt\n")
    assert [overlay.line for overlay in read_pio_overlays(tmp_path / "0.txt")] == [1]


def test_the_firmware_reads_a_line_to_its_98th_character(tmp_path):
    """What lies past it is not read: the second line, a comma longer, sets num_leds=9."""
    boot = tmp_path / "config.txt"
    head = "dtoverlay=ws2812-pio,gpio=10"
    boot.write_text(head + "," * (98 - len(head) - len(",num_leds=96")) + ",num_leds=96\n"
                    + head + "," * (99 - len(head) - len(",num_leds=96")) + ",num_leds=96\n")
    assert [overlay.num_leds for overlay in read_pio_overlays(boot)] == [96, 9]


@pytest.mark.parametrize("model, board", [
    ("Raspberry Pi 5 Model B Rev 1.0", "pi5"), ("Raspberry Pi Compute Module 5 Rev 1.0", "cm5"),
    ("Raspberry Pi 500 Rev 1.0", "pi500"), ("Raspberry Pi 4 Model B Rev 1.5", "pi4"),
    ("Raspberry Pi 400 Rev 1.0", "pi400"), ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi3+"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "pi02"), ("Raspberry Pi Model B Plus Rev 1.2", "pi1"),
    ("Pine64 RockPro64 v2.1", None), ("Raspberry Pi 6 Model B Rev 1.0", None),  # unknown: every filter may hold
])
def test_the_board_is_named_from_the_device_tree_model(tmp_path, model, board):
    path = tmp_path / "model"
    path.write_bytes(model.encode() + b"\x00")
    assert filter_board(board_model(path)) == board
    assert filter_board(board_model(tmp_path / "absent")) is None  # off a Pi


@pytest.mark.parametrize("line, key, got", [
    ("dtoverlay=ws2812-pio,gpio=forty", "gpio", "'forty'"),
    ("dtoverlay=ws2812-pio,gpio=28", "gpio", "'28'"),
    ("dtoverlay=ws2812-pio,num_leds=0", "num_leds", "'0'"),
])
def test_a_pi5_led_overlay_value_the_driver_cannot_take_names_the_boot_file_line_and_key(tmp_path, line, key, got):
    boot = tmp_path / "config.txt"
    boot.write_text(f"dtparam=audio=on\n{line}\n")
    with pytest.raises(ConfigError) as caught:
        read_pio_overlays(boot)
    assert str(caught.value).startswith(f"{boot} line 2: dtoverlay=ws2812-pio {key}: expected a whole number from ")
    assert str(caught.value).endswith(f"got {got}")


def test_rings_the_pi5_led_overlay_cannot_drive_are_refused(tmp_path):
    """Fewer LEDs than the rings' (the centre ring counts), or a pio_device no overlay makes; more
    LEDs than the rings' are fine (the driver leaves the rest dark), and SPI rings are not its."""
    overlay = PioOverlay("/boot/firmware/config.txt", 12, 0, gpio=10, num_leds=96)
    rings = RingsConfig(backend="pio", centre={"leds": 16})
    with pytest.raises(ConfigError, match=r"^/boot/firmware/config.txt line 12: dtoverlay=ws2812-pio num_leds: "
                                          r"expected at least the rings' 112 LEDs .*set num_leds=112.*got 96$"):
        check_pio_leds(rings, (overlay,))
    check_pio_leds(RingsConfig(backend="spi", centre={"leds": 16}), (overlay,))
    check_pio_leds(RingsConfig(backend="auto"), (overlay,))
    check_pio_leds(RingsConfig(backend="pio"), (replace(overlay, dev_name="strip%d"), overlay))  # ours makes /dev/leds0
    with pytest.raises(ConfigError, match=r"^rings.pio_device: expected a device a dtoverlay=ws2812-pio line of "
                                          r"/boot/firmware/config.txt makes \(/dev/strip0\), got '/dev/leds0'$"):
        check_pio_leds(RingsConfig(backend="pio"), (replace(overlay, dev_name="strip%d"),))
