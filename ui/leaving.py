"""A game left at the table stays left, whatever fingers were still on it.

Players leave a game (Leave, or Back on a solo puzzle) while other fingers may still be on its
screen: one resting on Confirm or Undo, one dragging a tile. Those fingers lift after the game was
left, and what they do then must not act on it: the abandoned game was journaled again (a resume
card after the next start or at the attract screen), recorded as solved or played, or lit the
next seat's ring at the home screen.

Every game screen is a :class:`Leavable`: its ``leave`` is marked :func:`leaves`, and whatever
follows a step (journal, show, cue, record) :func:`unless_left`. This module alone decides what
a step after Leave does: nothing.
"""

from __future__ import annotations

from functools import wraps
from typing import Callable, Concatenate, ParamSpec, TypeVar


class Leavable:
    """A screen whose game its players may leave: :attr:`left` once they did."""

    left = False


S = TypeVar("S", bound=Leavable)
P = ParamSpec("P")


def leaves(leave: Callable[[S], None]) -> Callable[[S], None]:
    """A screen's ``leave``: the game counts as left from before its first line."""

    @wraps(leave)
    def leaving(screen: S) -> None:
        screen.left = True
        leave(screen)

    return leaving


def unless_left(step: Callable[Concatenate[S, P], None]) -> Callable[Concatenate[S, P], None]:
    """What follows a step of the game (journal, show, cue, record): nothing once it was left."""

    @wraps(step)
    def guarded(screen: S, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if not screen.left:
            step(screen, *args, **kwargs)

    return guarded
