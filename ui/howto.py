"""A short animated "how to play": a few scripted steps, each a caption and a little animation.

A mode writes a script as a list of :class:`Step` (an English caption, translated when shown, and
``act``: what to start on the stage, usually Kivy Animations) and plays it on a stage widget::

    stage = TileStage(hands=1)
    steps = [Step(N_("Drag a tile onto the table."), lambda: stage.slide(0, Placement(5, 1, 0, 2))), ...]
    app.show(HowToPlayScreen("gobble-solo", N_("Gobble"), stage, steps, reset=lambda: stage.reset(...),
                             on_done=back_to_setup))

The player shows one step after the other (``Step.seconds`` each), then waits with "Watch again".
A tap anywhere else ends it (``on_done``), at any moment: it is skippable. It costs nothing while
idle: between steps only a timer waits (nothing is redrawn), and every animation is a finite Kivy
Animation. Whatever a script starts later (a second tile after a pause...) goes through a
:class:`Timeline`, which the player cancels when it is skipped or started again.

:class:`TileStage` is the stage for Tantrix-tile modes: a board (:class:`ui.board.BoardView`, no
rules) and one or two hands; ``slide`` moves a tile from a hand to the board (or, refused, flashes
red and back), ``give`` moves it from hand to hand, ``discard`` onto a pile beside the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Line, Quad
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.board import Board, Placement
from engine.geometry import Cell

from . import theme, tileart
from .board import BoardView, HandView, PileView
from .hexes import corners, rotated_quad
from .i18n import N_, _, follow_language
from .widgets import TButton, TLabel, panel_background


class Timeline:
    """A script's delayed actions, cancelled together (skip, watch again)."""

    def __init__(self) -> None:
        self._events: list[Any] = []

    def later(self, delay: float, action: Callable[[], Any]) -> None:
        self._events = [e for e in self._events if e.is_triggered]
        self._events.append(Clock.schedule_once(lambda dt: action(), delay))

    def cancel(self) -> None:
        for event in self._events:
            event.cancel()
        self._events.clear()


@dataclass(frozen=True)
class Step:
    """One step of a script: ``caption`` (English, translated when shown), ``act`` starts what the
    stage shows, ``seconds`` before the next step."""

    caption: str
    act: Callable[[], object] | None = None
    seconds: float = 3.2


