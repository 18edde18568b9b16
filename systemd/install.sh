#!/usr/bin/env bash
# Installs the Tantrix Table kiosk from this checkout on Raspberry Pi OS (Bookworm or later):
#   sudo systemd/install.sh [--dry-run] [--ws281x-pwm]
#
#   --dry-run     print each step and the commands it would run; change nothing (needs no root)
#   --ws281x-pwm  LED rings on rpi-ws281x's PWM (GPIO 18/12) or PCM (GPIO 21): install the drop-in
#                 that runs the kiosk as root (see tantrix-kiosk-ws281x-pwm.conf); without it the
#                 kiosk runs unprivileged and the rings use SPI (GPIO 10)
#
# Safe to run again (after a "git pull", say): every step checks what is already there. It
#   1. installs the Debian packages the kiosk needs,
#   2. makes the system user "tantrix" with the device groups gpio spi dialout video render input,
#   3. makes the virtual environment /opt/tantrix-kiosk/venv and installs the project into it,
#   4. puts config.example.toml at /etc/tantrix-kiosk/config.toml unless a configuration is there,
#   5. installs the systemd unit (and the PWM drop-in, or removes it), and the web pages' unit
#      (tantrix-web, which listens only when the configuration says [web] enabled = true),
#   6. turns off console blanking (consoleblank=0 on the kernel command line),
#   7. gives tty1 to the kiosk (no getty there), boots to the console (no desktop holding the
#      screen), enables the unit, and checks the configuration.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
project="$(dirname "$here")"
prefix=/opt/tantrix-kiosk
venv="$prefix/venv"
config_dir=/etc/tantrix-kiosk
unit_dir=/etc/systemd/system
unit=tantrix-kiosk.service
web_unit=tantrix-web.service
user=tantrix
groups=(gpio spi dialout video render input)
packages=(python3-venv python3-dev gcc libgl1 libegl1 libgles2 libgl1-mesa-dri libmtdev1)

dry_run=0
pwm=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) dry_run=1 ;;
        --ws281x-pwm) pwm=1 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

step() { printf '\n==> %s\n' "$*"; }
skip() { printf '    already done: %s\n' "$*"; }
run() {
    printf '    +'; printf ' %q' "$@"; printf '\n'
    if ((!dry_run)); then "$@"; fi
}

if ((!dry_run)) && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo $0 $*), or with --dry-run to see the steps" >&2
    exit 1
fi
((dry_run)) && echo "install.sh: dry run, nothing is changed"

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

step "3. virtual environment $venv with the project from $project"
if [ -x "$venv/bin/python" ]; then
    skip "$venv exists"
else
    # --system-site-packages: Raspberry Pi OS's python3-lgpio, which gpiozero needs on Bookworm.
    run mkdir -p "$prefix"
    run python3 -m venv --system-site-packages "$venv"
fi
run "$venv/bin/python" -m pip install --quiet --upgrade pip
run "$venv/bin/python" -m pip install --quiet --upgrade "$project"

step "4. configuration $config_dir/config.toml"
if [ -e "$config_dir/config.toml" ]; then
    skip "$config_dir/config.toml exists (kept as it is; the example is $here/config.example.toml)"
else
    run install -d -m 0755 "$config_dir"
    run install -m 0640 -o root -g "$user" "$here/config.example.toml" "$config_dir/config.toml"
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
run systemctl daemon-reload
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

echo
if ((dry_run)); then
    echo "install.sh: dry run finished; nothing was changed"
else
    echo "install.sh: done. Start now with: sudo systemctl restart $unit   (or reboot)"
    echo "            logs: journalctl -u $unit -f"
fi
