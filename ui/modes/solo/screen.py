"""The frame the timed solo puzzle screens share (the booklet puzzles of :mod:`.puzzle`, the
pyramids of :mod:`.rotation`): the side panel's Hint, Undo + Reset and Back, the clock that
runs only while the screen is shown, the hint searched on a worker thread, the questions asked
before Reset and Back throw steps away, and the in-place celebration of a solved puzzle.

It lives in one class so that both screens keep behaving alike; each screen keeps what is its own:
how its tiles move, what a hint shows, what Reset does, where the solved card lies and the ways on
from it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeVar

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.modes import Mode, Refused
from engine.solver import Control, Hint

from ... import theme
from ...i18n import N_, Words, _, follow_language
from ...jobs import Job
from ...refusals import explain
from ...results import Confetti
from ...services import Cue
from ...leaving import Leavable, unless_left
from ...shell import Shell
from ...solo_players import BestNote, keep_best, show_time
from ...widgets import Confirm, Overlay, TButton, beside
from ...words import format_time
from .common import HINT_SECONDS, SidePanel, SolvedCard, Stopwatch, ThinkingCard, best_time, \
    record_solved, record_time, time_score


class SoloMode(Mode[Any], Protocol):
    """What the frame asks of the puzzle being played (a PuzzlePlay, a RotationPuzzle), besides
    what every mode offers (``finished``, ``to_json``...)."""

    def undo(self) -> Any: ...

    def hint(self, control: Control | None = None) -> Hint: ...


M = TypeVar("M", bound=SoloMode)

ShowHowTo = Callable[[Shell, Callable[[], None]], None]
"""A module's ``show_howto(app, then)``."""


