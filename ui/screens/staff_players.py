"""Staff: the table's players: rename one, merge two that are the same person, delete one, export
everything kept about them (a JSON file next to the database), and start a club evening's
tournament among them (:mod:`.tournament`). Reached from the staff menu.

Merging takes two taps: "Merge" on the duplicate, then "Into this one" on the player to keep.
Deleting asks first; the games a deleted player played stay, counted as a guest's.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from engine.players import Player

from .. import theme
from ..i18n import N_
from ..navigation import destination
from ..services import StoreUnreadable
from ..shell import Shell
from ..widgets import Confirm, TButton, TLabel, panel_background, scrolling_grid
from .players import AvatarMark, NewPlayerScreen, _top_bar
from .tournament import open_tournament


class StaffPlayersScreen(Screen):
    """Every player with Rename, Merge and Delete; Export at the top."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name="staff-players", **kwargs)
        u = theme.unit()
        book = app.services.players
        assert book is not None, "the Players page is offered only at a table that keeps players"
        self.app, self.book = app, book
        self.merging: Player | None = None
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.2)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, _heading = _top_bar(N_("Players"), lambda: app.show(app.staff), u)
        root.add_widget(top)
        self.narrow = theme.portrait()  # the buttons under the title, and under each name
        if self.narrow:
            top = BoxLayout(size_hint=(1, None), height=u * 1.15, spacing=u * 0.25)
            root.add_widget(top)
        wide = {"size_hint": (1, 1)} if self.narrow else {"size_hint": (None, 1), "width": u * 2.6}
        self.export_button = TButton(msg=N_("Export"), scale=0.9, bg=list(theme.rgb("#35607f")), **wide)
        self.export_button.bind(on_release=lambda *_: self.export())
        top.add_widget(self.export_button)
        self.tournament_button = TButton(msg=N_("Club evening"), scale=0.9, bg=list(theme.GO),
                                         **({**wide, "width": u * 3.2} if not self.narrow else wide))
        self.tournament_button.bind(on_release=lambda *_: open_tournament(app))
        top.add_widget(self.tournament_button)
        self.message = TLabel(text="", scale=0.75, color=theme.ACCENT, size_hint=(1, None), height=u * 0.6)
        root.add_widget(self.message)
        scroll, self.rows = scrolling_grid(1, u * (2.3 if self.narrow else 1.15), u * 0.12)
        root.add_widget(scroll)
        self.add_widget(root)
        self.refresh()

    def refresh(self) -> None:
        u = theme.unit()
        self.rows.clear_widgets()
        self.lines: dict[str, BoxLayout] = {}
        for player in self.book.all():
            line = BoxLayout(spacing=u * 0.15, padding=[u * 0.12, u * 0.08])
            panel_background(line, theme.PANEL, radius=0.15)
            who = line
            if self.narrow:  # the name on a line of its own, the buttons under it
                line.orientation, line.spacing = "vertical", u * 0.1
                who = BoxLayout(spacing=u * 0.15)
                line.add_widget(who)
                buttons = BoxLayout(spacing=u * 0.15)
                line.add_widget(buttons)
            who.add_widget(AvatarMark(player.avatar, size_hint=(None, 1), width=u * 0.95))
            who.add_widget(TLabel(text=player.name, scale=0.95, bold=True, halign="left", shorten=True,
                                  shorten_from="right"))
            actions: tuple[tuple[str, theme.RGBA, Callable[[Player], None]], ...]
            if self.merging is None:
                actions = ((N_("Rename"), theme.BUTTON, self.rename), (N_("Merge"), theme.BUTTON, self.start_merge),
                           (N_("Delete"), theme.STOP, self.delete))
            elif self.merging.id == player.id:
                actions = ((N_("Cancel"), theme.BUTTON, self.cancel_merge),)
            else:
                actions = ((N_("Into this one"), theme.GO, self.merge_into),)
            for label, colour, act in actions:
                button = TButton(msg=label, scale=0.75, bg=list(colour),
                                 **({} if self.narrow else {"size_hint": (None, 1), "width": u * 2.3}))
                button.bind(on_release=lambda _b, p=player, a=act: a(p))
                (buttons if self.narrow else line).add_widget(button)
            self.rows.add_widget(line)
            self.lines[player.id] = line

    def rename(self, player: Player) -> None:
        def done(_player: Player) -> None:
            self.refresh()
            self.app.show(self)

        self.app.show(NewPlayerScreen(self.book, on_made=done, on_back=lambda: self.app.show(self), renaming=player))

    def start_merge(self, player: Player) -> None:
        self.merging = player
        self.message.say(N_("Tap the player {name} is the same person as."), name=player.name)
        self.refresh()

    def cancel_merge(self, _player: Player) -> None:
        self.merging = None
        self.message.say("")
        self.refresh()

    def merge_into(self, keep: Player) -> None:
        duplicate, self.merging = self.merging, None
        assert duplicate is not None
        self.book.merge(duplicate.id, keep.id)
        self.message.say(N_("{name} is now part of {kept}."), name=duplicate.name, kept=keep.name)
        self.refresh()

    def delete(self, player: Player) -> None:
        def really() -> None:
            self.book.delete(player.id)
            self.message.say(N_("{name} was deleted."), name=player.name)
            self.refresh()

        self.add_widget(Confirm(N_("Delete {name} and everything kept about them?"), values={"name": player.name},
                                yes=N_("Delete"), no=N_("Cancel"), on_yes=really))

    def export(self) -> None:
        """Write the export next to the database; a card that cannot take it (full, read-only), or
        a database that cannot be read to the end, is said, as the statistics' export says it,
        never an error that stops the kiosk."""
        try:
            path = self.book.export_file()
        except OSError as error:
            self.message.say(N_("Could not write the export: {error}"), error=error.strerror or str(error))
        except StoreUnreadable as error:
            self.message.say(N_("Nothing was exported: {error}"), error=str(error))
        else:
            self.message.say(N_("Exported to {path}"), path=path)


@destination("staff-players")
def staff_players_screen(app: Shell) -> Screen:
    return StaffPlayersScreen(app)


def add_players_button(staff: Screen, app: Shell) -> None:
    """"Players" and "Club evening" (a tournament: :mod:`.tournament`) side by side at the end of
    the staff menu's pages, when the table keeps players (one row: the column has room for no
    more rows at 800x480; on a shorter panel other pages pair up too: ``StaffScreen.fit_nav``)."""
    if app.services.players is None:
        return
    column = staff.nav_column
    row = BoxLayout(spacing=column.spacing)  # as the column's rows apart: pages to tell apart
    button = TButton(msg=N_("Players"), scale=0.8)
    button.bind(on_release=lambda *_: app.open("staff-players"))
    row.add_widget(button)
    club = TButton(msg=N_("Club evening"), scale=0.8, bg=list(theme.GO))
    club.bind(on_release=lambda *_: open_tournament(app))
    row.add_widget(club)
    system = staff.nav["system"]
    column.add_widget(row, index=column.children.index(system if system.parent is column else system.parent))
    staff.players_button, staff.club_button = button, club
    staff.fit_nav()
