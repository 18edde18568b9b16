"""Files written whole or not at all: the one way the kiosk replaces a file it keeps or hands out.

A file written in place and cut short (a card that fills up, a USB stick pulled out, a power cut)
looks whole to whoever opens it next: an export staff copy away, the configuration's last good
copy, the restart history. :func:`write_whole` writes beside the file and renames it into place.
Pure Python, no Kivy: the firmware uses it too (firmware may import the UI, not the reverse).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """``data`` as the file ``path``, whole or not at all: written to ``<path>.part`` beside it,
    synced, renamed over ``path``, and the directory synced so that the rename survives a power
    cut. On a failure (OSError, raised) the part goes and ``path`` is as it was."""
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
