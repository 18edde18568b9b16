#!/usr/bin/env bash
# Installs (or updates) the Tantrix Table kiosk from this checkout on Raspberry Pi OS (Bookworm or later):
#   sudo systemd/install.sh [--dry-run] [--ws281x-pwm] [--set-pin]
#   sudo systemd/install.sh --rollback
#
#   --dry-run     print each step and the commands it would run; change nothing (needs no root)
#   --ws281x-pwm  LED rings on rpi-ws281x's PWM (GPIO 18/12) or PCM (GPIO 21): install the drop-in
#                 that runs the kiosk as root (see tantrix-kiosk-ws281x-pwm.conf); without it the
#                 kiosk runs unprivileged and the rings use SPI (GPIO 10)
#   --set-pin     set a new staff PIN even though the configuration has one
#   --rollback    switch back to the release installed before the current one, and restart
#
# An update is an appliance's: the committed tree of this checkout (git archive: a module deleted
# upstream is really gone) is built into a wheel in a scratch directory, never in the checkout (root
# writes nothing there), and installed with its dependencies from the pinned, hashed lock file
# systemd/requirements.lock into a fresh, versioned environment /opt/tantrix-kiosk/releases/NAME.
# The kiosk is switched to it (the symlink /opt/tantrix-kiosk/current) only after its self-test
# passes (every module imports, the configuration loads, a copy of the database opens); the
# previous release stays for --rollback, older ones are removed.
#
# Safe to run again (after a "git pull", say): every step checks what is already there. It
#   1. installs the Debian packages the kiosk needs,
#   2. makes the system user "tantrix" with the device groups gpio spi dialout video render input,
#   3. builds the release, installs it from the lock file, compiles the engine (mypyc),
#      self-tests it and switches to it,
#   4. puts config.example.toml at /etc/tantrix-kiosk/config.toml unless a configuration is there,
#      and sets the staff PIN if it has none (asked for, or made and printed once),
#   5. installs the systemd unit (and the PWM drop-in, or removes it), and the web pages' unit
#      (tantrix-web, which listens only when the configuration says [web] enabled = true),
#   6. turns off console blanking (consoleblank=0 on the kernel command line),
#   7. gives tty1 to the kiosk (no getty there), boots to the console (no desktop holding the
#      screen), enables the unit, and checks the configuration.
# Where no systemd runs (a chroot building an SD image) the units are installed and enabled all the
# same and start at the next boot; the steps that need a running systemd are skipped and say so.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
project="$(dirname "$here")"
prefix=/opt/tantrix-kiosk
releases="$prefix/releases"
current="$prefix/current"
previous="$prefix/previous"
venv="$current/venv"
lock="$here/requirements.lock"
config_dir=/etc/tantrix-kiosk
unit_dir=/etc/systemd/system
unit=tantrix-kiosk.service
web_unit=tantrix-web.service
user=tantrix
groups=(gpio spi dialout video render input)
# systemd: on every Raspberry Pi OS image, but not in a minimal Debian root an SD image is built from
packages=(python3-venv python3-dev gcc libgl1 libegl1 libgles2 libgl1-mesa-dri libmtdev1 systemd)

dry_run=0
pwm=0
set_pin=0
rollback=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) dry_run=1 ;;
        --ws281x-pwm) pwm=1 ;;
        --set-pin) set_pin=1 ;;
        --rollback) rollback=1 ;;
        -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

step() { printf '\n==> %s\n' "$*"; }
skip() { printf '    already done: %s\n' "$*"; }
run() {
    printf '    +'; printf ' %q' "$@"; printf '\n'
    if ((!dry_run)); then "$@"; fi
}
# systemd as the running init, as sd_booted() tells (/run/systemd/system): not so in a chroot that
# builds an SD image, nor in a container. There the units are installed and enabled (systemctl
# does that on the files alone) and take effect at the next boot; nothing is there to reload or restart.
systemd_running=0
[ -d /run/systemd/system ] && systemd_running=1
live() {
    if ((systemd_running)); then
        run "$@"
    else
        printf '    not run, as systemd is not running here (a chroot?):'; printf ' %q' "$@"; printf '\n'
    fi
}