class SoloPuzzleScreen(Leavable, Screen, Generic[M]):
    """One timed solo puzzle being played: ``mode``, its best times and tick kept under ``key``, its
    clock under ``clock`` (``resumed``: after a power cut, the clock goes on from the saved time and
    a puzzle solved already is not counted again).

    A screen builds its play area (the board, or the table with its tray) after ``__init__`` and
    hands it to :meth:`set_up`; it provides the methods below that raise NotImplementedError."""

    attract_when_idle = False
    KIND: ClassVar[str]
    """The screen's name, and the kind its solved records are kept under."""
    RESET_QUESTION: ClassVar[str]
    LEAVE_QUESTION: ClassVar[str]
    """What Reset and Back ask (English msgids) before they throw the player's steps away."""
    CARD_WIDTH: ClassVar[float]
    """The widest the solved card grows, in touch units."""

    def __init__(self, app: Shell, mode: M, key: str, clock: str, resumed: bool, howto: ShowHowTo,
                 **kwargs: Any) -> None:
        super().__init__(name=self.KIND, **kwargs)
        self.app, self.mode, self.key = app, mode, key
        self.worker: Job[Hint] = Job("solo-hint")
        """The hint's search: it reads the live mode, which is left untouched while it is busy."""
        self.stopwatch = Stopwatch(app.services.store, clock, resumed)
        if not resumed:
            self.stopwatch.save()
        self.thinking: ThinkingCard | None = None
        self.solved_card: SolvedCard | None = None
        self._solved: tuple[float, float | None, BestNote | None, bool] = (0.0, None, None, False)
        """What the solved card says: the time, the table's best before, the player's best, and
        whether it was solved just now (not resumed solved)."""
        self._ticker: Any = None
        self.panel = SidePanel(on_howto=lambda: howto(app, lambda: app.show(self)))
        self.hint_button = TButton(msg=N_("Hint"), scale=1.0, bold=True, bg=list(theme.CHOSEN), color=theme.ON_CHOSEN)
        self.hint_button.bind(on_release=lambda *_: self.ask_hint())
        self.panel.add_row(self.hint_button, height=1.1)
        self.undo_button = TButton(msg=N_("Undo"), scale=0.85)
        self.undo_button.bind(on_release=lambda *_: self.undo())
        self.reset_button = TButton(msg=N_("Reset"), scale=0.85)
        self.reset_button.bind(on_release=lambda *_: self.ask_reset())
        self.panel.add_row(self.undo_button, self.reset_button)
        self.back_button = TButton(msg=N_("Back"), scale=0.85)
        self.back_button.bind(on_release=lambda *_: self.ask_leave())
        self.panel.add_row(self.back_button)

    def set_up(self, play_area: Widget, layers: Sequence[Widget] = ()) -> None:
        """Lay the screen out (``play_area`` beside the panel, under an overlay that holds the cards
        and questions, and ``layers`` such as a banner over it all), then show the puzzle: solved
        already, it is shown solved (a resumed puzzle, or one shown again)."""
        self.play_area = play_area
        root = beside(play_area, self.panel)
        self.overlay = Overlay()
        self.overlay.add_widget(root)
        self.add_widget(self.overlay)
        for layer in layers:
            self.overlay.add_widget(layer)
        # the card lies along the play area: placed again as that is laid out (after the overlay,
        # and after a card shown at once, when a puzzle solved before a power cut is resumed)
        play_area.bind(size=lambda *_: self._place_card(), pos=lambda *_: self._place_card())
        self.show_words()
        # the title, goal and counts are composed: a language staff switch to while the puzzle is
        # on (their web page, or their menu over it) is theirs at once, as the buttons' is
        follow_language(self, lambda screen: screen.show_words())
        if self.mode.finished:  # solved, but the power went before it was kept: keep it now
            self.stopwatch.stop()
            self.show_solved(first_time=True)

    # ------------------------------------------------------------ each screen's own

    @property
    def started(self) -> bool:
        """Whether the player has done anything yet (only then do Reset and Back ask first)."""
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the puzzle as it stands (ending with :meth:`show_panel_state`)."""
        raise NotImplementedError

    def words(self) -> tuple[str, str]:
        """The puzzle's title and goal, in the current language."""
        raise NotImplementedError

    def tell(self, words: Words, good: bool = False) -> None:
        """Say ``words`` to the player for a few seconds."""
        raise NotImplementedError

    def hush(self) -> None:
        """What was said to the player goes before its time."""
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def leave(self) -> None:
        """Back to where the puzzle was chosen, forgetting it (marked :func:`ui.leaving.leaves`)."""
        raise NotImplementedError

    def show_hint(self, hint: Hint) -> None:
        """Show what the solver found (the search was neither cancelled nor left)."""
        raise NotImplementedError

    def solved_buttons(self) -> list[tuple[str, Callable[[], object], bool]]:
        """The solved card's ways on: (label, action, is the main one)."""
        raise NotImplementedError

    def make_room(self, card: SolvedCard) -> None:
        """Keep the solved arrangement in sight above ``card``."""
        raise NotImplementedError

    # ---------------------------------------------------------------- the panel, the clock

    def show_words(self) -> None:
        """Show the puzzle in the current language: its title and goal, as it stands, and the solved
        card if it shows."""
        self.panel.title.text, self.panel.goal.text = self.words()
        self.refresh()
        if self.solved_card is not None:
            self._show_solved_card()

    def show_panel_state(self, done: bool) -> None:
        """A solved puzzle's buttons rest (but Back); the clock shows the time so far."""
        for button in (self.hint_button, self.undo_button, self.reset_button):
            button.disabled = done
        self._show_clock()

    def _show_clock(self, *_args: Any) -> None:
        self.panel.clock.text = _("Time: {time}", time=format_time(self.stopwatch.seconds))

    def on_enter(self, *_args: Any) -> None:
        self.stopwatch.run()
        if self._ticker is None:
            self._ticker = Clock.schedule_interval(self._show_clock, 1.0)

    def on_leave(self, *_args: Any) -> None:
        if not self.stopwatch.stopped:  # a solved puzzle's time was saved when it was solved
            self.stopwatch.pause()
            self.stopwatch.save()
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self.worker.busy:
            self.worker.cancel()

    # ------------------------------------------------------------------------ steps

    @unless_left
    def after_step(self) -> None:
        """After every change: journal (with the clock), show, celebrate a solution. What was
        said about the step before (a refusal, a hint's words) no longer holds after this one.
        Not once the puzzle was left (:mod:`ui.leaving`): a finger still on Undo or on a tile
        when Leave was confirmed brought it back as a resume card."""
        self.hush()
        self.app.journal(self.mode)
        self.stopwatch.save()
        self.refresh()
        if self.mode.finished and self.solved_card is None:
            self.stopwatch.stop()
            self.stopwatch.save()
            self.show_solved(first_time=True)

    def undo(self) -> None:
        try:
            self.mode.undo()
        except Refused as refusal:
            self.tell(partial(explain, refusal))
            return
        self.after_step()

    def ask_reset(self) -> None:
        if self.started:
            self.overlay.add_widget(Confirm(self.RESET_QUESTION, N_("Start again"), N_("Keep playing"), self.reset))

    def ask_leave(self) -> None:
        if self.started and not self.mode.finished:
            self.overlay.add_widget(Confirm(self.LEAVE_QUESTION, N_("Leave"), N_("Stay"), self.leave))
        else:
            self.leave()

    # ------------------------------------------------------------------------ hints

    def ask_hint(self) -> None:
        """Search a hint on the worker thread (a big puzzle can take seconds) behind a spinner whose
        Cancel stops it."""
        if self.worker.busy or self.mode.finished:
            return
        self.thinking = ThinkingCard(on_cancel=self.worker.cancel)
        self.overlay.add_widget(self.thinking)
        self.worker.start(lambda cancel: self.mode.hint(Control(timeout=HINT_SECONDS, cancel=cancel)),
                          lambda outcome: self._hinted(outcome.value, outcome.cancelled))

    def _hinted(self, hint: Hint | None, cancelled: bool) -> None:
        if self.thinking is not None:
            self.thinking.dismiss()
            self.thinking = None
        if self.manager is None or self.manager.current_screen is not self:
            return  # the puzzle was left (or cleared by staff) meanwhile: journaling it would bring it back
        self.app.journal(self.mode)  # the hint is counted
        if cancelled or hint is None:
            return
        self.show_hint(hint)

    # ----------------------------------------------------------------------- solved

    def show_solved(self, first_time: bool) -> None:
        """Celebrate (and remember, the first time) a solved puzzle, and offer what comes next."""
        store = self.app.services.store
        seconds = self.stopwatch.seconds
        best = best_time(store, self.key)
        mine: BestNote | None = None
        if first_time:
            with store.batch():  # solved, timed and recorded together, and no longer "interrupted"
                record_time(store, self.key, seconds)
                mine = keep_best(self.app, f"time:{self.key}", time_score(seconds))
                record_solved(store, self.key)
                store.add_record(self.KIND, self.mode.to_json())
                store.clear_current()
            self.app.services.devices.cue(Cue(winners=(0,), colours=("G",)))
            confetti = Confetti(size=self.overlay.size, pos=self.overlay.pos)
            self.overlay.add_widget(confetti)
            confetti.burst()
        self._solved = (seconds, best, mine, first_time)
        self._show_solved_card()

    def _show_solved_card(self) -> None:
        """The solved card (made again when the language is switched while it shows): the time, the
        player's or the table's best, the ways on."""
        seconds, best, mine, first_time = self._solved
        lines = [_("Time: {time}", time=format_time(seconds))]
        if mine is not None and mine.text(show_time):  # a named player: their own best first
            lines.append(mine.text(show_time))
        elif first_time and (best is None or seconds < best):
            lines.append(_("Your best time!"))
        if best is not None and not (first_time and seconds < best):
            lines.append(_("Best: {time}", time=format_time(best)))
        if self.solved_card is not None and self.solved_card.parent is not None:
            self.solved_card.parent.remove_widget(self.solved_card)
        self.solved_card = SolvedCard(N_("Solved!"), lines, self.solved_buttons())
        self.overlay.add_widget(self.solved_card)
        self._place_card()

    def _place_card(self) -> None:
        """The solved card lies centred along the foot of the play area, the puzzle above it."""
        card = self.solved_card
        if card is None:
            return
        u = theme.unit()
        area = self.play_area
        card.width = min(area.width - u * 0.4, u * self.CARD_WIDTH)
        card.pos = (area.x + (area.width - card.width) / 2, area.y + u * 0.2)
        self.make_room(card)
