"""The kiosk's systemd unit (verified by systemd itself) and the install script's dry run."""

from __future__ import annotations

import configparser
import os
import pwd
import shutil
import subprocess
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "tantrix-kiosk.service"
PWM_DROP_IN = SYSTEMD / "tantrix-kiosk-ws281x-pwm.conf"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def systemd_analyze() -> str:
    """The systemd-analyze command; never skipped: ./dev installs Debian's systemd package for it."""
    command = shutil.which("systemd-analyze")
    assert command, "systemd-analyze is missing: install Debian's systemd package (./dev does so as root)"
    return command


def verify(tmp_path: Path, drop_in: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` on the unit installed as install.sh installs it, in a scratch root
    holding systemd's own units and a stand-in for the kiosk's executable (verify checks it exists)."""
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / SYSTEM_UNITS.relative_to("/"), symlinks=True)
    units = root / "etc/systemd/system"
    units.mkdir(parents=True)
    shutil.copy(UNIT, units / UNIT.name)
    if drop_in is not None:
        (units / f"{UNIT.name}.d").mkdir()
        shutil.copy(drop_in, units / f"{UNIT.name}.d" / "ws281x-pwm.conf")
    executable = root / "opt/tantrix-kiosk/current/venv/bin/tantrix-kiosk"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    return subprocess.run([systemd_analyze(), "verify", f"--root={root}", "--man=no", UNIT.name],
                          capture_output=True, text=True, timeout=120)


def test_systemd_analyze_verify_passes(tmp_path):
    done = verify(tmp_path)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_the_pwm_drop_in_verifies_too(tmp_path):
    done = verify(tmp_path, PWM_DROP_IN)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_verify_does_catch_mistakes(tmp_path):
    broken = tmp_path / "broken.conf"
    broken.write_text("[Service]\nWatchdogSecs=30\n")
    done = verify(tmp_path, broken)
    assert "Unknown key 'WatchdogSecs'" in done.stderr


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment]  # keys are case-sensitive
    parser.read_string(UNIT.read_text().replace("\nEnvironment=", "\nEnvironment+="))  # keep repeats apart
    return parser


def test_the_unit_is_a_supervised_sandboxed_kiosk_on_tty1():
    service = unit()["Service"]
    assert service["Type"] == "notify" and service["WatchdogSec"] == "30" and service["Restart"] == "always"
    # every exit comes back but staff's quit, which is the runtime's own status
    from firmware.runtime import QUIT_TO_SYSTEM

    assert service["RestartPreventExitStatus"] == service["SuccessExitStatus"] == str(QUIT_TO_SYSTEM)
    # a start may wait out the back-off after failed starts, and still gets two minutes to draw
    from firmware.backoff import LONGEST

    assert unit()["Unit"]["StartLimitIntervalSec"] == "0" and service["RestartSec"] == "3"
    assert int(service["TimeoutStartSec"]) >= LONGEST + 120
    assert service["StateDirectory"] == service["ConfigurationDirectory"] == "tantrix-kiosk"
    assert service["TTYPath"] == "/dev/tty1" and service["StandardInput"] == "tty"
    assert unit()["Unit"]["Conflicts"] == "getty@tty1.service"
    assert service["User"] == "tantrix" and service["ProtectSystem"] == "strict" and service["NoNewPrivileges"] == "yes"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "dialout", "video", "render", "input"}
    text = UNIT.read_text()
    for needed in ("KIVY_WINDOW=sdl2", "SDL_VIDEODRIVER=kmsdrm", "KCFG_GRAPHICS_ALLOW_SCREENSAVER=0",
                   "KIVY_NO_FILELOG=1", "DeviceAllow=char-drm rw", "DeviceAllow=char-spi rw"):
        assert needed in text
    assert "/dev/mem" not in "".join(line for line in text.splitlines() if not line.startswith("#"))
    assert "DeviceAllow=/dev/mem rw" in PWM_DROP_IN.read_text()


def dry_run(*options: str, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", *options], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


INSTALLED = [Path("/opt/tantrix-kiosk"), Path("/etc/tantrix-kiosk"), Path("/etc/systemd/system/tantrix-kiosk.service")]


def test_the_install_dry_run_lists_every_step_and_changes_nothing():
    before = [path.exists() for path in INSTALLED]
    lines = dry_run()
    assert [path.exists() for path in INSTALLED] == before
    steps = [line[4:] for line in lines if line.startswith("==> ")]
    assert [step.split(".")[0] for step in steps] == ["1", "2", "3", "4", "5", "6", "7"]
    commands = [line.strip()[2:] for line in lines if line.startswith("    + ")]
    try:
        pwd.getpwnam("tantrix")
        assert "    already done: user tantrix exists" in lines
    except KeyError:
        assert any(c.startswith("useradd --system --user-group") and c.endswith(" tantrix") for c in commands)
    release = next(c.split()[-1] for c in commands if c.startswith("python3 -m venv --system-site-packages"))
    assert release.startswith("/opt/tantrix-kiosk/releases/0.1.0-") and release.endswith("/venv")
    lock = SYSTEMD / "requirements.lock"
    install = commands.index(f"{release}/bin/python -m pip install --quiet --require-hashes -r {lock}")
    self_test = next(i for i, c in enumerate(commands) if c.endswith("self-test --state /var/lib/tantrix-kiosk"))
    switch = commands.index("mv -T /opt/tantrix-kiosk/current.new /opt/tantrix-kiosk/current")
    assert install < self_test < switch  # switched to only once it passed its self-test
    # the checkout is only read (git archive); everything is built and written elsewhere
    pip = [c for c in commands if " pip " in c]
    assert pip and not any(str(ROOT) in c and str(lock) not in c for c in pip)
    shown = [c.replace("\\ ", " ") for c in commands]  # the script prints each command shell-quoted
    assert any(c.startswith("sh -c git -c safe.directory=") and "archive --format=tar HEAD" in c for c in shown)
    assert f"install -m 0644 {UNIT} /etc/systemd/system/tantrix-kiosk.service" in commands
    if not Path("/etc/tantrix-kiosk/config.toml").exists():
        assert any(c.endswith(f"{SYSTEMD}/config.example.toml /etc/tantrix-kiosk/config.toml") for c in commands)
    assert "systemctl enable tantrix-kiosk.service" in commands
    if Path("/run/systemd/system").is_dir():  # booted with systemd
        assert "systemctl daemon-reload" in commands
    else:  # a chroot building an SD image, a container: the enabled units take effect at the next boot
        assert "systemctl daemon-reload" not in commands
        assert "    not run, as systemd is not running here (a chroot?): systemctl daemon-reload" in lines
    assert not any("ws281x-pwm" in c for c in commands)
    assert lines[-1] == "install.sh: dry run finished; nothing was changed"


def test_the_release_compiles_its_own_engine_from_the_checkout_it_is_installed_from(tmp_path):
    """The README runs install.sh from the checkout, and ``python -m`` puts the current directory
    first on the module path: the compile step built the checkout's engine (as root, in the maker's
    files) and the release ran from source. Run with the flags install.sh gives it, from a directory
    holding another ``engine``, the release's python imports its own."""
    import shlex
    import sys

    shown = [line.strip()[2:] for line in dry_run() if line.startswith("    + ") and "engine.compile" in line]
    assert len(shown) == 1
    inner = shlex.split(shlex.split(shown[0])[2])  # sh -c '<python> <flags> -m engine.compile >log ...'
    python = next(i for i, word in enumerate(inner) if word.endswith("/venv/bin/python"))
    flags = inner[python + 1:inner.index("-m")]
    assert inner[inner.index("-m") + 1] == "engine.compile"
    checkout = tmp_path / "checkout"
    (checkout / "engine").mkdir(parents=True)
    (checkout / "engine" / "__init__.py").write_text("")
    found = subprocess.run([sys.executable, *flags, "-c", "import engine; print(engine.__file__)"], cwd=checkout,
                           capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": ""})
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()) == ROOT / "engine" / "__init__.py"  # this venv's install, not the decoy


def test_the_release_is_the_committed_tree_even_when_root_does_not_own_the_checkout():
    """Root in a shell of its own (su, a console, a chroot building an SD image) runs install.sh on
    a checkout its maker owns: git refuses such a repository unless told it is safe, and the release
    must still be exactly the committed tree, never a copy of the checkout (its .venv, its edits)."""
    someone_else = {"GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"}  # git's own switch: the checkout is not ours
    refused = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--git-dir"], capture_output=True, text=True,
                             env={**os.environ, **someone_else})
    assert refused.returncode != 0 and "dubious ownership" in refused.stderr  # what the test stands for
    lines = dry_run(env=someone_else)
    shown = [line.strip()[2:].replace("\\ ", " ") for line in lines if line.startswith("    + ")]
    assert any(c.startswith("sh -c git -c safe.directory=") and "archive --format=tar HEAD" in c for c in shown)
    assert not any(c.startswith("cp -a") for c in shown)
    commit = subprocess.run(["git", "-c", f"safe.directory={ROOT}", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert any(f"/opt/tantrix-kiosk/releases/0.1.0-{commit}-" in c for c in shown)


def test_the_install_writes_nothing_in_the_checkout(tmp_path):
    """Root runs install.sh in its maker's checkout, whose files must stay the maker's: git's status,
    asked whether the checkout has uncommitted changes, refreshed a stale index and wrote .git/index
    as root (seen in the arm64 root of bench/arm64_install.sh). A fresh clone whose files look
    changed to git (touched, same content) is left as it was, to the nanosecond."""
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True, timeout=120)
    shutil.copy(SYSTEMD / "install.sh", checkout / "systemd" / "install.sh")  # this one, committed or not
    for tracked in ("README.md", "pyproject.toml", "engine/board.py"):
        os.utime(checkout / tracked)  # a newer mtime than the index knows: git would refresh it

    def listing() -> dict[str, int]:
        return {str(p.relative_to(checkout)): p.stat().st_mtime_ns for p in sorted(checkout.rglob("*"))}

    before = listing()
    done = subprocess.run(["bash", str(checkout / "systemd" / "install.sh"), "--dry-run"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert any("archive --format=tar HEAD" in line.replace("\\ ", " ") for line in done.stdout.splitlines())
    assert listing() == before


def test_install_sh_asks_the_running_systemd_only_where_one_runs():
    """In a chroot that builds an SD image no systemd runs: "systemctl daemon-reload" (or restart)
    failed there and stopped install.sh before it enabled the units. Every systemctl verb that talks
    to the running manager goes through live(), which skips it there; enable, disable and
    set-default work on the files alone."""
    import re

    talks = {"daemon-reload", "daemon-reexec", "start", "stop", "restart", "try-restart", "reload",
             "reload-or-restart", "kill", "is-active", "is-failed", "status", "reset-failed"}
    called = []
    for line in (SYSTEMD / "install.sh").read_text().splitlines():
        code = line.split("#")[0].strip()
        if code.startswith("echo"):  # what the script tells people to type, not what it runs
            continue
        for verb in re.findall(r"\bsystemctl\s+(?:--\S+\s+)*([a-z-]+)", code):
            called.append(verb)
            assert verb not in talks or code.startswith("live systemctl "), line
    assert {"daemon-reload", "restart", "enable"} <= set(called)


def test_what_restarts_the_kiosk_restarts_the_web_pages_too():
    """tantrix-web runs from the same release (/opt/tantrix-kiosk/current): --rollback restarted
    the kiosk alone, and the pages kept running the release rolled back from (or one since deleted).
    Every restart of the kiosk's unit that install.sh does or tells staff to do names both."""
    lines = [line for line in (SYSTEMD / "install.sh").read_text().splitlines() if not line.strip().startswith("#")]
    kiosk = [i for i, line in enumerate(lines) if "systemctl restart" in line and "$unit" in line]
    assert len(kiosk) >= 2  # the rollback's own, and what the install tells to type
    for i in kiosk:
        assert "$web_unit" in lines[i] + lines[i + 1], lines[i]


def test_the_lock_file_pins_every_dependency_with_hashes():
    import re
    import tomllib

    text = (SYSTEMD / "requirements.lock").read_text()
    entries = re.findall(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)", text, re.MULTILINE)
    pinned = {name.lower().replace("_", "-") for name, _ in entries}
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in wanted}
    assert names <= pinned, names - pinned
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text)[1:]  # one per pinned package, from its line on
    assert len(blocks) == len(entries) and all("--hash=sha256:" in block for block in blocks)


def test_rollback_switches_back_to_the_previous_release():
    done = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", "--rollback"], capture_output=True,
                          text=True, timeout=60)
    if Path("/opt/tantrix-kiosk/previous").is_symlink():
        assert done.returncode == 0 and "mv -T /opt/tantrix-kiosk/current.new /opt/tantrix-kiosk/current" in done.stdout
    else:
        assert done.returncode == 1 and "no previous release" in done.stderr


def test_the_install_dry_run_with_pwm_adds_the_drop_in():
    commands = [line.strip()[2:] for line in dry_run("--ws281x-pwm") if line.startswith("    + ")]
    assert (f"install -m 0644 {PWM_DROP_IN} /etc/systemd/system/tantrix-kiosk.service.d/ws281x-pwm.conf"
            in commands)


def test_the_install_help_is_the_whole_header():
    """--help printed a fixed range of lines, which cut the last step off once the header grew."""
    header = []
    for line in (SYSTEMD / "install.sh").read_text().splitlines()[1:]:
        if not line.startswith("#"):
            break
        header.append(line[2:] if line.startswith("# ") else line[1:])
    done = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines() == header
    assert header[-1].endswith("skipped and say so.")


def test_the_install_script_refuses_unknown_options():
    done = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dryrun"], capture_output=True, text=True)
    assert done.returncode == 2 and "unknown option '--dryrun'" in done.stderr
