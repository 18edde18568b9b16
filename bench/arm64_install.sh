#!/usr/bin/env bash
# The Pi's install tried on this machine: a fresh Debian 12 arm64 root run under QEMU's user-mode
# emulation (real aarch64 wheels, gcc and mypyc; not a Pi's speed, devices or systemd), the
# committed checkout cloned into it by a user, then what a maker types (README):
#   1. ./dev run as that user (no sudo): it must name the missing Debian packages and stop, and
#      root installs exactly what it says to (sudo itself cannot run under QEMU's user mode);
#   2. ./dev run as that user again: it builds .venv, compiles the engine, and reaches Kivy's main
#      loop;
#   3. systemd/install.sh as root from the checkout (as sudo runs it), twice (an install, then an
#      update), and --rollback twice: each release's self-test must say "engine compiled", and
#      the checkout must stay as the user left it (no file written, none changed owner);
#   4. the release's kiosk started as its unit starts it (user tantrix), up to Kivy's main loop;
#   5. with --suite, the README's second command, ./dev test, as the user (the packages it names
#      installed by root as in 1): the whole suite in the arm64 .venv, Mosquitto and Kivy's
#      drawing included; the tests that open Chromium fail here, as Chromium cannot start under
#      QEMU's user mode (--suite "ARGS" passes ARGS to pytest, e.g. --suite "-q
#      tests/test_engine_compiled.py").
#
#   sudo bench/arm64_install.sh [--root DIR] [--suite [ARGS]]
#
# Needs root (debootstrap, chroot, binfmt_misc) and Debian's qemu-user-static, binfmt-support and
# debootstrap, which it installs. Takes 15-20 minutes on the 2-core development machine, more with
# --suite. Logs go to DIR/../arm64/; the root is kept for a second look, and replaced by the next
# run. Findings: bench/RESULTS.md, "The install on the Pi's arm64".
set -euo pipefail