if ((!dry_run)) && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo $0 $*), or with --dry-run to see the steps" >&2
    exit 1
fi
((dry_run)) && echo "install.sh: dry run, nothing is changed"

if ((rollback)); then
    step "rollback to the previous release"
    [ -L "$previous" ] || { echo "install.sh: no previous release to roll back to" >&2; exit 1; }
    back="$(readlink "$previous")"
    now="$(readlink "$current" 2>/dev/null || true)"
    run ln -sfn "$back" "$current.new"
    run mv -T "$current.new" "$current"
    [ -z "$now" ] || { run ln -sfn "$now" "$previous.new"; run mv -T "$previous.new" "$previous"; }
    # the web pages run from the same release: back with the kiosk (try-restart: only if they run)
    live systemctl restart "$unit"
    live systemctl try-restart "$web_unit"
    echo "install.sh: the kiosk runs $(basename "$back") again (and $(basename "${now:-none}") is kept)"
    exit 0
fi

step "1. Debian packages: ${packages[*]} (and python3-lgpio, gpiozero's pin driver, if offered)"
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if apt-cache show python3-lgpio >/dev/null 2>&1 \
        && ! dpkg-query -W -f='${Status}' python3-lgpio 2>/dev/null | grep -q 'install ok installed'; then
    missing+=(python3-lgpio)
