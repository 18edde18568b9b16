"""Gobbles at the kiosk: 2 to 6 players race to place their tiles, all at once, with their fingers.

Every hand lies at its player's edge (:class:`GobblesLayout`: big deals wrap into two rows, and an
edge where only robots sit gets a thin strip, so the board gets the room) and every person drags
whenever they like: each hand judges and claims its drops for its own seat (:class:`GobblesHand`),
so several fingers work at once, and the table (:class:`GobblesTable`) decides who was first. Only
the loser of a race is told "taken" (another player filled the space while they dragged); a space
filled before they lifted their tile is refused by the rule, and a release over a hand or off the
table returns the tile without a word. Robots act when ``table.tick()`` (every 0.1 s from the Kivy
clock) says their look is due; they are paced like people (:mod:`engine.gobble.pace`).

The view follows the play (:func:`focus`) with tiles at least :func:`ui.theme.min_tile_radius` (9 mm) across
while a person still plays, and never moves while anyone's finger is down: a new tile's refit waits
until every drag and pan has ended. After a gobble a card facing the gobbler asks
who gets their tiles (the table's suggestion preselected, tiles picked in their own hand) with the
countdown to ``gift_deadline``, after which the table gives for them. A tag on each seat says who
sits there, how many tiles they hold and, once out, their place. Every step is journaled; a
restored race goes on from its recorded time (the table rebases its clock on ``game.now_ms``).
There are no turns, so the LED rings show nothing until the winners at the end, and a new race
says so at every seat (table news, until it ends or the first gobble's card needs the room).
"""

from __future__ import annotations

import math
import random
import time
from functools import partial
from typing import Any, Callable, Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scatter import Scatter
from kivy.uix.screenmanager import Screen

from engine.board import Board, Placement
from engine.geometry import Cell
from engine.gobble import rules
from engine.gobble.gobbles import Ending, Gift, Gobbles, Level, Player
from engine.gobble.rules import GobbleRule
from engine.gobble.table import GobblesTable
from engine.modes import Place, Refused

from ...countdown import Countdown
from ... import theme
from ...board import BoardView, HandView
from ...board_controls import ViewControls, window_rect
from ...hexes import SQRT3, centre, corners
from ...howto import HowToPlayScreen, TileStage
from ...i18n import N_, _, follow_language, n_
from ...mode_target import ModeTarget
from ...refusals import explain
from ...results import ResultsScreen, Standing, StepMark, Words, ordinal
from ...services import Cue
from ...setup import Choice, Setup, SetupScreen, SetupSpec
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell
from ...table import BOTTOM, LEFT, RIGHT, TOP, Rect, SeatBox, TableLayout, TableMask, clear_spot, least_depth, ringed
from ...widgets import ChipRow, Overlay, TButton, TLabel, confirm_leave, panel_background, text_height
from ...words import levels
from ...navigation import family_screen, kind_screen
from .common import race_script

KIND = "gobbles"
TICK_SECONDS = 0.1
LEVELS = levels(Level.BEGINNER.value, Level.CASUAL.value, Level.EXPERT.value)
SPEC = SetupSpec(
    key=KIND, title=N_("Gobbles"), players=(2, 6), default_players=2, levels=LEVELS,
    default_level=Level.CASUAL.value, robots=(1,),
    options=(Choice("play_on", N_("When someone is out"), ((True, N_("Play on for places")), (False, N_("Stop"))),
                    True),),
    blurb=N_("Everyone plays at once: be the first to place all your tiles."),
)
RING_COLOURS = "RYGBRY"
"""The LED rings show a winner in a colour; Gobbles seats have none of their own."""
ROBOT_STRIP = 0.75
"""Depth of a robot's hand strip, in touch units (one row of small tiles: people glance at a
robot's hand, they do not play from it)."""
RECEIVED_SECONDS = 6.0
"""How long tiles received from a gobble stay ringed in white in the receiver's hand."""


def seat_name(game: Gobbles, seat: int) -> str:
    """A seat as shown: "Player 2" or "Robot 2" (translated; the record keeps English names)."""
    if game.players[seat].robot is not None:
        return _("Robot {number}", number=seat + 1)
    return _("Player {number}", number=seat + 1)


@family_screen(KIND)
def open_setup(app: Shell) -> Screen:
    def begin(setup: Setup) -> None:
        start(app, players_of(setup), bool(setup.options.get("play_on", True)))

    return SetupScreen(SPEC, on_start=begin, on_back=app.go_home,
                       on_howto=lambda: show_howto(app), orientation=app.services.settings.orientation)


def show_howto(app: Shell) -> None:
    stage = TileStage(hands=2)
    steps, reset = race_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Gobbles"), stage, steps, reset, on_done=lambda: app.show(open_setup(app))))


def players_of(setup: Setup) -> list[Player]:
    return [Player(f"Robot {i + 1}", Level(s.robot)) if s.robot else Player(f"Player {i + 1}")
            for i, s in enumerate(setup.seats)]


def start(app: Shell, players: Sequence[Player], play_on: bool = True, seed: int | None = None) -> Screen:
    """Deal a new race for ``players`` and show it."""
    game = Gobbles.deal(players, seed=seed if seed is not None else random.randrange(1 << 32), play_on=play_on)
    app.journal(game)
    screen = GobblesScreen(app, game)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, game: Gobbles) -> Screen:
    return GobblesScreen(app, game)