root=/tmp/tantrix-arm64
suite=""
while (($#)); do
    case "$1" in
        --root) root="$2"; shift 2 ;;
        --suite) if (($# > 1)) && [[ "$2" != --* ]]; then suite="$2"; shift; else suite="-q"; fi; shift ;;
        *) echo "arm64_install.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
case "$root" in /*/*) ;; *) echo "arm64_install.sh: --root wants a directory of its own, such as /tmp/tantrix-arm64" >&2; exit 2 ;; esac
checkout="$(cd "$(dirname "$0")/.." && pwd)"
logs="$(dirname "$root")/arm64"
[ "$(id -u)" = 0 ] || { echo "arm64_install.sh: run as root" >&2; exit 1; }

say() { printf '\n== %s\n' "$*"; }
fail() { echo "arm64_install.sh: FAILED: $*" >&2; exit 1; }
inside() { chroot "$root" env -u PIP_FIND_LINKS -u PIP_CONSTRAINT bash -c "$1"; }
as_user() { inside "su pi -c 'cd ~/tantrix-table && $1'"; }

# Runs a command in the root until its log shows Kivy's main loop, then stops it (its whole session).
until_main_loop() {
    local log="$1" command="$2"
    setsid chroot "$root" env -u PIP_FIND_LINKS bash -c "$command" >"$log" 2>&1 &
    local session=$! waited=0
    until grep -q "Start application main loop" "$log"; do
        kill -0 "$session" 2>/dev/null || { tail -n 30 "$log" >&2; fail "stopped before its main loop (log: $log)"; }
        ((waited++ < 1800)) || fail "no main loop in 30 minutes (log: $log)"
        sleep 1
    done
    kill -- -"$session" 2>/dev/null || true
    wait "$session" 2>/dev/null || true
    stop_inside  # su starts its command apart from the session: the kiosk would go on running
}

# Stops every process whose root is the arm64 root.
stop_inside() {
    local proc
    for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" != "$root" ] || kill "${proc#/proc/}" 2>/dev/null || true
    done
}

say "QEMU for aarch64"
missing=()
for package in qemu-user-static binfmt-support debootstrap; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
((${#missing[@]} == 0)) || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || fail "the kernel runs no aarch64 binaries (binfmt_misc)"

cleanup() {
    stop_inside
    for mounted in "$root/src" "$root/dev" "$root/sys" "$root/proc"; do
        if mountpoint -q "$mounted"; then umount -R "$mounted"; fi
    done
}
mkdir -p "$logs"
if [ -e "$root" ]; then  # a fresh root every time: one left by a run has the packages step 1 must miss
    cleanup
    ! findmnt -R "$root" >/dev/null || fail "something is still mounted under $root: not removing it"
    rm -rf "$root"
fi
say "a fresh Debian 12 arm64 root in $root (minbase, then python3 and git only)"
debootstrap --arch=arm64 --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$logs/debootstrap.log"
trap cleanup EXIT
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
cp /etc/resolv.conf "$root/etc/"
# this machine's network may re-sign TLS with its own authority: the root trusts what the host does
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
inside "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 git ca-certificates \
        >/dev/null && update-ca-certificates >/dev/null"
[ "$(inside 'uname -m')" = aarch64 ] || fail "the root does not run as aarch64"

say "the committed checkout ($(git -C "$checkout" log --oneline -1)) cloned by a user"
mkdir -p "$root/src"
mount --bind "$checkout" "$root/src" && mount -o remount,bind,ro "$root/src"
inside "useradd -m pi"
inside "su pi -c 'git config --global --add safe.directory /src && git config --global --add safe.directory /src/.git && git clone -q /src ~/tantrix-table'"

# Root installs exactly the packages a ./dev run's log names ("install them with: sudo apt-get install ...").
install_named() {
    local named
    named="$(sed -n 's/.*(install them with: sudo apt-get install \([^)]*\))$/\1/p' "$1")"
    [ -n "$named" ] || { tail -n 20 "$1" >&2; fail "no packages named (log: $1)"; }
    echo "root: apt-get install $named"
    inside "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $named >/dev/null"
}

say "1. ./dev run as the user: the Debian packages it needs, named, and installed by root"
if as_user "./dev run" >"$logs/dev-user.log" 2>&1; then fail "./dev run started without its packages"; fi
tail -n 1 "$logs/dev-user.log"
install_named "$logs/dev-user.log"

say "2. ./dev run as the user: .venv, the compiled engine, Kivy's main loop"
until_main_loop "$logs/dev-run.log" "su pi -c 'cd ~/tantrix-table && SDL_VIDEODRIVER=offscreen ./dev run'"
grep -E "kiosk 0" "$logs/dev-run.log"
grep -q "kiosk 0.*, engine compiled" "$logs/dev-run.log" || fail "./dev run's engine is not compiled"

say "3. systemd/install.sh: an install, an update, --rollback twice"
listing="cd /home/pi/tantrix-table && find . -printf '%p %u %T@\\n' | sort"
inside "$listing" >"$logs/checkout-before.txt"
for run in install update; do
    inside "cd /home/pi/tantrix-table && systemd/install.sh </dev/null" >"$logs/install-$run.log" 2>&1 \
        || { tail -n 30 "$logs/install-$run.log" >&2; fail "install.sh ($run)"; }
    grep "^self-test: " "$logs/install-$run.log"
    grep -q "^self-test: .* fine (engine compiled," "$logs/install-$run.log" || fail "the release's engine is not compiled"
done
for run in 1 2; do
    inside "cd /home/pi/tantrix-table && systemd/install.sh --rollback" | tail -n 1
    inside "/opt/tantrix-kiosk/current/venv/bin/tantrix-kiosk self-test" 2>&1 | tail -n 1
done
inside "$listing" >"$logs/checkout-after.txt"
diff "$logs/checkout-before.txt" "$logs/checkout-after.txt" >&2 || fail "install.sh changed the checkout"

say "4. the release's kiosk as its unit starts it"
until_main_loop "$logs/kiosk-unit.log" "install -d -o tantrix -g tantrix -m 0700 /var/lib/tantrix-kiosk /run/tantrix-kiosk \
    && cd /var/lib/tantrix-kiosk && runuser -u tantrix -- env TANTRIX_KIOSK_CONFIG=/etc/tantrix-kiosk/config.toml \
    STATE_DIRECTORY=/var/lib/tantrix-kiosk LG_WD=/run/tantrix-kiosk KIVY_WINDOW=sdl2 SDL_VIDEODRIVER=offscreen \
    KIVY_HOME=/var/lib/tantrix-kiosk/kivy KIVY_LOG_MODE=PYTHON KIVY_NO_FILELOG=1 KIVY_NO_ARGS=1 \
    PYTHONDONTWRITEBYTECODE=1 /opt/tantrix-kiosk/current/venv/bin/tantrix-kiosk --fullscreen"
grep -E "kiosk 0" "$logs/kiosk-unit.log"

if [ -n "$suite" ]; then
    say "5. ./dev test $suite, as the user"
    if ! as_user "./dev test -rf $suite" >"$logs/suite.log" 2>&1 && grep -q "missing system packages" "$logs/suite.log"; then
        tail -n 1 "$logs/suite.log"
        install_named "$logs/suite.log"
        as_user "./dev test -rf $suite" >"$logs/suite.log" 2>&1 || true
    fi
    tail -n 1 "$logs/suite.log"
    grep -Eq "^[0-9]+ passed" "$logs/suite.log" && ! grep -Eq "[0-9]+ (failed|error)" "$logs/suite.log" \
        || fail "./dev test (log: $logs/suite.log)"
fi
say "arm64: every step passed (logs: $logs)"
