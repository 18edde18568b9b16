"""The real kiosk as systemd runs it, for tests: ``python -m firmware`` headless (the simulated
devices, the UI rendering offscreen) on a configuration, with a datagram socket standing in for
systemd's notify socket."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Kiosk:
    process: subprocess.Popen[str]
    notify: socket.socket
    """systemd's notify socket as the kiosk sees it (each ``recv`` waits at most 60 s)."""
    stderr: str = field(default="")
    """What the kiosk logged, once it has stopped."""

    def said(self, message: str) -> list[str]:
        """The notify messages up to the first holding ``message`` (READY=1, STOPPING=1...)."""
        heard = [self.notify.recv(4096).decode()]
        while message not in heard[-1]:
            heard.append(self.notify.recv(4096).decode())
        return heard


@contextmanager
def kiosk_process(directory: Path, config: Path, **env: str) -> Iterator[Kiosk]:
    """The kiosk started on ``config``, its notify socket in ``directory``; at the end stopped as
    ``systemctl stop`` stops it if it still runs, and its log read into :attr:`Kiosk.stderr`."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(directory / "notify"))
    notify.settimeout(60)
    environ = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    environ.update(NOTIFY_SOCKET=str(directory / "notify"), SDL_VIDEODRIVER="offscreen", **env)
    process = subprocess.Popen([sys.executable, "-m", "firmware", "--config", str(config), "--simulate",
                                "--size", "800x480"], cwd=ROOT, env=environ, stderr=subprocess.PIPE, text=True)
    kiosk = Kiosk(process, notify)
    try:
        yield kiosk
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            kiosk.stderr = process.communicate(timeout=30)[1]
        finally:
            process.kill()
            notify.close()
