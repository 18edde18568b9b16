"""How many times slower a Raspberry Pi 4 core runs pure Python than this machine's core, measured now.

    .venv/bin/python bench/pi_factor.py [--steps 1000000]

The yardstick is the benchmarks-game n-body program in pure Python: 158 s for 5 M steps on a Pi 4
at 1.5 GHz (chaitanyamehta.github.io, performance analysis of languages on Raspberry Pi). The same
loop is timed here in CPU seconds (``time.process_time``, so other jobs on the machine do not
count). The development machine is not always the same host, so a factor measured once and written
down drifts: the README's 4.2 (37.8 s here on 2026-11-26) was 7.3 on 2026-11-27 (21.7 s), and
projections made with a stale factor look twice as fast as a Pi. bench/robot_times.py measures it
at each run for that reason.
"""

from __future__ import annotations

import argparse
import time

PI4_SECONDS_PER_STEP = 158.0 / 5_000_000
"""The Pi 4's time per n-body step (the published 5 M-step run)."""

_SOLAR_MASS = 4 * 3.14159265358979323 ** 2
_DAYS = 365.24


def _bodies() -> list[tuple[list[float], list[float], float]]:
    """Sun, Jupiter, Saturn, Uranus, Neptune: position, velocity, mass (the benchmark's data)."""
    planets = [
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05], 9.54791938424326609e-04),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05], 2.85885980666130812e-04),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05], 4.36624404335156298e-05),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05], 5.15138902046611451e-05),
    ]
    bodies = [([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], _SOLAR_MASS)]
    bodies += [(r, [v * _DAYS for v in vel], m * _SOLAR_MASS) for r, vel, m in planets]
    return bodies


def nbody(steps: int) -> float:
    """Advance the five bodies ``steps`` times (dt 0.01) as the benchmark's program #1 does; the
    system's energy afterwards (so the work cannot be skipped)."""
    bodies = _bodies()
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    dt = 0.01
    for _ in range(steps):
        for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], _m) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    energy = 0.0
    for ((x1, y1, z1), _v1, m1), ((x2, y2, z2), _v2, m2) in pairs:
        energy -= m1 * m2 / ((x1 - x2) ** 2 + (y1 - y2) ** 2 + (z1 - z2) ** 2) ** 0.5
    return energy + sum(m * (vx * vx + vy * vy + vz * vz) / 2 for _r, (vx, vy, vz), m in bodies)


def pi_factor(steps: int = 1_000_000) -> float:
    """The Pi 4's time per step over this machine's CPU time per step, for ``steps`` steps (the
    default takes about 4 s here; runs of it agree within a tenth)."""
    start = time.process_time()
    nbody(steps)
    return PI4_SECONDS_PER_STEP / ((time.process_time() - start) / steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"{pi_factor(args.steps):.2f}")


if __name__ == "__main__":
    main()
