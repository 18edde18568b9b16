"""Tanagra at the kiosk: 2, 3 or 4 players (people or robots) build a table of triangles, then move
pawns across it, take each other's pawns and change the table.

The board (:class:`ui.tanagra_board.TanagraBoard`) takes touches; the panel beside it says whose
turn it is and what to do, in plain words, and offers what the phase needs: the pawn size while a
2-player table is built, Leave / Move / Remove after a move empties a triangle, Pass when no pawn
can move, Undo. Building: dots show where a triangle may go; a finger resting there shows its
outline (green or red), lifting it puts the triangle down. Moving: touch a pawn of yours, its
destinations appear (a dot for a step, a ring for a jump, a red ring round a pawn it would take),
touch one. Anything refused is answered with the rule, and the cells flash red. Robots think on a
worker thread (the expert takes about 0.3 s) and their moves are animated like everyone's. Undo
takes back the last turn of a person (and the robots' turns since). Every action is journaled; the
LED rings show whose turn it is, and the winner at the end.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Sequence

from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.modes import Refused
from engine.tanagra.game import Game
from engine.tanagra.lattice import Cell, piece_cells
from engine.tanagra.robots import Robot, make_robot
from engine.tanagra.rules import (
    Action, EndReason, Leave, Move, Options, Pass, Pawn, Phase, Place, Reason, Relocate, Remove, Size,
    State, action_from_json,
)

from ... import theme
from ...howto import HowToPlayScreen, Step, Timeline
from ...i18n import N_, _, follow_language
from ...i18n import Words as Said  # what the message line says (results.Words: what the results say)
from ...jobs import Job, Outcome
from ...results import ResultsScreen, Standing, Words
from ...services import Cue
from ...setup import Choice, SeatColour, Setup, SetupScreen, SetupSpec
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell
from ...tanagra_board import TanagraBoard, destination_kinds, draw_pawn, seat_colours
from ...widgets import Chip, ChipRow, Overlay, TButton, TLabel, beside, confirm_leave, panel_background
from ... import words
from ...words import levels
from ...navigation import family_screen, kind_screen

KIND = "tanagra"
ROBOT_PAUSE = 0.6
"""Seconds a robot waits before it moves, so people see whose turn it is (``robot_pause``)."""

COLOUR_NAMES_2 = (N_("Black"), N_("Yellow"))
COLOUR_NAMES = tuple(words.COLOUR_NAMES[c] for c in "RYGB")
RING_COLOURS_2 = ("B", "Y")
"""The LED rings cannot show black: the black player's ring is blue."""
RING_COLOURS = ("R", "Y", "G", "B")


def ring_colours(players: int) -> tuple[str, ...]:
    """Each seat's LED ring colour, a letter of :data:`ui.theme.SEAT_ARCS`."""
    return RING_COLOURS_2 if players == 2 else RING_COLOURS[:players]


def palette(players: int) -> tuple[SeatColour, ...]:
    """The seats' colours at the setup, keyed by their LED ring's colour: the setup cuts each seat's
    pawn as its ring is lit (:data:`ui.theme.SEAT_ARCS`; keyed "red", "green"... it showed plain
    discs)."""
    names = COLOUR_NAMES_2 if players == 2 else COLOUR_NAMES
    return tuple(SeatColour(k, c, n) for k, c, n in zip(ring_colours(players), seat_colours(players), names))


SPEC = SetupSpec(
    key=KIND, title=N_("Tanagra"), players=(2, 4), default_players=2,
    levels=levels("beginner", "expert"), default_level="beginner", robots=(1,),
    palette=palette, piece=draw_pawn,
    options=(Choice("x", N_("Pawns each"), ((4, "4"), (5, "5"), (6, "6")), 4),),
    blurb=N_("Triangles and pawns: the second game in the box."),
)

