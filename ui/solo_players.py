"""Who plays a solo game: a guest, or one of the table's players, whose bests are kept as theirs.

A solo start card (Gobble solo, Solitaire, the puzzles' list, Learn) shows a :class:`WhoPlays`
button: Guest until someone picks their name in the setup's player picker (the same big name
buttons, newest first, and the keyboard for a new player). The choice is kept in the store
(progress key :data:`SOLO_PLAYER`), beside the journal, so a game resumed after a power cut ends
for the same player. A visitor opening a game from the home screen starts as a guest again
(:func:`forget`), so nobody plays under the previous visitor's name.

When a game or puzzle ends, the mode keeps its score in the table's high scores and, in the same
store batch, :func:`keep_best` keeps it as the player's best (``firmware.players.Players.add_best``;
times are kept negated, as the high scores keep them). The mode keys of the bests are the high
scores' own: :func:`mode_title` names them for the ladder's player pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from . import theme
from .i18n import N_, _, follow_language
from .services import PlayerBook
from .shell import Shell
from .widgets import TButton, TLabel
from .words import format_time

SOLO_PLAYER = "solo-player"
"""The store's progress key: {"player": the id of the player playing solo} ({}: a guest)."""
WHO_BG = theme.rgb("#35607f")

Show = Callable[[int], str]
"""How a mode's kept score reads: a score as it is, a time (kept negated) as 1:23."""


def book(app: Shell) -> PlayerBook | None:
    """The table's players book, or None when the table keeps no players."""
    return app.services.players


def current(app: Shell) -> Any:
    """The player playing solo now (a :class:`engine.players.Player`), or None for a guest (also
    when the player chosen has been deleted or merged since)."""
    players = book(app)
    chosen = app.services.store.progress(SOLO_PLAYER).get("player")
    if players is None or not chosen:
        return None
    try:
        return players.get(chosen)
    except LookupError:
        return None


def choose(app: Shell, player: Any) -> None:
    """``player`` plays the solo games from now on (None: a guest)."""
    app.services.store.set_progress(SOLO_PLAYER, {} if player is None else {"player": player.id})


def forget(app: Shell) -> None:
    """A new visitor: a guest until they pick their name (nothing is written when it is one)."""
    if app.services.store.progress(SOLO_PLAYER):
        choose(app, None)


def show_score(score: int) -> str:
    return str(score)


def show_time(score: int) -> str:
    return format_time(-score)


@dataclass(frozen=True)
class BestNote:
    """What a finished game meant for the player's own best."""

    name: str
    new: bool
    previous: int | None

    def text(self, show: Show) -> str:
        """"New best for Ana!", or "Ana's best: 42" when the score did not beat it (a player's
        first score always is a new best, so ``previous`` is then known)."""
        if self.new:
            return _("New best for {name}!", name=self.name)
        return _("{name}'s best: {best}", name=self.name, best=show(self.previous)) if self.previous is not None else ""


def keep_best(app: Shell, mode: str, score: int) -> BestNote | None:
    """Keep ``score`` (higher is better: times negated) as the solo player's best in ``mode`` if it
    beats theirs; None for a guest. Call it inside the store batch that keeps the game, so a
    power cut keeps both or neither."""
    player, players = current(app), book(app)
    if player is None or players is None:
        return None
    previous = players.bests(player.id).get(mode)
    return BestNote(player.name, players.add_best(player.id, mode, score), previous)


def best_text(app: Shell, mode: str, show: Show) -> str:
    """The solo player's best in ``mode`` in words ("Ana's best: 1:23"), or "" for a guest."""
    player, players = current(app), book(app)
    if player is None or players is None:
        return ""
    best = players.bests(player.id).get(mode)
    if best is None:
        return _("{name}: no best yet", name=player.name)
    return _("{name}'s best: {best}", name=player.name, best=show(best))


class WhoPlays(BoxLayout):
    """The start card's "who plays" button: Guest, or the chosen player's name and avatar. A tap
    opens the player picker; the choice is kept and ``on_change`` told (to show their bests)."""

    def __init__(self, app: Shell, on_change: Callable[[], None] = lambda: None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app, self._on_change = app, on_change
        self.button: TButton | None = None
        self.show()

    def show(self) -> None:
        from .screens.players import PlayerButton

        self.clear_widgets()
        player = current(self.app)
        if player is None:
            self.button = TButton(msg=N_("Guest: tap to pick your name"), scale=0.8, bg=list(WHO_BG))
        else:
            self.button = PlayerButton(player, scale=0.9, bold=True, bg=list(WHO_BG))
        self.button.bind(on_release=lambda *_: self.pick())
        self.add_widget(self.button)

    def _screen(self) -> Screen | None:
        widget = self.parent
        while widget is not None and not isinstance(widget, Screen):
            widget = widget.parent
        return widget

    def pick(self) -> None:
        from .screens.players import PlayerPickerScreen

        app, screen = self.app, self._screen()

        def back() -> None:
            if screen is not None:
                app.show(screen)

        def chosen(player: Any) -> None:
            choose(app, player)
            back()
            self.show()
            self._on_change()

        picker = PlayerPickerScreen(book(app), on_pick=chosen, on_back=back)
        picker.heading.msg = N_("Who plays?")
        app.show(picker)


def who_plays(app: Shell, on_change: Callable[[], None] = lambda: None, **kwargs: Any) -> WhoPlays | None:
    """A :class:`WhoPlays` button, or None when the table keeps no players."""
    return None if book(app) is None else WhoPlays(app, on_change, **kwargs)


def who_plays_on_top(app: Shell, on_change: Callable[[], None] = lambda: None) -> WhoPlays | None:
    """The start screens' :func:`who_plays` for their top row, beside the title; on a narrow
    (portrait) panel it would leave the title no room, so it is made for a row of its own under the
    top row (``size_hint_x`` 1): the screen adds it there when the top row has not taken it."""
    u = theme.unit()
    if theme.portrait():
        return who_plays(app, on_change, size_hint=(1, None), height=u * 1.0)
    return who_plays(app, on_change, size_hint=(None, 1), width=u * 5.2)


def show_for(mode: str) -> Show:
    """How ``mode``'s best reads (times for the puzzles' "time:" keys)."""
    return show_time if mode.startswith("time:") else show_score


class SoloCard(BoxLayout):
    """A solo start card's own rows: who plays (when the table keeps players) and the bests in
    words, ``bests()`` (the table's, then the player's), shown again when the player changes."""

    def __init__(self, app: Shell, bests: Callable[[], str], **kwargs: Any) -> None:
        u = theme.unit()
        super().__init__(orientation="vertical", spacing=u * 0.1, size_hint=(1, None), **kwargs)
        self.bests = bests
        self.who = who_plays(app, on_change=self.refresh, size_hint=(1, None), height=u * 1.1)
        if self.who is not None:
            self.add_widget(self.who)
        self.label = TLabel(scale=0.85, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 1.0)
        self.add_widget(self.label)
        self.height = sum(w.height for w in self.children) + self.spacing * (len(self.children) - 1)
        self.refresh()
        # the bests are words ("No scores yet", "Ana's best: 42"): a language staff switch to while
        # the start card shows is theirs at once, as its buttons' is
        follow_language(self, lambda card: card.refresh())

    def refresh(self) -> None:
        self.label.text = self.bests()
