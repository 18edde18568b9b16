"""The kiosk's configuration: defaults, the example file, and broken files that must not stop it."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path


from firmware.config import DEFAULT_PATH, DEVICES, ENV_VAR, SECTIONS, Config, config_path, load_config
from hardware import ButtonConfig, ReaderConfig, RingsConfig, RingSpec
from firmware.pin import hash_pin

EXAMPLE = Path(__file__).resolve().parent.parent / "systemd" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_default_file_gives_the_defaults_quietly():
    config = load_config(None, environ={})
    assert config_path(None, {}) == (DEFAULT_PATH, False)
    if not DEFAULT_PATH.exists():
        assert config == Config()
    assert Config().kiosk.language == "en" and Config().storage.max_mb == 64 and not Config().warnings


def test_a_missing_file_asked_for_is_reported(tmp_path):
    missing = tmp_path / "nope.toml"
    for config in (load_config(missing, environ={}), load_config(None, environ={ENV_VAR: str(missing)})):
        assert config.kiosk == Config().kiosk
        assert config.warnings == (f"{missing}: no such file; the kiosk starts on the built-in defaults",)


def test_the_example_parses_cleanly_and_covers_every_key():
    config = load_config(EXAMPLE, environ={})
    assert config.warnings == () and config.source == EXAMPLE
    document = tomllib.loads(EXAMPLE.read_text())
    assert set(document) == {*SECTIONS, *DEVICES}
    commented_out = {"reader": {"port"}, "rings": {"centre"}}  # optional keys without a default value
    for name, cls in {**SECTIONS, **DEVICES}.items():
        keys = set(document[name]) | commented_out.get(name, set())
        assert keys == {spec.name for spec in fields(cls)}, name
        assert getattr(config, name) == cls(), f"the example's [{name}] should show the defaults"


def test_values_are_typed_and_applied(tmp_path):
    pin = hash_pin("2468", rounds=1000)
    config = load_config(write(tmp_path, f"""
        [kiosk]
        language = "fr"
        idle_seconds = 45
        staff_pin = "{pin}"
        [display]
        orientation = "upright"
        [rules]
        end_rule = "first-out"
        physical_bag = true
        [storage]
        directory = "/srv/kiosk"
        max_mb = 8
        [rings]
        brightness = 0.25
        rings = [{{leds = 12}}, {{leds = 12}}]
    """), environ={})
    assert config.warnings == ()
    assert config.kiosk.language == "fr" and config.kiosk.idle_seconds == 45.0
    assert isinstance(config.kiosk.idle_seconds, float) and config.kiosk.staff_pin == pin
    assert config.display.orientation == "upright"
    assert config.rules.end_rule == "first-out" and config.rules.physical_bag is True
    assert config.storage.path({}) == Path("/srv/kiosk") and config.storage.max_mb == 8
    assert config.rings == RingsConfig(brightness=0.25, rings=(RingSpec(12), RingSpec(12)))
    assert config.button == ButtonConfig() and config.reader == ReaderConfig()


def test_wrong_types_and_out_of_range_values_name_file_key_value_and_expected(tmp_path):
    path = write(tmp_path, """
        [kiosk]
        language = "de"
        idle_seconds = "long"
        staff_pin = "1234"
        [rules]
        physical_bag = "yes"
        end_rule = "all-placed"
        [storage]
        max_mb = 0
        keep_records = 2.5
        [button]
        pin = 40
        hold_s = 2.0
        [rings]
        brightness = 3
        rings = "four"
        [reader]
        port = 7
    """)
    config = load_config(path, environ={})
    expected = {
        "kiosk.language = \"de\": expected one of \"en\", \"fr\", \"nl\", \"pl\"; using the default \"en\"",
        "kiosk.idle_seconds = \"long\": expected a number from 10 to 3600; using the default 120.0",
        "kiosk.staff_pin = \"1234\": expected a hash made by \"tantrix-kiosk hash-pin\"",
        "rules.physical_bag = \"yes\": expected true or false; using the default false",
        "storage.max_mb = 0: expected a whole number from 1 to 4096; using the default 64",
        "storage.keep_records = 2.5: expected a whole number from 10 to 100000",
        "button.pin: expected an integer from 0 to 27, got 40; using the default 17",
        "rings.brightness: expected a number from 0 to 1, got 3; using the default 0.4",
        "rings.rings: expected a list of ring tables, one per seat, got 'four'; using the default",
        "reader.port: expected a device path or pyserial URL (or no key at all), got 7; using the default",
    }
    assert len(config.warnings) == len(expected)
    for fragment in expected:
        assert any(w.startswith(f"{path}: ") and fragment in w for w in config.warnings), fragment
    # the broken keys keep their defaults, the rest of the file still applies
    assert config.kiosk == Config().kiosk and config.rules.physical_bag is False
    assert config.storage.max_mb == 64 and config.storage.keep_records == 2000
    assert config.button == ButtonConfig(hold_s=2.0) and config.rings == RingsConfig()
    assert config.reader == ReaderConfig()


def test_a_button_on_the_led_data_pin_is_refused_and_keeps_its_default(tmp_path):
    """The README wires the LED data to GPIO 10: a button there would take it from the SPI."""
    path = write(tmp_path, """
        [button]
        pin = 10
        hold_s = 2.0
        [reader]
        port = "/dev/serial0"
    """)
    config = load_config(path, environ={})
    assert config.warnings == (
        f"{path}: button.pin: expected a GPIO no other device uses: GPIO 10 carries the LED rings' data "
        "(SPI MOSI of /dev/spidev0.0), got 10; using the default 17",)
    assert config.button == ButtonConfig(hold_s=2.0) and config.reader == ReaderConfig(port="/dev/serial0")


def test_the_pi5_led_overlay_in_the_boot_configuration_is_checked_against_the_button_and_the_rings(tmp_path):
    """On a Pi 5 the LED driver's pin and number of LEDs are set in config.txt, not here: a button on
    that pin would take it from the driver, and fewer LEDs than the rings' stop every frame. Both are
    named with the boot file, its line and key; the rings' file names the boot file it reads."""
    boot = tmp_path / "config.txt"
    boot.write_text("# LED rings\n[pi5]\ndtoverlay=vc4-kms-v3d\ndtoverlay=ws2812-pio,gpio=22,num_leds=96\n[all]\n")
    path = write(tmp_path, f"""
        [button]
        pin = 22
        [rings]
        boot_config = "{boot}"
        centre = {{ leds = 16 }}
    """)
    config = load_config(path, environ={})
    assert config.warnings == (
        f"{boot} line 4: dtoverlay=ws2812-pio num_leds: expected at least the rings' 112 LEDs ([rings] rings "
        "and centre; set num_leds=112 there and reboot), got 96",
        f"{path}: button.pin: expected a GPIO no other device uses: GPIO 22 carries LED data ({boot} line 4: "
        "dtoverlay=ws2812-pio gpio=22), got 22; using the default 17")
    assert config.button == ButtonConfig() and config.rings.led_count == 112
    boot.write_text("dtoverlay=ws2812-pio\ndtparam=gpio=17\ndtparam=num_leds=0x70,brightness=128\n")
    config = load_config(path, environ={})  # the overlay's keys on dtparam lines: all agree now
    assert config.warnings == () and config.button.pin == 22


