"""The wiring diagram (docs/wiring.svg, drawn by docs/wiring.py) and the LED power budget."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from hardware.config import ButtonConfig, RingsConfig
from hardware.power import power_budget

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
import wiring  # noqa: E402


def test_the_budget_follows_the_configured_rings():
    default = power_budget(RingsConfig())  # 4 rings of 24
    assert (default.leds, default.worst_a, default.supply_a, default.inject) == (96, 5.76, 8, True)
    assert default.configured_a == round(5.76 * 0.4 ** 2.2, 2) == 0.77  # brightness 0.4, gamma-corrected
    small = power_budget(RingsConfig(rings=[{"leds": 8}, {"leds": 8}], brightness=1.0))
    assert (small.worst_a, small.configured_a, small.supply_a, small.inject) == (0.96, 0.96, 2, False)
    big = power_budget(RingsConfig(rings=[{"leds": 60}] * 8, centre={"leds": 60}))
    assert big.supply_a == 60 and big.spi_bytes > 4096  # 32.4 A worst (40.5 with the margin); a bigger spidev buffer
    assert default.spi_bytes <= 4096
    assert f"spidev.bufsiz={big.spi_bytes}" in big.lines()[-1]  # the maker is told how, on the diagram too
    assert not any("spidev" in line for line in default.lines())
    svg = ElementTree.fromstring(wiring.draw(RingsConfig(rings=[{"leds": 60}] * 8, centre={"leds": 60})))
    assert big.lines()[-1] in [element.text for element in svg.iter("{http://www.w3.org/2000/svg}text")]


def test_the_diagram_in_the_repository_is_what_the_script_draws():
    assert (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8") == wiring.draw(RingsConfig())


def test_the_diagram_shows_every_part_and_the_budget_of_its_rings():
    rings = RingsConfig(rings=[{"leds": 12}] * 3, centre={"leds": 16})
    svg = ElementTree.fromstring(wiring.draw(rings, ButtonConfig(pin=27)))
    texts = [element.text or "" for element in svg.iter("{http://www.w3.org/2000/svg}text")]
    words = "\n".join(texts)
    for part in ("GPIO27", "GPIO10 SPI0 MOSI", "74AHCT125 level shifter", "PN532 reader", "RDM6300",
                 "1 kOhm", "2 kOhm", "GPIO14 TXD", "GPIO15 RXD", "seat 3", "centre", "16 LEDs",
                 "5 V 4 A supply for the LEDs", "1000 uF", "common GND", "do_spi 0", "do_serial_hw 0",
                 "do_serial_cons 1", "core_freq=250", "core_freq_min=500", "controller/"):
        assert part in words, part
    assert "seat 4" not in words
    assert power_budget(rings).lines()[0] in texts  # "52 LEDs: up to 3.12 A ..."
    circles = list(svg.iter("{http://www.w3.org/2000/svg}circle"))
    assert sum(c.get("fill") == "#f1c40f" for c in circles) == 3 * 12 + 16  # one dot per LED


def test_the_script_reads_a_kiosk_configuration(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[rings]\nrings = [{leds = 16}, {leds = 16}]\n[button]\npin = 22\n")
    out = tmp_path / "table.svg"
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "wiring.py"), "--config", str(config), "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("32 LEDs: up to 1.92 A") and "GPIO22" in out.read_text()


def test_the_readme_wiring_chapter_shows_the_diagram_and_the_default_budget():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    chapter = readme[readme.index("## Wiring"):]
    assert "docs/wiring.svg" in chapter
    for line in power_budget(RingsConfig()).lines():
        assert line in chapter, line
