#!/usr/bin/env bash
# Regenerates systemd/requirements.lock: every package the kiosk installs, pinned, with the sha256 of
# every file of that release on the index (so the same lock serves the Pi's aarch64 wheels and
# the sdists built there). Run after changing the dependencies in pyproject.toml; commit the result.
#   systemd/lock.sh
# Uses pip-tools in a throw-away virtual environment; needs the package index, changes nothing else.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet pip-tools
cp "$here/../pyproject.toml" "$work/"
# rpi-ws281x is only needed on a Pi (its marker in pyproject.toml); resolving here on any machine,
# it is asked for plainly and given its marker back below.
echo 'rpi-ws281x>=5.0' > "$work/pi.in"
# mypy (with mypyc) compiles the board and the robots' evaluation in the release (install.sh, engine/compile.py);
# the kiosk never imports it
echo 'mypy>=2.4' > "$work/build.in"
(cd "$work" && venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --no-emit-index-url \
    --no-emit-find-links --strip-extras --output-file=requirements.lock pyproject.toml pi.in build.in)
marker="sys_platform == 'linux' and (platform_machine == 'aarch64' or platform_machine == 'armv7l')"
sed -e "s/^rpi-ws281x==\([^ ]*\) \\\\$/rpi-ws281x==\1 ; $marker \\\\/" \
    -e '/^#    pip-compile/ s/$/ (systemd\/lock.sh)/' "$work/requirements.lock" > "$here/requirements.lock"
echo "lock.sh: wrote $here/requirements.lock"