class HowToPlayScreen(Screen):
    """Plays ``steps`` on ``stage`` under ``title`` (the game's name, in English: shown translated);
    ``reset()`` puts the stage back to its first picture (before each run); ``on_done()`` when the
    player taps to go on; ``timeline`` (default: the stage's own) holds what the script scheduled."""

    def __init__(self, key: str, title: str, stage: Widget, steps: Sequence[Step], reset: Callable[[], None],
                 on_done: Callable[[], None], timeline: Timeline | None = None, **kwargs: Any) -> None:
        super().__init__(name=f"{key}-howto", **kwargs)
        u = theme.unit()
        self.stage, self.steps = stage, list(steps)
        self.timeline = timeline if timeline is not None else getattr(stage, "timeline", Timeline())
        self._reset, self._on_done = reset, on_done
        self.index = -1
        self._next: Any = None  # the clock event that shows the next step
        root = BoxLayout(orientation="vertical", padding=u * 0.25, spacing=u * 0.15)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.2)
        top.add_widget(Widget(size_hint=(None, 1), width=u * 0.9))  # the staff corner
        self.game_name = title
        self.heading = TLabel(msg=N_("How to play: {game}"), scale=1.25, bold=True, halign="left")
        self._name_game()
        follow_language(self, lambda screen: screen._name_game())  # the game's name is a word too
        top.add_widget(self.heading)
        self.skip_hint = TLabel(msg=N_("Tap to skip"), scale=0.8, color=theme.TEXT_DIM, size_hint=(0.32, 1),
                                halign="right")
        top.add_widget(self.skip_hint)
        root.add_widget(top)
        root.add_widget(stage)
        bottom = BoxLayout(size_hint=(1, None), height=u * 1.7, spacing=u * 0.2)
        self.caption = TLabel(scale=1.15, bold=True)
        panel_background(self.caption)
        bottom.add_widget(self.caption)
        self.again_button = TButton(msg=N_("Watch again"), scale=0.9, size_hint=(None, 1), width=u * 3.0)
        self.play_button = TButton(msg=N_("Let's play!"), scale=1.0, bold=True, bg=list(theme.GO),
                                   size_hint=(None, 1), width=u * 3.0)
        self._bottom = bottom
        root.add_widget(bottom)
        self.dots = StepDots(len(self.steps), size_hint=(1, None), height=u * 0.35)
        root.add_widget(self.dots)
        self.add_widget(root)

    def _name_game(self) -> None:
        """The heading names the game in the current language (``title`` is English)."""
        self.heading.values = {"game": _(self.game_name)}

    @property
    def playing(self) -> bool:
        """Whether a step is still to come (False once the script has ended)."""
        return 0 <= self.index < len(self.steps) - 1

    def on_enter(self, *_args: Any) -> None:
        self.restart()

    def on_leave(self, *_args: Any) -> None:
        self._stop()

    def restart(self) -> None:
        self._stop()
        for button in (self.again_button, self.play_button):
            if button.parent is not None:
                self._bottom.remove_widget(button)
        self._reset()
        self.index = -1
        self.show_step(0)

    def show_step(self, index: int) -> None:
        """Show step ``index``; only forward (a step is acted once a run: a late timer and a tap
        cannot show one twice)."""
        if not 0 <= index < len(self.steps) or index <= self.index:
            return
        self.index = index
        step = self.steps[index]
        self.caption.msg = step.caption
        self.dots.current = index
        if step.act is not None:
            step.act()
        if self._next is not None:
            self._next.cancel()
        if index + 1 < len(self.steps):
            self._next = Clock.schedule_once(lambda dt: self.show_step(index + 1), step.seconds)
        else:
            for button in (self.again_button, self.play_button):
                if button.parent is None:
                    self._bottom.add_widget(button)
            self._bottom.do_layout()  # in place at once: a tap must find them where they are drawn

    def _stop(self) -> None:
        if self._next is not None:
            self._next.cancel()
        self.timeline.cancel()
        for widget in self.stage.walk(restrict=True):
            Animation.cancel_all(widget)

    def on_touch_down(self, touch: Any) -> bool:
        if self.again_button.parent is not None and self.again_button.collide_point(*touch.pos):
            self.restart()
            return True
        self._stop()
        self._on_done()
        return True


