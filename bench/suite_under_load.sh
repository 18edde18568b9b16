#!/usr/bin/env bash
# The README's test command on a machine several times slower, as a Pi 4 is (its core runs this
# project's Python 6-7 times slower than this machine's, bench/pi_factor.py): busy processes take
# the CPU from the suite, and a test that waits for time instead of for a condition, or that
# gives a step a fixed time to happen in, fails. The suite's own guarantee is that none does.
#
#   bench/suite_under_load.sh [BUSY] [PYTEST ARGS]
#
# BUSY (default 10) busy processes at the suite's own priority: with -n auto on 2 cores, each
# test worker then gets about 2 / (BUSY + 2) of a core (10: a sixth, the Pi's slowness). They
# end with the script, however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
busy=${1:-10}
shift || true
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for _ in $(seq "$busy"); do
    python3 -c 'while True: pass' &
    pids+=($!)
done
./dev test -q -rf -p no:cacheprovider "$@"
