"""The table's ladder: each player's place, rating points and games, with their history as a
small chart (points after each rated game), from the players book (``services.players``)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.graphics import Color, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .. import theme
from ..i18n import N_, follow_language, n_
from ..shell import Shell
from ..widgets import TButton, TLabel, panel_background, scrolling_grid
from .players import AvatarMark, PlayerButton, _top_bar


class Sparkline(Widget):
    """A player's points after each game, oldest at the left, scaled to its own range."""

    def __init__(self, points: Sequence[int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.points = list(points)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if not self.points:
            return
        values = self.points if len(self.points) > 1 else self.points * 2
        low, high = min(values), max(values)
        span = max(high - low, 1)
        pad = self.height * 0.12
        step = self.width / (len(values) - 1)
        line = []
        for i, value in enumerate(values):
            line += [self.x + i * step, self.y + pad + (value - low) / span * (self.height - 2 * pad)]
        with self.canvas:
            Color(*theme.TEXT_DIM[:3], 0.35)
            Line(points=[self.x, self.y + pad, self.right, self.y + pad], width=1)
            Color(*(theme.GOOD if values[-1] >= values[0] else theme.ACCENT))
            Line(points=line, width=max(1.5, self.height * 0.035))


class LadderScreen(Screen):
    """Everyone rated at this table, best first."""

    def __init__(self, book: Any, on_back: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(name="ladder", **kwargs)
        u = theme.unit()
        self.book = book
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.2)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, _heading = _top_bar(N_("Ladder"), on_back, u)
        root.add_widget(top)
        scroll, self.rows = scrolling_grid(1, u * 1.1, u * 0.12)
        root.add_widget(scroll)
        self.add_widget(root)
        self.refresh()
        # the games' counts are words ("1 game", "3 solo bests"): a language staff switch to while
        # the ladder shows is theirs at once, as its buttons' is
        follow_language(self, lambda screen: screen.refresh())

    def refresh(self) -> None:
        u = theme.unit()
        self.rows.clear_widgets()
        ladder = self.book.ladder()
        if not ladder:
            self.rows.add_widget(TLabel(msg=N_("No rated games yet: pick your name at a seat before a game."),
                                        scale=0.9, color=theme.TEXT_DIM))
        narrow = theme.portrait()
        for place, row in enumerate(ladder, 1):
            line = BoxLayout(spacing=u * 0.2, padding=[u * 0.15, u * 0.08])
            panel_background(line, theme.PANEL, radius=0.15)
            line.add_widget(TLabel(text=str(place), scale=1.0, bold=True, size_hint=(None, 1), width=u * 0.8))
            line.add_widget(AvatarMark(row.player.avatar, size_hint=(None, 1), width=u * 0.95))
            name = TLabel(text=row.player.name, scale=1.0, bold=True, halign="left", size_hint=(1.4, 1),
                          shorten=True, shorten_from="right")
            games = TLabel(text=n_("{games} game", "{games} games", row.games, games=row.games), scale=0.75,
                           color=theme.TEXT_DIM, halign="left" if narrow else "center")
            if narrow:  # the games under the name, which takes their column: a long name stays whole
                both = BoxLayout(orientation="vertical", size_hint=(2.2, 1))
                name.size_hint = (1, 0.6)
                both.add_widget(name)
                both.add_widget(games)
                line.add_widget(both)
            else:
                line.add_widget(name)
            line.add_widget(TLabel(text=str(row.rating.points), scale=1.1, bold=True, size_hint=(None, 1),
                                   width=u * 1.6))
            if not narrow:
                games.size_hint, games.width = (None, 1), u * 1.9
                line.add_widget(games)
            line.add_widget(Sparkline([r.points for r in self.book.history(row.player.id)], size_hint=(1, 1)))
            self.rows.add_widget(line)
        self.best_buttons: list[PlayerButton] = []
        for player in self.book.all():
            bests = self.book.bests(player.id)
            if not bests:
                continue
            if not self.best_buttons:
                self.rows.add_widget(TLabel(msg=N_("Solo bests"), scale=0.9, bold=True, color=theme.TEXT_DIM,
                                            halign="left", valign="bottom"))
            button = PlayerButton(player, scale=0.9, subtitle=n_("{count} solo best", "{count} solo bests", len(bests),
                                                                count=len(bests)))
            button.bind(on_release=lambda b: self._open(BestsScreen(self.book, b.player, on_back=self.back)))
            self.rows.add_widget(button)
            self.best_buttons.append(button)

    def back(self) -> None:
        self._open(self)

    @staticmethod
    def _open(screen: Screen) -> None:
        from kivy.app import App

        App.get_running_app().show(screen)


class BestsScreen(Screen):
    """A player's solo bests, one row per game or puzzle (the player page the ladder opens)."""

    def __init__(self, book: Any, player: Any, on_back: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(name="player-bests", **kwargs)
        u = theme.unit()
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.2)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, self.heading = _top_bar(N_("Solo bests: {name}"), on_back, u)
        self.heading.values = {"name": player.name}
        top.add_widget(AvatarMark(player.avatar, size_hint=(None, 1), width=u * 1.1))
        root.add_widget(top)
        scroll, self.rows = scrolling_grid(1, u * 0.95, u * 0.12)
        root.add_widget(scroll)
        self.add_widget(root)
        self.bests = book.bests(player.id)
        self.show_bests()
        # the games' titles are composed ("Solitaire · Classic · Line"), sorted as the language
        # writes them: a switch staff make while the page shows is theirs at once
        follow_language(self, lambda screen: screen.show_bests())

    def show_bests(self) -> None:
        """One row per best, the games' titles in the current language, in its alphabetical order."""
        from ..modes.solo.titles import mode_title
        from ..solo_players import show_for

        u = theme.unit()
        self.rows.clear_widgets()
        for title, text in sorted((mode_title(mode), show_for(mode)(score)) for mode, score in self.bests.items()):
            line = BoxLayout(spacing=u * 0.2, padding=[u * 0.25, 0])
            panel_background(line, theme.PANEL, radius=0.15)
            line.add_widget(TLabel(text=title, scale=0.9, halign="left", shorten=True, shorten_from="right"))
            line.add_widget(TLabel(text=text, scale=1.0, bold=True, size_hint=(None, 1), width=u * 2.4))
            self.rows.add_widget(line)


def add_ladder_button(home: Screen, app: Shell) -> None:
    """A "Ladder" button in the home screen's top row, beside the flags, when the table keeps
    players (``app.services.players``)."""
    book = app.services.players
    if book is None:
        return
    u = theme.unit()
    button = TButton(msg=N_("Ladder"), scale=0.95, bold=True, size_hint=(None, 1), width=u * (2.4 if theme.portrait() else 2.6),
                     bg=list(theme.rgb("#35607f")))
    button.bind(on_release=lambda *_: app.show(LadderScreen(book, on_back=app.go_home)))
    top = home.flags.parent
    top.add_widget(button, index=top.children.index(home.flags) + 1)
    home.ladder_button = button
