"""The strategy game at the kiosk: 2 to 4 players (or Doubles), people and robots, around the table.

Each seat's hand lies at its player's edge, facing them (flat), or all hands lie at the bottom
(upright). A plate by each hand names the seat and its score (its longest line, or loop counted
double); the plate of the player to act is lit in their colour and says what to do: "Fill the
forced space", "Your free move", "Fill again" (the first time each comes to a seat, in plain words:
"Free move: any tile that fits"), or, with the real bag, "Draw a tile and scan it". Their
hand glows in their colour; the others are dimmed. Forced spaces are drawn in orange and the tiles
that fit one are outlined in orange; while one must be filled, the game accepts nothing else.

A person drags a tile from their hand (tap to turn it, or twist it with two fingers); the space
under it shows at once whether it fits, and a refused drop is explained facing the player, with
the cells involved outlined in red. Robots think on a worker thread (the UI keeps drawing) and
their tile flies from their hand to its place. Holding a seat's plate opens a small card where a
robot can take the seat over, or give it back. Tapping a forced space tells how many unseen tiles
fit it now and in the endgame (the official game's review). The engine does whatever needs no
decision (draws from its own bag, passing a turn with nothing left to do); with the real bag the
player who owes a draw scans the tile at their seat's reader, and the bag button reminds them. With
no reader, or a tag the table has not learnt (or one that does not read), **Pick on screen** at their
seat opens the tiles still in the bag (:mod:`.picker`): they touch the one they drew, and the game
takes it as it takes a scan.

After every step the game is journaled (a power cut loses nothing) and the LED rings are cued with
the turn, the step, the forced spaces and the endgame; at the end, the winners.
"""

from __future__ import annotations

import logging
import math
from functools import lru_cache, partial
from typing import Any, Callable

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, RoundedRectangle
from kivy.properties import NumericProperty
from kivy.uix.scatter import Scatter
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.board import Placement
from engine.strategy.game import FILL_STEPS, Phase, StrategyGame, StrategyRule, Step
from engine.geometry import Cell
from engine.modes import Place, Play, Refused
from engine.strategy.robots import Robot, make_robot, robot_task
from engine.strategy.robots.coach import Advice, advise
from engine.strategy.robots.master import Master

from ... import theme
from ...board import HandView
from ...board_controls import ViewControls
from ...howto import TileSprite
from ...i18n import N_, Words, _, follow_language, i18n, n_
from ...jobs import Job, Outcome
from ...mode_target import ModeTarget
from ...refusals import RULE_MESSAGES, explain
from ...seat_players import rate_finished, seat_again, seated, seated_names
from ...services import BagButtonPressed, Cue, TileScanned, UnknownTag
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell
from ...hexes import SQRT3
from ...table import (BOTTOM, LEFT, RIGHT, TOP, BagBadge, Rect, SeatBox, TableLayout, TableMask, clear_spot, clearing_shift,
                     crosswise, crowds, overlaps)
from ...tournament_store import entry_of, report
from ...widgets import Overlay, SMALLEST_FONT, TButton, confirm_leave, panel_background, put_away
from ...words import LEVEL_NAMES, colour_name, seat_name
from .board import StrategyBoard, score_words, widest_score_words
from .clock import TableClocks, set_clocks
from .coach import CoachCard
from .picker import DrawPicker
from .results import finished_record, show_results
from .seats import BAR_BESIDE, EDGE_PLATE, PLATE_BESIDE, Bubble, ConfirmBar, PlateName, SeatBar, SeatPlate, TakeOverCard

log = logging.getLogger(__name__)

ROBOT_PAUSE = 0.5
"""Seconds a robot waits before it thinks, so people see whose turn it is."""
FLIGHT_SECONDS = 0.7
"""How long a robot's tile takes to fly from its hand to its place."""

TURN_RULES = frozenset({Play.GAME_OVER, StrategyRule.DRAW_PENDING, StrategyRule.NOT_PLAYING, Play.NOT_YOUR_TURN})
"""The refusals that say the seat is not to place now, which come before whoever plays it."""

STEP_WORDS = {Step.FILL: N_("Fill the forced space"), Step.FREE: N_("Your free move"),
              Step.FILL_AGAIN: N_("Fill again")}
FIRST_STEP_WORDS = {Step.FILL: N_("Fill the orange forced space"), Step.FREE: N_("Free move: any tile that fits"),
                    Step.FILL_AGAIN: N_("Fill again: the orange space")}
"""The plate's words the first time a step comes to a seat in a game: the booklet's own ("Your free
move", "Fill again") tell a newcomer nothing, so the first time they say what to do and name the
orange space they speak of; the next times the booklet's words, by then understood. Short: they are
read whole on a 7" panel's plate, where a sentence shrank to a size no one reads."""
SEVERAL_WORDS = (N_("Fill a forced space"), N_("Fill an orange forced space"))
"""The plate's words, then the first time's (:data:`FIRST_STEP_WORDS`), to fill one of several
forced spaces."""
SHORTER_STEP_WORDS = {**{FIRST_STEP_WORDS[step]: STEP_WORDS[step] for step in FIRST_STEP_WORDS},
                      SEVERAL_WORDS[1]: SEVERAL_WORDS[0]}
"""The booklet's words for the first time's: what the acting seat's plate says where the first
time's leave it no room for the seat's name, even on two lines (Polish Doubles on the 7" portrait
panel: "Wolny ruch: dowolna pasująca płytka" beside "Drużyna czerwona" over its score)."""
LEARNING_HINTS = {
    Step.FILL: N_("A tile of yours fits the orange forced space: fill it first."),
    Step.FREE: N_("Your free move: place one tile anywhere it fits."),
    Step.FILL_AGAIN: N_("Your move made a forced space you can fill: fill it now."),
}


BAG_EMPTY_NEWS = N_("Bag empty: now a tile may go wherever it fits.")
"""Told to every seat as the bag empties: what a player may now do (the booklet's "the restrictions
are lifted" told a newcomer nothing). Short: the waiting seats read it on their plates."""


def seat_target(screen: StrategyScreen, seat: int) -> ModeTarget[Place]:
    """Seat ``seat``'s placements as the board judges them: the game decides every rule
    (``Place(placement, seat)``); a drop is put down provisionally, for the player to confirm, or
    for good when the table plays without confirmation (:meth:`StrategyScreen.put`). Only whether a
    person or a robot plays the seat is the table's own business."""

    def vet(placement: Placement, refusal: Refused | None) -> Refused | None:
        if refusal is not None and refusal.rule in TURN_RULES:
            return refusal
        if screen.game.seats[seat].robot is not None:
            return Refused(StrategyRule.ROBOT_SEAT, "a robot plays this seat")
        return refusal

    return ModeTarget(screen.game, lambda placement: Place(placement, seat),
                      apply=lambda action: screen.put(seat, action.placement), vet=vet)


@lru_cache(maxsize=8)
def _hint_width(hint: str, thinking: str, font_size: float) -> float:
    """The room the coach's button needs for ``hint`` on one line, and for ``thinking`` in the
    smallest font a button shrinks to (measured once per language: the layout asks on every refresh)."""
    measure = CoreLabel(font_size=font_size, bold=True)
    return float(max(measure.get_extents(hint)[0], measure.get_extents(thinking)[0] * SMALLEST_FONT))


class FlyingTile(TileSprite):
    """A robot's tile flying from ``start`` (overlay coordinates, circumradius ``radius``) to its
    cell, turning ``turn`` sixths on the way, as ``progress`` goes from 0 to 1. ``aim()`` says where
    the cell is drawn now and how big (overlay coordinates, circumradius), and the tile heads there
    at every step: a person panning or zooming the board during the flight moves its landing place
    with it (aimed once at take-off, it landed in empty space, the real tile drawn elsewhere)."""

    progress = NumericProperty(0.0)

    def __init__(self, start: tuple[float, float], radius: float, aim: Callable[[], tuple[float, float, float]],
                 turn: int, **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), size=(1, 1), **kwargs)
        self._start, self._radius, self._aim, self._turn = start, radius, aim, turn
        self.cx, self.cy = start
        self.radius = radius
        self.bind(progress=self._fly)

    def _fly(self, *_args: Any) -> None:
        x, y, radius = self._aim()
        t = self.progress
        (x0, y0), r0 = self._start, self._radius
        self.cx, self.cy = x0 + (x - x0) * t, y0 + (y - y0) * t
        self.radius = r0 + (radius - r0) * t
        self.rot = self._turn * t


# ------------------------------------------------------------------------------------ the screen