class GobblesHand(HandView):
    """A Gobbles hand: its seat's claims, judged by the game (``Place(placement, seat)``) and made
    at the table (:meth:`GobblesTable.claim`, which times the race). Each drag starts the race
    clock: ``before`` holds the spaces filled when it began, so a drop there is refused by the rule
    ("occupied") while a space filled *during* the drag was lost in a race ("taken"). The tile is
    judged and previewed on the space under the finger itself (not above it), a release with the
    finger over any hand or off the free table returns the tile silently (nothing is previewed
    there either), and the end of every drag lets the screen refit the view it held still. Tiles
    just received from a gobble (``received``) are ringed in white: the message points at them."""

    received = ListProperty([])

    def __init__(self, screen: GobblesScreen, seat: int, **kwargs: Any) -> None:
        target = ModeTarget[Place](screen.game, lambda placement: Place(placement, seat),
                            apply=lambda action: screen.table.claim(seat, action.placement), vet=self._race)
        super().__init__(target=target, **kwargs)
        self.screen = screen
        self.before: frozenset[Cell] = frozenset()
        self._forget_received = Countdown(lambda: setattr(self, "received", []), RECEIVED_SECONDS)
        self.bind(received=self._redraw)

    def receive(self, tiles: Sequence[int]) -> None:
        """Ring ``tiles`` (just given to this seat) for :data:`RECEIVED_SECONDS`."""
        self.received = list(tiles)
        self._forget_received.start()

    def _redraw(self, *_args: Any) -> None:
        super()._redraw()
        r = self.tile_radius()
        with self.canvas:
            for i, tile in enumerate(self.tiles):
                if tile in self.received:
                    cx, cy = self.slot_centre(i)
                    Color(*theme.TABLE_DARK[:3], 0.9)
                    Line(points=corners(cx, cy, r * 1.08, -self.seat_angle), width=max(3.0, r * 0.13), close=True)
                    Color(1, 1, 1, 1)
                    Line(points=corners(cx, cy, r * 1.08, -self.seat_angle), width=max(1.8, r * 0.07), close=True)

    @property
    def dragging(self) -> bool:
        return self._drag is not None

    def on_touch_down(self, touch: Any) -> bool:
        idle = self._drag is None
        taken = super().on_touch_down(touch)
        if idle and self._drag is not None:
            self.before = frozenset(p.cell for p in self.screen.game.board.placements())
            self.screen.hold_view()
        return taken

    def _race(self, placement: Placement, refusal: Refused | None) -> Refused | None:
        """A space filled before this drag began was not lost in a race: the rule refuses it."""
        if refusal is not None and refusal.rule is GobbleRule.TAKEN and placement.cell in self.before:
            return rules.refusal(self.screen.game.board, placement)
        return refusal

    def _lifted(self, touch: Any) -> tuple[float, float]:
        """The space a drop goes to is the one under the finger: what the preview marks there."""
        return self.to_window(*touch.pos)

    def _show_drag(self, touch: Any) -> None:
        drag = self._drag
        assert drag is not None, "only a held tile is dragged"
        if self.screen.off_table(self.to_window(*touch.pos)):
            self.board.hover(None, who=self)
            if self.drag_layer is not None:
                self.drag_layer.show(self._lifted(touch), drag["tile"], self.rotation(drag["tile"]),
                                     self.tile_radius(), self)
            return
        super()._show_drag(touch)

    def on_touch_up(self, touch: Any) -> bool:
        drag = self._drag
        if (drag is not None and touch.grab_current is self and touch.uid == drag["uid"] and drag["moving"]
                and self.screen.off_table(self.to_window(*touch.pos))):
            touch.ungrab(self)
            self._drag = self._twist = None
            self.board.hover(None, who=self)
            self.board.release(self)  # the board view's own hold (ui.board.HandView) ends too
            self.dispatch("on_lift", None)
            if self.drag_layer is not None:
                self.drag_layer.hide(self)
            self._redraw()
            self.screen.release_view()
            return True
        handled = super().on_touch_up(touch)
        if self._drag is None:
            self.screen.release_view()
        return handled


def focus(cells: Sequence[Cell], spaces: Sequence[Cell], wanted: Sequence[Cell], area: tuple[float, float],
          radius: float, keep: Cell | None = None) -> list[Cell]:
    """The cells to fit in view so that hexagons keep at least ``radius`` (px, circumradius) in an
    ``area`` (w, h px): all of ``cells`` (placed) and ``spaces`` when they fit, else those inside
    the window around the ``wanted`` space that shows the most other wanted spaces (``keep``, the
    last centre, while it shows nearly as many: the view does not hop for nothing)."""
    everything = list(cells) + list(spaces)
    if not everything:
        return []
    w, h = area
    half_x = max(0.0, (w / radius - SQRT3 * 3) / 2)  # recentre adds a ring of spaces around its cells
    half_y = max(0.0, (h / radius - 5) / 2)
    unit = {c: centre(c, 1.0) for c in everything}
    xs, ys = [p[0] for p in unit.values()], [p[1] for p in unit.values()]
    if max(xs) - min(xs) <= 2 * half_x and max(ys) - min(ys) <= 2 * half_y:
        return list(cells) or everything

    def window(middle: Cell) -> list[Cell]:
        mx, my = centre(middle, 1.0)
        return [c for c in everything if abs(unit[c][0] - mx) <= half_x and abs(unit[c][1] - my) <= half_y]

    def shown(middle: Cell) -> int:
        return sum(1 for c in window(middle) if c in wanted_set)

    wanted_set = set(wanted) or set(spaces) or set(cells)
    mid = (sum(xs) / len(xs), sum(ys) / len(ys))
    candidates = sorted(wanted_set, key=lambda c: (-shown(c), math.dist(unit.get(c, centre(c, 1.0)), mid), c))
    best = candidates[0]
    if keep is not None and keep in unit and shown(keep) >= 0.8 * shown(best):
        best = keep
    return window(best) or [best]