def test_a_button_left_on_the_default_pin_the_pi5_led_overlay_drives_is_turned_off(tmp_path):
    """gpiozero must not take the LEDs' pin: with GPIO 17 the overlay's, no pin is left to fall back on."""
    boot = tmp_path / "config.txt"
    boot.write_text("dtoverlay=ws2812-pio,gpio=17,num_leds=96\n")
    path = write(tmp_path, f'[rings]\nboot_config = "{boot}"\n')
    config = load_config(path, environ={})
    assert config.warnings == (
        f"{path}: button.pin: expected a GPIO no other device uses: GPIO 17 carries LED data ({boot} line 1: "
        "dtoverlay=ws2812-pio gpio=17), got 17; the bag button is off (choose a free [button] pin)",)
    assert config.button.backend == "simulated"


def test_a_removal_silence_shorter_than_a_pn532s_polls_is_refused_and_the_reader_kept(tmp_path):
    path = write(tmp_path, """
        [reader]
        port = "/dev/ttyAMA0"
        protocol = "pn532"
        removal_silence_s = 0.05
    """)
    config = load_config(path, environ={})
    assert config.warnings == (
        f'{path}: reader.removal_silence_s: expected at least 0.3 with protocol "pn532" (the kiosk polls it every '
        "0.05 s and waits up to 0.1 s for an answer: a shorter silence removes a tile lying there whenever one poll "
        "misses it), got 0.05; using the default 0.8",)
    assert config.reader == ReaderConfig(port="/dev/ttyAMA0", protocol="pn532")  # the rest of [reader] applies


