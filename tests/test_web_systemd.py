"""The web pages' systemd unit: verified by systemd itself, and sandboxed at least as tightly as
the kiosk's own unit."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

from test_firmware_systemd import SYSTEM_UNITS, systemd_analyze

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tantrix-web.service"
KIOSK_UNIT = ROOT / "systemd" / "tantrix-kiosk.service"
DEVICE_ACCESS = {"DeviceAllow", "SupplementaryGroups", "TTYPath", "StandardInput"}
"""Kiosk settings that grant what the web pages must not have."""
SANDBOX = ("NoNewPrivileges", "CapabilityBoundingSet", "ProtectSystem", "ProtectHome", "PrivateTmp",
           "ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups",
           "ProtectClock", "ProtectHostname", "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID",
           "LockPersonality", "RemoveIPC", "PrivateMounts", "ProtectProc", "SystemCallFilter",
           "SystemCallErrorNumber", "UMask", "DevicePolicy", "User")


def service(path: Path) -> configparser.SectionProxy:
    parser = configparser.RawConfigParser(strict=False, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment]
    parser.read_string(path.read_text())
    return parser["Service"]


def test_systemd_analyze_verify_passes(tmp_path):
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / SYSTEM_UNITS.relative_to("/"), symlinks=True)
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    shutil.copy(UNIT, units / UNIT.name)
    executable = root / "opt/tantrix-kiosk/current/venv/bin/tantrix-web"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    done = subprocess.run([systemd_analyze(), "verify", f"--root={root}", "--man=no", UNIT.name],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_the_web_unit_keeps_every_sandbox_rule_of_the_kiosk_and_drops_its_devices():
    web, kiosk = service(UNIT), service(KIOSK_UNIT)
    for key in SANDBOX:
        assert web[key] == kiosk[key], key
    assert not DEVICE_ACCESS & set(web)
    assert set(web["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert web["PrivateDevices"] == web["MemoryDenyWriteExecute"] == "yes" and web["ProcSubset"] == "pid"
    assert web["StateDirectory"] == kiosk["StateDirectory"] and web["Restart"] == "on-failure"
    assert web["ExecStart"].endswith("/tantrix-web") and "--" not in web["ExecStart"]
    # the release install.sh switched to (it deletes the environment of the layout before releases)
    assert Path(web["ExecStart"]).parent == Path(kiosk["ExecStart"].split()[0]).parent