fi
if ((${#missing[@]})); then
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    skip "all installed"
fi

step "2. system user $user in groups: ${groups[*]}"
if getent passwd "$user" >/dev/null; then
    skip "user $user exists"
else
    run useradd --system --user-group --home-dir /var/lib/tantrix-kiosk --no-create-home \
        --shell /usr/sbin/nologin --comment "Tantrix Table kiosk" "$user"
fi
for group in "${groups[@]}"; do
    if ! getent group "$group" >/dev/null; then
        echo "    note: no group $group on this system (not a Raspberry Pi OS image?); skipped"
    elif id -nG "$user" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        skip "$user is in $group"
    else
        run usermod --append --groups "$group" "$user"
    fi
done

step "3. release: build out of the checkout, install from $(basename "$lock"), self-test, switch"
[ -f "$lock" ] || { echo "install.sh: $lock is missing (make it with systemd/lock.sh)" >&2; exit 1; }
# safe.directory: root reads a checkout its maker owns. sudo lets git see whose it is (SUDO_UID), but
# a root shell (su, a console, a chroot building an SD image) does not, and git then refuses it.
if git -c safe.directory="$project" -C "$project" rev-parse --git-dir >/dev/null 2>&1; then
    commit="$(git -c safe.directory="$project" -C "$project" rev-parse --short=12 HEAD)"
    # --no-optional-locks: status would refresh the index, writing the maker's .git/index as root
    dirty="$(git --no-optional-locks -c safe.directory="$project" -C "$project" status --porcelain --untracked-files=no | head -c1)"
    [ -z "$dirty" ] || echo "    note: the checkout has uncommitted changes; the release is built from commit $commit only"
else
    commit="no-git"
fi
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$project/pyproject.toml" | head -1)"
name="$version-$commit-$(date -u +%Y%m%dT%H%M%SZ)"
release="$releases/$name"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# the source: exactly the committed tree, exported to the scratch directory (read-only use of the checkout)
run mkdir -p "$work/src"
if [ "$commit" != no-git ]; then
    run sh -c "git -c safe.directory='$project' -C '$project' archive --format=tar HEAD | tar -x -C '$work/src' -f -"
else
    run cp -a "$project/." "$work/src"
fi
# --system-site-packages: Raspberry Pi OS's python3-lgpio, which gpiozero needs on Bookworm.
run mkdir -p "$releases"
run python3 -m venv --system-site-packages "$release/venv"
run "$release/venv/bin/python" -m pip install --quiet --upgrade pip
run "$release/venv/bin/python" -m pip install --quiet --require-hashes -r "$lock"
run "$release/venv/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$work/wheel" "$work/src"
run sh -c "'$release/venv/bin/python' -m pip install --quiet --no-deps --no-index '$work'/wheel/*.whl"
# the board and the robots' evaluation compiled to C in the release (engine/compile.py, mypy from the
# lock): the robots think 1.6-1.9 times as fast; if it fails, the kiosk runs it from source and only the robots think slower.
# -P: python -m puts the current directory first on the path, and install.sh is run from the checkout
# (README): without it the checkout's engine was compiled, as root, and the release's never was.
run sh -c "'$release/venv/bin/python' -P -m engine.compile >'$release/compile.log' 2>&1 || echo '    note: compiling failed; the engine runs from source (log: $release/compile.log)'"
stamp="$version (git $commit, installed $(date -u +%Y-%m-%d))"
run sh -c "echo '$stamp' > '$release/venv/tantrix-kiosk-version'"
# the self-test: every module imports, the configuration loads, a copy of the database opens
run env KIVY_HOME="$work/kivy" KIVY_WINDOW= KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 \
    "$release/venv/bin/tantrix-kiosk" --config "$config_dir/config.toml" self-test --state /var/lib/tantrix-kiosk \
    || { echo "install.sh: the new release failed its self-test; the kiosk stays on $(readlink "$current" 2>/dev/null || echo nothing)" >&2
         rm -rf "$release"; exit 1; }
old_current="$(readlink "$current" 2>/dev/null || true)"
run ln -sfn "$release" "$current.new"
run mv -T "$current.new" "$current"
if [ -n "$old_current" ]; then
    run ln -sfn "$old_current" "$previous.new"
    run mv -T "$previous.new" "$previous"
fi
# keep the new and the previous release; older ones (and the pre-release layout's venv) go
for old in "$releases"/*; do
    [ -e "$old" ] || continue
    case "$old" in "$release"|"$old_current") ;; *) run rm -rf "$old" ;; esac
done
[ ! -d "$prefix/venv" ] || run rm -rf "$prefix/venv"

step "4. configuration $config_dir/config.toml and the staff PIN"
if [ -e "$config_dir/config.toml" ]; then
    skip "$config_dir/config.toml exists (kept as it is; the example is $here/config.example.toml)"
else
    run install -d -m 0755 "$config_dir"
    run install -m 0640 -o root -g "$user" "$here/config.example.toml" "$config_dir/config.toml"
fi
if ((!set_pin)) && grep -Eq '^[[:space:]]*staff_pin[[:space:]]*=[[:space:]]*"pbkdf2-sha256\$' "$config_dir/config.toml" 2>/dev/null; then
    skip "a staff PIN is set (change it with --set-pin)"
elif ((dry_run)) && [ -e "$config_dir/config.toml" ] && [ ! -r "$config_dir/config.toml" ]; then
    # the installed configuration is root's and the kiosk's only (0640): a dry run without sudo cannot tell
    echo "    cannot read $config_dir/config.toml as $(id -un): whether a staff PIN is set shows with sudo"
elif ((dry_run)); then
    echo "    would ask for a staff PIN (or make one and print it once) and write its hash as kiosk.staff_pin"
else
    if [ -t 0 ]; then
        echo "    Choose the staff PIN (4 to 12 digits; staff type it on the keypad to open the staff menu)."
        echo "    Leave it empty to have one made for you."
        read -r -s -p "    Staff PIN: " pin; echo
        if [ -n "$pin" ]; then
            read -r -s -p "    The same PIN again: " again; echo
            [ "$pin" = "$again" ] || { echo "install.sh: the two PINs differ; run again with --set-pin" >&2; exit 1; }
        fi
    else
        pin=""
    fi
    made=0
    if [ -z "$pin" ]; then
        pin="$(python3 -c 'import secrets; print(f"{secrets.randbelow(10**8):08d}")')"
        made=1
    fi
    line="$(printf '%s\n' "$pin" | "$venv/bin/tantrix-kiosk" hash-pin 2>/dev/null)" \
        || { echo "install.sh: a staff PIN is 4 to 12 digits; run again with --set-pin" >&2; exit 1; }
    if grep -Eq '^[[:space:]]*staff_pin[[:space:]]*=' "$config_dir/config.toml"; then
        sed -i "s|^[[:space:]]*staff_pin[[:space:]]*=.*|$line|" "$config_dir/config.toml"
    elif grep -q '^\[kiosk\]' "$config_dir/config.toml"; then
        sed -i "/^\[kiosk\]/a $line" "$config_dir/config.toml"
    else
        printf '\n[kiosk]\n%s\n' "$line" >> "$config_dir/config.toml"
    fi
    if ((made)); then
        echo "    The staff PIN is:  $pin"
        echo "    Write it down now: it is shown only this once (only its hash is kept)."
    else
        echo "    The staff PIN is set (only its hash is kept)."
    fi
    echo "    The table's keypad and the web page take it at once, no restart needed (the old PIN no longer"
    echo "    opens the staff menu; web sessions opened with it end)."
    unset pin again
fi

step "5. systemd units $unit_dir/$unit and $unit_dir/$web_unit"
run install -m 0644 "$here/$unit" "$unit_dir/$unit"
run install -m 0644 "$here/$web_unit" "$unit_dir/$web_unit"
dropin="$unit_dir/$unit.d/ws281x-pwm.conf"
if ((pwm)); then
    run install -d -m 0755 "$unit_dir/$unit.d"
    run install -m 0644 "$here/tantrix-kiosk-ws281x-pwm.conf" "$dropin"
elif [ -e "$dropin" ]; then
    run rm -f "$dropin"
else
    skip "no ws281x PWM drop-in (the kiosk runs unprivileged)"
fi

step "6. console blanking off (consoleblank=0 on the kernel command line)"
cmdline=""
for candidate in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
    if [ -f "$candidate" ]; then cmdline="$candidate"; break; fi
done
if [ -z "$cmdline" ]; then
    echo "    note: no /boot/firmware/cmdline.txt or /boot/cmdline.txt (not a Raspberry Pi?); skipped"
elif grep -qw 'consoleblank=0' "$cmdline"; then
    skip "$cmdline has consoleblank=0"
else
    # cmdline.txt is one line; the option goes at its end (takes effect at the next boot).
    run sed -i '1 s/[[:space:]]*$/ consoleblank=0/' "$cmdline"
fi

step "7. tty1 for the kiosk, boot to the console, enable the unit, check the configuration"
live systemctl daemon-reload
if systemctl is-enabled getty@tty1.service >/dev/null 2>&1; then
    run systemctl disable getty@tty1.service
else
    skip "getty@tty1 is not enabled"
fi
if [ "$(systemctl get-default 2>/dev/null)" = multi-user.target ]; then
    skip "the system boots to multi-user.target"
else
    # A desktop session would hold the screen (DRM master) that the kiosk draws on.
    run systemctl set-default multi-user.target
fi
run systemctl enable "$unit"
run systemctl enable "$web_unit"
run "$venv/bin/tantrix-kiosk" check-config "$config_dir/config.toml" || true
echo "    installed: $(cat "$venv/tantrix-kiosk-version" 2>/dev/null || echo "$name")"

echo
if ((dry_run)); then
    echo "install.sh: dry run finished; nothing was changed"
else
    if ((systemd_running)); then
        echo "install.sh: done. Start now with: sudo systemctl restart $unit $web_unit   (or reboot)"
    else
        echo "install.sh: done. The kiosk starts at the next boot (systemd is not running here)"
    fi
    echo "            back to the previous release: sudo $0 --rollback"
    echo "            logs: journalctl -u $unit -f"
fi
