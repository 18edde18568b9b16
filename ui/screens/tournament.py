"""A club evening: a Swiss tournament of two-player games, on one table or on several of a club's.

Staff start it from the staff menu (**Club evening**, beside Players): they tap the players taking
part (two are enough: more rounds than opponents repeat pairings, a best of three for two), the
number of rounds, the clock per player, and what fills an odd count: a bye each round, or a robot
of a fixed level (its games rated as any robot's). The tournament screen then shows the round's
pairings and the standings (points, Buchholz, Sonneborn-Berger: :mod:`engine.tournament` pairs and
ranks, nothing here decides either). **Play** on a pairing starts that game at the table, the first
named on Red, with the players seated (so it is rated) and the tournament's clocks; when the game
ends its result goes into the tournament by itself and the results screen leads back to the
tournament. When the last game of a round has its result, the next round is paired.

A club whose tables share a broker (``[club]``) plays the evening on all of them: at another table,
staff's **Club evening** opens the tournament a table of the club runs, its pairings with **Play**
and the table where each is being played (Play there asks first: a pairing played twice counts
its first result). While the table running it is not connected, staff elsewhere may run it at
their table (**Run it here**); the screens follow the evening to whichever table runs it. The
game's result travels in its record to the table that runs the tournament, which enters it and
pairs on (:mod:`ui.tournament_store`). Staff there let players leave or join late (**Players**).

The tournament is kept in the store, with the game being played, so a power cut loses nothing: the
game resumes as any game does and reports its result when it ends. Its start (the mark that it is
played here, its seats, clocks and journal) is one store batch, so a cut leaves all of it or none. The game's record (with its
result in the tournament), its rating and its entry in the tournament are written in one store batch
(see ``ui.modes.strategy.play.StrategyScreen.finish``): a cut before it ends resumes the finished
game, which reports once; a cut after it leaves nothing to report, and a result found again among the
games is entered once, so a result counts exactly once. A game lost on time counts as lost whatever
its scores (its loser's score is taken as one below the winner's when it was higher, for the margin
tie-break).
"""

from __future__ import annotations

import json
import time
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from engine.clock import CASUAL_MINUTES
from engine.strategy.game import StrategyGame
from engine.ratings import ROBOT
from engine.tournament import Game, Tournament

from .. import theme
from ..i18n import N_, _, follow_language
from ..navigation import destination
from ..qr import TakeHome
from ..seat_players import seat_again
from ..tournament_store import (club_tournament, evening, join, load, names_kept, playing_at, running_elsewhere,
                                runs_now, save, start_game, take_over, withdraw)
from ..shell import Shell
from ..words import LEVEL_NAMES
from ..widgets import Chip, ChipRow, Confirm, TButton, TLabel, panel_background, scrolling_grid
from .players import _top_bar

CLOCK_LABELS = {0: N_("No clock"), 10: N_("10 min"), 15: N_("15 min"), 20: N_("20 min")}
"""The clock chips, one per engine.clock.CASUAL_MINUTES."""
MOST_ROUNDS = 5
HEADER = ("#", N_("Player"), N_("Points"), N_("Buchholz"), N_("S-B"))
"""The standings' columns (S-B: Sonneborn-Berger)."""


def robot_level(key: str | None) -> str | None:
    """The level of a tournament's robot (``robot:<level>``), None for a player."""
    return key.removeprefix(ROBOT) if key is not None and key.startswith(ROBOT) else None


def play(app: Shell, tournament: Tournament, first: str, second: str, host: str | None = None) -> Any:
    """Start the game between ``first`` and ``second`` at the table (first on Red), of this table's
    tournament or of the one the club's table ``host`` runs; a robot of the tournament plays its
    seat itself."""
    game = StrategyGame.new(2, "RY", [robot_level(first), robot_level(second)])
    # one transaction: the mark saying the evening's game is played here, and its seats, clocks and
    # journal (the game's screen journals it). Cut after the mark alone, the pairing was shown as
    # played at this table, to every table of the club, with no game here to resume or leave
    with app.services.store.batch():
        seat_again(app, game, [None if robot_level(key) else key for key in (first, second)])
        start_game(app, tournament, host, first, second, game)
        return app.open("tantrix-game", game=game, minutes=int(tournament.minutes))