class GobblesLayout(TableLayout):
    """The table of :class:`ui.table.TableLayout`, where a robot's hand is a thin strip at the very
    edge (``robots``: their seats): an edge where only robots sit gives its room to the board. A
    seat may also :meth:`reserve` a band of the table at its hand's inner edge (the gift card lies
    there): the board's free area ends before it, so the card covers no space anyone plays on, and
    the hands at that edge give up the depth they do not need for fingertip tiles (one row where it
    holds them), so that the board stays big enough to choose the gift by."""

    def __init__(self, robots: Sequence[int], **kwargs: Any) -> None:
        self.robots = frozenset(robots)
        self.reserved: dict[int, float] = {}
        super().__init__(**kwargs)
        self.mask = TableMask(self.board)
        self.add_widget(self.mask, index=self.children.index(self.board))  # just above the board

    def news_for(self, seat: int) -> str:
        """No news at a robot's seat: no one sits there to read it, and its tag, as deep as two
        or three lines, covered the board's middle for nothing (six seats round the 7" panel)."""
        return "" if seat in self.robots else super().news_for(seat)

    def reserve(self, seat: int, depth: float) -> None:
        """Keep a band ``depth`` deep (0: none) at ``seat``'s hand's inner edge clear of the board;
        that seat's messages are shown beyond it."""
        if self.reserved.get(seat, 0.0) == depth:
            return
        if depth > 0:
            self.reserved[seat] = depth
        else:
            self.reserved.pop(seat, None)
        bands: dict[float, float] = {}
        for other, band in self.reserved.items():
            angle = self.boxes[other].angle
            bands[angle] = max(bands.get(angle, 0.0), band)
        self.raised = {other: bands[box.angle] for other, box in enumerate(self.boxes) if box.angle in bands}
        # the tags at that edge go beyond the band before the free table changes: what is placed
        # around it as it changes (the zoom buttons, Leave) sees them where they will lie
        self._relayout()

    def _layout(self) -> tuple[int, list[SeatBox], tuple[float, float, float, float]]:
        rows, boxes, (fx, fy, fw, fh) = super()._layout()
        if self.orientation != "flat" or not boxes:
            return rows, boxes, (fx, fy, fw, fh)
        width, height = self.size
        thin = theme.unit() * ROBOT_STRIP
        edges: dict[float, list[int]] = {}
        for seat, box in enumerate(boxes):
            edges.setdefault(box.angle, []).append(seat)
        boxes = list(boxes)
        free = (fx, fy, fw, fh)
        for angle, seats in edges.items():
            saved = boxes[seats[0]].depth - thin
            if saved <= 0:
                continue
            for seat in seats:
                if seat in self.robots:
                    boxes[seat] = _at_edge(boxes[seat], thin, width, height)
            if all(seat in self.robots for seat in seats):  # a person's hand on this edge keeps its depth
                free = _grown(free, angle, saved)
        for angle, seats in edges.items():
            band = max((self.reserved.get(seat, 0.0) for seat in seats), default=0.0)
            people = [seat for seat in seats if seat not in self.robots]
            if band > 0 and people:
                # the gift card's band: the hands at that edge give up what they do not need for
                # fingertip tiles, so that the board keeps its room for the players to see
                depth = max(least_depth(boxes[seat], len(self.hands[seat].tiles), int(self.hand_rows),
                                        theme.min_tile_radius()) for seat in people)
                free = _grown(free, angle, boxes[people[0]].depth - depth)
                for seat in people:
                    boxes[seat] = _at_edge(boxes[seat], depth, width, height)
            free = _grown(free, angle, -band)
        return rows, boxes, free

    def _relayout(self, *_args: Any) -> None:
        super()._relayout()
        for seat, hand in enumerate(self.hands):
            if seat in self.robots:
                hand.max_rows = 1


def _at_edge(box: SeatBox, depth: float, width: float, height: float) -> SeatBox:
    """``box`` made ``depth`` deep, still against its edge of a ``width`` x ``height`` table."""
    if box.angle == BOTTOM:
        return box._replace(cy=depth / 2, depth=depth)
    if box.angle == TOP:
        return box._replace(cy=height - depth / 2, depth=depth)
    if box.angle == LEFT:
        return box._replace(cx=depth / 2, depth=depth)
    return box._replace(cx=width - depth / 2, depth=depth)


