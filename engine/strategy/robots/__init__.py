"""Robots: computer players for the strategy game, chosen by level name.

A robot is anything with ``name`` and ``choose(view, rng) -> Placement``: given a view of the game
(``StrategyGame.view()``: the board, every hand, the unseen tiles, whose turn and which step, but
never the bag's order) it answers one of ``view.legal()``. The game asks again for every placement
of a turn, so a robot never needs to know the turn procedure beyond what the view says.

Levels: ``beginner`` (legal and obligatory moves with little thought, a fair game for a child),
``club`` (a one-ply evaluation of every colour's line and loop potential, engine.strategy.robots.evaluation),
``expert`` (search under uncertainty over sampled bags, guided by the club evaluation), ``master``
(a determinized Monte-Carlo search over the placements of a turn, engine.strategy.robots.master), and
``cmd:<command line>``, an external program speaking the JSON-lines protocol (engine.strategy.protocol).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ...board import Placement

if TYPE_CHECKING:
    from ..game import StrategyGame

LEVELS = ("beginner", "club", "expert", "master")


@dataclass
class Settings:
    """How the kiosk lets the master think (firmware sets these from its configuration):
    ``master_seconds`` is the safety cap per placement, ``workers`` the worker processes its
    search spreads over (1: none, in-process)."""

    master_seconds: float = 3.0
    workers: int = 1


SETTINGS = Settings()


def configure(master_seconds: float | None = None, workers: int | None = None) -> None:
    """Set :data:`SETTINGS`; ``workers=0`` means one fewer than the machine's cores (the UI keeps
    its own), at least 1."""
    if master_seconds is not None:
        SETTINGS.master_seconds = master_seconds
    if workers is not None:
        SETTINGS.workers = workers if workers > 0 else max(1, (os.cpu_count() or 1) - 1)


class Robot(Protocol):
    name: str

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        """One of ``view.legal()``."""
        ...


def make_robot(spec: str, budget: float | None = None, timeout: float | None = None) -> Robot:
    """The robot named by ``spec``: a level of :data:`LEVELS` or ``cmd:<command line>``;
    ``budget`` is the expert's and master's safety cap on thinking time per placement (seconds;
    their work is bounded by samples and iterations), ``timeout`` how long an
    external program may take to answer. ValueError for an unknown name."""
    if spec == "beginner":
        from .beginner import Beginner
        return Beginner()
    if spec == "club":
        from .club import Club
        return Club()
    if spec == "expert":
        from .expert import Expert
        return Expert() if budget is None else Expert(budget=budget)
    if spec == "master":
        from .master import Master
        return Master(cap=SETTINGS.master_seconds if budget is None else budget, workers=SETTINGS.workers)
    if spec.startswith("cmd:") and spec[4:].strip():
        from ..protocol import ExternalRobot
        return ExternalRobot(spec[4:].strip()) if timeout is None else ExternalRobot(spec[4:].strip(), timeout)
    raise ValueError(f"unknown robot {spec!r}: choose one of {', '.join(LEVELS)} or cmd:<command line>")