class StrategyScreen(Leavable, Screen):
    """One strategy game (see the module docstring). ``learning``: a friendly first game (each step
    explained as it comes)."""

    attract_when_idle = False

    def __init__(self, app: Shell, game: StrategyGame, learning: bool = False, **kwargs: Any) -> None:
        super().__init__(name="strategy", **kwargs)
        self.app, self.game, self.learning = app, game, learning
        self.robot_pause = ROBOT_PAUSE
        self.flight_seconds = FLIGHT_SECONDS
        self.thinking = False
        self.flying = False
        self.robot_job: Job[Placement] = Job("strategy-robot")
        self.robots: dict[str, Robot] = {}
        """The table's robots, one per level, built when a seat first names it (the game never
        builds one: engine.strategy.robots)."""
        self.think_log: list[tuple[float, int]] = []
        """(seconds, frames drawn meanwhile) for each robot thought: the UI must keep drawing."""
        self._generation = 0  # a robot's answer for a position that changed meanwhile is dropped
        self._ended = False
        self._last_cue: Cue | None = None
        self._events_seen = len(game.record()["events"])
        self._bag_seen = game.bag_count
        self._announced_start = len(game.board) > 0
        self._last_step: tuple[int | None, Step | None, int | None] = (None, None, None)
        self._first_steps: dict[tuple[int, Step], int] = {}
        """(seat, step): how many tiles lay on the table when the seat's plate first told it that
        step (:data:`FIRST_STEP_WORDS`)."""
        self.card: TakeOverCard | None = None
        self.confirming = bool(getattr(app.services.settings, "confirm_moves", True))
        """Whether a person's placement waits for their Confirm (a staff setting may turn it off)."""
        self.provisional: tuple[int, Placement] | None = None
        """(seat, placement): a tile a person has put down and not yet confirmed."""
        self._told_confirm: set[int] = set()
        self.coach_job: Job[Advice] = Job("coach")
        self.advice: tuple[int, Advice] | None = None
        """(seat, advice): the coach's suggestion shown pale on the board, with its card."""
        self.coach_card: Scatter | None = None
        self._card_first = False
        """Whether the coach's card took its place first and the controls keep off it
        (:meth:`_place_coach_card`: it fitted nowhere near its player clear of them)."""
        self._staff_watch = Clock.schedule_interval(self._follow_staff, 1.0)  # runs while on screen
        self._staff_watch.cancel()
        self._coached_plate: int | None = None  # the seat whose plate gives room to the coach button
        self.board = StrategyBoard(auto_fit=False)
        self.board.bind(on_cell_tap=lambda _b, cell, pos: self.review(cell, pos),
                        on_tile_tap=lambda _b, placement: self.turn_provisional(),
                        on_pick_up=lambda _b, tile: self.take_back(),
                        on_move_refused=lambda _b, refusal: self._refused_move(refusal),
                        on_ghost_tap=lambda _b, placement: self.play_advice())
        self.layout = TableLayout(board=self.board, orientation=app.services.settings.orientation, makes_room=True)
        self.layout.bind(news=lambda *_: self._show_plates())  # table news: on the waiting seats' plates
        self.layout.bind(size=self._want_beside)
        # a board larger than the free table is cut at the hands' edges, not shown through them
        self.layout.add_widget(TableMask(self.board), index=self.layout.children.index(self.board))
        self.hands = [HandView(colour=seat.colour, target=seat_target(self, i)) for i, seat in enumerate(game.seats)]
        self._glows = [self._glow(hand) for hand in self.hands]
        for hand in self.hands:
            hand.bind(on_played=lambda *_: self._hand_played(), on_lift=lambda h, tile: self.lifted(h, tile),
                      on_waiting=lambda h, _tile: self.waiting(h))
        self.layout.seat(self.hands)
        self.plates = [SeatPlate(partial(self.open_card, i)) for i in range(len(self.hands))]
        # above the hands, below the layout's messages (one banner per hand, just under the drag layer)
        under_banners = self.layout.children.index(self.layout.drag_layer) + len(self.hands) + 1
        for plate in self.plates:
            self.layout.add_widget(plate, index=under_banners)
        # the plates' words are composed (colour, score, what to do), and so is the coach's
        # sentence: a language staff switch to while the game is on (their web page, or their menu
        # over it) is theirs at once, not after the next move
        follow_language(self, lambda screen: screen._retranslate())
        self.bubble = Bubble()
        self.confirm_bar = ConfirmBar(self.confirm, self.take_back)
        self.coach_bar = SeatBar([(N_("Hint"), self.ask_coach, 1.0, theme.BUTTON)], rim=0.03)
        self.pick_bar = SeatBar([(N_("Pick on screen"), lambda: self.open_picker(), 1.0, theme.BUTTON)])
        self.picker: DrawPicker | None = None
        self.picker_seat: int | None = None
        """The seat the picker (the tiles in the bag, to say by touch which was drawn) faces."""
        self.overlay = Overlay()
        self.overlay.add_widget(self.layout)
        self.overlay.add_widget(self.confirm_bar)
        self.overlay.add_widget(self.coach_bar)
        self.overlay.add_widget(self.pick_bar)
        self.overlay.add_widget(self.bubble)
        self.leave_button = TButton(msg=N_("Leave"), scale=0.7, size_hint=(None, None))
        self.leave_button.bind(on_release=lambda *_: confirm_leave(self))
        self.overlay.add_widget(self.leave_button)
        self.bag_label = BagBadge(msg=N_("Bag: {count}"), values={"count": game.bag_count}, bold=True,
                                  color=theme.TEXT, font_size=theme.font(0.8), size_hint=(None, None))
        panel_background(self.bag_label, (0, 0, 0, 0.35), radius=0.2)
        self.overlay.add_widget(self.bag_label)
        self.add_widget(self.overlay)
        # the cues and the map's rings: the forced spaces the player to move must fill (the
        # board outlines those no tile of their hand fits too)
        self.view_controls = ViewControls(self.board, lambda: self.game.forced_cells())
        self.overlay.add_widget(self.view_controls)
        self.overlay.add_widget(self.view_controls.cues)
        self.board.shields = [*self.hands, *self.plates, self.confirm_bar, self.coach_bar, self.pick_bar,
                              self.leave_button, self.bag_label,
                              *self.view_controls.parts]
        self._controls: list[Widget] = [self.view_controls, self.leave_button, self.bag_label, self.confirm_bar,
                                        self.coach_bar, self.pick_bar]
        """What this table lays over the layout, that its messages keep clear of (:attr:`TableLayout.keep_clear`)."""
        self.layout.keep_clear = list(self._controls)
        self._free = (0.0, 0.0, 1.0, 1.0)
        self._places_memo: tuple[tuple[Any, ...], list[tuple[str, float, tuple[float, float], tuple[float, float]]]] | None = None
        """(what :meth:`_plate_places` was worked out from, what it gave)."""
        self._controls_follow = False
        """Whether :meth:`_place_widgets` places the controls next (a bar shown meanwhile leaves them)."""
        self._followed: tuple[Any, ...] | None = None
        self.clocks = TableClocks.load(app, game)
        """The seats' clocks, when the game has them (see :mod:`.clock`)."""
        self._clock_tick: Any = None
        self.board.bind(fit_area=self._fit_area)
        self.refresh()

    # ------------------------------------------------------------------ layout

    @staticmethod
    def _glow(hand: HandView) -> tuple[Color, RoundedRectangle]:
        """The hand's light: its player's colour while they are to act (under the tiles)."""
        group = InstructionGroup()
        colour = Color(0, 0, 0, 0)
        rect = RoundedRectangle(radius=[theme.unit() * 0.2])
        group.add(colour)
        group.add(rect)
        hand.canvas.before.add(group)

        def follow(*_args: Any) -> None:
            rect.pos, rect.size = hand.pos, hand.size

        hand.bind(pos=follow, size=follow)
        return colour, rect

    def _fit_area(self, board: StrategyBoard, area: list[float]) -> None:
        """Keep the tiles clear of the plates: the table's free area (set by the layout) less the
        plates lying along its edges (this narrows it once per change)."""
        if not area or list(area) == self._fitted():
            return
        x, y, w, h = area
        self._free = (x, y, w, h)
        board.fit_area = self._fitted()
        self._place_widgets()

    def _fitted(self) -> list[float]:
        x, y, w, h = self._free
        left, bottom, right, top = self._insets()
        return [x + left, y + bottom, max(w - left - right, 1.0), max(h - bottom - top, 1.0)]

    def _insets(self) -> tuple[float, float, float, float]:
        """How far the plates reach into the free table from its left, bottom, right and top."""
        inset = theme.unit() * EDGE_PLATE
        if self.layout.orientation == "upright":
            rows = self._plate_rows()
            return 0.0, 0.0, 0.0, inset if rows == 1 else self._top_depth() + theme.unit() * 0.98
        sides = {BOTTOM: 1, LEFT: 0, RIGHT: 2, TOP: 3}
        found = [0.0, 0.0, 0.0, 0.0]
        for place in self._plate_places():
            if place[0] == "edge":
                found[sides[place[1]]] = inset
        return found[0], found[1], found[2], found[3]

    def _plate_places(self) -> list[tuple[str, float, tuple[float, float], tuple[float, float]]]:
        """Where each seat's plate lies with the screen flat: ("beside", angle, centre, size) at the
        player's right of their hand when the edge has room for it there (it then costs the table
        nothing; :meth:`_want_beside`), else ("edge", ...) along the hand's inner edge. Worked out
        again only when what it is worked out from changed (the key: the hands' boxes, the
        layout's place, the sizes, the seat coached and the coach button's words): a placement asks
        dozens of times (every bar and control placed asks where the plates lie)."""
        layout = self.layout
        coached = self.coached_seat()
        key = (tuple(layout.boxes), tuple(layout.pos), tuple(layout.size), theme.unit(), theme.min_target(),
               coached, self.coaching, self.coach_bar.rim, self.coach_bar.buttons[0].scale, i18n.language)
        if self._places_memo is None or self._places_memo[0] != key:
            self._places_memo = (key, self._lay_plates(coached))
        return list(self._places_memo[1])

    def _lay_plates(self, coached: int | None) -> list[tuple[str, float, tuple[float, float], tuple[float, float]]]:
        """:meth:`_plate_places`, worked out (``coached``: :meth:`coached_seat`)."""
        layout, u = self.layout, theme.unit()
        places = []
        for seat, box in enumerate(layout.boxes):
            room, left, along, (ux, uy), (cx, cy) = self._beside(box)
            if room >= u * PLATE_BESIDE:
                length = min(room, u * 6.5)
                shift = box.length / 2 + u * 0.15 + length / 2
                places.append(("beside", box.angle, (cx + along[0] * shift, cy + along[1] * shift),
                               (length, box.depth * 0.9)))
            else:
                rise = box.depth / 2 + u * 0.42
                length, shift = box.length, 0.0
                if seat == coached and not self._hint_beside(box, left):  # its left end: the coach button (_coach_place)
                    given = self._coach_length(box) + u * 0.1
                    length, shift = length - given, given / 2
                places.append(("edge", box.angle, (cx + ux * rise + along[0] * shift, cy + uy * rise + along[1] * shift),
                               (length, u * 0.72)))
        return places

    def _beside(self, box: SeatBox) -> tuple[float, float, tuple[float, float], tuple[float, float], tuple[float, float]]:
        """Around a hand, with the screen flat: the room left along its edge at its player's right
        (what the plate may take) and left (the confirm bar, the coach's button), the directions
        along the edge and towards the table, and its centre (layout's parent coordinates). A
        hand may lie off its edge's middle (:meth:`_want_beside`)."""
        layout, u = self.layout, theme.unit()
        side_depth = max((b.depth for b in layout.boxes if b.across), default=0.0)
        # the corners are the side hands' (ui.table.seat_boxes); on a portrait panel the ends'
        corners = max((b.depth for b in layout.boxes), default=0.0) if side_depth and layout.height > layout.width else 0.0
        turned = box.across
        start = corners if turned else (side_depth if not corners else 0.0)
        end = (layout.height if turned else layout.width) - start
        middle = box.cy if turned else box.cx
        a = math.radians(box.angle)
        along = (math.cos(a), math.sin(a))
        ahead = along[1] if turned else along[0]  # +1: the player's right is the far end of the edge
        after, before = end - (middle + box.length / 2) - u * 0.25, (middle - box.length / 2) - start - u * 0.25
        right, left = (after, before) if ahead > 0 else (before, after)
        if any(b.across != turned for b in layout.boxes):  # the corners' hands lay things along them
            reach = self._corner_reach()
            right, left = right - reach[0], left - reach[1]
        return right, left, along, box.up(), (layout.x + box.cx, layout.y + box.cy)

    def _want_beside(self, *_args: Any) -> None:
        """Tell the layout what a table of three or four lays beside a hand: the plate, at its
        right. It then moves a hand along its edge for it, where the edge has the room, and the
        board takes the width the plate took along its edge (:func:`ui.table.seat_boxes`). At a
        table of two the plates lie beside the hands, or along them, as the hands lie centred."""
        if len(self.hands) <= 2:
            self.layout.beside = (0.0, 0.0)
            return
        right, left = self._corner_reach()
        self.layout.beside = (theme.unit() * (PLATE_BESIDE + 0.3) + right, left)  # _beside keeps 0.25 off the end

    def _corner_reach(self) -> tuple[float, float]:
        """At a table of three or four, how far into the corners at a hand's right and left what
        the next edges' hands lay along their inner edges reaches: at its right, the next seat's
        plate, or its coach's button (at that plate's left end; a little deeper) where staff let
        players ask; at its left, the seat before's plate."""
        u = theme.unit()
        return max(u * EDGE_PLATE, u * 0.06 + self._hint_depth() if self.coaching else 0.0), u * EDGE_PLATE

    def _place_widgets(self) -> None:
        """The plates by the hands, then the bag count, Leave and the view controls where they
        cover nothing: a corner of the screen between the hands, else a corner of the free table."""
        u = theme.unit()
        bag = self.bag_label
        bag.texture_update()
        bag.size = (max(bag.texture_size[0], u * 2.0) + u * 0.4, u * 0.8)
        self._show_plates()
        self.leave_button.size = (u * 1.8, u * 1.0)
        self._controls_follow = True  # the bars shown need not move the controls: they are placed next
        try:
            self._show_confirm()
            self._place_picker()  # first: the controls keep clear of it
        finally:
            self._controls_follow = False
        self._place_controls()
        self._place_coach_card()

    def _place_controls(self) -> None:
        """The bag count, Leave and the view controls, clear of everything :meth:`_obstacles` names
        and a finger's gap from the controls it names, and, where they can be, of the board's forced
        spaces, then of its tiles (:meth:`ui.board.BoardView.tile_runs`). While
        the picker is up Leave and the view controls are put away: it fills the table's depth, and
        beside it Leave stood a few pixels off its Close (or under it), and the zoom had nothing to
        zoom. Its Close gives them back: to leave, a player closes the card first, as any question.
        The bag count stays, off the picker's edge, where the table has room for it there; where it
        has none (a side seat's picker on the turned 480x800 panel fills the table) the count is put
        away too rather than lie half under the card: the picker shows the very tiles it counts."""
        bag = self.bag_label
        taken, soft, controls = self._obstacles()
        board = self.board.tile_runs()
        forced = [self._space(space.cell) for space in self.board.board.forced_spaces()]
        picking = self.picker is not None
        put_away(self.leave_button, self.overlay, picking)
        put_away(self.view_controls, self.overlay, picking)
        for widget, corners in self._movable():
            if picking and widget is not bag:
                continue
            widget.pos = clear_spot(tuple(widget.size), corners, taken, tuple(self.layout.size), self._free,
                                    tuple(self._fitted()), soft, board, controls, forced)
            (x, y), (w, h) = widget.pos, widget.size
            if widget is bag:
                under = self.picker is not None and overlaps((x, y, w, h), (*self.picker.bbox[0], *self.picker.bbox[1]))
                put_away(bag, self.overlay, under)
                if under:
                    continue
            controls.append((x, y, w, h))
        self.view_controls.refresh()  # the cues to forced spaces out of sight keep clear of them

    def _movable(self) -> list[tuple[Widget, tuple[str, ...]]]:
        """What :meth:`_place_controls` lays out, in that order, each with the corners it tries in
        turn: the bag count, Leave and the view controls."""
        return [(self.bag_label, ("top-right", "bottom-right", "top-left")),
                (self.leave_button, ("bottom-left", "bottom-right", "top-right")),
                (self.view_controls, ("top-left", "bottom-left", "top-right", "bottom-right"))]

    def _obstacles(self) -> tuple[list[Rect], list[Rect], list[Rect]]:
        """What a control must not cover: the hands, the plates, the hidden staff corner and the
        coach's pale tile; what it had better not cover: where a person's confirm (or pick) and
        coach bars lie along their hand's inner edge; and the controls it keeps a finger's gap
        from (:func:`ui.table.clear_spot`): the bars shown, the coach's card when it took its place
        first, the picker, and where a person's bars lie beside their hand."""
        layout, u = self.layout, theme.unit()
        soft: list[Rect] = []
        controls: list[Rect] = []
        rects = [(0.0, layout.height - u * 1.1, u * 1.1, u * 1.1)]
        rects += [box.rect(layout.x, layout.y) for box in layout.boxes]
        for plate in self.plates:
            (x, y), (w, h) = plate.bbox
            rects.append((x, y, w, h))
        for bar in (self.confirm_bar, self.coach_bar, self.pick_bar):
            if bar.shown:
                (x, y), (w, h) = bar.bbox
                controls.append((x, y, w, h))
        if self.advice is not None:  # laid out again (a language switched to), they keep off the pale tile
            rects.append(self._space(self.advice[1].placement.cell))
        if self._card_first and self.coach_card is not None:
            (x, y), (w, h) = self.coach_card.bbox
            controls.append((x, y, w, h))
        if self.picker is not None and self.picker.parent is not None:  # the bag count off its edge
            (x, y), (w, h) = self.picker.bbox
            controls.append((x, y, w, h))
        if self.layout.orientation == "flat":
            # the pick bar (the real bag) lies where the confirm bar does
            bars_there = self.confirming or self.game.options.physical_bag
            places = ([self._confirm_place] if bars_there else []) + ([self._coach_place] if self.coaching else [])
            for seat, player in enumerate(self.game.seats):
                for place in places if player.robot is None else ():  # where its bars will lie
                    kind, angle, (cx, cy), (length, depth) = place(seat)
                    across = crosswise(angle)
                    w, h = (depth, length) if across else (length, depth)
                    (controls if kind == "beside" else soft).append((cx - w / 2, cy - h / 2, w, h))
        return rects, soft, controls

    def actor(self) -> int | None:
        """The seat that must act now: the one owing a draw, else the one to move."""
        game = self.game
        if game.finished:
            return None
        due = game.awaiting_draw
        return due if due is not None else game.turn

    def _retranslate(self) -> None:
        """The composed words in the language staff just switched to: the plates (upright, in one
        row or two as the words need: the board's room follows), the coach's card."""
        if self.board.fit_area:
            self.board.fit_area = self._fitted()
        self._place_widgets()
        if self.coach_card is not None:
            self._show_coach_card()

    def _show_plates(self) -> None:
        game, layout = self.game, self.layout
        if len(layout.boxes) != len(self.plates):
            return
        actor = self.actor()
        u = theme.unit()
        texts = []
        for seat in range(len(self.plates)):
            colour = game.seats[seat].colour
            score = score_words(game.board, colour)
            words = PlateName(seat_name(game, seat), seat_name(game, seat, robot_mark=False), score)
            message = self._step_message(seat) if seat == actor else ""
            step = _(message) if message else layout.news_for(seat) if seat != actor and layout.orientation == "flat" else ""
            shorter = _(SHORTER_STEP_WORDS[message]) if message in SHORTER_STEP_WORDS else ""
            clock = self.clocks.text(seat) if self.clocks is not None else None
            texts.append((colour, words, step, seat == actor, game.seats[seat].robot is not None, clock, shorter))
        if layout.orientation == "flat":
            places = self._plate_places()
            for plate, (_mode, angle, centre, size), text in zip(self.plates, places, texts):
                plate.show(angle, centre, size, *text)
            # a plate beside its hand lies in a corner, where a neighbour's message may slide
            layout.keep_clear = [*self._controls, *(plate for plate, place in zip(self.plates, places) if place[0] == "beside")]
            return
        layout.keep_clear = list(self._controls)
        # upright: the plates are a bar along the top of the table (clear of the staff corner and
        # the bag), the actor's the widest; a narrow plate gives the score only
        x0, y0, w, h = self._free
        corner, bar, gap = self._plate_bar()
        top = y0 + h - u * 0.45
        if self._plate_rows() == 2:
            # the actor's plate has the top row to itself (the game over, the first seat's: four
            # plates in the lower row of a portrait panel cut every score); the others share the
            # row under it. The Hint button lies in the top row where that row is deep enough for
            # it, else in a column of the lower row under the bag count (kept while it is hidden,
            # so the plates stay put)
            depth, hint_above = self._top_depth(), self._hint_in_top_row()
            hint = (self._coach_length(None) + gap) if self.coaching else 0.0
            end = x0 + w - u * 0.04 - (0.0 if hint_above or not self.coaching else self._coach_length(None) + u * 0.15)
            first = actor if actor is not None else 0
            waiting = [seat for seat in range(len(self.plates)) if seat != first]
            length = min((end - x0 - u * 0.04) / max(len(waiting), 1) - gap, u * 6.5)
            long = bar - gap - (hint if hint_above else 0.0)
            below = y0 + h - u * 0.09 - depth - u * 0.1 - u * 0.36
            for seat, plate in enumerate(self.plates):
                if seat == first:
                    plate.show(0.0, (x0 + corner + long / 2, y0 + h - u * 0.09 - depth / 2), (long, depth), *texts[seat])
                else:
                    x = x0 + u * 0.04 + waiting.index(seat) * (length + gap)
                    plate.show(0.0, (x + length / 2, below), (length, u * 0.72), *texts[seat])
            return
        count = len(self.plates)
        share = self._actor_share(bar) if actor is not None else bar / count
        rest = (bar - share) / max(count - 1, 1) if actor is not None else share
        x = x0 + corner
        for plate, text in zip(self.plates, texts):
            length = (share if text[3] else rest) - gap
            plate.show(0.0, (x + length / 2, top), (length, u * 0.72), *text)
            x += length + gap

    def _plate_rows(self) -> int:
        """How many rows of plates lie along the top of the table with the screen upright: two on a
        portrait panel (one row across its width leaves a waiting seat's plate only its disc and
        cuts the actor's words), and wherever one row, the actor's plate keeping its share, leaves
        a waiting plate too short for the widest score in the language shown (four players at
        1280x800 in French: "boucle 28 = 56" was cut, or the actor's instruction when the waiting
        plates took the room); else one, and the table keeps that depth. Decided on the widest
        score, not the scores of the moment: the board does not jump when a score grows."""
        if self.layout.height > self.layout.width:
            return 2
        count = len(self.plates)
        if count < 2:
            return 1
        _corner, bar, gap = self._plate_bar()
        waiting = SeatPlate.length_for(widest_score_words()) + gap
        return 1 if bar - self._actor_share(bar) >= (count - 1) * waiting else 2

    def _top_depth(self) -> float:
        """How deep the upright table's top row of plates is: on a portrait panel with two rows, deep
        enough for the actor's plate to put what to do on lines of its own under its score (in one
        line with its clock and score, both shrank under the legible size on the 7" portrait panel)
        and for the Hint button beside it; else one line deep."""
        u = theme.unit()
        return u * 1.45 if self.layout.height > self.layout.width and self._plate_rows() == 2 else u * 0.72

    def _hint_in_top_row(self) -> bool:
        """Whether the upright table's Hint button lies in the top row of plates, between the
        actor's plate and the bag count: where that row is deep enough for a finger's button. The
        row under it then gives all its length to the waiting seats' plates: four players on the
        7" portrait panel left each too short for a loop's score at the legible size."""
        return self._top_depth() >= self._hint_depth()

    def _hint_depth(self) -> float:
        """How deep the Hint button is: a finger's target within its rim."""
        return theme.min_target() + 2 * self.coach_bar.rim + 1.0

    def _plate_bar(self) -> tuple[float, float, float]:
        """The row of plates along the top of the upright table: where it starts past the staff
        corner, how long it is (up to the bag count) and the gap between two plates (pixels)."""
        u = theme.unit()
        return u * 1.15, self._free[2] - u * 1.15 - self.bag_label.width - u * 0.3, u * 0.1

    def _actor_share(self, bar: float) -> float:
        """How much of a one-row bar of plates ``bar`` long the acting seat's plate takes: room for
        its score, its clock and what to do."""
        return bar * (0.5 if len(self.plates) > 2 else 0.6)

    def _step_message(self, seat: int) -> str:
        """What the acting ``seat``'s plate says to do, untranslated ("": nothing)."""
        game = self.game
        if game.awaiting_draw == seat:
            return N_("Draw a tile and scan it")
        if game.seats[seat].robot is not None:
            return N_("Thinking...") if self.thinking or self.flying else ""
        step = game.step
        if step is None:
            return ""
        # the first time this seat meets the step, while that step lasts (until the next tile)
        first = self._first_steps.setdefault((seat, step), len(game.board)) == len(game.board)
        if step is Step.FILL and len(game.forced_cells()) > 1:
            return SEVERAL_WORDS[first]
        return (FIRST_STEP_WORDS if first else STEP_WORDS)[step]

    # ------------------------------------------------------------------ showing

    @property
    def showing(self) -> bool:
        return self.manager is not None and self.manager.current_screen is self

    def refresh(self) -> None:
        """Show the game as it stands (with a provisional tile on the table, out of its hand):
        board, hands, who acts and how, scores, bag; and let the view follow the play."""
        game = self.game
        pending = self.provisional
        shown = game.board
        if pending is not None:
            shown = game.board.copy()
            shown.push(pending[1])
        board = self.board
        board.provisional = pending[1] if pending is not None else None
        board.target = self.hands[pending[0]].target if pending is not None else None
        board.tray = self.hands[pending[0]] if pending is not None else None
        board.show(shown)
        board.mark_last(self._last_placed())
        actor = self.actor()
        for seat, hand in enumerate(self.hands):
            tiles = [t for t in game.hands[seat] if pending is None or (seat, t) != (pending[0], pending[1].tile)]
            if hand.tiles != tiles:
                hand.tiles = tiles
            hand.active = seat == actor and game.awaiting_draw is None and not self.flying
            colour, _rect = self._glows[seat]
            colour.rgba = theme.LINK[game.seats[seat].colour][:3] + (0.85,) if seat == actor else (0, 0, 0, 0)
        bag = self.bag_label
        bag.msg = N_("Bag: {count}") if game.bag_count or game.phase is not Phase.PLAY else N_("Bag empty")
        if bag.values.get("count") != game.bag_count:
            bag.values = {"count": game.bag_count}
        self.layout.refresh_hints()
        self._follow()
        self._follow_picker()
        self._place_widgets()  # around the tiles where the view settles (the map and cues with them)

    def _last_placed(self) -> dict[Cell, str]:
        """Each seat's latest placement (cell: the seat's colour), marked until it plays again."""
        last: dict[int, Cell] = {}
        for event in self.game.record()["events"]:
            if "place" in event:
                last[event["place"]] = (event["q"], event["r"])
        return {cell: self.game.seats[seat].colour for seat, cell in last.items()}

    def min_tile_px(self) -> float:
        """The smallest board tile (circumradius, pixels) a player acts on: 9 mm across."""
        return theme.min_tile_radius()

    def _follow(self) -> None:
        """Let the view follow the play: after each step the board is fitted again, never below
        :meth:`min_tile_px`, centred on the forced spaces a person must fill (else the middle of
        the board); a view a player moved stays until the turn passes to someone else."""
        game, board = self.game, self.board
        board.min_fit_px = self.min_tile_px()
        actor = self.actor()
        key = (actor, game.step, len(game.board), game.awaiting_draw)
        if key == self._followed:
            return
        new_turn = self._followed is None or self._followed[0] != actor
        self._followed = key
        if board.moved_by_player and not new_turn:
            return
        acting = actor is not None and game.seats[actor].robot is None and game.awaiting_draw is None
        focus = game.forced_cells() if acting and game.step in FILL_STEPS else None
        board.recentre(animate=self.showing, focus=focus or None)

    # ------------------------------------------------------------------ provisional placements

    def put(self, seat: int, placement: Placement) -> None:
        """``placement`` (already judged legal) is put down by ``seat``: provisionally when the
        table confirms moves and a person plays that seat (it is then shown, out of the hand, until
        :meth:`confirm` or :meth:`take_back`), else played at once. A coach's suggestion shown
        goes: the player chose (its "Play it" would otherwise swap their tile for its own)."""
        if self.advice is not None:
            self.close_coach()
        if self.confirming and self.game.seats[seat].robot is None:
            self.provisional = (seat, placement)
            self.refresh()
            if seat not in self._told_confirm:  # each player is told once how it works
                self._told_confirm.add(seat)
                self.layout.tell(seat, lambda: _("Not played yet: tap Confirm. Until then you can turn it, move "
                                                 "it or take it back."), good=True, about=(placement.cell,))
            return
        self.game.place(placement, seat=seat)

    def _hand_played(self) -> None:
        """A hand's drop was accepted: a provisional tile waits for Confirm, a played one goes on."""
        if self.provisional is None:
            self.after_step()

    def _lift_provisional(self) -> tuple[int, Placement] | None:
        """The provisional placement, no longer provisional (None if there was none); what its
        player was told about it (how Confirm works, a turn it cannot take) goes with it."""
        pending, self.provisional = self.provisional, None
        if pending is not None:
            self.layout.hush(pending[0])
        return pending

    def confirm(self) -> None:
        """The provisional tile is played for good: journaled, replaced from the bag, turn on."""
        pending = self._lift_provisional()
        if pending is None:
            return
        seat, placement = pending
        try:
            self.game.place(placement, seat=seat)
        except Refused as refusal:  # the game moved on meanwhile (a robot took the seat...)
            self.layout.tell(seat, partial(explain, refusal))
            self.refresh()
            return
        self.after_step()

    def take_back(self) -> None:
        """The provisional tile goes back into its hand, turned as it lay."""
        pending = self._lift_provisional()
        if pending is None:
            return
        seat, placement = pending
        self.hands[seat].rotations[placement.tile] = placement.rot
        self.refresh()

    def turn_provisional(self) -> None:
        """A tap on the provisional tile turns it to the next way round that the rules accept."""
        if self.provisional is None:
            return
        seat, placement = self.provisional
        target = self.hands[seat].target
        for step in range(1, 6):
            turned = placement._replace(rot=(placement.rot + step) % 6)
            if target.check(turned) is None:
                self.provisional = (seat, turned)
                self.refresh()
                return
        self.layout.tell(seat, lambda: _("This tile fits this space only the way it lies."))

    def lifted(self, hand: HandView, tile: int | None) -> None:
        """A tile lifted from the hand of the seat to act lights the spaces where it may go now
        (in a fill step, only the forced spaces it fills); let go, they go out."""
        game = self.game
        seat = self.hands.index(hand)
        if tile is None or seat != game.turn or game.seats[seat].robot is not None:
            self.board.light(())
            return
        self.board.light(sorted({p.cell for p in game.legal() if p.tile == tile}))

    def waiting(self, hand: HandView) -> None:
        """A person touched their tiles while another seat is to act (a robot thinking, its tile
        in flight): the hand does not move, and "Thinking..." faces the robot's chair, so the
        person is told to wait, facing them."""
        seat = self.hands.index(hand)
        if self.game.finished or self.game.seats[seat].robot is not None or seat == self.actor():
            return
        self.layout.tell(seat, lambda: _(RULE_MESSAGES[Play.NOT_YOUR_TURN]))

    def _refused_move(self, refusal: Refused) -> None:
        """The provisional tile, moved, was refused where it was let go: it stays where it was."""
        if self.provisional is not None:
            empty = len(self.game.board) == 0
            self.layout.tell(self.provisional[0], lambda: explain(refusal, empty))

    def _show_confirm(self) -> None:
        """The confirm bar at the seat whose tile lies provisionally, facing them (see
        :meth:`_confirm_place`); that seat's messages are shown beyond it."""
        bar, layout = self.confirm_bar, self.layout
        pending = self.provisional
        # a seat's messages lie beyond a plate along its hand's inner edge, never over its instruction
        layout.raised = {seat: theme.unit() * EDGE_PLATE for seat, place in enumerate(self._plate_places())
                         if place[0] == "edge"} if layout.orientation == "flat" else {}
        self._show_coach_bar()
        self._show_pick_bar()
        if pending is None or self.game.finished or len(layout.boxes) != len(self.hands):
            bar.hide()
            return
        seat = pending[0]
        kind, angle, centre, size = self._confirm_place(seat)
        bar.show(angle, centre, size, self.game.seats[seat].colour)
        self._clear_bar(bar)
        self._raise(seat, kind, centre, size)

    def _raise(self, seat: int, kind: str, centre: tuple[float, float], size: tuple[float, float]) -> None:
        """A bar lies along ``seat``'s hand's inner edge: that seat's messages go beyond it."""
        if kind == "edge":
            layout = self.layout
            box = layout.boxes[seat]
            ux, uy = box.up()
            rise = (centre[0] - layout.x - box.cx) * ux + (centre[1] - layout.y - box.cy) * uy
            layout.raised[seat] = rise + size[1] / 2 - box.depth / 2

    def _clear_bar(self, bar: SeatBar) -> None:
        """A bar just shown lies where a control is, or closer to it than a finger's gap
        (:func:`ui.table.crowds`; every edge of a small table may hold a person's bar): the
        controls move out of its way (at once, unless :meth:`_place_widgets` places them next,
        clear of every bar shown). The Confirm bar came up 4 px from the zoom's +, which moved
        only for a bar over it."""
        if self._controls_follow:
            return
        (x, y), (w, h) = bar.bbox
        if any(crowds((x, y, w, h), (*c.pos, *c.size)) for c in (self.leave_button, self.bag_label, self.view_controls)):
            self._place_controls()

    @property
    def coaching(self) -> bool:
        """Whether a person may ask what the master would play: read from the settings at each
        use, so staff may turn it off or on during a game (staff menu, staff web page); the table
        follows within a second (:meth:`_follow_staff`)."""
        return bool(self.app.services.settings.coach)

    def coached_seat(self) -> int | None:
        """The seat that may ask the coach now: a person's, to place a tile, with nothing of
        theirs pending (no provisional tile, no advice shown)."""
        game, actor = self.game, self.actor()
        if (not self.coaching or self.provisional is not None or self.advice is not None or actor is None
                or game.awaiting_draw is not None or game.seats[actor].robot is not None
                or len(self.layout.boxes) != len(self.hands)):
            return None
        return actor

    def _show_coach_bar(self) -> None:
        """"Hint" (ask the coach) at the seat of a person who is to place a tile (:meth:`_coach_place`)."""
        game, bar = self.game, self.coach_bar
        actor = self.coached_seat()
        if actor != self._coached_plate:  # the plate beside it gives up room, or takes it back
            self._coached_plate = actor
            self._show_plates()
        if actor is None:
            bar.hide()
            return
        kind, angle, centre, size = self._coach_place(actor)
        bar.show(angle, centre, size, game.seats[actor].colour)
        self._clear_bar(bar)
        self._raise(actor, kind, centre, size)
        bar.buttons[0].msg = N_("Thinking...") if self.coach_job.busy else N_("Hint")
        bar.buttons[0].disabled = self.coach_job.busy

    def ask_coach(self) -> None:
        """What would the master play here? It thinks on a snapshot (the table goes on), as the
        table's master robots do: on the kiosk's worker processes, within its time cap, so the
        screen keeps its frame rate; its answer is shown pale on the board with one sentence of
        why, facing the player."""
        game = self.game
        seat = self.actor()
        if seat is None or self.coach_job.busy or not self.coaching:
            return
        view, position = game.view(), (len(game.board), game.turn, game.step)
        coach = self.robots.get("coach")
        if coach is None:
            coach = self.robots["coach"] = make_robot("master")  # the kiosk's workers and cap
        assert isinstance(coach, Master)
        if self.coach_job.start(lambda cancel: advise(view, coach), lambda outcome: self._advised(seat, position, outcome)):
            self._show_coach_bar()

    def _advised(self, seat: int, position: tuple[Any, ...], outcome: Outcome[Advice]) -> None:
        """The coach's answer, if it is still about the table as it is and the player who asked
        may still be coached (:meth:`coached_seat`: a tile they put down while the master thought
        is their choice, and its "Play it" would swap it for its own): the placement pale on the
        board and the card facing the player who asked, clear of that space (ui.table.TableLayout.facing)."""
        game = self.game
        if (outcome.value is None or position != (len(game.board), game.turn, game.step) or not self.showing
                or self.coached_seat() != seat):
            self._show_coach_bar()
            return
        self.advice = (seat, outcome.value)
        self.board.show_ghost(outcome.value.placement)
        self._bring_into_view(outcome.value.placement.cell)
        self._show_coach_card()
        self._show_coach_bar()

    def _show_coach_card(self) -> None:
        """The coach's card for the advice shown, made anew: as tall as its sentence needs in the
        current language."""
        self._drop_coach_card()
        if self.advice is None:
            return
        seat, advice = self.advice
        card = Scatter(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                       auto_bring_to_front=False)
        card.add_widget(CoachCard(advice, on_play=self.play_advice, on_close=self.close_coach))
        self.coach_card = card
        self.overlay.add_widget(card)
        self._place_coach_card()
        put_away(self.view_controls.cues, self.overlay, True)

    def _drop_coach_card(self) -> None:
        """The coach's card goes, and the cues to forced spaces out of sight come back: they wait
        while it is up, as the player reads it (they stood over its buttons where it lay at an edge)."""
        if self.coach_card is not None and self.coach_card.parent is not None:
            self.coach_card.parent.remove_widget(self.coach_card)
        self.coach_card = None
        if self._card_first:  # the controls it moved come back
            self._card_first = False
            self._place_controls()
        if self.view_controls.cues.parent is None:
            put_away(self.view_controls.cues, self.overlay, False)
            self.view_controls.refresh()

    def _bring_into_view(self, cell: Cell) -> None:
        """Slide the view the least that shows ``cell``'s whole space on the open table if, once
        the view settles, any of it lies out of sight (past the view's edge, under a hand, a
        plate or a control), else pan to it: a board shown at the size a finger needs is larger
        than the 7" table, and a pale tile nobody can see leaves "The master would play this:"
        pointing at nothing (with only its middle in sight, half of it lay under a plate). At
        once, not animated: the card is then placed clear of the space where it stays."""
        board = self.board
        table = (*board.to_window(*board.pos), *board.size)  # the open table, as :meth:`on_table` has it
        shift = clearing_shift([self._space(cell)], board.shield_boxes(but=[self.coach_bar]), table)
        if shift is None:
            board.look_at(cell, animate=False)
        elif shift != (0.0, 0.0):
            board.pan(*shift, animate=False)

    def _space(self, cell: Cell) -> Rect:
        """The rectangle round ``cell``'s space (a pointy-top hexagon) where the view settles."""
        x, y, size = self.board.settled_cell(cell)
        return x - size * SQRT3 / 2, y - size, size * SQRT3, 2 * size

    def _place_coach_card(self) -> None:
        """The coach's card, when one is shown, facing the player who asked, on the table as it is
        laid out now: as long along their edge as lets it lie near them (:meth:`TableLayout.facing_near`)
        clear of the pale tile, the controls, the other hands and plates, its sentence wrapped onto
        more lines the shorter it is. At a side seat of the 7" portrait panel the longest card, as
        long as the table there, fitted nowhere beside Leave, the bag count and the zoom: it lay
        over them, or over the other side's hand. Where no length fits clear of the controls (a
        short edge, Leave and the bag count in its corner), the card takes its place near its
        player and the controls move out of its way (:meth:`_obstacles`), as they do for a bar;
        where none fits even so, the shortest card goes where :meth:`TableLayout.facing` puts it."""
        card, layout = self.coach_card, self.layout
        self._card_first = False
        if card is None or self.advice is None or self.advice[0] >= len(layout.boxes):
            return
        seat, advice = self.advice
        inner, cells = card.children[0], [advice.placement.cell]
        assert isinstance(inner, CoachCard)
        lengths = CoachCard.lengths(layout.room_along(seat))
        centre = None
        for movable in ((), [widget for widget, _corners in self._movable()]):
            for length in lengths:
                inner.lay_out(length)
                centre = layout.facing_near(seat, (inner.width, inner.height), cells, movable)
                if centre is not None:
                    break
            if centre is not None:
                self._card_first = bool(movable)
                break
        card.size = inner.size
        card.rotation = layout.boxes[seat].angle  # upright, every hand's is the bottom's
        card.center = centre if centre is not None else layout.facing(seat, (card.width, card.height), cells)
        if self._card_first:
            self._place_controls()

    def play_advice(self) -> None:
        """The coach's placement is put down for the player (still to confirm, as their own)."""
        if self.advice is None:
            return
        seat, advice = self.advice
        self.close_coach()
        if self.game.turn != seat or advice.placement not in self.game.legal():
            return
        self.put(seat, advice.placement)
        if self.provisional is None:  # played at once: the table goes on as after a drop
            self.after_step()

    def close_coach(self) -> None:
        """The coach's answer goes: its card and the pale tile."""
        self.advice = None
        self.board.show_ghost(None)
        self._drop_coach_card()
        self._show_coach_bar()

    def _confirm_place(self, seat: int) -> tuple[str, float, tuple[float, float], tuple[float, float]]:
        """Where ``seat``'s confirm bar lies: ("beside", angle, centre, size) on the player's left
        of their hand where the edge has room for it (it then covers no table, and the corner
        stays free for it), else ("edge", ...) along the hand's inner edge, beyond the plate if
        one lies there; upright, at the bottom of the table."""
        layout, u = self.layout, theme.unit()
        deep = self._bar_depth()  # its buttons 9 mm tall on any panel
        if layout.orientation == "upright":
            fx, fy, fw, _fh = self._free
            return "edge", 0.0, (fx + fw / 2, fy + deep * 0.65), (min(fw * 0.6, u * 6.5), deep)
        box = layout.boxes[seat]
        _right, room, along, (ux, uy), (cx, cy) = self._beside(box)
        if room >= u * BAR_BESIDE:
            return self._at_left(box, min(room, u * 5.5), deep)
        plate_edge = self._plate_places()[seat][0] == "edge"
        depth = deep
        rise = box.depth / 2 + (u * EDGE_PLATE if plate_edge else u * 0.1) + depth / 2
        return "edge", box.angle, (cx + ux * rise, cy + uy * rise), (min(box.length, u * 7.0), depth)

    def _at_left(self, box: SeatBox, length: float, deep: float) -> tuple[str, float, tuple[float, float], tuple[float, float]]:
        """A bar ``length`` long beside ``box`` at its player's left, along the edge, off the table."""
        u = theme.unit()
        _right, _left, along, _up, (cx, cy) = self._beside(box)
        shift = box.length / 2 + u * 0.15 + length / 2
        return "beside", box.angle, (cx - along[0] * shift, cy - along[1] * shift), \
            (length, max(min(box.depth * 0.9, u * 1.3), deep))

    def _hint_beside(self, box: SeatBox, room: float) -> bool:
        """Whether the coach's button fits beside ``box`` at its player's left, in ``room``."""
        return room >= self._coach_length(box)

    def _bar_depth(self) -> float:
        """How deep a bar's buttons are: 9 mm and a margin on any panel."""
        u = theme.unit()
        return max(u * 1.1, theme.min_target() + u * 0.2)

    def _coach_length(self, box: SeatBox | None) -> float:
        """How long the short "Hint" button is: its wording on one line in the current language
        (and "Thinking...", shown while the coach thinks, in the smallest font a button shrinks
        to), at most 38 % of ``box``'s edge (None: upright); the plate beside it keeps the rest."""
        u = theme.unit()
        text = _hint_width(_(N_("Hint")), _(N_("Thinking...")), theme.font(self.coach_bar.buttons[0].scale))
        length = max(text / 0.92 + 2 * self.coach_bar.rim + u * 0.3, u * 1.5)
        return min(length, box.length * 0.38) if box is not None else length

    def _coach_place(self, seat: int) -> tuple[str, float, tuple[float, float], tuple[float, float]]:
        """Where ``seat``'s "Hint" (ask the coach) lies: beside the hand, as the confirm bar, where the
        edge has room for it, or alone where it has room for the button alone; else a short button
        at the player's left end of their plate's row, the plate giving up that length, and no
        deeper than a finger needs (it reaches a few pixels past the plate, over the outer ring of
        spaces at most, where a bar across the whole edge covered the board's outer row); upright, ("corner", ...) under the bag count, in
        the table's top right corner, or in the top row of plates where it is deep enough
        (:meth:`_hint_in_top_row`), away from the hands (the seat's messages are not raised past it)."""
        layout, u = self.layout, theme.unit()
        depth = self._hint_depth()
        if layout.orientation == "upright":
            fx, fy, fw, fh = self._free
            length = self._coach_length(None)
            if self._hint_in_top_row():
                corner, bar, gap = self._plate_bar()
                return "corner", 0.0, (fx + corner + bar - gap - length / 2, fy + fh - u * 0.09 - self._top_depth() / 2), (length, depth)
            top = fy + fh - u * 0.04 - self.bag_label.height - u * 0.15
            return "corner", 0.0, (fx + fw - u * 0.04 - length / 2, top - depth / 2), (length, depth)
        kind, angle, centre, size = self._confirm_place(seat)
        if kind == "beside":
            return kind, angle, centre, size
        box = layout.boxes[seat]
        _right, room, along, (ux, uy), (cx, cy) = self._beside(box)
        if self._hint_beside(box, room):
            return self._at_left(box, min(room, u * 5.5), self._bar_depth())
        length = self._coach_length(box)
        rise = box.depth / 2 + u * 0.06 + depth / 2
        shift = box.length / 2 - length / 2
        return "edge", box.angle, (cx + ux * rise - along[0] * shift, cy + uy * rise - along[1] * shift), (length, depth)

    @unless_left
    def after_step(self) -> None:
        """After every step (a placement, a draw, a seat change): journal, show, tell, cue, go on.
        Not once the game was left (:mod:`ui.leaving`): a finger still on Confirm when another
        player confirmed Leave brought the abandoned game back into the journal and lit the next
        seat's ring at the home screen."""
        if self.advice is not None:
            self.close_coach()  # the position it was about has changed
        # one transaction: the step and the clocks as it leaves them. Saved apart, a power cut
        # between them resumed the step with the clocks of before it (the mover's time uncounted)
        with self.app.services.store.batch():
            self.app.journal(self.game)
            self._run_clock()
        self.refresh()
        self._announce()
        self._cue()
        self._next()

    def _announce(self) -> None:
        """Tell players what just happened that concerns them."""
        game = self.game
        if not self._announced_start and game.phase is Phase.PLAY and game.starter is not None:
            self._announced_start = True
            starter = game.starter
            self.announce(lambda: _("{name} drew the highest number and starts.", name=seat_name(game, starter)),
                          partial(self._starter_to, starter, seated_names(self.app, game)) if game.options.doubles
                          else None)
        events = game.record()["events"]
        for event in events[self._events_seen:]:
            if "skip" in event:
                self.layout.tell(event["skip"], lambda: _("Your hand is empty: your turn is skipped."), good=True)
        self._events_seen = len(events)
        if self._bag_seen > 0 and game.bag_count == 0 and game.phase is Phase.PLAY:
            self.announce(lambda: _(BAG_EMPTY_NEWS))
        self._bag_seen = game.bag_count
        actor = self.actor()
        key = (actor, game.step, game.awaiting_draw)
        if key != self._last_step and actor is not None:
            self._last_step = key
            if game.awaiting_draw is not None:
                self.prompt_draw(actor)
            elif self.learning and game.seats[actor].robot is None and game.step in LEARNING_HINTS:
                hint = LEARNING_HINTS[game.step]
                self.layout.tell(actor, lambda: _(hint), good=True)

    def announce(self, words: Words, said_to: Callable[[int], str] | None = None) -> None:
        """Table-wide news (:meth:`ui.table.TableLayout.announce`; ``said_to``: as said to a seat),
        shown once and covering nothing that matters: on the plate of every seat that waits (facing
        its player, off the board) and to the player who acts, in their message (with the screen
        upright, only there: everyone reads the same way); never to a robot's empty chair."""
        actor = self.actor()
        if actor is not None and self.game.seats[actor].robot is None:
            self.layout.tell(actor, words if said_to is None else partial(said_to, actor), good=True)
        self.layout.announce(words, said_to)

    def _starter_to(self, starter: int, names: list[str | None], seat: int) -> str:
        """Who starts a Doubles game, as the player at ``seat`` reads it: "Red team starts" would
        leave the two partners of Red each wondering whether it is them. The starter reads that
        they start, their partner that their partner does ("Ana (your partner)"), an opponent
        (beside both partners) on which side of them the starter sits, when the table is flat and
        each faces their edge: by the starter's name where one was picked at setup (``names``,
        "Ana, on your left"), else by the team's ("Red team, on your left"). Short, to be read whole
        on a seat's plate of the 7" panel: the starter's own message says why they start."""
        game = self.game
        if seat == starter:
            return _("You drew the highest number and start.")
        name = seat_name(game, starter, to=seat, names=names)
        boxes = self.layout.boxes
        if game.seats[seat].colour == game.seats[starter].colour or self.layout.orientation != "flat" \
                or len(boxes) <= max(seat, starter):
            return _("{name} starts.", name=name)
        reader, there = boxes[seat], boxes[starter]
        up_x, up_y = reader.up()  # the reader's right hand points (up_y, -up_x)
        if (there.cx - reader.cx) * up_y - (there.cy - reader.cy) * up_x > 0:
            return _("{name}, on your right, starts.", name=name)
        return _("{name}, on your left, starts.", name=name)

    def _cue(self) -> None:
        """Cue the LED rings when what they show changes."""
        game = self.game
        colours = tuple(s.colour for s in game.seats)
        if game.finished and game.result is not None:  # the seats placed first light: in a draw, each top scorer's
            first = game.places()
            cue = Cue(colours=colours, bag_empty=True,
                      winners=tuple(i for i, s in enumerate(game.seats) if first[s.colour] == 1))
        else:
            must_fill = game.awaiting_draw is None and game.step in FILL_STEPS and bool(game.obligatory())
            cue = Cue(turn=self.actor(), colours=colours, pulse=must_fill, forced=len(game.board.forced_spaces()),
                      bag_empty=game.bag_count == 0 and game.phase is Phase.PLAY)
        if cue != self._last_cue:
            self._last_cue = cue
            self.app.services.devices.cue(cue)

    def on_enter(self, *_args: Any) -> None:
        self._last_step = (None, None, None)
        self._staff_watch()
        self._want_beside()  # staff may have turned the coach off or on in their menu
        self._run_clock()
        if self.clocks is not None and self._clock_tick is None:
            self._clock_tick = Clock.schedule_interval(self.tick_clocks, 1.0)
        self.refresh()
        self._announce()
        self._next()
        Clock.schedule_once(self._cue_again, 0)  # after the screen we came from has put out its own

    def _follow_staff(self, _dt: float = 0.0) -> None:
        """Staff may turn the coach off or on from their web page while this table is on screen:
        the Hint button follows within a second (a change made in the staff menu shows on return),
        and so does an answer shown: its card's "Play it" is the coach too."""
        self._want_beside()
        if self.advice is not None and not self.coaching:
            self.close_coach()
        if self.coach_bar.shown != (self.coached_seat() is not None):
            self._place_widgets()

    def _cue_again(self, _dt: float = 0.0) -> None:
        self._last_cue = None
        if self.showing:
            self._cue()

    def on_leave(self, *_args: Any) -> None:
        self._generation += 1  # a robot's thought or flight in progress is dropped; re-done on return
        self._staff_watch.cancel()
        self.robot_job.forget()
        self.thinking = False
        self._run_clock()  # off screen: every clock stops
        if self._clock_tick is not None:
            self._clock_tick.cancel()
            self._clock_tick = None

    # ------------------------------------------------------------------ clocks

    def _run_clock(self) -> None:
        """Run the clock of the seat that must act, only while the game is on screen and goes on."""
        if self.clocks is not None and not self.game.finished:
            self.clocks.run(self.actor() if self.showing else None)

    def tick_clocks(self, _dt: float = 0.0) -> None:
        """Every second: the plates' times, and what running out of time calls for (a time
        penalty, or the loss on time, as the game rules them: journaled like any step)."""
        clocks = self.clocks
        if clocks is None or not self.showing or self.game.finished:
            return
        if clocks.check():
            self.after_step()
            return
        for seat, plate in enumerate(self.plates):
            plate.set_clock(clocks.text(seat))

    # ------------------------------------------------------------------ robots

    def _next(self) -> None:
        """Let a robot act if it is its turn; end the game when it is over."""
        game = self.game
        if game.finished:
            self.finish()
            return
        if not self.showing or self.thinking or self.flying or game.awaiting_draw is not None:
            return
        seat = game.turn
        if seat is not None and game.seats[seat].robot is not None:
            self._think(seat)

    def _think(self, seat: int) -> None:
        """After a short pause, the robot of ``seat`` thinks on a worker thread (:class:`Job`, on a
        snapshot of the game); its choice comes back on the Kivy clock. Frames drawn meanwhile are
        counted (:attr:`think_log`)."""
        self.thinking = True
        self._show_plates()
        generation = self._generation

        def start(_dt: float) -> None:
            if generation != self._generation:
                return
            level = self.game.seats[seat].robot
            if level is not None and level not in self.robots:
                self.robots[level] = make_robot(level)
            task = robot_task(self.game, None if level is None else self.robots[level])
            self.robot_job.start(lambda cancel: task(), lambda outcome: self._robot_chose(generation, seat, outcome))

        Clock.schedule_once(start, self.robot_pause)

    def _robot_chose(self, generation: int, seat: int, outcome: Outcome[Placement]) -> None:
        self.think_log.append((outcome.seconds, outcome.frames))
        if generation != self._generation:
            return
        self.thinking = False
        game = self.game
        if game.turn != seat or game.seats[seat].robot is None:
            self.refresh()
            self._next()
            return
        choice = outcome.value
        if choice is None:  # the robot failed (logged): the table plays on with a legal placement
            choice = game.legal()[0]
        self._fly(generation, seat, choice)

    def _fly(self, generation: int, seat: int, choice: Placement) -> None:
        """The robot's tile flies from its hand to its place, then it is placed."""
        hand = self.hands[seat]
        self.flying = True
        if choice.tile in hand.tiles:
            start = hand.to_window(*hand.slot_centre(hand.tiles.index(choice.tile)))
            radius = hand.tile_radius() * 0.95
            hand.tiles.remove(choice.tile)
        else:
            start, radius = hand.to_window(*hand.center), hand.tile_radius()
        board = self.board
        fx, fy, fw, fh = board.fit_area or (board.x, board.y, board.width, board.height)
        bx, by = board.cell_centre(choice.cell)
        if not (fx <= bx <= fx + fw and fy <= by <= fy + fh):  # the robot plays out of view: look there
            board.recentre(animate=False, focus=[choice.cell])

        def aim() -> tuple[float, float, float]:
            return (*self.overlay.to_widget(*board.window_cell_centre(choice.cell)), board.size_px)

        sprite = FlyingTile(self.overlay.to_widget(*start), radius, aim, choice.rot if choice.rot <= 3 else choice.rot - 6)
        self.overlay.add_widget(sprite)
        sprite.show(choice.tile)
        sprite.outline(theme.LINK[self.game.seats[seat].colour])
        flight = Animation(progress=1.0, d=self.flight_seconds, t="in_out_quad")
        flight.bind(on_complete=lambda *_: self._landed(generation, seat, choice, sprite))
        flight.start(sprite)
        self._show_plates()

    def _landed(self, generation: int, seat: int, choice: Placement, sprite: TileSprite) -> None:
        self.overlay.remove_widget(sprite)
        self.flying = False
        if generation != self._generation:
            self.refresh()
            self._next()  # a seat changed hands in flight: whoever plays now goes on
            return
        try:
            self.game.place(choice, seat=seat)
        except Refused as refusal:  # the game moved on meanwhile (a seat given back...)
            log.warning("robot move %s no longer applies: %s", choice, refusal)
            self.refresh()
            self._next()
            return
        self.after_step()

    def set_robot(self, seat: int, level: str | None) -> None:
        """A robot of ``level`` takes ``seat`` over (None: a person plays it again); a tile the
        person had put down and not confirmed goes back into the hand."""
        game = self.game
        if game.finished or game.seats[seat].robot == level:
            return
        if self.provisional is not None and self.provisional[0] == seat:
            self.take_back()
        game.set_robot(seat, level)
        if self.thinking or self.flying:
            self._generation += 1  # whatever a robot was about to do for this turn is dropped
            self.robot_job.forget()
            self.thinking = False
        if level is None:
            self.layout.tell(seat, lambda: _("{name}: your seat is yours again.", name=seat_name(game, seat)), good=True)
        else:
            colour = game.seats[seat].colour
            self.layout.tell(seat, lambda: _("A robot ({level}) plays for {name} now. Hold the name to take the seat "
                                             "back.", level=_(LEVEL_NAMES[level]), name=colour_name(colour)),
                             good=True)
        self.after_step()

    def open_card(self, seat: int) -> None:
        """The seat's card (robot take-over), facing that seat."""
        if self.game.finished:
            return
        if self.card is not None:
            self.card.close()
        self.card = TakeOverCard(self, seat)
        self.overlay.add_widget(self.card)
        box = self.layout.boxes[seat]
        if self.layout.orientation == "upright":
            fx, fy, fw, fh = self._free
            self.card.place(box._replace(angle=0.0, length=fw), (fx + fw / 2, fy + fh / 2))
            return
        self.card.place(box, self.layout.facing(seat, self.card.size_for(box)))

    # ------------------------------------------------------------------ review, devices

    def review(self, cell: Cell, window_pos: Any) -> None:
        """A tap on a forced space: how many unseen tiles fit it now and in the endgame."""
        entry = next((r for r in self.game.review() if r.cell == cell), None)
        if entry is None:
            self.bubble.hide()
            return
        now, later = len(entry.fits_now), len(entry.fits_endgame)
        words: Words = (lambda: n_("Forced space: {now} unseen tile fits it now, {later} in the endgame.",
                                   "Forced space: {now} unseen tiles fit it now, {later} in the endgame.", now,
                                   now=now, later=later)) if self.game.bag_count else \
            (lambda: n_("Forced space: {now} unseen tile fits it.", "Forced space: {now} unseen tiles fit it.", later,
                        now=later))
        seat = self._asker(window_pos)
        fitting = sorted({p.tile for p in self.game.legal() if p.cell == cell}) if seat == self.game.turn else []
        if seat is not None and fitting:
            self.hands[seat].marked = fitting  # the tiles of the asker's hand that fill it, outlined
        angle = self.layout.boxes[seat].angle if seat is not None and self.layout.orientation == "flat" else 0.0
        a = math.radians(angle)
        lift = theme.unit() * 1.6
        centre = (window_pos[0] - math.sin(a) * lift, window_pos[1] + math.cos(a) * lift)
        self.bubble.say(words, angle, centre, (self.width, self.height))

    def _asker(self, window_pos: Any) -> int | None:
        """Who most likely tapped at ``window_pos``: the person to act, else the nearest seat a
        person plays, else the nearest seat (a note faces them, never a robot's empty chair)."""
        game = self.game
        actor = self.actor()
        if actor is not None and game.seats[actor].robot is None:
            return actor
        people = [i for i, s in enumerate(game.seats) if s.robot is None]
        boxes = self.layout.boxes
        if people and len(boxes) == len(game.seats):
            return min(people, key=lambda i: math.dist((self.layout.x + boxes[i].cx, self.layout.y + boxes[i].cy),
                                                       window_pos))
        return self._nearest_seat(window_pos)

    def _nearest_seat(self, window_pos: Any) -> int | None:
        boxes = self.layout.boxes
        if not boxes:
            return None
        return min(range(len(boxes)), key=lambda i: math.dist((self.layout.x + boxes[i].cx,
                                                               self.layout.y + boxes[i].cy), window_pos))

    def on_device_event(self, event: Any) -> None:
        if isinstance(event, TileScanned):
            self.scanned(event.tile, event.reader)
        elif isinstance(event, BagButtonPressed):
            self.bag_button()
        elif isinstance(event, UnknownTag):
            self.unknown_tag(event.reader)

    def scanned(self, tile: int, reader: int | None) -> None:
        """A tile read at a seat's reader (``reader`` None: the centre pad): the draw it reports."""
        self.report_draw(tile, self._reader_seat(reader))

    def _reader_seat(self, reader: int | None) -> int | None:
        """The seat of ``reader`` when a person plays it; None for the centre pad and for a
        robot's reader: nobody sits at a robot's reader, so whoever uses it draws for the table."""
        game = self.game
        seat = reader if reader is not None and 0 <= reader < game.players else None
        return None if seat is not None and game.seats[seat].robot is not None else seat

    def report_draw(self, tile: int, seat: int | None) -> None:
        """``tile`` was drawn from the real bag, as the reader at ``seat`` reads it or the player
        there picks it on screen (None: for the table, at the centre pad). The game judges the
        draw as it judges any (a tile not in the bag, a draw nobody owes or someone else owes is
        refused and changes nothing), and an accepted one is journaled like every step; whoever
        drew is told what became of it."""
        game = self.game
        due = game.awaiting_draw
        tell_to = seat if seat is not None else self._drawer(due if due is not None else game.turn)
        if not game.options.physical_bag:
            if tell_to is not None:
                self.layout.tell(tell_to, lambda: _("The table draws for you in this game: no need to scan tiles."))
            return
        # someone draws for a robot: any reader will do
        report_as = None if due is not None and game.seats[due].robot is not None else seat
        try:
            game.report_draw(tile, report_as)
        except Refused as refusal:
            if tell_to is not None:
                self.layout.tell(tell_to, self._draw_refused(tile, due, refusal, tell_to))
            return
        assert due is not None  # the draw was accepted: one was owed
        if game.seats[due].robot is None:
            self.layout.tell(due, lambda: _("Tile {tile} is in your hand.", tile=tile), good=True)
        elif tell_to is not None:
            self.layout.tell(tell_to, lambda: _("Tile {tile} is in {name}'s hand.", tile=tile,
                                                name=seat_name(game, due, robot_mark=False, to=tell_to)), good=True)
        self.after_step()

    def _draw_refused(self, tile: int, due: int | None, refusal: Refused, to: int | None) -> Words:
        """Why the draw of ``tile`` (``due``: the seat that owes one) was refused, in words said to
        seat ``to``."""
        game = self.game
        if refusal.rule == "not-your-draw" and due is not None:
            return lambda: _("{name} draws now, not you.", name=seat_name(game, due, to=to))
        if refusal.rule == "not-in-bag":
            return lambda: _("Tile {tile} is not in the bag: draw another one.", tile=tile)
        if refusal.rule == StrategyRule.NO_DRAW_DUE and self.provisional is not None:
            return lambda: _("Tap Confirm first, then scan tile {tile} again.", tile=tile)
        return lambda: _("Tile {tile}: {why}", tile=tile, why=explain(refusal))

    def prompt_draw(self, seat: int) -> None:
        """Ask the player of ``seat`` (or, for a robot, whoever sits nearest) to draw and scan;
        not where the picker faces them: it asks them already, and the words would lie under it."""
        drawer = self._drawer(seat)
        if drawer is None or drawer == self.picker_seat:
            return
        game = self.game
        if drawer == seat:
            self.layout.tell(seat, lambda: _("Draw a tile from the bag and scan it at your seat."), good=True)
        else:
            self.layout.tell(drawer, lambda: _("Draw a tile from the bag for {name} and scan it.",
                                               name=seat_name(game, seat, robot_mark=False, to=drawer)), good=True)

    def _drawer(self, seat: int | None) -> int | None:
        """Who draws for ``seat``: its player, or for a robot the person seated nearest it (a robot's
        chair is empty: a word facing it reaches nobody); None when no person plays."""
        game, boxes = self.game, self.layout.boxes
        if seat is None or game.seats[seat].robot is None:
            return seat
        people = [i for i, s in enumerate(game.seats) if s.robot is None]
        if not people or len(boxes) != len(game.seats):
            return None
        return min(people, key=lambda i: math.dist((boxes[i].cx, boxes[i].cy), (boxes[seat].cx, boxes[seat].cy)))

    def bag_button(self) -> None:
        """The bag button, pressed: a draw owed is asked for; any other press is explained to a
        person who can act on it (for a robot's turn, the one seated nearest)."""
        game = self.game
        due = game.awaiting_draw
        if game.finished:
            return
        if due is not None:
            self.prompt_draw(due)
        elif game.turn is None:
            return
        elif game.seats[game.turn].robot is not None:  # said to a person: the robot's chair is empty
            drawer, turn = self._drawer(game.turn), game.turn
            if drawer is not None:
                self.layout.tell(drawer, lambda: _("{name} is playing now: wait for its tile.",
                                                   name=seat_name(game, turn, robot_mark=False, to=drawer)))
        elif not game.options.physical_bag:
            self.layout.tell(game.turn, lambda: _("The table draws for you: your new tile is already in your hand."),
                             good=True)
        elif self.provisional is not None:  # a tile is down but not played: the draw comes after Confirm
            self.layout.tell(self.provisional[0], lambda: _("Tap Confirm first, then draw from the bag."))
        elif game.bag_count == 0:
            self.layout.tell(game.turn, lambda: _("The bag is empty: no more tiles are drawn."))
        else:
            self.layout.tell(game.turn, lambda: _("Place a tile first, then draw from the bag."))

    def unknown_tag(self, reader: int | None) -> None:
        """A tag the table has not learnt was read: no draw follows from it. While a draw is owed
        that the player who scanned may make, the picker opens facing them, so they say by touch
        which tile it is (teaching the tag stays with staff, on their Tag enrolment page: a tile
        picked by mistake would teach the tag wrong for every later game); otherwise they learn
        why nothing happened (staff can teach the tag; its UID waits on their page)."""
        game = self.game
        if not game.options.physical_bag or game.finished:
            return
        seat = self._reader_seat(reader)
        if seat is None:
            seat = self._drawer(self.actor())
        if seat is None:
            return
        if self._may_draw(seat):
            self.open_picker(seat, unknown=True)
            return
        self.layout.tell(seat, lambda: _("The table does not know this tile's tag: ask staff to teach it "
                                         "(staff menu, Tag enrolment)."))

    # ------------------------------------------------------------------ the picker (the real bag by touch)

    def _may_draw(self, seat: int) -> bool:
        """Whether the person in ``seat`` may report the draw owed now: their own, or a robot's
        (whoever sits nearest draws for it, though any person may)."""
        due = self.game.awaiting_draw
        return due is not None and (seat == due or self.game.seats[due].robot is not None)

    def _pick_seat(self) -> int | None:
        """Where **Pick on screen** is offered: at the seat of whoever is asked to draw now (the
        player owing the draw, for a robot the person nearest it), with the real bag; None when
        no draw is owed."""
        game = self.game
        due = game.awaiting_draw
        if due is None or game.finished or not game.options.physical_bag or len(self.layout.boxes) != len(self.hands):
            return None
        drawer = self._drawer(due)
        return drawer if drawer is not None else due

    def _show_pick_bar(self) -> None:
        """**Pick on screen** at the drawer's seat while a draw is owed and the picker is closed,
        where the confirm bar lies after a placement (:meth:`_confirm_place`): with no reader, a tag
        the table does not know or one that does not read, the player says which tile they drew."""
        bar = self.pick_bar
        seat = self._pick_seat()
        if seat is None or self.picker is not None:
            bar.hide()
            return
        kind, angle, centre, size = self._confirm_place(seat)
        bar.show(angle, centre, size, self.game.seats[seat].colour)
        self._clear_bar(bar)
        self._raise(seat, kind, centre, size)

    def open_picker(self, seat: int | None = None, unknown: bool = False) -> None:
        """The tiles still in the bag, facing ``seat`` (None: :meth:`_pick_seat`), to say by touch
        which one was drawn; ``unknown``: a tag the table does not know was just read there. The
        choice is reported as a scan at that seat is (:meth:`report_draw`)."""
        seat = self._pick_seat() if seat is None else seat
        if seat is None or not self._may_draw(seat):
            return
        self._drop_picker()
        title = N_("Unknown tag: pick your tile") if unknown else N_("Pick the tile you drew")
        self.picker = DrawPicker(self.game.unseen, partial(self._picked, seat), self.close_picker, title=title)
        self.picker_seat = seat
        self.overlay.add_widget(self.picker)
        self.layout.hush(seat)  # the reminder to draw and scan: the picker lies over it and says it
        self._place_widgets()

    def _picked(self, seat: int, tile: int) -> None:
        self.close_picker()
        self.report_draw(tile, seat)

    def close_picker(self) -> None:
        """The picker goes (**Pick on screen** is offered again while the draw is still owed)."""
        if self._drop_picker():
            self._place_widgets()

    def _drop_picker(self) -> bool:
        """Take the picker off the screen; whether there was one."""
        picker, self.picker, self.picker_seat = self.picker, None, None
        if picker is not None and picker.parent is not None:
            picker.parent.remove_widget(picker)
        return picker is not None

    def _follow_picker(self) -> None:
        """After a step the picker stays only while its player may still draw, and offers the
        bag as it is now (a tile drawn meanwhile, scanned or picked elsewhere, is offered no more)."""
        picker, seat = self.picker, self.picker_seat
        if picker is None:
            return
        if seat is None or not self._may_draw(seat):
            self._drop_picker()
        else:
            picker.update()

    def _place_picker(self) -> None:
        """The picker facing its player, beyond their hand, as long as their edge allows without
        covering another hand, and as deep as the table between the hands allows (while a tile is
        drawn nobody places one: the board under it can wait) or the whole bag needs."""
        picker, seat, layout = self.picker, self.picker_seat, self.layout
        if picker is None or seat is None or seat >= len(layout.boxes):
            return
        u = theme.unit()
        box = layout.boxes[seat]
        length = layout.room_along(seat)
        _x, _y, free_w, free_h = self._fitted()  # the table less the plates along its edges
        room = (free_w if box.across else free_h) - u * 0.35
        if picker.laid_for != (length, room):
            picker.lay_out(length, room)
        picker.rotation = box.angle
        picker.center = layout.facing(seat, (picker.width, picker.height), clear_of_controls=False)  # they keep clear of it

    # ------------------------------------------------------------------ leaving, the end

    @leaves
    def leave(self) -> None:
        self._generation += 1
        self.robot_job.forget()
        self.app.discard()

    def finish(self) -> None:
        """The game is over: keep its record, forget the journal, light the winners, then results."""
        if self._ended:
            return
        self._ended = True
        store = self.app.services.store
        # one transaction: after a power cut either all of it is kept, or none and the journal
        # resumes the finished game, whose end comes again: its record, rating and tournament
        # result each count once
        with store.batch():
            entry = entry_of(self.app, self.game)  # a tournament's game: its result goes in its record
            record = finished_record(self.game)
            record_id = store.add_record(self.game.KIND, record if entry is None else {**record, "tournament": entry})
            store.clear_current()
            people = seated(self.app, self.game)
            names = seated_names(self.app, self.game, people)  # before the rating forgets who sat where
            rate_finished(self.app, self.game, record_id)  # ratings follow from the records, counted once by id
            in_tournament = report(self.app, entry)
        clocks = self.clocks.clocks if self.clocks is not None else None
        if self.clocks is not None:
            self.clocks.forget()
        self._cue()
        game, app, learning = self.game, self.app, self.learning

        def again() -> None:
            """Another game like it, with the same people in their seats and the same clocks."""
            new = like(game)
            seat_again(app, new, people)
            if clocks is not None:
                set_clocks(app, new, round(clocks.limit / 60), clocks.overtime)
            open_game(app, new, learning)

        def results(_dt: float) -> None:
            if not self.showing:
                return
            if in_tournament:  # its next game is the tournament's to start
                show_results(app, game, again=None, back=(N_("Tournament"), lambda: app.open("tournament")), names=names)
            else:
                show_results(app, game, again=again, names=names)

        Clock.schedule_once(results, 2.0)


def like(game: StrategyGame) -> StrategyGame:
    """A new game with the same seats as set at setup (a robot that took a seat over during the
    game leaves it again), colours and rules."""
    options = game.options
    robots = [seat["robot"] for seat in game.record()["seats"]]
    return StrategyGame.new(options.players, "".join(game.colours()), robots,
                            doubles=options.doubles, end=options.end, physical_bag=options.physical_bag)


LEARNING = "strategy-learning"
"""The store's progress key: ``{"learning": true}`` while the game in progress is Learn's friendly
first game (``{}``: any other), kept beside the journal so that a game resumed after a power cut
still explains each step (every start writes it, so it never outlives its game)."""


def begin(app: Shell, game: StrategyGame, learning: bool = False) -> StrategyScreen:
    """Journal a new ``game`` (with whether it is Learn's first game: :data:`LEARNING`); its screen."""
    store = app.services.store
    with store.batch():
        app.journal(game)
        store.set_progress(LEARNING, {"learning": True} if learning else {})
    return StrategyScreen(app, game, learning=learning)


def open_game(app: Shell, game: StrategyGame, learning: bool = False) -> StrategyScreen:
    """Journal a new ``game`` and show it."""
    screen = begin(app, game, learning)
    app.show(screen)
    return screen
