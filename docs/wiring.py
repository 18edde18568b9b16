"""Draws the kiosk's wiring diagram (SVG) for the configured LED rings, with their power budget.

    .venv/bin/python docs/wiring.py                       # docs/wiring.svg for the default rings
    .venv/bin/python docs/wiring.py --config /etc/tantrix-kiosk/config.toml --out my-table.svg

The README's wiring chapter shows docs/wiring.svg; a test checks that it is what this script
draws for the default configuration, so the picture never drifts from the code.
"""

from __future__ import annotations

import argparse
import math
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hardware.config import ButtonConfig, RingsConfig  # noqa: E402
from hardware.power import power_budget  # noqa: E402

WIDTH, HEIGHT = 1100, 750
FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
RED, BLACK, BLUE, GREEN, ORANGE, GREY = "#c0392b", "#222222", "#1f5fbf", "#1e8449", "#d35400", "#7f8c8d"
"""5 V, GND, LED data, serial, button, notes (each wire is also labelled: colour is never the only cue)."""


class Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, x: float, y: float, text: str, size: int = 13, anchor: str = "start", weight: str = "normal",
             colour: str = BLACK) -> None:
        self.parts.append(f"<text x='{x:g}' y='{y:g}' font-size='{size}' text-anchor='{anchor}' "
                          f"font-weight='{weight}' fill='{colour}' {FONT}>{escape(text)}</text>")

    def box(self, x: float, y: float, w: float, h: float, title: str, lines: tuple[str, ...] = (),
            dashed: bool = False, fill: str = "#f7f4ea") -> None:
        dash = " stroke-dasharray='6 4'" if dashed else ""
        self.parts.append(f"<rect x='{x:g}' y='{y:g}' width='{w:g}' height='{h:g}' rx='8' fill='{fill}' "
                          f"stroke='{BLACK}' stroke-width='1.5'{dash}/>")
        self.text(x + w / 2, y + 20, title, 14, "middle", "bold")
        for i, line in enumerate(lines):
            self.text(x + w / 2, y + 40 + 17 * i, line, 12, "middle")

    def wire(self, points: list[tuple[float, float]], colour: str, label: str = "", at: int = 0,
             dx: float = 4, dy: float = -5, dashed: bool = False) -> None:
        path = " ".join(f"{x:g},{y:g}" for x, y in points)
        dash = " stroke-dasharray='5 4'" if dashed else ""
        self.parts.append(f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='2.2'{dash}/>")
        if label:
            x, y = points[at]
            self.text(x + dx, y + dy, label, 11, colour=colour)

    def dot(self, x: float, y: float, colour: str) -> None:
        self.parts.append(f"<circle cx='{x:g}' cy='{y:g}' r='3.5' fill='{colour}'/>")

    def ring(self, x: float, y: float, r: float, label: str, leds: int) -> None:
        self.parts.append(f"<circle cx='{x:g}' cy='{y:g}' r='{r:g}' fill='none' stroke='{BLACK}' stroke-width='5' "
                          f"stroke-opacity='0.15'/>")
        for i in range(leds):
            angle = 2 * math.pi * i / leds
            self.parts.append(f"<circle cx='{x + r * math.sin(angle):.1f}' cy='{y - r * math.cos(angle):.1f}' "
                              f"r='3' fill='#f1c40f' stroke='{BLACK}' stroke-width='0.6'/>")
        self.text(x, y - 2, label, 12, "middle", "bold")
        self.text(x, y + 13, f"{leds} LEDs", 11, "middle")

    def render(self) -> str:
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
                f"viewBox='0 0 {WIDTH} {HEIGHT}'>\n<rect width='100%' height='100%' fill='white'/>\n"
                + "\n".join(self.parts) + "\n</svg>\n")


