"""A fake LED strip for the rings' tests: never a real one."""

from __future__ import annotations

import time


class FlakyStrip:
    """A strip behind the ``Strip`` interface that refuses the next ``refuse`` frames (EIO: a loose
    connector), then takes them; it notes when each write was tried and the frames it took."""

    name = "spi"

    def __init__(self, refuse: int = 0) -> None:
        self.refuse = refuse
        self.tried: list[float] = []
        self.frames: list[object] = []

    def show(self, frame: object) -> None:
        self.tried.append(time.monotonic())
        if self.refuse:
            self.refuse -= 1
            raise OSError(5, "Input/output error")
        self.frames.append(frame)

    def close(self) -> None:
        pass
