"""A puzzle of the booklets at the kiosk: Discovery, Rainbow, and Junior to Genius.

The screen shows the puzzle's tiles in a tray under the table and the goal beside it ("One yellow
loop through all 3 tiles."), with the progress (tiles down, the longest chain of each goal colour)
and a clock. Drag a tile from the tray onto the table, tap it to turn it (in the tray or on the
table), drag a placed tile to another space or back onto the tray. Undo takes back a step, Reset
clears the table. Hint asks the solver (on a worker thread: Genius can take seconds from an empty
table; a spinner turns and Cancel stops it) and shows the hinted tile pale where it goes (tap it to
put it there) or rings the tile to take back. Puzzles where the player picks the colour (Junior,
Professor...) ask first, or let the player find it. A solved puzzle is celebrated in place, its
time kept as a best time, its tick set on the Learn path or the puzzle list; Discovery then offers
the next puzzle keeping the loop (add the new tile to it) or starting over.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from engine.actions import Place
from engine.board import Placement
from engine.board import Placement as P
from engine.modes import Refused
from engine.solo.catalogue import Puzzle
from engine.solo.puzzle import PickUp, PuzzlePlay
from engine.solver import Hint, HintKind

from ... import theme
from ...board import HandView
from ...howto import HowToPlayScreen, Step, TileStage
from ...i18n import N_, Words, _, n_
from ...mode_target import ModeTarget
from ...refusals import explain
from ...leaving import leaves
from ...shell import Shell
from ...widgets import TButton
from ...navigation import kind_screen
from ...solo_board import SoloBoard, TrayTable
from .common import ONE_CHAIN, ChoiceCard, SolvedCard, chain_name, colours_name
from .screen import SoloPuzzleScreen

KIND = "puzzle"

TITLES = {
    "rainbow-green": N_("Rainbow: green"), "rainbow-yellow": N_("Rainbow: yellow"),
    "rainbow-white": N_("Rainbow: white"), "rainbow-blue": N_("Rainbow: blue pyramid"),
    "rainbow-red": N_("Rainbow: red pyramid"), "junior": N_("Junior"), "student": N_("Student"),
    "professor": N_("Professor"), "master": N_("Master"), "genius-a": N_("Genius A"), "genius-b": N_("Genius B"),
}
FIND_THE_COLOUR = N_("One loop through all {count} tiles. Only one colour works: which?")
GOALS = {
    "rainbow-white": FIND_THE_COLOUR, "junior": FIND_THE_COLOUR, "student": FIND_THE_COLOUR,
    "master": FIND_THE_COLOUR,
    "rainbow-blue": N_("Fill the pyramid: one blue line through all {count} tiles."),
    "rainbow-red": N_("Fill the pyramid: one red line through all {count} tiles."),
    "professor": N_("Two loops at once, each through every tile of its colour. Which two colours?"),
    "genius-a": N_("A red line and a yellow line at once, each through every tile of its colour."),
    "genius-b": N_("A red line and a blue line at once, each through every tile of its colour."),
}
"""The goal in words where the puzzle's colour alone does not say it (else ONE_CHAIN)."""


def puzzle_title(puzzle: Puzzle) -> str:
    size = puzzle.discovery_size
    return _("Discovery {count}", count=size) if size is not None else _(TITLES[puzzle.name])


def goal_text(puzzle: Puzzle) -> str:
    count = len(puzzle.tiles)
    if puzzle.name in GOALS:
        return _(GOALS[puzzle.name], count=count)
    assert puzzle.colours is not None and len(puzzle.colours) == 1
    return _(ONE_CHAIN[(puzzle.colours[0], puzzle.closed)], count=count)


def is_learn_puzzle(name: str) -> bool:
    """Discovery and Rainbow belong to the Learn path; the others to the puzzle list."""
    return name.startswith(("discovery-", "rainbow-"))


def back_to_list(app: Shell, name: str) -> None:
    """Open the screen a puzzle was chosen from."""
    app.open_family("learn" if is_learn_puzzle(name) else "puzzles")