def draw(rings: RingsConfig, button: ButtonConfig = ButtonConfig()) -> str:
    """The diagram for ``rings`` (their number, sizes and power budget) and the button's pin."""
    svg = Svg()
    budget = power_budget(rings)
    svg.text(WIDTH / 2, 30, "Tantrix Table: wiring", 20, "middle", "bold")

    # The Pi and the pins used, on its right edge.
    pi_x, pi_y, pi_w = 30, 60, 260
    pins = {"3v3": (1, "3V3"), "5v": (2, "5V"), "gnd": (6, "GND"), "txd": (8, "GPIO14 TXD"), "rxd": (10, "GPIO15 RXD"),
            "button": (11, f"GPIO{button.pin}"), "gnd2": (9, "GND"), "mosi": (19, "GPIO10 SPI0 MOSI")}
    order = ["3v3", "5v", "gnd", "txd", "rxd", "gnd2", "button", "mosi"]
    svg.box(pi_x, pi_y, pi_w, 60 + 38 * len(order), "Raspberry Pi 3, 4 or 5", ("64-bit Pi OS, its own supply",))
    y_of = {}
    for i, key in enumerate(order):
        number, name = pins[key]
        y = pi_y + 80 + 38 * i
        y_of[key] = y
        svg.text(pi_x + pi_w - 10, y + 4, f"pin {number}  {name}", 12, "end")
        svg.dot(pi_x + pi_w, y, BLACK)
    right = pi_x + pi_w

    # The tile reader: a PN532 at 3.3 V straight on the UART, or an RDM6300 at 5 V through a divider.
    rx, ry = 430, y_of["3v3"] - 30
    svg.box(rx, ry, 230, y_of["rxd"] - ry + 12, "PN532 reader", ("HSU (UART) mode", "VCC 3.3 V: TX is 3.3 V",
                                                                 "NTAG213 stickers", "in the tiles"))
    svg.wire([(right, y_of["3v3"]), (rx, y_of["3v3"])], RED, "3V3 -> VCC", dx=20)
    svg.wire([(right, y_of["gnd"]), (rx, y_of["gnd"])], BLACK, "GND", dx=60)
    svg.wire([(right, y_of["txd"]), (rx, y_of["txd"])], GREEN, "TXD -> RX", dx=60)
    svg.wire([(right, y_of["rxd"]), (rx, y_of["rxd"])], GREEN, "RXD <- TX", dx=60)
    svg.box(700, 70, 330, 86, "or an RDM6300 (125 kHz), at 5 V", ("its TX -> 1 kOhm -> RXD; RXD -> 2 kOhm -> GND",
                                                                 "(5 V down to 3.3 V: the Pi is not 5 V safe)"),
            dashed=True)
    svg.box(700, 176, 330, 70, "or the seat controller (controller/)", ("a Pico with one MFRC522 per seat",
                                                                        "on a USB port: reader port = \"auto\""),
            dashed=True)

    # The bag button.
    bx = 430
    svg.box(bx, y_of["gnd2"] - 18, 230, 60, "Bag button", ("momentary, between the two",))
    svg.wire([(right, y_of["gnd2"]), (bx, y_of["gnd2"])], BLACK, "GND", dx=60)
    svg.wire([(right, y_of["button"]), (bx, y_of["button"])], ORANGE, f"GPIO{button.pin} (internal pull-up)", dx=20)

    # The LED data line through a 5 V buffer.
    lx, ly = 430, 450
    svg.box(lx, ly, 230, 100, "74AHCT125 level shifter", ("VCC 5 V (pin 2), GND, 1OE to GND", "1A <- MOSI (3.3 V)",
                                                           "1Y -> 330 Ohm -> DIN (5 V)"))
    svg.wire([(right, y_of["mosi"]), (390, y_of["mosi"]), (390, ly + 58), (lx, ly + 58)], BLUE,
             "LED data: SPI MOSI (PIO on a Pi 5)", dx=20)
    svg.wire([(right, y_of["5v"]), (315, y_of["5v"]), (315, ly + 84), (lx, ly + 84)], RED, "5V", at=2, dx=5, dy=-6)
    svg.dot(right + 40, y_of["gnd"], BLACK)
    svg.wire([(right + 40, y_of["gnd"]), (right + 40, ly + 94), (lx, ly + 94)], BLACK, "GND", at=1, dx=5, dy=14)

    # The rings on one data chain, each fed from the LED supply.
    all_rings = list(rings.all_rings)
    names = [f"seat {i + 1}" for i in range(len(rings.rings))] + (["centre"] if rings.centre else [])
    ring_y, first_x = 680, 720
    step = min(100, (WIDTH - first_x - 20) / max(1, len(all_rings)))
    radius = min(38, step / 2 - 8)
    svg.wire([(lx + 230, ly + 70), (680, ly + 70), (680, ring_y), (first_x - radius, ring_y)], BLUE, "DIN", at=3,
             dx=-30, dy=-6)
    for i, (ring, name) in enumerate(zip(all_rings, names)):
        x = first_x + step * i
        svg.ring(x, ring_y, radius, name, ring.leds)
        if i + 1 < len(all_rings):
            svg.wire([(x + radius, ring_y), (x + step - radius, ring_y)], BLUE)
        svg.wire([(x - 6, 590), (x - 6, ring_y - radius)], RED, dashed=not budget.inject)
        svg.wire([(x + 6, 605), (x + 6, ring_y - radius)], BLACK, dashed=not budget.inject)
    last_x = first_x + step * (len(all_rings) - 1)
    svg.wire([(first_x - 6, 590), (last_x + 45, 590)], RED, "+5 V", at=1, dx=-32)
    svg.wire([(660, 605), (last_x + 45, 605)], BLACK, "GND", at=1, dx=-32, dy=14)
    svg.wire([(lx + 230, ly + 94), (660, ly + 94), (660, 605)], BLACK, "common GND", at=1, dx=-86, dy=14)
    sx, sy = 720, 460
    svg.box(sx, sy, 300, 90, f"5 V {budget.supply_a} A supply for the LEDs",
            ("1000 uF across + and - at the rings", "its GND joined to the Pi's GND"))
    svg.wire([(sx + 240, sy + 90), (sx + 240, 590)], RED)
    svg.dot(sx + 240, 590, RED)
    svg.wire([(sx + 270, sy + 90), (sx + 270, 605)], BLACK)
    svg.dot(sx + 270, 605, BLACK)

    # The budget and the settings.
    said = budget.lines()
    notes = said + [
        "SPI on (LED data on GPIO 10): sudo raspi-config nonint do_spi 0",
        "UART on, no console on it: sudo raspi-config nonint do_serial_hw 0",
        "                            and sudo raspi-config nonint do_serial_cons 1",
        "A steady SPI clock (config.txt): Pi 3 core_freq=250; Pi 4 core_freq=500, core_freq_min=500"]
    for i, line in enumerate(notes):
        svg.text(30, 585 + 19 * i, line, 12, weight="bold" if i == 0 else "normal", colour=BLACK if i < len(said) else GREY)
    return svg.render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="the kiosk's config.toml (default: the built-in rings)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "wiring.svg"))
    args = parser.parse_args(argv)
    rings, button = RingsConfig(), ButtonConfig()
    if args.config:
        from firmware.config import load_config

        config = load_config(Path(args.config), environ={})
        rings, button = config.rings, config.button
        for warning in config.warnings:
            print(warning, file=sys.stderr)
    Path(args.out).write_text(draw(rings, button), encoding="utf-8")
    print("\n".join(power_budget(rings).lines()))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