WORDS: dict[str, str] = {
    Reason.GAME_OVER: N_("The game is over."),
    Reason.BAD_CELL: N_("That is not a place on the table."),
    Reason.BAD_SIZE: N_("Choose the pawn to put down: small or big."),
    Reason.NO_PAWN_LEFT: N_("You have no pawn of that size left: choose the other size."),
    Reason.FIRST_IN_MIDDLE: N_("The first triangle goes in the middle of the table."),
    Reason.OVERLAP: N_("A triangle cannot lie on top of another one."),
    Reason.NO_CONTACT: N_("A triangle must touch one already on the table, side to side."),
    Reason.SAME_PLACE: N_("That is where it lies already: choose \"Leave it\" instead."),
    Reason.NO_PAWN: N_("There is no pawn there."),
    Reason.NOT_YOUR_PAWN: N_("That pawn is not yours."),
    Reason.OFF_BOARD: N_("There is no triangle there."),
    Reason.OCCUPIED: N_("One of your own pawns stands there."),
    Reason.NOT_REACHABLE: N_("A pawn moves to a touching cell, or jumps over a chain of identical pawns."),
    Reason.MUST_MOVE: N_("You can move a pawn, so you may not pass."),
}
"""The referee's refusals in plain words (``cannot-take`` is worded from the pawns, ``wrong-phase``
from where the panel stands: see :func:`explain`)."""

WRONG_PHASE_BESIDE = N_("Not now: follow the words on the right.")
WRONG_PHASE_ABOVE = N_("Not now: follow the words at the top.")
"""An action the phase does not take points to the words saying what to do: in the panel on the
right, or on a portrait panel in the band at the top (:func:`ui.widgets.beside`)."""

ENDINGS = {
    EndReason.LEFT_TAKEN: N_("{name} took every pawn of the player on their left."),
    EndReason.SIZE_TAKEN: N_("{name} took all the opponent's pawns of one size."),
    EndReason.ISOLATED: N_("All other pawns stand on isolated triangles."),
    EndReason.LAST_HOLDER: N_("{name} is the only one still holding a triangle of their own."),
    EndReason.BLOCKED: N_("Nobody could move: a draw."),
    EndReason.QUIET: N_("No pawn taken and no triangle removed for a long time: a draw."),
}


def seat_name(players: int, seat: int) -> str:
    return _((COLOUR_NAMES_2 if players == 2 else COLOUR_NAMES)[seat])


def is_robot(label: str) -> bool:
    return label.startswith("robot:")


def explain(state: State, refusal: Refused, mover: Cell | None = None) -> str:
    """A refusal in plain words, in the current language."""
    if refusal.rule is Reason.CANNOT_TAKE and mover is not None and mover in state.pawns:
        pawn = state.pawns[mover]
        if state.players == 2:
            if pawn.owner == 0:
                return _("A small black pawn takes only small yellow pawns.") if pawn.size is Size.SMALL \
                    else _("A big black pawn takes only big yellow pawns.")
            return _("A small yellow pawn takes only big black pawns.") if pawn.size is Size.SMALL \
                else _("A big yellow pawn takes only small black pawns.")
        return _("You may take only the pawns of the player on your left: {name}.",
                 name=seat_name(state.players, state.left_of(pawn.owner)))
    if refusal.rule is Reason.WRONG_PHASE:
        return _(WRONG_PHASE_ABOVE if theme.portrait() else WRONG_PHASE_BESIDE)
    words = WORDS.get(refusal.rule)
    return _(words) if words else refusal.message


# ----------------------------------------------------------------------------- entry points


@family_screen(KIND)
def open_setup(app: Shell) -> Screen:
    return SetupScreen(SPEC, on_start=lambda setup: start(app, setup), on_back=app.go_home,
                       on_howto=lambda: show_howto(app), orientation=app.services.settings.orientation)


def seats_of(setup: Setup) -> list[str]:
    return [f"robot:{s.robot}" if s.robot else "person" for s in setup.seats]


def start(app: Shell, setup: Setup) -> Screen:
    game = Game(Options(players=len(setup.seats), x=int(setup.options.get("x", 4))), seats_of(setup))
    app.journal(game)
    screen = TanagraScreen(app, game)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, game: Game) -> Screen:
    return TanagraScreen(app, game)


# ------------------------------------------------------------------------------- the screen


CHANGE_BUTTON = 1.0
"""The height (touch units) of each of Leave it, Move it and Remove it, the most actions a phase offers
(the portrait band is as tall as they need)."""