def open_puzzle(app: Shell, name: str, colours: tuple[str, ...] | None = None) -> PuzzleScreen:
    """Start puzzle ``name`` afresh (journaled) and show it."""
    play = PuzzlePlay.start(name, colours)
    app.journal(play)
    screen = PuzzleScreen(app, play)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, play: PuzzlePlay) -> Screen:
    return PuzzleScreen(app, play, resumed=True)


class PuzzleScreen(SoloPuzzleScreen[PuzzlePlay]):
    """One puzzle being played (see the module docstring; the clock, Hint, Undo, Reset, Back and the
    solved card are :class:`SoloPuzzleScreen`'s)."""

    KIND = KIND
    RESET_QUESTION = N_("Take every tile back and start this puzzle again?")
    LEAVE_QUESTION = N_("Leave this puzzle? Your tiles will be cleared.")
    CARD_WIDTH = 13.5

    def __init__(self, app: Shell, play: PuzzlePlay, resumed: bool = False, **kwargs: Any) -> None:
        name = play.puzzle.name
        super().__init__(app, play, key=name, clock=name, resumed=resumed, howto=show_howto, **kwargs)
        u = theme.unit()
        self.puzzle = play.puzzle
        self.target = ModeTarget(play, Place)  # a tile dropped back where it lay is no step
        self.choice_card: ChoiceCard | None = None
        shape = self.puzzle.shape
        self.board = SoloBoard(tiles_mode="movable", shape=shape, frame=sorted(shape) if shape else [],
                               auto_fit=shape is None, show_forced=False)
        self.board.target = self.target
        self.table = TrayTable(board=self.board)
        self.table.hand_rows = 3
        self.tray = HandView()
        self.table.seat([self.tray])
        self.board.tray, self.board.drag_layer = self.tray, self.table.drag_layer
        self.board.bind(on_placed=lambda *_: self.after_step(), on_tile_tap=lambda _b, p: self.turn_placed(p),
                        on_pick_up=lambda _b, tile: self.pick_up(tile), on_ghost_tap=lambda _b, p: self.take_hint(p),
                        on_move_refused=lambda _b, refusal: self.tell(lambda: explain(refusal)))
        self.aim_button: TButton | None = None
        if len(play.choices()) > 1:
            self.aim_button = TButton(scale=0.8, size_hint=(1, None), height=max(u * 0.95, theme.min_target()))
            self.aim_button.bind(on_release=lambda *_: self.offer_colours())
            self.panel.add_extra(self.aim_button)
        self.set_up(self.table)
        if not play.finished and self.puzzle.colours is None and play.colours is None and not play.placements:
            Clock.schedule_once(lambda dt: self.offer_colours(), 0)

    @property
    def play(self) -> PuzzlePlay:
        """The puzzle being played (``mode``), by its name in this module."""
        return self.mode

    @property
    def started(self) -> bool:
        return bool(self.play.placements)

    # ---------------------------------------------------------------------- showing

    def words(self) -> tuple[str, str]:
        return puzzle_title(self.puzzle), goal_text(self.puzzle)

    def show_words(self) -> None:
        super().show_words()
        if self.choice_card is not None and self.choice_card.parent is not None:  # asked again in the language now
            self.choice_card.dismiss()
            self.offer_colours()

    def refresh(self) -> None:
        play = self.play
        self.board.show_frontier = not play.finished  # solved: only the arrangement
        self.board.show(play.board)
        self.board.show_ghost(None)
        self.tray.marked = []
        self.tray.tiles = play.tray
        status = play.status()
        lines: list[tuple[str, theme.RGBA | None]] = [
            (_("Tiles down: {placed} of {total}", placed=status.placed, total=status.total), None)]
        for chain in status.chains:
            lines.append((_("{chain}: {length} of {needed}", chain=chain_name(chain.colour, self.puzzle.closed),
                            length=chain.length, needed=chain.needed), theme.LINK[chain.colour]))
        self.panel.set_lines(lines)
        if self.aim_button is not None:  # solved in other colours than those chosen: the ones it is solved in
            chosen = tuple(c.colour for c in status.chains) if status.solved else play.goal_colours()
            self.aim_button.text = _("Colour: {colours}", colours=colours_name(chosen)) if chosen \
                else _("Colour: you find it")
        done = play.finished
        if self.aim_button is not None:  # a solved puzzle's colour is settled: asking again would journal it anew
            self.aim_button.disabled = done
        self.board.tiles_mode = "fixed" if done else "movable"
        self.tray.active = not done
        self.show_panel_state(done)

    def tell(self, words: Words, good: bool = False) -> None:
        self.table.tell(0, words, good)

    def hush(self) -> None:
        self.table.hush(0)

    # ---------------------------------------------------------------------- steps

    def _act(self, action: Placement | PickUp) -> bool:
        try:
            self.play.apply(action)
        except Refused as refusal:
            self.board.highlight(refusal.cells)
            self.tell(partial(explain, refusal))
            return False
        self.after_step()
        return True

    def turn_placed(self, placement: Placement) -> None:
        """A tap on a placed tile: turn it clockwise to its next rotation that still matches."""
        if self.solved_card is not None:
            return
        for step in range(1, 6):
            turned = placement._replace(rot=(placement.rot + step) % 6)
            if self.play.check(turned) is None:
                self._act(turned)
                return
        self.board.highlight((placement.cell,))
        self.tell(lambda: _("Turned any other way this tile would break the golden rule here."))

    def pick_up(self, tile: int) -> None:
        self._act(PickUp(tile))

    def reset(self) -> None:
        """An empty table, the same puzzle and colour; the clock goes on."""
        fresh = PuzzlePlay.start(self.puzzle.name, self.play.colours)
        self.app.journal(fresh)
        self.stopwatch.pause()
        self.stopwatch.save()
        self.app.show(PuzzleScreen(self.app, fresh, resumed=True))

    @leaves
    def leave(self) -> None:
        self.app.forget_current()
        back_to_list(self.app, self.puzzle.name)

    # ----------------------------------------------------------------- the colour

    def offer_colours(self) -> None:
        """Ask which colour(s) to aim at (the puzzles that leave it to the player: or find it)."""
        if self.choice_card is not None and self.choice_card.parent is not None:
            return
        answers: list[tuple[Any, str, theme.RGBA | None]] = [
            (choice, colours_name(choice), theme.LINK[choice[0]] if len(choice) == 1 else None)
            for choice in self.play.choices()]
        if self.puzzle.colours is None:
            answers.append((None, _("I'll find it myself"), None))
        question = _("Choose the colour you want to try: the hint will aim at it. Or find it yourself!") \
            if self.puzzle.colours is None else _("With these tiles more than one colour works: choose one.")
        columns = 3 if len(answers) > 4 else 2
        self.choice_card = ChoiceCard(_("Which colour?"), question, answers, self.choose, columns=columns)
        self.overlay.add_widget(self.choice_card)

    def choose(self, colours: tuple[str, ...] | None) -> None:
        self.play.choose(colours)
        self.app.journal(self.play)
        self.refresh()

    # ----------------------------------------------------------------------- hints

    def ask_hint(self) -> None:
        """The last hint's pale tile goes while the next is sought."""
        if not (self.worker.busy or self.play.finished):
            self.board.show_ghost(None)
        super().ask_hint()

    def show_hint(self, hint: Hint) -> None:
        kind = hint.kind
        if kind is HintKind.PLACE and hint.placement is not None:
            self.board.show_ghost(hint.placement)
            self.tray.marked = [hint.placement.tile]
            tile = hint.placement.tile
            self.tell(lambda: _("Tile {tile} goes on the pale tile, turned like it: tap it to put it there.", tile=tile),
                      good=True)
        elif kind is HintKind.TAKE_BACK and hint.tile is not None:
            where = next(p for p in self.play.placements if p.tile == hint.tile)
            self.board.show_ghost(where, take_back=True)
            self.tell(lambda: _("No solution keeps tile {tile} where it is (ringed in orange): take it back.",
                                tile=hint.tile))
        elif kind is HintKind.IMPOSSIBLE:
            colours = hint.colours
            self.tell((lambda: _("No solution in {colours}: try another colour.", colours=colours_name(colours)))
                      if colours else (lambda: _("These tiles cannot do it.")))
        elif kind is HintKind.UNKNOWN:
            self.tell(lambda: _("No hint found in time. Try again, or take a tile back."))

    def take_hint(self, placement: Placement) -> None:
        """A tap on the hint's pale tile puts that tile there."""
        self.board.show_ghost(None)
        self._act(placement)

    # ------------------------------------------------------------------- solved

    def solved_buttons(self) -> list[tuple[str, Callable[[], object], bool]]:
        """Discovery goes on to the next puzzle (keeping the loop, or not) until the last; the
        others offer the same puzzle again."""
        buttons: list[tuple[str, Callable[[], object], bool]] = []
        size = self.puzzle.discovery_size
        if size is not None and size < 30:
            buttons += [(_("Add tile {tile}: keep the loop", tile=size + 1), lambda: self.go_on(True), True),
                        (n_("Start over with {count} tile", "Start over with {count} tiles", size + 1,
                           count=size + 1), lambda: self.go_on(False), False)]
        elif size is None:
            buttons.append((_("Play again"), self.again, False))
        buttons.append((_("Back"), self.leave, size is None or size >= 30))
        return buttons

    def make_room(self, card: SolvedCard) -> None:
        self.table.reserve = card.height + theme.unit() * 0.3  # the solved arrangement stays in sight above the card
        self.board.recentre()

    def go_on(self, keep: bool) -> None:
        """Discovery: the next puzzle, keeping the loop to add the new tile to, or starting over."""
        try:
            following = self.play.advance(keep=keep)
        except Refused as refusal:
            self.tell(partial(explain, refusal))
            return
        self.app.journal(following)
        self.app.show(PuzzleScreen(self.app, following))

    def again(self) -> None:
        open_puzzle(self.app, self.puzzle.name, self.play.colours)


