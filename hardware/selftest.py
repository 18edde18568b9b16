"""``python -m hardware selftest``: is each device there, through which backend, and what failed?

Opens the button, the reader and the rings from their configurations, lights each real ring in
turn, listens for events for a moment (press the button, put a tile down) and returns a JSON-able
report. Missing devices are reported (``found: false`` with the reason), never fatal.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any, Sequence

from .board import Board, board_model, classify
from .button import open_button
from .bootconfig import read_pio_overlays
from .config import ButtonConfig, ConfigError, ReaderConfig, RingsConfig, check_pins, check_pio_leds
from .events import Event, EventQueue, ReaderConnected, ReaderLost
from .reader import SerialTileReader, open_reader
from .rings import Lamp, Off, Rings

FIRST_OPEN_S = 3.0
"""How long the report waits for the reader's first attempt at its port."""


def selftest(button: ButtonConfig, reader: ReaderConfig, rings: RingsConfig, *, listen_s: float = 1.0,
             ring_s: float = 0.4, board: Board | None = None) -> dict[str, Any]:
    model = board_model() if board is None else None
    board = board if board is not None else classify(model)
    inbox = EventQueue()
    events: list[Event] = []
    with open_button(button, board) as the_button, open_reader(reader, listener=inbox) as the_reader, \
            Rings(rings, board=board) as the_rings:
        the_button.subscribe(inbox)
        if isinstance(the_reader, SerialTileReader):  # let it try the port once before reporting
            deadline = time.monotonic() + FIRST_OPEN_S
            while not any(isinstance(e, (ReaderConnected, ReaderLost)) for e in events):
                event = inbox.get(timeout=max(0.0, deadline - time.monotonic()))
                if event is None:
                    break
                events.append(event)
        if the_rings.strip.name != "simulated":
            for ring in range(len(rings.all_rings)):
                the_rings.show(Lamp(ring))
                time.sleep(ring_s)
            the_rings.show(Off())
        time.sleep(listen_s)
        report: dict[str, Any] = {
            "board": model or board.value, "button": the_button.status().as_dict(),
            "reader": the_reader.status().as_dict(), "rings": the_rings.status().as_dict()}
    events += inbox.drain()
    report["events"] = [{"event": type(event).__name__, **dataclasses.asdict(event)} for event in events]
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--button-pin", type=int, default=ButtonConfig.pin, help="BCM GPIO of the bag button")
    parser.add_argument("--port", help="tile reader: device path or pyserial URL (default: none)")
    parser.add_argument("--protocol", default=ReaderConfig.protocol, help="rdm6300, pn532 or lines")
    parser.add_argument("--baudrate", type=int, default=ReaderConfig.baudrate)
    parser.add_argument("--rings-backend", default=RingsConfig.backend, help="auto, spi, pio, ws281x or simulated")
    parser.add_argument("--listen", type=listen_seconds, default=1.0, help="seconds to collect events (default 1)")


OPTIONS = {"button.pin": "--button-pin", "reader.port": "--port", "reader.protocol": "--protocol",
           "reader.baudrate": "--baudrate", "rings.backend": "--rings-backend"}
"""The command-line option that sets each configuration field, to name it in a refusal."""


def listen_seconds(text: str) -> float:
    """An argparse type: 0 to 600 seconds (a NaN or an endless wait means nothing)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 600, got {text[:40]!r}") from None
    if not 0 <= value <= 600:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 600, got {text[:40]!r}")
    return value


def run(args: argparse.Namespace) -> dict[str, Any]:
    button = ButtonConfig(pin=args.button_pin)
    reader = ReaderConfig(port=args.port, protocol=args.protocol, baudrate=args.baudrate)
    rings = RingsConfig(backend=args.rings_backend)
    overlays = read_pio_overlays(rings.boot_config, board_model())
    check_pins(button, reader, rings, overlays)
    check_pio_leds(rings, overlays)
    return selftest(button, reader, rings, listen_s=args.listen)


def main(argv: Sequence[str] | None = None) -> int:
    import json

    parser = argparse.ArgumentParser(prog="python -m hardware", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    selftest_parser = commands.add_parser("selftest", help="report each device's status as JSON")
    add_arguments(selftest_parser)
    args = parser.parse_args(argv)
    try:
        report = run(args)
    except ConfigError as exc:  # a value argparse let through that the device's configuration refuses,
        if exc.field not in OPTIONS:  # or the boot configuration's LED overlay
            selftest_parser.error(str(exc))
        selftest_parser.error(f"argument {OPTIONS[exc.field]}: {str(exc).partition(': ')[2]}")
    print(json.dumps(report, indent=2))
    return 0