class PawnIcon(Widget):
    """A seat's pawn, drawn as on the board (:func:`ui.tanagra_board.draw_pawn`: colour and mark)."""

    def __init__(self, rgba: theme.RGBA, big: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rgba, self.big = rgba, big
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) * (0.42 if self.big else 0.27)
        draw_pawn(self.canvas, (self.x + self.width / 2, self.y + self.height / 2), r, self.rgba)


class ChosenAction(Chip):
    """An action that needs a second touch to be done (Move it: then where the triangle goes). Once
    chosen (``selected``) it is amber, framed, and its second line says how to cancel: touch it
    again. The three buttons once looked the same while a player was choosing where, so nothing
    showed what was chosen, nor, to anyone who cannot tell the colours apart, by colour alone."""

    CANCEL = N_("Touch again to cancel")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.after:
            self._frame_colour = Color(0, 0, 0, 0)
            self._frame = Line(width=max(1.5, theme.unit() * 0.04))
        self.bind(pos=self._show_chosen, size=self._show_chosen, selected=self._show_chosen)
        self._show_chosen()

    def _show_chosen(self, *_args: Any) -> None:
        self.subtitle_ink = theme.hex_of(self.color)  # the chip's own ink: dark on amber
        self.subtitle = self.CANCEL if self.selected else ""
        if not self.selected:
            self._retranslate()  # its one line again
        self._frame_colour.rgba = theme.TEXT if self.selected else (0, 0, 0, 0)
        w = self._frame.width
        self._frame.rounded_rectangle = (self.x + w, self.y + w, self.width - 2 * w, self.height - 2 * w,
                                         theme.unit() * 0.2)