def _name(app: Shell, player: str | None, names: dict[str, str]) -> str:
    """A player's name: the table's own for a player it knows (renamed or not), else the name the
    tournament's table gave."""
    level = robot_level(player)
    if level is not None:
        return _("Robot: {level}", level=_(LEVEL_NAMES.get(level, level)))
    book = app.services.players
    if book is not None and player is not None:
        try:
            return str(book.get(player).name)
        except Exception:  # a player deleted since, or not heard of here yet
            pass
    return names.get(player or "") or _("(deleted player)")


def _under(pair: TLabel, message: str, values: dict[str, str], colour: Any) -> BoxLayout:
    """A pairing's names with a small line under them (where it is played, who left)."""
    both = BoxLayout(orientation="vertical")
    pair.size_hint_y = 0.6
    both.add_widget(pair)
    both.add_widget(TLabel(msg=message, values=values, scale=0.65, color=colour, halign="left", shorten=True,
                           size_hint_y=0.4))
    return both


# ------------------------------------------------------------------------------------ screens


class TournamentSetupScreen(Screen):
    """Who plays (a chip per player, two or more), how many rounds, the clock; Start."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name="tournament-setup", **kwargs)
        u = theme.unit()
        self.app = app
        self.rounds = 3
        self.minutes = 15
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.15)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, _heading = _top_bar(N_("New tournament"), lambda: app.open("staff-players"), u)
        self.start_button = TButton(msg=N_("Start"), scale=0.95, bold=True, bg=list(theme.GO), size_hint=(None, 1),
                                    width=u * 2.6)
        self.start_button.bind(on_release=lambda *_: self.start())
        top.add_widget(self.start_button)
        root.add_widget(top)
        self.message = TLabel(msg=N_("Tap the players taking part."), scale=0.75, color=theme.ACCENT,
                              size_hint=(1, None), height=u * 0.6)
        root.add_widget(self.message)
        self.chips: list[Chip] = []
        scroll, grid = scrolling_grid(3, u * 1.0, theme.min_gap())
        book = app.services.players
        assert book is not None, "tournaments are offered only at a table that keeps players"
        for player in book.all():
            chip = Chip(text=player.name, value=player.id, scale=0.8)
            chip.bind(on_release=lambda c: self.toggle(c))
            grid.add_widget(chip)
            self.chips.append(chip)
        root.add_widget(scroll)
        self.rounds_row = self._row(root, N_("Rounds"), tuple((n, str(n)) for n in range(1, MOST_ROUNDS + 1)),
                                    self.rounds, lambda v: setattr(self, "rounds", v))
        self.clock_row = self._row(root, N_("Clock per player"), tuple((m, CLOCK_LABELS[m]) for m in CASUAL_MINUTES),
                                   self.minutes, lambda v: setattr(self, "minutes", v))
        from ..modes.strategy.seats import STRATEGY_LEVELS

        self.robot: str | None = None  # an odd count: a bye each round, or a robot of this level
        self.robot_row = self._row(root, N_("Odd number"), ((None, N_("A bye")), *STRATEGY_LEVELS), self.robot,
                                   lambda v: setattr(self, "robot", v))
        self.add_widget(root)

    @staticmethod
    def _row(root: BoxLayout, label: str, values: tuple[tuple[Any, str], ...], chosen: Any, on_choose: Any) -> ChipRow:
        """A choice: its label on the left and its chips, or on a portrait panel (narrow, and tall
        enough) the label over the chips, which take the whole width: five chips in 70 % of it
        left 'Nowicjusz' 79 px, broken, or shrunk under the legible size."""
        u = theme.unit()
        if theme.portrait():
            line = BoxLayout(orientation="vertical", size_hint=(1, None), height=u * 1.65, spacing=u * 0.05)
            line.add_widget(TLabel(msg=label, scale=0.8, size_hint=(1, None), height=u * 0.6))
            row = ChipRow(values, chosen, on_choose, scale=0.8, size_hint=(1, 1))
            line.add_widget(row)
            root.add_widget(line)
            return row
        line = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.15)
        line.add_widget(TLabel(msg=label, scale=0.8, halign="right", size_hint=(0.3, 1)))
        row = ChipRow(values, chosen, on_choose, scale=0.8, size_hint=(0.7, 1))
        line.add_widget(row)
        root.add_widget(line)
        return row

    def toggle(self, chip: Chip) -> None:
        chip.selected = not chip.selected
        self.message.msg, self.message.values = N_("Tap the players taking part."), {}

    def chosen(self) -> list[str]:
        return [chip.value for chip in self.chips if chip.selected]

    def start(self) -> None:
        players = self.chosen()
        if len(players) < 2:
            self.message.msg, self.message.values = N_("Choose two players or more."), {}
            return
        if len(players) % 2 and self.robot is not None:
            players.append(f"{ROBOT}{self.robot}")
        tournament = Tournament(tuple(players), self.rounds, float(self.minutes), started=time.time())
        tournament.pair_next_round()
        save(self.app, tournament)
        self.app.show(TournamentScreen(self.app, staff=True))


class TournamentScreen(Screen):
    """The round's pairings (Play, the club's table playing it, or the result) beside the standings;
    for staff at the table that runs it, End. ``host``: the club's table whose tournament this is
    (None: this table's). It follows the tournament about once a second: results entered, the next
    round paired, another table starting a game."""

    def __init__(self, app: Shell, staff: bool = False, host: str | None = None, **kwargs: Any) -> None:
        super().__init__(name="tournament", **kwargs)
        u = theme.unit()
        self.app, self.staff, self.host = app, staff, host
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.15)
        panel_background(root, theme.TABLE_DARK, radius=0)
        back = (lambda: app.open("staff-players")) if staff else app.go_home
        top, self.heading = _top_bar(N_("Tournament"), back, u)
        self.end_button: TButton | None = None
        self.players_button: TButton | None = None
        self.phone_button: TButton | None = None
        address = app.services.settings.web_address
        if not staff and address:  # the spectator page follows the evening: players take it along
            self.phone_button = TButton(msg=N_("On your phone"), scale=0.85, size_hint=(None, 1), width=u * 3.2)
            self.phone_button.bind(on_release=lambda *_: self.add_widget(TakeHome(
                address, caption=N_("Scan to follow the evening on your phone: pairings, results, standings."))))
            top.add_widget(self.phone_button)
        if staff and host is None:  # who leaves, who arrives late; End
            self.players_button = TButton(msg=N_("Players"), scale=0.85, size_hint=(None, 1), width=u * 2.4)
            self.players_button.bind(on_release=lambda *_: app.show(TournamentPlayersScreen(app)))
            top.add_widget(self.players_button)
            self.end_button = TButton(msg=N_("End"), scale=0.85, bg=list(theme.STOP), size_hint=(None, 1),
                                      width=u * 2.0)
            self.end_button.bind(on_release=lambda *_: self.end())
            top.add_widget(self.end_button)
        root.add_widget(top)
        self.notice = BoxLayout(size_hint=(1, None), height=0, spacing=u * 0.15, padding=[u * 0.12, u * 0.05])
        root.add_widget(self.notice)  # for staff, while the table running the evening is away
        self.take_button: TButton | None = None
        body = BoxLayout(spacing=u * 0.3, orientation="vertical" if theme.portrait() else "horizontal")
        left, self.pairings = scrolling_grid(1, u * 1.1, u * 0.12)  # Play a fingertip high (9 mm)
        body.add_widget(left)
        right, self.standings = scrolling_grid(5, u * 0.85, (u * 0.1, u * 0.05))
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        self.tournament: Tournament | None = None
        self._shown: str | None = None  # what is on screen: a refresh rebuilds it only when it changed
        self._following: Any = None
        self.refresh()
        # a robot's name is composed ("Robot: Expert"): a language staff switch to while the evening
        # shows is theirs at once, as its buttons' is
        follow_language(self, lambda screen: screen._retranslate())

    def _retranslate(self) -> None:
        self._shown = None
        self.refresh()

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_enter(self, *_args: Any) -> None:
        if self._following is None:
            self._following = Clock.schedule_interval(lambda _dt: self.refresh(), 1.0)

    def on_leave(self, *_args: Any) -> None:
        if self._following is not None:
            self._following.cancel()
            self._following = None

    def _state(self) -> tuple[Tournament | None, dict[str, str], dict[frozenset[str], str]]:
        """The tournament, its players' names as its table gave them, the tables playing its pairings."""
        if self.host is None:
            tournament = load(self.app)
            if tournament is not None:
                return tournament, names_kept(self.app), playing_at(self.app, tournament.id)
            moved = evening(self.app)  # another table took this one's evening over meanwhile: shown from there
            if moved is None or moved[0] is None:
                return None, {}, {}
            self.host = moved[0]
            for button in (self.end_button, self.players_button):
                if button is not None:
                    button.parent.remove_widget(button)
            self.end_button = self.players_button = None
        found = club_tournament(self.app, self.host)
        taker = runs_now(self.app, found[0].id) if found is not None else None
        if taker is not None and taker != self.host:  # taken over: followed there
            self.host = taker
            found = club_tournament(self.app, taker)
        return found or (None, {}, {})

    def _away(self) -> str | None:
        """For staff looking at another table's evening: "here" while this table is not connected
        to the club (what it heard of the others may be old, that table's being away too), "host"
        while the table running it is not connected: they may then run it here (:meth:`take_over`)."""
        club = self.app.services.club
        if not self.staff or self.host is None or club is None:
            return None
        if not club.connected():
            return "here"
        return None if club.online(self.host) else "host"

    def refresh(self) -> None:
        u = theme.unit()
        tournament, names, at = self._state()
        away = self._away()
        shown = json.dumps([tournament.to_json() if tournament is not None else None, names,
                            sorted((sorted(pair), table) for pair, table in at.items()), self.host, away],
                           sort_keys=True)
        if shown == self._shown:
            return
        self._shown = shown
        self.tournament = tournament
        self.pairings.clear_widgets()
        self.standings.clear_widgets()
        if tournament is None:
            self.heading.msg, self.heading.values = N_("No tournament"), {}
            self._say_away(None, u)
            return
        self._say_away(None if tournament.finished else away, u)
        done = tournament.finished
        if self.host is None:
            self.heading.msg = N_("Final standings") if done else N_("Round {round} of {rounds}")
        else:
            self.heading.msg = N_("{table}: final standings") if done else N_("{table}: round {round} of {rounds}")
        self.heading.values = {"round": len(tournament.played), "rounds": tournament.rounds, "table": self.host}
        for game in tournament.played[-1]:
            self.pairings.add_widget(self._pairing(tournament, game, names, at, u))
        if len(tournament.played) > 1:  # the round just played, paired on by its last result
            self.pairings.add_widget(TLabel(msg=N_("Round {round}"), values={"round": len(tournament.played) - 1},
                                            scale=0.7, color=theme.TEXT_DIM, halign="left", valign="bottom"))
            for game in tournament.played[-2]:
                self.pairings.add_widget(self._pairing(tournament, game, names, at, u))
        for column, text in enumerate(HEADER):
            words = {"text": text} if column == 0 else {"msg": text}
            self.standings.add_widget(TLabel(**words, scale=0.62, color=theme.TEXT_DIM,
                                             halign="left" if column == 1 else "center", **_widths(column, u)))
        for place, row in tournament.placed():
            cells = (str(place), _name(self.app, row.player, names), _points(row.points), _points(row.buchholz),
                     _points(row.sonneborn_berger))
            left = row.player in tournament.withdrawn  # still ranked, dimmed
            for column, text in enumerate(cells):
                self.standings.add_widget(TLabel(text=text, scale=0.85, bold=column == 1, shorten=column == 1,
                                                 shorten_from="right", halign="left" if column == 1 else "center",
                                                 color=theme.TEXT_DIM if left else theme.TEXT, **_widths(column, u)))

    def _pairing(self, tournament: Tournament, game: Game, names: dict[str, str], at: dict[frozenset[str], str],
                 u: float) -> BoxLayout:
        """One pairing of the round: its players, then its result, or Play (and the table playing it)."""
        line = BoxLayout(spacing=u * 0.15, padding=[u * 0.12, u * 0.05])
        panel_background(line, theme.PANEL, radius=0.15)
        first = _name(self.app, game.first, names)
        if game.second is None:
            line.add_widget(TLabel(msg=N_("{name}: a bye (1 point)"), values={"name": first}, scale=0.85,
                                   halign="left", shorten=True))
            return line
        second = _name(self.app, game.second, names)
        pair = TLabel(text=f"{first} – {second}", scale=0.85, bold=True, halign="left", shorten=True,
                      shorten_from="right")
        table = at.get(frozenset((game.first, game.second))) if not game.played else None
        if table is not None:  # being played there now, said under the names; Play stays (asking
            # first), should that table's game end unfinished without a word
            line.add_widget(_under(pair, N_("at {table}"), {"table": table}, theme.ACCENT))
        elif game.forfeit is not None:  # who left, so the forfeit's winner is plain
            leaver = _name(self.app, game.forfeit, names)
            line.add_widget(_under(pair, N_("{name} left"), {"name": leaver}, theme.TEXT_DIM))
        else:
            line.add_widget(pair)
        if game.scores is not None:
            line.add_widget(TLabel(text=f"{game.scores[0]} : {game.scores[1]}", scale=0.9, bold=True,
                                   size_hint=(None, 1), width=u * 1.8))
            return line
        if game.forfeit is not None:  # one of them left the evening before playing it
            line.add_widget(TLabel(msg=N_("forfeit"), scale=0.75, color=theme.TEXT_DIM, size_hint=(None, 1),
                                   width=u * 1.8))
            return line
        button = TButton(msg=N_("Play"), scale=0.8, bold=True, bg=list(theme.GO), size_hint=(None, 1), width=u * 1.8)
        button.bind(on_release=lambda _b, a=game.first, b=game.second: self.start_pairing(tournament, a, b, table))
        line.add_widget(button)
        return line

    def start_pairing(self, tournament: Tournament, first: str, second: str, table: str | None) -> None:
        """Start the pairing's game here; if ``table`` plays it now, ask first: both games would be
        rated, and only the first result to come in counts for the tournament."""
        def start() -> None:
            play(self.app, tournament, first, second, self.host)

        if table is None:
            start()
            return
        self.add_widget(Confirm(N_("This game is being played at {table}. Play it here too? Only the first "
                                   "result counts."), values={"table": table}, yes=N_("Play here"), no=N_("Cancel"),
                                on_yes=start))

    def _say_away(self, away: str | None, u: float) -> None:
        """For staff, while the table running the evening is away: say so, and offer to run it here;
        while this table is away from the club, say that instead (the other table may be running
        the evening all along: taking it over from here would split it in two)."""
        self.notice.clear_widgets()
        self.take_button = None
        self.notice.height = u * 1.3 if away else 0
        if away == "here":
            self.notice.add_widget(TLabel(msg=N_("This table is not connected to the club: the evening as {table} "
                                                 "last told it."), values={"table": self.host}, scale=0.75,
                                          color=theme.ACCENT, halign="left"))
            return
        if not away:
            return
        self.notice.add_widget(TLabel(msg=N_("{table} is not connected: the next round waits for it."),
                                      values={"table": self.host}, scale=0.75, color=theme.ACCENT, halign="left"))
        self.take_button = TButton(msg=N_("Run it here"), scale=0.8, bold=True, size_hint=(None, 1), width=u * 3.0)
        self.take_button.bind(on_release=lambda *_: self.take_over())
        self.notice.add_widget(self.take_button)

    def take_over(self) -> None:
        """Ask, then run the evening at this table from now on (``ui.tournament_store.take_over``)."""
        host = self.host
        if host is None:
            return

        def run_here() -> None:
            if take_over(self.app, host) is not None:
                self.app.show(TournamentScreen(self.app, staff=True))

        self.add_widget(Confirm(N_("Run {table}'s evening at this table? It pairs the next rounds from now on; "
                                   "{table} gives the evening up when it comes back."), values={"table": host},
                                yes=N_("Run it here"), no=N_("Cancel"), on_yes=run_here))

    def end(self) -> None:
        def really() -> None:
            save(self.app, None)
            self.app.open("staff-players")

        self.add_widget(Confirm(N_("End the tournament? Its standings are not kept."), yes=N_("End"), no=N_("Cancel"),
                                on_yes=really))


class TournamentPlayersScreen(Screen):
    """For staff at the table running the evening: who leaves it (their game not yet played is lost
    by forfeit, so the round can end), who comes back, and who arrives late (paired from the next
    round on). Players' names and standings stay as they were."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name="tournament-players", **kwargs)
        u = theme.unit()
        self.app = app
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.15)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, _heading = _top_bar(N_("Players"), lambda: app.show(TournamentScreen(app, staff=True)), u)
        root.add_widget(top)
        self.message = TLabel(msg="", scale=0.75, color=theme.ACCENT, size_hint=(1, None), height=u * 0.6)
        root.add_widget(self.message)
        scroll, self.grid = scrolling_grid(1, u * 1.1, u * 0.12)
        root.add_widget(scroll)
        self.add_widget(root)
        self.buttons: dict[str, TButton] = {}
        self.refresh()
        follow_language(self, lambda screen: screen.refresh())  # a robot's name is composed

    def refresh(self) -> None:
        u = theme.unit()
        tournament = load(self.app)
        self.grid.clear_widgets()
        self.buttons = {}
        if tournament is None:
            return
        names = names_kept(self.app)
        book = self.app.services.players
        late = [p.id for p in book.all()] if book is not None else []
        for player in (*tournament.players, *(p for p in late if p not in tournament.players)):
            line = BoxLayout(spacing=u * 0.15, padding=[u * 0.12, u * 0.05])
            panel_background(line, theme.PANEL, radius=0.15)
            taking_part = player in tournament.active
            line.add_widget(TLabel(text=_name(self.app, player, names), scale=0.85, bold=taking_part, halign="left",
                                   shorten=True, color=theme.TEXT if taking_part else theme.TEXT_DIM))
            if taking_part:
                button = TButton(msg=N_("Leaves"), scale=0.75, bg=list(theme.STOP), size_hint=(None, 1), width=u * 3.0)
                button.bind(on_release=lambda _b, p=player: self.leaves(p))
            else:
                come = N_("Comes back") if player in tournament.players else N_("Joins late")
                button = TButton(msg=come, scale=0.75, bg=list(theme.GO), size_hint=(None, 1), width=u * 3.0)
                button.bind(on_release=lambda _b, p=player: self.joins(p))
            line.add_widget(button)
            self.buttons[player] = button
            self.grid.add_widget(line)

    def leaves(self, player: str) -> None:
        """Ask, then take ``player`` out of the rounds to come."""
        name = _name(self.app, player, names_kept(self.app))

        def really() -> None:
            withdraw(self.app, player)
            self.message.msg, self.message.values = N_("{name} left the evening."), {"name": name}
            self.refresh()

        self.add_widget(Confirm(N_("{name} leaves the evening? A game of theirs not played yet is lost by forfeit."),
                                values={"name": name}, yes=N_("Leaves"), no=N_("Cancel"), on_yes=really))

    def joins(self, player: str) -> None:
        """``player`` takes part again, or for the first time, from the next round on."""
        join(self.app, player)
        self.message.msg = N_("{name} plays from the next round on.")
        self.message.values = {"name": _name(self.app, player, names_kept(self.app))}
        self.refresh()


def _widths(column: int, u: float) -> dict[str, Any]:
    """The standings' columns: the name takes what the numbers leave."""
    if column == 1:
        return {}
    return {"size_hint_x": None, "width": u * (0.6 if column == 0 else 1.35)}


def _points(value: float) -> str:
    """1, 1.5, 2: tournament points without a needless ".0"."""
    return f"{value:g}"


@destination("tournament")
def tournament_screen(app: Shell) -> Screen:
    """The players' door (the home screen's Club evening, a tournament game's results): this table's
    tournament, or the club's whose game was played here, or one the club runs."""
    found = evening(app)
    return TournamentScreen(app, host=found[0] if found is not None else None)


def add_evening_button(home: Any, app: Shell) -> None:
    """A "Club evening" button among the home screen's games while an evening runs here or at
    another table of the club, its round under it: the players' way back to the pairings however
    long the table stood idle (staff start an evening; players need no PIN to play its games)."""
    if app.services.players is None:
        return
    button = TButton(msg=N_("Club evening"), scale=1.3, bold=True, bg=list(theme.rgb("#3b4a8c")))  # none of the games'
    button.bind(on_release=lambda *_: app.open("tournament"))
    grid = next(iter(home.buttons.values())).parent
    home.evening_button = button

    def refresh(*_args: Any) -> None:
        found = evening(app)
        if found is None:
            if button.parent is not None:
                grid.remove_widget(button)
            return
        tournament = found[1]  # whichever table runs it: the screen it opens says
        button.subtitle_values = {"round": len(tournament.played), "rounds": tournament.rounds}
        button.subtitle = N_("Final standings") if tournament.finished else N_("Round {round} of {rounds}")
        if button.parent is None:
            grid.add_widget(button)

    following: list[Any] = []

    def enter(*_args: Any) -> None:
        refresh()
        following.append(Clock.schedule_interval(refresh, 2.0))  # another table may start one meanwhile

    def leave(*_args: Any) -> None:
        while following:
            following.pop().cancel()

    home.bind(on_pre_enter=enter, on_leave=leave)
    refresh()


def open_tournament(app: Shell) -> Screen:
    """Staff's door: the tournament this table runs, else the one the club's other tables run
    (this table then plays its pairings too), else a new one's setup."""
    here = load(app)
    elsewhere = running_elsewhere(app) if here is None else None
    if here is not None or elsewhere is not None:
        screen: Screen = TournamentScreen(app, staff=True, host=elsewhere)
    else:
        screen = TournamentSetupScreen(app)
    app.show(screen)
    return screen