def test_booleans_are_not_numbers(tmp_path):
    config = load_config(write(tmp_path, "[kiosk]\nidle_seconds = true\n[storage]\nmax_mb = false\n"), environ={})
    assert len(config.warnings) == 2 and config.kiosk.idle_seconds == 120.0 and config.storage.max_mb == 64


def test_unknown_tables_and_keys_are_named_with_a_suggestion(tmp_path):
    path = write(tmp_path, """
        display = "upright"
        [kiosk]
        langauge = "fr"
        idle_seconds = 30
        [ring]
        leds = 3
    """)
    config = load_config(path, environ={})
    assert config.kiosk.idle_seconds == 30.0 and config.kiosk.language == "en"
    assert len(config.warnings) == 3
    display, language, ring = config.warnings
    assert language.startswith(f"{path}: unknown key kiosk.langauge (did you mean language?); ignored")
    assert ring.startswith(f"{path}: unknown table [ring] (did you mean rings?); ignored")
    assert display == f'{path}: display = "upright": expected a table [display]; using the defaults'


def test_bad_toml_starts_entirely_on_defaults_with_the_line(tmp_path):
    path = write(tmp_path, '[kiosk]\nlanguage = "fr"\nidle_seconds = = 3\n')
    config = load_config(path, environ={})
    assert config.kiosk == Config().kiosk
    (warning,) = config.warnings
    assert warning.startswith(f"{path}: not valid TOML: ") and "line 3" in warning
    assert warning.endswith("the kiosk starts on the built-in defaults")


def test_unreadable_and_non_utf8_files_are_reported(tmp_path):
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"[kiosk]\nlanguage = \"\xff\"\n")
    (warning,) = load_config(binary, environ={}).warnings
    assert warning.startswith(f"{binary}: not UTF-8 text")
    (warning,) = load_config(tmp_path, environ={}).warnings  # a directory
    assert warning.startswith(f"{tmp_path}: cannot read it (")


def test_a_relative_state_directory_is_refused_and_kept_from_the_last_good_file(tmp_path):
    # "data" follows the working directory: / under systemd (read-only: nothing kept), elsewhere
    # wherever the kiosk was started, the games kept in another directory each time
    last_good = tmp_path / "state" / "config.last-good.toml"
    write(tmp_path, '[storage]\ndirectory = "/srv/kiosk"\n')
    assert load_config(tmp_path / "config.toml", environ={}, last_good=last_good).storage.directory == "/srv/kiosk"
    path = write(tmp_path, '[storage]\ndirectory = "data"\n')
    config = load_config(path, environ={}, last_good=last_good)
    assert config.storage.directory == "/srv/kiosk"
    assert f'{path}: storage.directory = "data": expected an absolute path in quotes (starting with /)' in config.warnings[0]


def test_a_key_above_every_table_is_named_as_such(tmp_path):
    path = write(tmp_path, 'staff_pin = 1234\nmood = "happy"\n[kiosk]\nlanguage = "fr"\n')
    pin, mood = load_config(path, environ={}).warnings
    assert pin == f"{path}: staff_pin = 1234 is outside every table (a key of [kiosk]: put it under that line); ignored"
    assert mood == f'{path}: mood = "happy" is outside every table; ignored'


