"""Confidence intervals for results counted over games: how far a measured share may be from
the true one. The Wilson score interval, because match shares sit near 0 or 1 (a level that wins
nearly every game) and samples are small (tens of games), where the textbook normal interval
leaves [0, 1] or shrinks to a point."""

from __future__ import annotations

import math


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval (95 % by default) of the share ``points / n``; a draw counts a half
    point. ``n`` = 0 knows nothing: (0, 1)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)
