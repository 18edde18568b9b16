"""The installed version, for the staff menu and the log: the package's version and, for an install
made by ``systemd/install.sh``, the commit it was built from (the installer writes it into the
environment as :data:`STAMP`, since a wheel built out of the checkout has no git to ask)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "tantrix-table"
STAMP = "tantrix-kiosk-version"
"""A one-line file in the environment's prefix: ``<version> <commit> <date>`` (install.sh)."""


def installed_version(prefix: str = sys.prefix) -> str:
    """``"0.1.0 (git 94359e8, installed 2026-11-25)"``, or just the package's version."""
    try:
        stamp = (Path(prefix) / STAMP).read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        stamp = ""
    if stamp:
        return stamp.splitlines()[0][:120]
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"