def _grown(free: tuple[float, float, float, float], angle: float, by: float) -> tuple[float, float, float, float]:
    """The free table ``free`` (x, y, w, h) grown ``by`` (shrunk if negative) towards the edge at ``angle``."""
    fx, fy, fw, fh = free
    if angle == BOTTOM:
        return fx, fy - by, fw, fh + by
    if angle == TOP:
        return fx, fy, fw, fh + by
    if angle == LEFT:
        return fx - by, fy, fw + by, fh
    return fx, fy, fw + by, fh


START_NEWS = N_("No turns: everyone places at once. Go!")
"""Told at every seat as a race begins (:meth:`GobblesScreen.on_enter`)."""


class GobblesScreen(Leavable, Screen):
    """A Gobbles race (see the module docstring). ``clock`` is the table's (tests pass a
    ManualClock); ``robot_seed`` makes the robots reproducible."""

    attract_when_idle = False

    def __init__(self, app: Shell, game: Gobbles, clock: Callable[[], float] = time.monotonic,
                 robot_seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(name=KIND, **kwargs)
        self.app, self.game = app, game
        self.table = GobblesTable(game, clock=clock, seed=robot_seed)
        robots = [seat for seat, p in enumerate(game.players) if p.robot is not None]
        self.layout = GobblesLayout(robots, orientation=app.services.settings.orientation, hand_rows=3)
        self.layout.board.frontier_touching = 2
        self.layout.board.auto_fit = False  # the screen refits (see follow_play): never under a finger
        self._refit_waiting = False
        self._centre: Cell | None = None
        self.hands = [GobblesHand(self, seat, for_fingers=seat not in robots) for seat in range(len(game.players))]
        for hand in self.hands:
            hand.bind(on_played=lambda *_: self.refresh())
        self.layout.seat(self.hands)
        # the seats' tags are composed (name, tiles left): a language staff switch to while the
        # race is on (their web page, or their menu over it) is theirs at once
        follow_language(self, lambda screen: screen._tag_seats())
        self.overlay = Overlay()
        self.overlay.add_widget(self.layout)
        self.gifts: dict[int, GiftCard] = {}
        self.leave_button = TButton(msg=N_("Leave"), scale=0.7, size_hint=(None, None))
        self.leave_button.bind(on_release=lambda *_: confirm_leave(self))
        self.overlay.add_widget(self.leave_button)
        self.view_controls = ViewControls(self.layout.board)
        self.overlay.add_widget(self.view_controls)
        self.overlay.add_widget(self.view_controls.cues)
        board = self.layout.board
        board.shields = [*board.shields, self.leave_button, *self.view_controls.parts]
        board.news_reach = self._news_reach
        self.layout.keep_clear = [self.view_controls, self.leave_button]
        board.bind(fit_area=self.place_controls)
        board.bind(fit_area=lambda *_: self.follow_play())
        self.add_widget(self.overlay)
        self._known_events = len(game.events)
        self._shown_tiles = -1
        self._ticking = None
        self._ended = False
        self._told_start = bool(game.events)  # a race resumed under way needs no "go"
        self.refresh(journal=False)

    def _news_reach(self) -> list[Rect]:
        """Where the seats' tags and the table's news may come to lie (:meth:`ui.table.TableLayout.tag_reach`),
        as window boxes."""
        layout = self.layout
        return [window_rect(layout, layout.tag_reach(seat)) for seat in range(len(layout.boxes))]

    def place_controls(self, *_args: Any) -> None:
        """Leave, then the zoom buttons and overview map, where they cover nothing, nor where the
        seats' tags and the table's news may come to lie (:meth:`ui.table.TableLayout.tag_reach`),
        nor a finger's gap round a gift card up (its chips are tapped), nor, where they can be, the
        board's tiles: a corner of the screen between the hands, else a corner or an edge of the
        free table (:func:`ui.table.clear_spot`). Again whenever the free table changes, and as a
        gift card is placed or goes (:class:`GiftCard`). The tags, laid as the free table changed,
        are laid again once they are placed, clear of them where they can slide
        (:meth:`ui.table.TableLayout.reflow`)."""
        u = theme.unit()
        layout = self.layout
        self.leave_button.size = (u * 1.8, u * 1.0)
        taken = [(layout.x, layout.top - u * 1.1, u * 1.1, u * 1.1)]  # the staff corner
        taken += [box.rect(layout.x, layout.y) for box in layout.boxes]
        taken += [layout.tag_reach(seat) for seat in range(len(layout.boxes))]
        taken += [card.reach() for card in layout.keep_clear if isinstance(card, GiftCard)]  # not yet in self.gifts
        table = tuple(layout.board.fit_area or (layout.x, layout.y, layout.width, layout.height))
        placed: list[Rect] = []  # kept a finger's gap apart
        for widget, spots in ((self.leave_button, ("top-right", "bottom-right", "bottom-left")),
                              (self.view_controls, ("top-left", "bottom-left", "top-right", "bottom-right"))):
            widget.pos = clear_spot(tuple(widget.size), spots, taken, tuple(layout.size), table,
                                    board=layout.board.tile_runs(), controls=placed)
            placed.append((*widget.pos, *widget.size))
        layout.reflow()  # the tags and messages laid round where the controls were move clear of them
        self.view_controls.refresh()  # the cues to forced spaces out of sight keep clear of them

    # ------------------------------------------------------------------ the clock

    def on_enter(self, *_args: Any) -> None:
        self.app.services.devices.cue(Cue())  # no turns: the rings stay dark until the winners
        self.table.resume()
        if self._ticking is None and not self.game.finished:
            self._ticking = Clock.schedule_interval(self.tick, TICK_SECONDS)
        if self.game.finished:
            self.finish()
        elif not self._told_start:
            # nothing else on the table says there are no turns: a newcomer who skipped How to
            # play waited for a turn while the robots placed
            self._told_start = True
            self.layout.announce(lambda: _(START_NEWS))

    def on_leave(self, *_args: Any) -> None:
        """The table is hidden (the staff menu, the results): the race waits for its players."""
        self._stop_ticking()
        self.table.pause()

    def _stop_ticking(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None

    @property
    def showing(self) -> bool:
        return self.manager is not None and self.manager.current_screen is self

    def tick(self, _dt: float = 0.0) -> None:
        """Robots and late gifts act (on the table's clock); countdowns follow."""
        if self.manager is None:  # replaced by another screen: this race is over for us
            self._stop_ticking()
            return
        if self.table.tick():
            self.refresh()
        for card in self.gifts.values():
            card.count_down()

    # ------------------------------------------------------------------ showing

    @unless_left
    def refresh(self, journal: bool = True) -> None:
        """Show the game as it stands (after every step) and journal it. Not once the race was
        left (:mod:`ui.leaving`): a tile another player was still dragging must not bring the
        abandoned game back (journaled, offered again after a restart) nor record it as played."""
        game = self.game
        if journal:
            self.app.journal(game)
        self._announce(game.events[self._known_events:])
        self._known_events = len(game.events)
        if len(game.board) != self._shown_tiles:
            self._shown_tiles = len(game.board)
            self.layout.board.show(game.board)
            self.follow_play()
            self.view_controls.refresh()
        for seat, hand in enumerate(self.hands):
            if hand.tiles != game.hands[seat]:
                hand.tiles = list(game.hands[seat])
            person = game.players[seat].robot is None
            hand.active = person and game.playing(seat) and seat not in game.pending and not game.finished
        self._tag_seats()
        self.layout.refresh_hints()
        for seat in list(self.gifts):
            if seat not in game.pending:
                self.gifts.pop(seat).close()
        if game.pending and self.layout.news == _(START_NEWS):
            self.layout.news = ""  # the race is under way: the tags make room for the gift card
        for seat in game.pending:
            if seat not in self.gifts and game.players[seat].robot is None:
                self.gifts[seat] = GiftCard(self, seat)
        if game.finished and not self._ended:
            self.finish()

    # ------------------------------------------------------------------ the view

    @property
    def held(self) -> bool:
        """Whether a finger is down on a hand (a drag) or on the board (a pan or pinch)."""
        board = self.layout.board
        return any(hand.dragging for hand in self.hands) or bool(board._touches)

    def hold_view(self) -> None:
        """A drag began: stop any refit under way where it is (it is redone once every finger is up)."""
        Animation.cancel_all(self.layout.board)
        self._refit_waiting = True

    def release_view(self) -> None:
        if self._refit_waiting and not self.held:
            self.follow_play()

    def follow_play(self) -> None:
        """Fit the board to the play (tiles at least 9 mm across while a person plays,
        see :func:`focus`), unless someone's finger is down: then wait for it to lift. A view the
        players moved themselves stays until a double tap."""
        board = self.layout.board
        if self.held:
            self._refit_waiting = True
            return
        self._refit_waiting = False
        if board._user_moved or not board.fit_area:
            return
        game = self.game
        _x, _y, w, h = board.fit_area
        people = [s for s in range(len(game.players)) if game.players[s].robot is None and game.playing(s)]
        cells = [p.cell for p in game.board.placements()]
        if not people or game.finished:
            board.min_fit_px = 0.0
            board.recentre(cells=cells)
            return
        need = rules.needed_neighbours(game.board)
        spaces = [c for c in game.board.frontier() if game.board.neighbour_count(c) >= need]
        wanted = sorted({p.cell for s in people for p in game.legal_placements(s)})
        radius = theme.min_tile_radius()
        board.min_fit_px = radius  # even where the table is small (a gift card's band), tiles stay 9 mm
        shown = focus(cells, spaces, wanted, (w, h), radius, self._centre)
        self._centre = min(wanted or spaces or cells, key=lambda c: self._distance(c, shown))
        board.recentre(cells=shown, focus=[c for c in shown if c in set(wanted)] or None)

    @staticmethod
    def _distance(cell: Cell, shown: Sequence[Cell]) -> float:
        """How far ``cell`` is from the middle of ``shown`` (board units)."""
        xs = [centre(c, 1.0) for c in shown]
        mid = (sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs))
        return math.dist(centre(cell, 1.0), mid)

    def off_table(self, window_pos: tuple[float, float]) -> bool:
        """Whether a finger at ``window_pos`` is over a hand, a control, a card or off the free
        table (a release there returns the tile)."""
        board = self.layout.board
        x, y = self.layout.to_widget(*window_pos)
        fx, fy, fw, fh = board.fit_area or (0, 0, 0, 0)
        if not (fx <= x <= fx + fw and fy <= y <= fy + fh) or not board.on_table(window_pos):
            return True
        wx, wy = window_pos
        return any(card.collide_point(*card.parent.to_widget(wx, wy)) for card in self.gifts.values() if card.parent)

    def _tag_seats(self) -> None:
        for seat in range(len(self.hands)):
            self.layout.tag(seat, self._tag(seat))

    def _tag(self, seat: int) -> str:
        game = self.game
        name = seat_name(game, seat)
        if not game.playing(seat):
            place = next(s.place for s in game.standings() if s.player == seat)
            return _("{name}: {place} place!", name=name, place=ordinal(place))
        return _("{name} · tiles: {count}", name=name, count=len(game.hands[seat]))

    def _announce(self, events: Sequence[dict[str, Any]]) -> None:
        """Tell players what others did that concerns them, pointing at tiles instead of numbering
        them: tiles received are ringed in the receiver's hand; a player out is the table's news
        (:meth:`ui.table.TableLayout.announce`: once, at every seat). A gobble says so on the gift
        card at the gobbler's seat."""
        game = self.game
        for event in events:
            if "gift" in event:
                self._tell_gift(event["gift"], event["player"], bool(event.get("auto")))
            elif event.get("result") == "placed" and not game.playing(event["player"]):
                self.layout.announce(partial(self._tag, event["player"]))  # out: its tag says its place

    def _tell_gift(self, gift: dict[str, Any], giver: int, auto: bool) -> None:
        """The gobbler's ``gift`` from ``giver`` (given by the clock: ``auto``): ringed in the
        receiver's hand and told to them, and to the giver whose time ran out."""
        game, to, count = self.game, gift["to"], len(gift["tiles"])
        if game.players[to].robot is None:  # a robot's edge gets no message
            self.hands[to].receive(gift["tiles"])
            self.layout.tell(to, lambda: n_("{name} gobbled: you get {count} tile, ringed in white.",
                                            "{name} gobbled: you get {count} tiles, ringed in white.",
                                            count, name=seat_name(game, giver), count=count), good=True)
        if auto:
            self.layout.tell(giver, lambda: n_("Time is up: {name} got {count} of your tiles.",
                                               "Time is up: {name} got {count} of your tiles.", count,
                                               name=seat_name(game, to), count=count))

    # ------------------------------------------------------------------ gifts

    def give(self, seat: int, to: int, tiles: Sequence[int]) -> Refused | None:
        try:
            self.table.give(seat, to, tiles)
        except Refused as refusal:
            self.layout.tell(seat, partial(explain, refusal))
            return refusal
        self.refresh()
        return None

    # ------------------------------------------------------------------ the end

    @leaves
    def leave(self) -> None:
        self._stop_ticking()
        self.app.discard()

    def finish(self) -> None:
        if self._ended:
            return
        self._ended = True
        self._stop_ticking()
        game = self.game
        store = self.app.services.store
        with store.batch():
            store.add_record(KIND, game.to_json())
            store.clear_current()
        winners = tuple(s.player for s in game.standings() if s.place == 1)
        self.app.services.devices.cue(Cue(winners=winners, colours=tuple(RING_COLOURS[: len(game.players)])))
        Clock.schedule_once(lambda dt: self.show_results(), 2.0)

    def show_results(self) -> None:
        if not self.showing:
            return
        game = self.game
        first = [s.player for s in game.standings() if s.place == 1]
        view = BoardView(show_frontier=False)
        view.show(game.board)
        people_won = any(game.players[seat].robot is None for seat in first)
        self.app.show(ResultsScreen(
            KIND, partial(results_words, game), stage=view, replay=GobblesReplay(view, game.to_json()),
            celebrate=people_won, on_again=lambda: start(self.app, game.players, game.play_on),
            on_home=self.app.go_home))


def results_words(game: Gobbles) -> Words:
    """What the results of the finished race say, in the current language: who won and why the
    race ended, each player's place and tiles left."""
    standings = game.standings()
    first = [s.player for s in standings if s.place == 1]
    headline = (_("{name} wins!", name=seat_name(game, first[0])) if len(first) == 1
                else _("A shared win!")) + "\n" + ending_line(game)
    rows = [Standing(s.place, seat_name(game, s.player), None,
                     _("all tiles placed") if s.tiles == 0 else _("tiles left: {count}", count=s.tiles))
            for s in standings]
    return Words(_("Game over"), headline, rows)


ENDINGS = {
    Ending.LAST_PLAYER: N_("Only {name} still holds tiles."),
    Ending.FIRST_OUT: N_("{name} placed all their tiles first: the game stops."),
    Ending.DEADLOCK: N_("Nobody can place a tile any more."),
}


def ending_line(game: Gobbles) -> str:
    """Why the game ended, naming the player it is about: the one left holding tiles, or the first
    out (never "everyone else" while a person still holds tiles)."""
    ending = game.ending or Ending.LAST_PLAYER
    if ending is Ending.LAST_PLAYER:
        last = next(s for s in range(len(game.players)) if game.playing(s))  # players go out one by one
        return _(ENDINGS[ending], name=seat_name(game, last))
    if ending is Ending.FIRST_OUT:
        return _(ENDINGS[ending], name=seat_name(game, game.out[0]))
    return _(ENDINGS[ending])


class GiftCard(Scatter):
    """After a gobble, facing the gobbler at their hand's inner edge, in a band of the table the
    board keeps clear (:meth:`GobblesLayout.reserve`): who gets the tiles (chips), which tiles
    (picked in the gobbler's own hand), Give, and the seconds left before the table gives for
    them. Compact: as long as the edge allows, the chips wrapping into rows where it is short."""

    def __init__(self, screen: GobblesScreen, seat: int, **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        u = theme.unit()
        self.screen, self.seat = screen, seat
        game = screen.game
        suggestion = game.suggest_gift(seat)
        self.owed = game.pending[seat].count
        opponents = [p for p in range(len(game.players)) if p != seat and game.playing(p)]
        self.length = self._length()
        self.chip_height = max(u * 0.95, theme.min_target())
        self.give_width = u * 2.0
        per_row = max(1, min(len(opponents), int((self.length - self.give_width - u * 0.35) // (u * 1.8))))
        chip_rows = math.ceil(len(opponents) / per_row)
        question = N_("Gobble! Give {count} of your tiles. Who gets them?") if self.owed > 1 \
            else N_("Gobble! Give 1 of your tiles. Who gets it?")
        how = N_("Tap your tiles to choose them.")
        # the words as high as they stand at their size: a short card (a portrait panel's edge)
        # wraps them rather than shrinking them under the legible size (14.5 px of 19.7 there)
        room = self.length - u * (0.15 + 0.1 + 1.2)
        title_h = text_height(_(question, count=self.owed), theme.font(0.72), room, bold=True) + u * 0.05
        how_h = text_height(_(how), theme.font(0.65), room) + u * 0.05
        words_h = max(u * 0.95, title_h + how_h)
        self.depth = u * (0.15 + 0.05) + words_h + chip_rows * self.chip_height + (chip_rows - 1) * u * 0.1
        self.padding = u * 0.075  # round its chips and Give
        self.box = BoxLayout(orientation="vertical", padding=self.padding, spacing=u * 0.05)
        panel_background(self.box, theme.rgb("#3b2a05", 0.96), radius=0.2)
        top = BoxLayout(spacing=u * 0.1, size_hint=(1, None), height=words_h)
        words = BoxLayout(orientation="vertical")
        self.title = TLabel(msg=question, values={"count": self.owed}, scale=0.72, bold=True, halign="left",
                            size_hint_y=title_h)
        words.add_widget(self.title)
        words.add_widget(TLabel(msg=how, scale=0.65, color=theme.TEXT_DIM, halign="left", size_hint_y=how_h))
        top.add_widget(words)
        self.clock = TLabel(msg=N_("{seconds} s"), scale=1.0, bold=True,
                            color=theme.ACCENT, size_hint=(None, 1), width=u * 1.2)
        top.add_widget(self.clock)
        self.box.add_widget(top)
        bottom = BoxLayout(spacing=u * 0.15)
        self.recipients = ChipRow([(p, "") for p in opponents], suggestion.to, lambda p: self._choose(), scale=0.68,
                                  cols=per_row, spacing=u * 0.1)
        for chip in self.recipients.chips:
            chip.text = _("{name} ({count})", name=seat_name(game, chip.value), count=len(game.hands[chip.value]))
        bottom.add_widget(self.recipients)
        self.give_button = TButton(msg=N_("Give"), scale=0.95, bold=True, bg=list(theme.GO), size_hint=(None, None),
                                   width=self.give_width, height=self.chip_height)
        self.give_button.bind(on_release=lambda *_: self.give())
        bottom.add_widget(self.give_button)
        self.box.add_widget(bottom)
        self.add_widget(self.box)
        hand = screen.hands[seat]
        hand.picked = list(suggestion.tiles)
        hand.picking = True
        hand.bind(picked=self._choose)
        self._choose()
        screen.overlay.add_widget(self)
        screen.layout.reserve(seat, self.depth + u * 0.1)
        screen.layout.keep_clear.append(self)
        board = screen.layout.board
        board.shields = [*board.shields, self]  # a cue to a forced space keeps a finger's gap from its chips
        board.bind(fit_area=self._place)
        self._place()
        self.count_down()

    def _length(self) -> float:
        """As long as the free edge of the table along the gobbler's hand allows (at most 12 units)."""
        low, high = self._span()
        return min(high - low - theme.unit() * 0.2, theme.unit() * 12)

    def _span(self) -> tuple[float, float]:
        """Where the card may lie along the gobbler's edge: the free table's span there, less the
        name tags of the seats on the two edges it runs into (a tag lies at its hand's inner edge,
        on the free table: the card would cover it)."""
        layout = self.screen.layout
        fx, fy, fw, fh = layout.board.fit_area or (layout.x, layout.y, layout.width, layout.height)
        crossing = layout.boxes[self.seat].across
        low, high = (fy, fy + fh) if crossing else (fx, fx + fw)
        tag = theme.unit() * 0.7
        ends = (BOTTOM, TOP) if crossing else (LEFT, RIGHT)
        angles = {box.angle for seat, box in enumerate(layout.boxes) if seat != self.seat}
        return low + (tag if ends[0] in angles else 0.0), high - (tag if ends[1] in angles else 0.0)

    def _place(self, *_args: Any) -> None:
        """At the gobbler's hand's inner edge, facing them, slid along the edge so that it stays on
        the free table; the messages shown to the players move clear of it."""
        u = theme.unit()
        layout = self.screen.layout
        if self.seat >= len(layout.boxes):
            return
        box: SeatBox = layout.boxes[self.seat]
        self.rotation = 0.0
        self.size = self.box.size = (self.length, self.depth)
        self.box.pos = (0, 0)
        self.rotation = box.angle
        ux, uy = box.up()
        ay = math.sin(math.radians(box.angle))
        gap = box.depth / 2 + self.depth / 2 + u * 0.05
        cx, cy = layout.x + box.cx + ux * gap, layout.y + box.cy + uy * gap
        # slide along the edge to stay within the free table's span there, clear of the seats' tags
        low, high = self._span()
        if abs(ay) > 0.5:
            cy = min(max(cy, low + self.length / 2), high - self.length / 2)
        else:
            cx = min(max(cx, low + self.length / 2), high - self.length / 2)
        self.center = (cx, cy)
        # the controls keep clear of it (placed as its band was kept, before it was, they lay over
        # its chips on the turned panel), then the players' messages and the cues to forced spaces
        self.screen.place_controls()

    def reach(self) -> Rect:
        """What a control must keep off (window x, y, w, h): the card, and round it what a finger's
        gap from its chips and Give (:func:`ui.theme.min_gap`) needs beyond its padding."""
        return ringed((*self.bbox[0], *self.bbox[1]), max(theme.min_gap() - self.padding, 0.0))

    def count_down(self) -> None:
        deadline = self.screen.table.gift_deadline(self.seat)
        if deadline is not None:
            left = max(0, math.ceil((deadline - self.screen.table.now_ms()) / 1000))
            if self.clock.values.get("seconds") != left:
                self.clock.values = {"seconds": left}

    def _choose(self, *_args: Any) -> None:
        """Tell the table what the card shows chosen: given as it is if the time runs out."""
        hand = self.screen.hands[self.seat]
        self.screen.table.choose(self.seat, Gift(self.recipients.value, tuple(hand.picked)))

    def give(self) -> None:
        hand = self.screen.hands[self.seat]
        self.screen.give(self.seat, self.recipients.value, list(hand.picked))

    def close(self) -> None:
        hand = self.screen.hands[self.seat]
        hand.unbind(picked=self._choose)
        hand.picking = False
        hand.picked = []
        layout = self.screen.layout
        board = layout.board
        board.unbind(fit_area=self._place)
        board.shields = [shield for shield in board.shields if shield is not self]
        if self in layout.keep_clear:
            layout.keep_clear.remove(self)
        if self.parent is not None:
            self.parent.remove_widget(self)
        # gone before its band is: the messages and tags laid again as the table grows back take
        # the room it leaves (laid round it still, a message pushed along the edge by it stayed
        # there, over another player's message it had given way to)
        layout.reserve(self.seat, 0.0)
        self.screen.place_controls()  # back where they were: upright, no band changes the free table


class GobblesReplay:
    """A Gobbles record replayed placement by placement and gift by gift (races lost are skipped:
    they changed nothing). Each placement's space is marked on the board (:class:`ui.results.StepMark`):
    the caption says who, the mark says where."""

    def __init__(self, view: BoardView, record: dict[str, Any]) -> None:
        self.view = view
        self.step_mark = StepMark(view)
        opening = {k: v for k, v in record.items() if k not in ("ending", "standings")}
        game = Gobbles.from_json({**opening, "events": []})
        self.frames: list[tuple[Board, Cell | None, dict[str, Any]]] = [(game.board.copy(), None, {})]
        for event in record["events"]:
            player = event["player"]
            if "gift" in event:
                gift = event["gift"]
                game.give(player, Gift(gift["to"], tuple(gift["tiles"])), event["at"], bool(event.get("auto")))
                frame: dict[str, Any] = {"player": player, "other": gift["to"], "count": len(gift["tiles"])}
                cell = None
            elif event.get("result") == "placed":
                c = event["claim"]
                placement = Placement(c["tile"], c["q"], c["r"], c["rot"])
                game.claim(player, placement, event["at"])
                frame, cell = {"player": player, "gobble": bool(event.get("gobble"))}, placement.cell
            else:
                continue
            self.frames.append((game.board.copy(), cell, frame))
        self.game = game
        self.cells = [p.cell for p in game.board.placements()]

    @property
    def steps(self) -> int:
        return len(self.frames) - 1

    def show(self, step: int) -> str:
        board, cell, frame = self.frames[step]
        self.view.show(board)
        self.view.recentre(animate=False, cells=self.cells)
        self.step_mark.show(cell)
        if not frame:
            return _("The deal")
        name = seat_name(self.game, frame["player"])
        if "other" in frame:
            return n_("{name} gave {count} tile to {other}", "{name} gave {count} tiles to {other}", frame["count"],
                      name=name, other=seat_name(self.game, frame["other"]), count=frame["count"])
        return _("{name} placed a tile: gobble!", name=name) if frame["gobble"] else _("{name} placed a tile",
                                                                                          name=name)
