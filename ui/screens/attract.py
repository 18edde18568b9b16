"""The idle screen: a board slowly filling with a random legal game, framed between the title and
"touch to play" (which changes language in turn), never under them.

Cheap on purpose: one tile is placed every couple of seconds (the board redraws only then) and the
invitation changes language every few seconds; nothing animates continuously.
"""

from __future__ import annotations

import random
from typing import Any

from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from engine.board import Board
from engine.strategy.playout import playout

from .. import theme
from ..board import BoardView
from ..hexes import centre
from ..i18n import LANGUAGES, N_, i18n
from ..services import Cue
from ..shell import Shell

TOUCH_TO_PLAY = N_("Touch to play")


class AttractScreen(Screen):
    """Shown when nobody has touched the table for ``settings.idle_seconds``."""

    STEP_SECONDS = 2.0
    HEAD_START = 14
    """Tiles already down when a game starts, so the table never looks empty."""
    GAME_TILES = 36
    """Tiles of the shown game: enough to look like a game, few enough to stay large on screen."""
    CANDIDATES = 6
    """Random games played to pick the one that fills the screen best (each takes milliseconds)."""

    def __init__(self, app: Shell, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(name="attract", **kwargs)
        self.app = app
        self.rng = random.Random(seed)
        layout = FloatLayout()
        self.board = BoardView(show_frontier=False, auto_fit=False)
        layout.add_widget(self.board)
        u = theme.unit()
        self.title = Label(text="Tantrix", bold=True, font_size=u * 1.6, color=theme.TEXT,
                           size_hint=(1, None), height=u * 2, pos_hint={"center_x": 0.5, "top": 0.98},
                           outline_width=2, outline_color=(0, 0, 0))
        self.invite = Label(font_size=u * 0.8, bold=True, color=theme.ACCENT, size_hint=(1, None),
                            height=u * 1.4, pos_hint={"center_x": 0.5, "y": 0.04},
                            outline_width=2, outline_color=(0, 0, 0))
        layout.add_widget(self.title)
        layout.add_widget(self.invite)
        self.add_widget(layout)
        self._order: list[Any] = []
        self._shown = Board()
        self._language_turn = 0
        self._step_event: Any = None
        self._invite_event: Any = None
        # a game is dealt in the next frame, once the window has given the screen its size: the
        # screen is built at start-up at a placeholder size, and a game framed for that would be
        # played again at once (0.3 s before the first frame here, about a second on a Pi 4)
        self._deal = Clock.create_trigger(lambda _dt: self._new_game())
        self.board.bind(size=lambda *_: self._fit_area())
        self.bind(size=lambda *_: self._deal() if len(self._shown) <= self.HEAD_START else None)
        self._deal()

    def _fit_area(self) -> None:
        u = theme.unit()
        # between the invitation and the title, never under them
        bottom = self.height * 0.04 + self.invite.height + u * 0.2
        top = self.height * 0.98 - self.title.height
        self.board.fit_area = [u * 0.3, bottom, self.width - u * 0.6, max(top - bottom, u)]
        self.board.recentre(animate=False, cells=[p.cell for p in self._order])

    def _new_game(self) -> None:
        """Play a whole random game now and show it tile by tile, framed for the finished board
        from the start, so that placing a tile redraws one frame and nothing ever slides."""
        self._order = max(
            (playout(self.rng, stop_after=self.GAME_TILES).placements() for _ in range(self.CANDIDATES)),
            key=self._tile_size,
        )
        self._shown = Board()
        for placement in self._order[: self.HEAD_START]:
            self._shown.push(placement)
        self.board.show(self._shown)
        self.board.recentre(animate=False, cells=[p.cell for p in self._order])

    def on_enter(self, *_args: Any) -> None:
        self.app.services.devices.cue(Cue(attract=True))
        self._language_turn = LANGUAGES.index(i18n.language)
        self._show_invite()
        self._step_event = Clock.schedule_interval(self._step, self.STEP_SECONDS)
        self._invite_event = Clock.schedule_interval(self._show_invite, 4.0)

    def on_leave(self, *_args: Any) -> None:
        for event in (self._step_event, self._invite_event):
            if event is not None:
                event.cancel()
        self.app.services.devices.cue(Cue())

    def _tile_size(self, placements: list[Any]) -> float:
        """How large the tiles of a game would be drawn when the whole game fits the screen."""
        xs = [centre(p.cell, 1.0)[0] for p in placements]
        ys = [centre(p.cell, 1.0)[1] for p in placements]
        area = self.board.fit_area or [0, 0, self.width, self.height]  # the space between the words
        width, height = max(area[2], 1), max(area[3], 1)
        return min(width / (max(xs) - min(xs) + 2), height / (max(ys) - min(ys) + 2))

    def _show_invite(self, *_args: Any) -> None:
        language = LANGUAGES[self._language_turn % len(LANGUAGES)]
        self._language_turn += 1
        self.invite.text = i18n.catalogue(language).gettext(TOUCH_TO_PLAY)

    def _step(self, *_args: Any) -> None:
        """Place the next tile of the game; after the last one, start another game."""
        if len(self._shown) < len(self._order):
            self._shown.push(self._order[len(self._shown)])
            self.board.show(self._shown)
        else:
            self._new_game()

    def on_touch_down(self, touch: Any) -> bool:
        self.app.wake()
        return True