# ----------------------------------------------------------------------- how to play

HOWTO_FIRST = P(1, 0, 0, 0)
HOWTO_REFUSED = P(2, 1, 0, 0)
"""Breaks the golden rule next to HOWTO_FIRST."""
HOWTO_TURNED = P(2, 1, 0, 2)
HOWTO_LAST = P(3, 0, 1, 0)
"""With HOWTO_FIRST and HOWTO_TURNED: Discovery 3's yellow loop."""


def puzzle_script(stage: TileStage) -> tuple[list[Step], Any]:
    """The puzzles' "how to play" (Discovery 3 solved step by step): (steps, reset)."""

    def reset() -> None:
        stage.reset((), [[1, 2, 3]], [HOWTO_FIRST.cell, HOWTO_TURNED.cell, HOWTO_LAST.cell])

    def turn_and_place() -> None:
        stage.timeline.later(0.2, lambda: stage.turn(0, 2, 1))
        stage.timeline.later(0.8, lambda: stage.turn(0, 2, 1))
        stage.slide(0, HOWTO_TURNED, delay=1.5)

    steps = [
        Step(N_("Discovery 3: make one yellow loop with tiles 1, 2 and 3."), None, 3.0),
        Step(N_("Drag a tile onto the table."), lambda: stage.slide(0, HOWTO_FIRST), 2.6),
        Step(N_("Where tiles touch, their colours must match: the golden rule."),
             lambda: stage.slide(0, HOWTO_REFUSED, refused=True), 3.6),
        Step(N_("Tap a tile to turn it. Now it fits!"), turn_and_place, 3.4),
        Step(N_("One yellow loop through all the tiles: solved!"), lambda: stage.slide(0, HOWTO_LAST), 3.2),
        Step(N_("Drag a placed tile to move it, or back to the tray. Stuck? Tap Hint."), None, 3.4),
    ]
    return steps, reset


def show_howto(app: Shell, then: Any) -> None:
    stage = TileStage(hands=1)
    steps, reset = puzzle_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Puzzles"), stage, steps, reset, on_done=then))