class TanagraScreen(Leavable, Screen):
    """One Tanagra game (see the module docstring). ``robot_seed`` makes robots reproducible."""

    attract_when_idle = False

    def __init__(self, app: Shell, game: Game, robot_seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(name=KIND, **kwargs)
        u = theme.unit()
        self.app, self.game = app, game
        seed = robot_seed if robot_seed is not None else random.randrange(1 << 30)
        self.robots: dict[int, Robot] = {
            seat: make_robot(label.split(":", 1)[1], seed=seed + seat)
            for seat, label in enumerate(game.seats) if is_robot(label)
        }
        self.players = game.options.players
        self.colours = seat_colours(self.players)
        self.size_choice: Size = Size.BIG
        self.selected: Cell | None = None
        self.relocating = False
        self.thinking = False
        self._generation = 0  # a robot's answer for an undone position is dropped
        self.robot_job: Job[Action] = Job("tanagra-robot")
        self._last_move: Move | None = None
        self._ended = False
        self._said: Said | None = None
        self.robot_pause = ROBOT_PAUSE
        self.board = TanagraBoard()
        self.board.bind(on_tap=lambda _b, cell: self.tap(cell), on_hover=lambda _b, cell: self.hover(cell))
        self.panel = self._build_panel(u)
        root = beside(self.board, self.panel)
        self.overlay = Overlay()
        self.overlay.add_widget(root)
        self.add_widget(self.overlay)
        self.refresh()
        # the seats' names are words of their own in the turn and pawn lines, and the sizes' counts
        # are composed: a language staff switch to while the game is on is theirs at once
        follow_language(self, lambda screen: screen._show_words())
        follow_language(self, lambda screen: screen._say_again())  # a refusal stays until the next action

    def _build_panel(self, u: float) -> BoxLayout:
        """The column beside the board: whose turn, what to do, a refusal, the actions the phase
        offers, the seats' pawns, Undo and Leave. On a portrait panel a band above the board
        instead, in two columns (the words and the seats; the refusal, the actions and the
        buttons), as tall as the most the actions take (three buttons), so that the board keeps
        the whole width and does not move when the actions change."""
        band = theme.portrait()
        panel = BoxLayout(orientation="horizontal" if band else "vertical", padding=u * 0.2,
                          spacing=u * 0.2 if band else u * 0.12)
        panel_background(panel, theme.TABLE_DARK, radius=0)
        turn = BoxLayout(size_hint=(1, None), height=u * 1.1, spacing=u * 0.1)
        self.turn_icon = PawnIcon(self.colours[0], size_hint=(None, 1), width=u * 1.0)
        turn.add_widget(self.turn_icon)
        self.turn_label = TLabel(scale=1.0, bold=True, halign="left")
        turn.add_widget(self.turn_label)
        self.prompt = TLabel(scale=0.8, halign="left", valign="top")
        self.message = TLabel(scale=0.78, color=theme.BAD, bold=True, halign="left", size_hint=(1, None),
                              height=u * 1.2)
        self.actions = BoxLayout(orientation="vertical", size_hint=(1, None), height=u * 3.4, spacing=theme.min_gap())
        self.sizes = ChipRow(((Size.SMALL, N_("Small")), (Size.BIG, N_("Big"))), self.size_choice,
                             self._choose_size, scale=0.85, size_hint=(1, None), height=u * 1.05)
        self.leave_it = TButton(msg=N_("Leave it"), scale=0.85)
        self.move_it = ChosenAction(msg=N_("Move it"), scale=0.85)
        self.remove_it = TButton(msg=N_("Remove it"), scale=0.85, bg=list(theme.STOP))
        self.leave_it.bind(on_release=lambda *_: self.act(Leave()))
        self.move_it.bind(on_release=lambda *_: self.toggle_relocating())
        self.remove_it.bind(on_release=lambda *_: self.act(Remove()))
        self.pass_button = TButton(msg=N_("No move: pass"), scale=0.85, size_hint=(1, None), height=u * 1.1)
        self.pass_button.bind(on_release=lambda *_: self.act(Pass()))
        self.scores = BoxLayout(orientation="vertical", size_hint=(1, None), height=u * 0.55 * self.players)
        self.score_rows: list[TLabel] = []
        for seat in range(self.players):
            row = BoxLayout(spacing=u * 0.1)
            row.add_widget(PawnIcon(self.colours[seat], size_hint=(None, 1), width=u * 0.6))
            label = TLabel(scale=0.72, halign="left")
            row.add_widget(label)
            self.score_rows.append(label)
            self.scores.add_widget(row)
        bottom = BoxLayout(size_hint=(1, None), height=u * 1.1, spacing=u * 0.15)
        self.undo_button = TButton(msg=N_("Undo"), scale=0.85)
        self.undo_button.bind(on_release=lambda *_: self.undo())
        leave = TButton(msg=N_("Leave"), scale=0.85)
        leave.bind(on_release=lambda *_: confirm_leave(self))
        bottom.add_widget(self.undo_button)
        bottom.add_widget(leave)
        if not band:
            panel.size_hint, panel.width = (None, 1), u * 4.8
            for part in (turn, self.prompt, self.message, self.actions, self.scores, bottom):
                panel.add_widget(part)
            return panel
        said = BoxLayout(orientation="vertical", spacing=u * 0.12, size_hint=(0.55, 1))
        for part in (turn, self.prompt, self.scores):
            said.add_widget(part)
        buttons = BoxLayout(orientation="vertical", spacing=u * 0.12, size_hint=(0.45, 1))
        for part in (self.message, self.actions, Widget(), bottom):
            buttons.add_widget(part)
        most_actions = 3 * u * CHANGE_BUTTON + 2 * self.actions.spacing  # Leave it, Move it, Remove it
        panel.size_hint, panel.height = (1, None), (self.message.height + most_actions + bottom.height
                                                    + 3 * buttons.spacing + 2 * u * 0.2)
        panel.add_widget(said)
        panel.add_widget(buttons)
        return panel

    # ------------------------------------------------------------------ state of play

    @property
    def state(self) -> State:
        return self.game.state

    def human_turn(self) -> bool:
        return not self.game.finished and self.game.turn not in self.robots

    def refresh(self) -> None:
        """Show the position, the prompt and the actions the phase needs; let a robot play."""
        game, state = self.game, self.state
        seat = game.turn
        self.turn_icon.rgba = self.colours[seat]
        self.turn_icon.redraw()
        spots: Sequence[Cell] = ()
        destinations: list[tuple[Cell, str]] = []
        self.actions.clear_widgets()
        human = self.human_turn()
        if game.finished:
            self.prompt.msg = N_("The game is over.")
        elif not human:
            self.prompt.msg = N_("The robot is thinking...")
        elif game.phase is Phase.BUILD:
            spots = state.placements()
            self.prompt.msg = N_("Touch a white dot to put down a triangle with one of your pawns on it.")
            if self.players == 2:
                self.actions.add_widget(self.sizes)
        elif game.phase is Phase.MOVE:
            if state.moves():
                self.prompt.msg = N_("Touch one of your pawns, then where it goes.")
                if self.selected is not None:
                    destinations = destination_kinds(state, self.selected)
            else:
                self.prompt.msg = N_("None of your pawns can move.")
                self.actions.add_widget(self.pass_button)
        elif game.phase is Phase.CHANGE:
            if self.relocating:
                spots = state.placements(lifted=game.pending_change)
                self.prompt.msg = N_("Touch a white dot: the emptied triangle goes there.")
            else:
                self.prompt.msg = N_("You emptied a triangle. Leave it, move it elsewhere, or remove it.")
            self.move_it.selected = self.relocating
            for button in (self.leave_it, self.move_it, self.remove_it):
                button.size_hint = (1, None)
                button.height = theme.unit() * CHANGE_BUTTON
                self.actions.add_widget(button)
        self.actions.height = sum(w.height for w in self.actions.children) + self.actions.spacing * max(
            len(self.actions.children) - 1, 0)
        self.board.show(state, spots=spots, selected=self.selected if human else None, destinations=destinations,
                        pending=game.pending_change, last=self._last_move)
        self._show_words()
        self.undo_button.disabled = not (self.game.can_undo and len(self.robots) < self.players and not game.finished)
        if game.finished:
            self.finish()
        elif not human and not self.thinking:
            self._robot_turn()

    def _show_words(self) -> None:
        """The words made of the game's state and the seats' names: whose turn, each seat's pawns,
        the sizes left to put down."""
        game, state = self.game, self.state
        self.turn_label.msg = N_("{name} to play")
        self.turn_label.values = {"name": seat_name(self.players, game.turn)}
        for seat_index, label in enumerate(self.score_rows):
            on_board = state.pawn_count(seat_index)
            to_place = sum(state.in_reserve(seat_index).values())
            label.msg = N_("{name} · pawns: {pawns}") if game.phase is not Phase.BUILD else N_("{name} · to place: {left}")
            label.values = {"name": seat_name(self.players, seat_index), "pawns": on_board, "left": to_place}
        if self.players == 2 and game.phase is Phase.BUILD and self.human_turn():
            self._update_sizes()

    def _update_sizes(self) -> None:
        reserve = self.state.in_reserve(self.game.turn)
        counts = {size: reserve.get(Pawn(self.game.turn, size), 0) for size in Size}
        if not counts[self.size_choice]:
            self.size_choice = Size.BIG if counts[Size.BIG] else Size.SMALL
        for chip in self.sizes.chips:
            chip.text = _("Small ({count})", count=counts[Size.SMALL]) if chip.value is Size.SMALL \
                else _("Big ({count})", count=counts[Size.BIG])
            chip.selected = chip.value is self.size_choice
            chip.disabled = not counts[chip.value]

    def _choose_size(self, size: Size) -> None:
        self.size_choice = size

    def say(self, words: Said) -> None:
        """Say ``words`` on the message line until the next action: kept, not their text, so that
        a language staff switch to meanwhile says them again in it (the text alone stayed in the
        language it was shown in)."""
        self._said = words
        self._say_again()

    def hush(self) -> None:
        """What the message line said no longer holds: it goes."""
        self._said = None
        self._say_again()

    def _say_again(self) -> None:
        self.message.text = self._said() if self._said is not None else ""

    # ------------------------------------------------------------------ touches

    def _place_action(self, cell: Cell) -> Action:
        if self.game.phase is Phase.CHANGE:
            return Relocate(cell)
        return Place(cell, self.size_choice if self.players == 2 else None)

    def hover(self, cell: Cell | None) -> None:
        """A finger resting on the table while a triangle is to be put down: show its outline."""
        phase = self.game.phase
        if cell is None or not self.human_turn() or self.board.animating or not (
                phase is Phase.BUILD or (phase is Phase.CHANGE and self.relocating)):
            self.board.set_preview(None)
            return
        self.board.set_preview(cell, self.game.check(self._place_action(cell)) is None)

    def tap(self, cell: Cell) -> None:
        if not self.human_turn() or self.board.animating:
            return
        game, state = self.game, self.state
        self.hush()
        if game.phase is Phase.BUILD or (game.phase is Phase.CHANGE and self.relocating):
            self.act(self._place_action(cell), flash=piece_cells(cell))
            return
        if game.phase is not Phase.MOVE:
            self.say(lambda: _("Choose: leave it, move it or remove it."))
            return
        pawn = state.pawns.get(cell)
        if pawn is not None and pawn.owner == game.turn:
            self.selected = None if cell == self.selected else cell
            self.refresh()
            return
        if self.selected is None:
            refusal = game.check(Move(cell, cell)) if cell in state.pawns else None
            self.say(partial(explain, state.copy(), refusal) if refusal else lambda: _("Touch one of your pawns first."))
            self.board.flash((cell,))
            return
        self.act(Move(self.selected, cell), flash=(cell,))

    def act(self, action: Action, flash: Sequence[Cell] = ()) -> None:
        """A person's action: refused with its rule, or animated, applied and journaled."""
        if not self.human_turn() or self.board.animating:
            return
        refusal = self.game.check(action)
        if refusal is not None:
            mover = action.origin if isinstance(action, Move) else None
            self.say(partial(explain, self.state.copy(), refusal, mover))  # the position it was refused in
            self.board.flash(flash)
            return
        self.hush()
        self._play(action)

    def toggle_relocating(self) -> None:
        """Move it touched: choose where the emptied triangle goes (the dots show where), or, touched
        again, change one's mind (the three choices again)."""
        self.relocating = not self.relocating
        self.refresh()

    def _play(self, action: Action) -> None:
        """Animate ``action``, then apply it to the game and move on."""
        self.selected = None
        self.relocating = False
        if isinstance(action, Move):
            self._last_move = action
        self.board.play(self.state, action, on_done=self._after_action, apply=self.game.apply)

    @unless_left
    def _after_action(self) -> None:
        """An action's animation ended: journal it and go on, unless the game was left meanwhile
        (:mod:`ui.leaving`: a robot's pawn still flying must not bring the abandoned game back,
        nor play on)."""
        game = self.game
        self.app.journal(game)
        if not game.finished:
            self.app.services.devices.cue(self._cue())
        self.refresh()

    def _cue(self) -> Cue:
        colours = ring_colours(self.players)
        result = self.game.result
        if result is not None:
            return Cue(colours=colours, winners=() if result.winner is None else (result.winner,))
        return Cue(turn=self.game.turn, colours=colours)

    def on_enter(self, *_args: Any) -> None:
        self.app.services.devices.cue(self._cue())

    # ------------------------------------------------------------------ robots

    def _robot_turn(self) -> None:
        self.thinking = True
        generation = self._generation
        seat = self.game.turn
        state = self.state.copy()
        robot = self.robots[seat]

        def think(_dt: float) -> None:
            if generation == self._generation:
                self.robot_job.start(lambda cancel: robot.choose(state),
                                     lambda outcome: self._robot_chose(generation, outcome))

        Clock.schedule_once(think, self.robot_pause)

    def _robot_chose(self, generation: int, outcome: Outcome[Action]) -> None:
        if generation != self._generation or self.game.finished:
            return  # the position it thought about was undone
        self.thinking = False
        action = outcome.value
        if action is None:  # the robot failed (logged): the table plays on with a legal action
            action = self.state.legal_actions()[0]
        self._play(action)

    # ------------------------------------------------------------------ undo, leave, end

    def undo(self) -> None:
        """Take back the last turn of a person (and every robot turn after it)."""
        game = self.game
        if not game.can_undo or self.board.animating:
            return
        self._generation += 1
        self.robot_job.forget()
        self.thinking = False
        while game.can_undo:
            game.undo()
            if game.turn not in self.robots and game.phase in (Phase.BUILD, Phase.MOVE):
                break
        self.selected, self.relocating, self._last_move = None, False, None
        self.hush()
        self.app.journal(game)
        self.app.services.devices.cue(self._cue())
        self.refresh()

    @leaves
    def leave(self) -> None:
        self._generation += 1
        self.robot_job.forget()
        self.app.discard()

    def finish(self) -> None:
        if self._ended:
            return
        self._ended = True
        store = self.app.services.store
        with store.batch():
            store.add_record(KIND, self.game.to_json())
            store.clear_current()
        self.app.services.devices.cue(self._cue())
        Clock.schedule_once(lambda dt: self.show_results(), 1.5)

    def show_results(self) -> None:
        if self.manager is None or self.manager.current_screen is not self:
            return
        game = self.game
        result = game.result
        assert result is not None
        winner = result.winner
        stage = TanagraBoard()
        stage.show(game.state)
        seats = list(game.seats)

        def again() -> None:
            fresh = Game(game.options, seats)
            self.app.journal(fresh)
            self.app.show(TanagraScreen(self.app, fresh))

        self.app.show(ResultsScreen(
            KIND, partial(results_words, game), stage=stage, replay=TanagraReplay(stage, game.to_json()),
            celebrate=winner is not None and winner not in self.robots, on_again=again, on_home=self.app.go_home))


def results_words(game: Game) -> Words:
    """What the results of the finished ``game`` say, in the current language: the winner (or a
    draw) and why, each seat's pawns left, the winner first."""
    result = game.result
    assert result is not None
    winner, players = result.winner, game.options.players
    name = seat_name(players, winner) if winner is not None else ""
    headline = (_("{name} wins!", name=name) if winner is not None else _("A draw")) + "\n" + \
        _(ENDINGS[result.reason], name=name)
    colours = seat_colours(players)
    rows = sorted(
        (Standing(1 if seat == winner else None, seat_name(players, seat), colours[seat],
                  _("pawns left: {count}", count=game.state.pawn_count(seat)))
         for seat in range(players)), key=lambda s: s.place is None)
    return Words(_("Game over"), headline, rows)


class TanagraReplay:
    """A Tanagra record replayed action by action."""

    def __init__(self, view: TanagraBoard, record: dict[str, Any]) -> None:
        self.view = view
        game = Game.from_json({**record, "actions": [], "final": None})
        self.players = game.options.players
        self.frames: list[tuple[State, str, int]] = [(game.state.copy(), N_("The start"), 0)]
        """Each step's position and caption (English, the field ``name`` the seat given)."""
        for data in record["actions"]:
            action = action_from_json(data)
            seat = game.turn
            taking = isinstance(action, Move) and action.target in game.state.pawns
            game.apply(action)
            self.frames.append((game.state.copy(), _CAPTIONS[(type(action), taking)], seat))

    @property
    def steps(self) -> int:
        return len(self.frames) - 1

    def show(self, step: int) -> str:
        state, caption, seat = self.frames[step]
        self.view.show(state)
        return _(caption, name=seat_name(self.players, seat))


_CAPTIONS = {
    (Place, False): N_("{name} put down a triangle"),
    (Move, False): N_("{name} moved a pawn"),
    (Move, True): N_("{name} took a pawn"),
    (Leave, False): N_("{name} left the emptied triangle"),
    (Relocate, False): N_("{name} moved the emptied triangle"),
    (Remove, False): N_("{name} removed the emptied triangle"),
    (Pass, False): N_("{name} passed"),
}


# ------------------------------------------------------------------------------ how to play

HOWTO_OPTIONS = Options(players=2, x=4)
HOWTO_BUILD = (((1, 1, 0), Size.SMALL), ((0, 2, -1), Size.SMALL), ((0, 0, 1), Size.BIG), ((2, 2, -2), Size.BIG),
               ((2, 0, -1), Size.SMALL), ((0, -1, 3), Size.BIG))
"""The first six triangles of a 2-player game (black, yellow, black...)."""
HOWTO_PIECES = ((-2, -1, 4), (-1, -2, 5), (-1, 4, -1), (0, -3, 4), (0, -1, 3), (0, 0, 1), (0, 2, -1), (1, -4, 5),
                (1, 1, 0), (1, 3, -3), (2, 0, -1), (2, 2, -2), (2, 4, -4), (2, 5, -6), (3, 2, -4), (5, 1, -4))
HOWTO_PAWNS = (((-1, -2, 5), 1, "big"), ((-1, -1, 4), 0, "small"), ((-1, 4, -1), 1, "small"),
               ((0, -3, 4), 0, "small"), ((0, -1, 3), 1, "big"), ((0, 1, 1), 0, "big"), ((0, 3, -1), 1, "small"),
               ((1, -4, 5), 1, "small"), ((1, 1, 0), 0, "small"), ((1, 2, -2), 0, "big"), ((2, 0, -1), 0, "small"),
               ((2, 2, -2), 1, "big"), ((2, 4, -4), 0, "big"), ((2, 6, -6), 1, "small"), ((3, 2, -4), 0, "big"),
               ((5, 1, -4), 1, "big"))
"""A position a few moves into that game, black to move, where black can step, jump, take and empty
a triangle (each shown from this same position)."""
HOWTO_STEP = Move((1, 1, 0), (1, 0, 0))
HOWTO_JUMP = Move((1, 2, -2), (2, 2, -3))
HOWTO_TAKE = Move((1, 2, -2), (2, 2, -2))
HOWTO_EMPTY = Move((0, 1, 1), (0, 1, 0))


def howto_position() -> State:
    pawns = {cell: Pawn(owner, Size(size)) for cell, owner, size in HOWTO_PAWNS}
    return State.position(HOWTO_OPTIONS, HOWTO_PIECES, pawns, turn=0)


def howto_script(board: TanagraBoard, timeline: Timeline) -> tuple[list[Step], Any]:
    """Tanagra's "how to play" on ``board``: (steps, reset); delayed actions go on ``timeline``."""
    picture: dict[str, State] = {"state": State(HOWTO_OPTIONS)}

    def reset() -> None:
        board.stop()
        picture["state"] = State(HOWTO_OPTIONS)
        board.show(picture["state"], spots=picture["state"].placements())

    def build(first: int, last: int) -> None:
        def one(i: int) -> None:
            state = picture["state"]
            if state.check(Place(*HOWTO_BUILD[i])) is None:  # never twice, even on a late timer
                board.play(state, Place(*HOWTO_BUILD[i]))
                board.show(state, spots=state.placements())

        for n, i in enumerate(range(first, last)):
            timeline.later(n * 0.7, partial(one, i))

    def from_position(move: Move, then: Action | None = None) -> None:
        board.stop()
        state = picture["state"] = howto_position()
        board.show(state, selected=move.origin, destinations=destination_kinds(state, move.origin))

        def go() -> None:
            if picture["state"] is not state:
                return  # a later step has the stage now

            def after() -> None:
                if then is not None and picture["state"] is state:
                    board.play(state, then)

            board.play(state, move, on_done=lambda: timeline.later(0.9, after))

        timeline.later(1.3, go)

    steps = [
        Step(N_("Tanagra: first build the table together. Put down a triangle with one of your pawns in its middle."),
             lambda: build(0, 3), 3.4),
        Step(N_("Each new triangle must touch one already down, side to side. With 2 players, choose a small or a "
                "big pawn."), lambda: build(3, 6), 3.8),
        Step(N_("Then, in turn, move one pawn: one step to a touching cell..."), lambda: from_position(HOWTO_STEP),
             3.4),
        Step(N_("...or a jump over a chain of identical pawns."), lambda: from_position(HOWTO_JUMP), 3.4),
        Step(N_("Land on a pawn you may take, and it is out. Black takes yellow of the same size; yellow takes black "
                "of the other size."), lambda: from_position(HOWTO_TAKE), 4.2),
        Step(N_("Emptied a triangle? Leave it, move it elsewhere, or remove it."),
             lambda: from_position(HOWTO_EMPTY, Remove()), 4.0),
        Step(N_("Win by taking all the pawns of one size, or by leaving every other pawn on an isolated triangle. "
                "With 3 or 4 players you take only the pawns of the player on your left."), None, 4.5),
    ]
    return steps, reset


def show_howto(app: Shell) -> None:
    board, timeline = TanagraBoard(), Timeline()
    steps, reset = howto_script(board, timeline)
    app.show(HowToPlayScreen(KIND, N_("Tanagra"), board, steps, reset, on_done=lambda: app.show(open_setup(app)),
                             timeline=timeline))