class StepDots(Widget):
    """A dot per step; the current one lit."""

    current = NumericProperty(0)

    def __init__(self, count: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count
        self.bind(pos=self._draw, size=self._draw, current=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        r = self.height * 0.32
        gap = r * 3.2
        x0 = self.x + self.width / 2 - gap * (self.count - 1) / 2
        with self.canvas:
            for i in range(self.count):
                Color(*(theme.ACCENT if i == self.current else theme.TEXT_DIM[:3] + (0.45,)))
                Line(circle=(x0 + i * gap, self.y + self.height / 2, r), width=r * 0.55 if i == self.current else 1.3)


class TileSprite(Widget):
    """One tile in flight: drawn at (``cx``, ``cy``), circumradius ``radius``, turned ``rot``."""

    cx = NumericProperty(0.0)
    cy = NumericProperty(0.0)
    radius = NumericProperty(20.0)
    rot = NumericProperty(0.0)
    alpha = NumericProperty(0.0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tile = 1
        with self.canvas:
            self._colour = Color(1, 1, 1, 0)
            self._quad = Quad(points=[0] * 8, texture=tileart.face(1))
            self._outline_colour = Color(0, 0, 0, 0)
            self._outline = Line(points=[0, 0], width=2.0, close=True)
        self.bind(cx=self._draw, cy=self._draw, radius=self._draw, rot=self._draw, alpha=self._draw)

    def show(self, tile: int) -> None:
        self.tile = tile
        self._quad.texture = tileart.face(tile)
        self._outline_colour.a = 0
        self.alpha = 1.0

    def outline(self, rgba: theme.RGBA | None) -> None:
        self._outline_colour.rgba = rgba if rgba is not None else (0, 0, 0, 0)
        self._draw()

    def _draw(self, *_args: Any) -> None:
        self._colour.a = self.alpha
        self._quad.points = rotated_quad(self.cx, self.cy, self.radius, self.rot)
        self._outline.points = corners(self.cx, self.cy, self.radius * 0.97)

    def on_touch_down(self, touch: Any) -> bool:
        return False


class TileStage(FloatLayout):
    """A board and ``hands`` hands (1: on its left; 2: on its left and right) for tile scripts, and a
    discard pile on the right. Nothing here judges a rule: a script says what is legal, and the tests
    check each scripted placement against the engine."""

    def __init__(self, hands: int = 1, pile: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = Board()
        self.view = BoardView(auto_fit=False, size_hint=(None, None), frontier_touching=2)
        self.add_widget(self.view)
        self.hands = [HandView(size_hint=(None, None)) for _ in range(hands)]
        for hand in self.hands:
            self.add_widget(hand)
        self.pile: list[int] = []
        self.pile_view = PileView(size_hint=(None, None)) if pile else None
        if self.pile_view is not None:
            self.add_widget(self.pile_view)
        self.sprites: list[TileSprite] = []
        self.timeline = Timeline()
        self._fit: list[Cell] = [(0, 0)]
        self.bind(pos=self._layout, size=self._layout)

    def reset(self, placements: Sequence[Placement], hands: Sequence[Sequence[int]], fit: Sequence[Cell],
              pile: Sequence[int] = ()) -> None:
        """The first picture: ``placements`` on the board, the hands' tiles, the cells to frame."""
        for sprite in self.sprites:
            Animation.cancel_all(sprite)
            self.remove_widget(sprite)
        self.sprites = []
        self.board = Board()
        for p in placements:
            self.board.push(p)
        self.view.show(self.board)
        self.view.highlight(())
        for hand, tiles in zip(self.hands, hands):
            hand.tiles = list(tiles)
            hand.rotations = {}
        self.pile = list(pile)
        if self.pile_view is not None:
            self.pile_view.tiles = list(self.pile)
        self._fit = list(fit)
        self._layout()

    def _layout(self, *_args: Any) -> None:
        """The hands stand as columns at the sides (the first on the left, the second or the pile on
        the right), so the board keeps the whole height: the stage is short under its caption."""
        u = theme.unit()
        side = min(u * 2.2, self.width * 0.16)
        for i, hand in enumerate(self.hands):
            hand.max_rows = 9
            hand.size = (side, self.height)
            hand.pos = (self.x if i == 0 else self.right - side, self.y)
        right = side if len(self.hands) > 1 or self.pile_view is not None else 0
        self.view.pos = (self.x + side, self.y)
        self.view.size = (max(self.width - side - right, 1), self.height)
        if self.pile_view is not None:
            self.pile_view.size = (side, min(u * 3.2, self.height))
            self.pile_view.pos = (self.right - side, self.y + (self.height - self.pile_view.height) / 2)
        self.view.recentre(animate=False, cells=self._fit)

    # --------------------------------------------------------------------- moves

    def _sprite(self, tile: int, at: tuple[float, float], radius: float, rot: int) -> TileSprite:
        sprite = TileSprite(size_hint=(None, None), size=(1, 1))
        self.add_widget(sprite)
        self.sprites.append(sprite)
        sprite.cx, sprite.cy = self.to_widget(*at)
        sprite.radius, sprite.rot = radius, rot
        sprite.show(tile)
        return sprite

    def _from_hand(self, hand_index: int, tile: int, rot: int) -> TileSprite | None:
        """A sprite taking ``tile`` out of a hand (None if it is not there: an earlier step's tile is
        still on its way back on a slow frame; the demo then skips the move rather than stop)."""
        hand = self.hands[hand_index]
        if tile not in hand.tiles:
            return None
        index = hand.tiles.index(tile)
        sprite = self._sprite(tile, hand.to_window(*hand.slot_centre(index)), hand.tile_radius() * 0.95, rot)
        hand.tiles.remove(tile)
        return sprite

    def _cell_point(self, cell: Cell) -> tuple[float, float]:
        return self.to_widget(*self.view.window_cell_centre(cell))

    def slide(self, hand_index: int, placement: Placement, refused: bool = False, seconds: float = 0.9,
              delay: float = 0.0) -> None:
        """Slide ``placement.tile`` from a hand onto its cell (turning to its rotation) and place it;
        ``refused``: it flashes red there and slides back to the hand."""
        self.timeline.later(delay, lambda: self._slide(hand_index, placement, refused, seconds))

    def _slide(self, hand_index: int, placement: Placement, refused: bool, seconds: float) -> None:
        sprite = self._from_hand(hand_index, placement.tile, placement.rot)
        if sprite is None:
            return
        x, y = self._cell_point(placement.cell)
        go = Animation(cx=x, cy=y, radius=self.view.size_px, d=seconds, t="in_out_quad")

        def landed(*_args: Any) -> None:
            if refused:
                sprite.outline(theme.MARK_REFUSED)
                self.view.highlight([placement.cell, *self._neighbours_of(placement.cell)])
                hand = self.hands[hand_index]
                home = self.to_widget(*hand.to_window(*hand.center))
                back = Animation(d=0.9) + Animation(cx=home[0], cy=home[1], radius=hand.tile_radius() * 0.95,
                                                    d=seconds * 0.8, t="in_out_quad")
                back.bind(on_complete=lambda *_: self._return(sprite, hand_index))
                back.start(sprite)
                return
            self._land(placement)
            self._drop(sprite)

        go.bind(on_complete=landed)
        go.start(sprite)

    def _land(self, placement: Placement) -> None:
        if placement.cell not in self.board and placement.tile not in self.board.placed_tiles():
            self.board.push(placement)
            self.view.show(self.board)

    def _neighbours_of(self, cell: Cell) -> list[Cell]:
        from engine.geometry import neighbours

        return [n for n in neighbours(cell) if n in self.board]

    def _return(self, sprite: TileSprite, hand_index: int) -> None:
        hand = self.hands[hand_index]
        hand.tiles.append(sprite.tile)
        self._drop(sprite)

    def _drop(self, sprite: TileSprite) -> None:
        if sprite in self.sprites:
            self.sprites.remove(sprite)
            self.remove_widget(sprite)

    def give(self, from_hand: int, to_hand: int, tile: int, seconds: float = 1.0, delay: float = 0.0) -> None:
        """Slide ``tile`` from one hand to the other (a Gobbles gift)."""

        def go() -> None:
            sprite = self._from_hand(from_hand, tile, 0)
            if sprite is None:
                return
            sprite.outline(theme.ACCENT)
            target = self.hands[to_hand]
            x, y = self.to_widget(*target.to_window(*target.center))
            anim = Animation(cx=x, cy=y, d=seconds, t="in_out_quad")

            def landed(*_args: Any) -> None:
                target.tiles.append(tile)
                self._drop(sprite)

            anim.bind(on_complete=landed)
            anim.start(sprite)

        self.timeline.later(delay, go)

    def discard(self, hand_index: int, tile: int, seconds: float = 0.9, delay: float = 0.0) -> None:
        """Slide ``tile`` from a hand onto the discard pile."""

        def go() -> None:
            pile_view = self.pile_view
            assert pile_view is not None
            sprite = self._from_hand(hand_index, tile, 0)
            if sprite is None:
                return
            x, y = self.to_widget(*pile_view.to_window(*pile_view.tile_centre()))
            anim = Animation(cx=x, cy=y, radius=pile_view.tile_radius(), d=seconds, t="in_out_quad")

            def landed(*_args: Any) -> None:
                self.pile.append(tile)
                pile_view.tiles = list(self.pile)
                self._drop(sprite)

            anim.bind(on_complete=landed)
            anim.start(sprite)

        self.timeline.later(delay, go)

    def play_discard(self, placement: Placement, seconds: float = 0.9, delay: float = 0.0) -> None:
        """Slide the top discard onto the board (a Gobble reward)."""

        def go() -> None:
            assert self.pile_view is not None
            if not self.pile:
                return
            tile = self.pile.pop()
            self.pile_view.tiles = list(self.pile)
            sprite = self._sprite(tile, self.pile_view.to_window(*self.pile_view.tile_centre()),
                                  self.pile_view.tile_radius(), placement.rot)
            sprite.outline(theme.ACCENT)
            x, y = self._cell_point(placement.cell)
            anim = Animation(cx=x, cy=y, radius=self.view.size_px, d=seconds, t="in_out_quad")

            def landed(*_args: Any) -> None:
                self._land(placement)
                self._drop(sprite)

            anim.bind(on_complete=landed)
            anim.start(sprite)

        self.timeline.later(delay, go)

    def turn(self, hand_index: int, tile: int, steps: int = 1) -> None:
        """Turn a tile in a hand, as a tap does."""
        self.hands[hand_index].turn(tile, steps)