def test_the_state_directory_follows_systemd_then_xdg(tmp_path):
    storage = Config().storage
    assert storage.path({"STATE_DIRECTORY": "/var/lib/tantrix-kiosk"}) == Path("/var/lib/tantrix-kiosk")
    assert storage.path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "tantrix-kiosk"


def test_the_replay_address_is_checked(tmp_path):
    config = load_config(write(tmp_path, '[replay]\nurl = "http://club.example/tantrix/replay.html"\n'), environ={})
    assert config.replay.url == "http://club.example/tantrix/replay.html" and not config.warnings
    for bad in ('"club.example/replay"', '"https://club.example/replay#x"', "42", '"javascript:alert(1)"'):
        path = write(tmp_path, f"[replay]\nurl = {bad}\n")
        config = load_config(path, environ={})
        assert config.replay.url == Config().replay.url  # the default stays
        (warning,) = config.warnings
        assert str(path) in warning and "replay.url" in warning and "an http:// or https:// address" in warning


def test_display_rotation_and_density_are_checked(tmp_path):
    config = load_config(write(tmp_path, "[display]\nrotation = 270\npixels_per_inch = 210\n"), environ={})
    assert (config.display.rotation, config.display.pixels_per_inch) == (270, 210.0) and not config.warnings
    path = write(tmp_path, "[display]\nrotation = 45\npixels_per_inch = -3\n")
    config = load_config(path, environ={})
    assert (config.display.rotation, config.display.pixels_per_inch) == (0, 0.0)
    rotation, density = config.warnings
    assert "display.rotation" in rotation and "one of 0, 90, 180, 270" in rotation and str(path) in rotation
    assert "display.pixels_per_inch" in density and "a number from 0 to 1000" in density


def test_a_refused_web_key_turns_the_web_pages_off_never_wider(tmp_path):
    path = write(tmp_path, '[web]\nenabled = true\nhost = "127.0.0.1 "\nspectators = false\n')
    config = load_config(path, environ={})
    assert not config.web.enabled  # not listening on every network (the default host) instead
    assert config.warnings[-1] == (f"{path}: [web] web.host refused: the web pages stay off until the table "
                                   f"is fixed (never run with a weaker setting)")
    path = write(tmp_path, '[web]\nenabled = true\nhost = "127.0.0.1"\nspectators = "no"\n')
    assert not load_config(path, environ={}).web.enabled  # nor showing the table to anyone
    path = write(tmp_path, '[web]\nenabled = true\nhost = "127.0.0.1"\nspectators = false\n')
    config = load_config(path, environ={})
    assert config.web.enabled and config.web.host == "127.0.0.1" and not config.warnings
    path = write(tmp_path, '[web]\nenabled = true\nproxy = "localhost"\n')  # a name: not what a socket's peer is
    config = load_config(path, environ={})
    assert not config.web.enabled and 'proxy refused' in config.warnings[-1]  # nor uncapping anyone
    path = write(tmp_path, '[web]\nenabled = true\nproxy = "0:0:0:0:0:0:0:1"\n')
    config = load_config(path, environ={})
    assert config.web.enabled and config.web.proxy == "::1" and not config.warnings  # as the socket names it


def test_a_misspelt_web_or_club_key_turns_them_off_never_wider(tmp_path):
    # "hots" meant host = 127.0.0.1: the default would listen on every network; "tsl" and
    # "pasword_file" meant TLS and a password: the defaults would talk to the broker in clear, without one
    path = write(tmp_path, '[web]\nenabled = true\nhots = "127.0.0.1"\n'
                           '[club]\nenabled = true\nbroker = "club.example"\ntable = "t1"\ntsl = true\n'
                           'pasword_file = "/etc/tantrix-kiosk/pw"\n')
    config = load_config(path, environ={})
    assert not config.web.enabled and not config.club.enabled
    assert f"{path}: [web] web.hots refused: the web pages stay off" in "\n".join(config.warnings)
    assert f"{path}: [club] club.pasword_file and club.tsl refused: the club link stays off" in "\n".join(config.warnings)
