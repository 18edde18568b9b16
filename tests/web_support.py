"""Shared by the web pages' tests and benches: a kiosk state directory with a configuration, the
real ``tantrix-web`` server started on 127.0.0.1, and Debian's headless Chromium through selenium."""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from firmware.pin import hash_pin

ROOT = Path(__file__).resolve().parent.parent
STAFF_PIN = "2468"
STARTUP_LIMIT = 60.0
"""Seconds a server may take to answer before a test fails (generous: the machine is shared)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def connect(port: int, client: int = 0, timeout: float = STARTUP_LIMIT) -> socket.socket:
    """A connection to the server on 127.0.0.1 from the ``client``-th of many distinct addresses
    (Linux answers every address of 127.0.0.0/8, so each is a device of its own to the server,
    which lets one address hold only a few connections: ``web.connections.MAX_PER_ADDRESS``);
    client 0 is 127.0.0.1, where urllib and Chromium connect from."""
    source = str(ipaddress.IPv4Address("127.0.0.1") + client)
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))


def write_config(directory: Path, *, pin: str | None = STAFF_PIN, enabled: bool = True, port: int = 0,
                 spectators: bool = True, proxy: str = "") -> Path:
    """A configuration whose database lives in ``directory/state``; the PIN hashed with few rounds
    (the check's speed is not under test)."""
    staff_pin = hash_pin(pin, rounds=1000) if pin else ""
    path = directory / "config.toml"
    path.write_text(f'[kiosk]\nstaff_pin = "{staff_pin}"\n[storage]\ndirectory = "{directory / "state"}"\n'
                    f'[web]\nenabled = {str(enabled).lower()}\nhost = "127.0.0.1"\nport = {port or free_port()}\n'
                    f'spectators = {str(spectators).lower()}\nproxy = "{proxy}"\n')
    return path


LISTENING = "Uvicorn running on"
"""What the server prints once it listens (uvicorn's own line, after the bind)."""


class _Output:
    """A process's output, read as it comes (a full pipe would stop the server), kept whole."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.ended = False
        self._changed = threading.Condition()
        self._process = process
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def wait_for(self, text: str, limit: float) -> bool:
        """Whether a line holding ``text`` came before the output ended (False after ``limit`` s)."""
        with self._changed:
            self._changed.wait_for(lambda: self.ended or any(text in line for line in self.lines), limit)
            return any(text in line for line in self.lines)

    def __str__(self) -> str:
        return "".join(self.lines)


@contextmanager
def web_server(config: Path) -> Iterator[str]:
    """``python -m web --config config`` until the block ends; yields its base URL once the server
    itself said it listens: an answer on the port alone could come from another program (another
    test's server) that took the port between :func:`free_port` and this server's bind, which then
    failed. Such a port is traded for another one in ``config``."""
    for _ in range(5):
        port = int(next(line.split("=")[1] for line in config.read_text().splitlines() if line.startswith("port")))
        process = subprocess.Popen([sys.executable, "-m", "web", "--config", str(config)], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        output = _Output(process)
        try:
            if output.wait_for(LISTENING, STARTUP_LIMIT):
                yield f"http://127.0.0.1:{port}"
                return
            if "address already in use" not in str(output):
                raise AssertionError(f"the web server did not start within {STARTUP_LIMIT:g} s:\n{output}")
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        config.write_text(config.read_text().replace(f"\nport = {port}\n", f"\nport = {free_port()}\n"))
    raise AssertionError(f"the web server found no free port:\n{output}")


def request(url: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP request (errors are answers too)."""
    req = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read()


def chromium(width: int, height: int, languages: str | None = None) -> Any:
    """Debian's Chromium, headless, driven by Debian's chromedriver (never a downloaded browser);
    ``languages`` ("fr-BE,fr") as a visitor's browser is set to speak them (else the machine's)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert browser and driver, "install Debian's chromium and chromium-driver (./dev test does so as root)"
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--disable-gpu", "--no-first-run", "--disable-extensions",
                     f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(argument)
    if languages is not None:
        options.add_argument(f"--accept-lang={languages}")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium's sandbox refuses to run as root (CI containers)
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))
