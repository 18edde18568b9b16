"""The staff statistics page: games played per mode, day by day over the last weeks, and the
robots' results, in words in the kiosk's language and as bars (drawn with Kivy's own graphics: no
plotting library to load on a Pi), and an export of the statistics and the game records to a USB
stick, or a file when there is none.

The store's :meth:`~ui.services.Store.statistics` gives ``games`` ({kind: count}), ``days``
({"2026-11-26": {kind: count}}), ``newest`` (when the newest game ended) and ``robots`` ({level:
{won, lost, drawn}}); :func:`export` writes them with :meth:`~ui.services.Store.records` as one
JSON file. The days are the clock's: when it is clearly wrong (a Pi with no battery clock and no
time server yet) the page says so instead of counting them.
"""

from __future__ import annotations

import datetime
import json
import os
import time
from pathlib import Path
from typing import Any

from babel.dates import format_skeleton
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .. import theme
from ..audit import fonts
from ..files import write_whole
from ..i18n import N_, _, i18n, n_
from ..services import STAT_DAYS, StoreUnreadable, clock_wrong
from ..shell import Shell
from ..widgets import TButton, TLabel
from ..words import LEVEL_NAMES, MODE_NAMES

EXPORT_RECORDS = 10_000


def mode_name(kind: str) -> str:
    return _(MODE_NAMES[kind]) if kind in MODE_NAMES else kind


def summary(stats: dict[str, Any]) -> list[str]:
    """The statistics as sentences in the current language."""
    if not modes(stats):
        return [_("No games played yet.")]
    return overview(stats) + mode_lines(stats) + robot_lines(stats)


def overview(stats: dict[str, Any], now: float | None = None) -> list[str]:
    """How many games in all and in the last weeks, and the busiest day; the last weeks as the
    clock says ``now`` (default: the time) only when it is right, else that it is not set."""
    total = sum((stats.get("games") or {}).values())
    wrong = clock_notice(stats, time.time() if now is None else now)
    return [n_("{count} game played in all.", "{count} games played in all.", total, count=total),
            *([wrong] if wrong else recent_words(stats.get("days") or {}))]


def clock_notice(stats: dict[str, Any], now: float) -> str | None:
    """What staff are told instead of the last weeks' games when the table's clock is clearly
    wrong (:func:`ui.services.clock_wrong`): the days it would count are not the real ones."""
    if not clock_wrong(now, stats.get("newest")):
        return None
    return _("The table's clock is not set: it says {day}. The games per day show once it is right; "
             "it sets itself when the table is on a network with internet access.",
             day=format_skeleton("yMMMd", datetime.date.fromtimestamp(now), locale=i18n.language))


def modes(stats: dict[str, Any]) -> list[tuple[str, int]]:
    """(kind, games played) per mode, the most played first."""
    return sorted((stats.get("games") or {}).items(), key=lambda kv: -kv[1])


def mode_lines(stats: dict[str, Any]) -> list[str]:
    """The games per mode in words, the most played first."""
    return [n_("{mode}: {count} game", "{mode}: {count} games", count, mode=mode_name(kind), count=count)
            for kind, count in modes(stats)]


def robot_lines(stats: dict[str, Any]) -> list[str]:
    """Each robot level's wins."""
    lines = []
    for level, (won, played) in robot_results(stats):
        lines.append(n_("Robot {level}: won {won} of {played} game ({percent} %)",
                        "Robot {level}: won {won} of {played} games ({percent} %)", played,
                        level=_(LEVEL_NAMES.get(level, level)), won=won, played=played,
                        percent=round(100 * won / played)))
    return lines


def robot_results(stats: dict[str, Any]) -> list[tuple[str, tuple[int, int]]]:
    """(level, (games won, games played)) of every level that played, by level name."""
    return [(level, (results.get("won", 0), sum(results.values())))
            for level, results in sorted((stats.get("robots") or {}).items()) if sum(results.values())]


def day_name(day: datetime.date, weekday: bool = False) -> str:
    """A day as the kiosk's language writes it ("22 Nov", with ``weekday`` "Sat 22 Nov")."""
    return format_skeleton("EMMMd" if weekday else "MMMd", day, locale=i18n.language)


def recent_words(days: dict[str, dict[str, int]]) -> list[str]:
    """The last weeks in words: how many games, and the busiest day."""
    totals = {day: sum(kinds.values()) for day, kinds in days.items()}
    count = sum(totals.values())
    if not count:
        return [_("No games in the last four weeks.")]
    busiest = max(sorted(totals), key=lambda day: totals[day])
    return [n_("{count} game in the last four weeks.", "{count} games in the last four weeks.", count, count=count),
            n_("Busiest day: {day}, {count} game.", "Busiest day: {day}, {count} games.", totals[busiest],
               day=day_name(datetime.date.fromisoformat(busiest), weekday=True), count=totals[busiest])]


class Bars(Widget):
    """Horizontal bars, one per ``(label, value, colour)``, a bar of ``full`` filling the width (by
    default the longest does); each label says its number, so no bar needs its colour told apart."""

    def __init__(self, rows: list[tuple[str, float, theme.RGBA]], full: float | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows, self.full = rows, full
        self.labels = [TLabel(msg="", text=label, scale=0.75, halign="right") for label, _v, _c in rows]
        for label in self.labels:
            self.add_widget(label)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        if not self.rows:
            return
        largest = self.full or max(value for _l, value, _c in self.rows) or 1
        step = self.height / len(self.rows)
        names = self.width * 0.45
        with self.canvas.before:
            for i, ((_label, value, colour), label) in enumerate(zip(self.rows, self.labels)):
                y = self.top - step * (i + 1)
                label.pos, label.size = (self.x, y), (names - theme.unit() * 0.2, step)
                Color(*colour)
                Rectangle(pos=(self.x + names, y + step * 0.15),
                          size=(max(2.0, (self.width - names) * value / largest), step * 0.7))


class DayChart(Widget):
    """The games of each of the last :data:`STAT_DAYS` days as columns, oldest on the left, the
    date under the first day of every week (of every second or fourth week where the chart is too
    narrow for them all: a 7" portrait panel's read "Nov 16Nov 23") and the count over the busiest
    day."""

    def __init__(self, days: dict[str, dict[str, int]], today: datetime.date, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.days = [today - datetime.timedelta(days=STAT_DAYS - 1 - i) for i in range(STAT_DAYS)]
        self.totals = [sum(days.get(day.isoformat(), {}).values()) for day in self.days]
        self.dates = [TLabel(msg="", text=day_name(day), scale=0.7, color=theme.TEXT_DIM, halign="left")
                      for day in self.days[::7]]
        self.top_label = TLabel(msg="", scale=0.65, color=theme.TEXT)
        for label in (*self.dates, self.top_label):
            self.add_widget(label)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_args: Any) -> None:
        u = theme.unit()
        most = max(self.totals) or 1
        foot = u * 0.5  # the dates
        head = u * 0.45  # the busiest day's count
        step = self.width / STAT_DAYS
        scale = (self.height - foot - head) / most
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.TEXT_DIM[:3], 0.5)
            Rectangle(pos=(self.x, self.y + foot - 1.5), size=(self.width, 1.5))
            Color(*theme.ACCENT)
            for i, total in enumerate(self.totals):
                Rectangle(pos=(self.x + step * (i + 0.12), self.y + foot), size=(step * 0.76, total * scale))
        weeks = self._weeks_per_date(step * 7)
        for n, label in enumerate(self.dates):
            label.opacity = 0 if n % weeks else 1
            label.size = (step * 7 * weeks, foot)
            label.pos = (self.x + step * 7 * n, self.y)
        busiest = max(range(STAT_DAYS), key=lambda i: (self.totals[i], i))
        self.top_label.text = str(self.totals[busiest]) if self.totals[busiest] else ""
        self.top_label.size = (u * 1.0, head)
        self.top_label.center_x = min(max(self.x + step * (busiest + 0.5), self.x + u * 0.5), self.right - u * 0.5)
        self.top_label.y = self.y + foot + self.totals[busiest] * scale


    def _weeks_per_date(self, week: float) -> int:
        """How many weeks apart the dates are written: every week's where the widest date and a gap
        fit a week's width, else every second or fourth week's (a date always fits four weeks)."""
        widest = max(fonts.width(label.text, theme.font(label.scale), label.bold, label.font_name)
                     for label in self.dates)
        room = widest + theme.unit() * 0.3
        return next((weeks for weeks in (1, 2) if week * weeks >= room), 4)


def family_colour(kind: str) -> theme.RGBA:
    """The colour a mode's games are drawn in: its family's (Puzzles and the like: a neutral one)."""
    return theme.FAMILY_COLOURS.get("tantrix" if kind == "strategy" else kind, theme.BUTTON_DOWN)


def statistics_page(app: Shell) -> ScrollView:
    """The page's content, scrolled (it is longer than a 7" panel): the sentences, the games of the
    last weeks day by day (when the clock is right), the games per mode and the robots' win rates as bars, the export button."""
    u = theme.unit()
    store = app.services.store
    stats = store.statistics()
    page = BoxLayout(orientation="vertical", spacing=u * 0.2, size_hint=(1, None), padding=[0, 0, u * 0.3, 0])
    page.bind(minimum_height=page.setter("height"))

    def words(text: str, scale: float = 0.8, bold: bool = False) -> None:
        label = Label(text=text, font_size=theme.font(scale), bold=bold, color=theme.TEXT, halign="left",
                      valign="top", size_hint=(1, None))
        label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                   texture_size=lambda w, size: setattr(w, "height", size[1]))
        page.add_widget(label)

    now = time.time()
    words("\n".join(overview(stats, now) if modes(stats) else summary(stats)))
    if modes(stats):
        if clock_notice(stats, now) is None:  # else the days are the wrong clock's: no chart
            words(_("Games per day, the last four weeks"), 0.85, bold=True)
            page.add_widget(DayChart(stats.get("days") or {}, datetime.date.fromtimestamp(now), size_hint=(1, None),
                                     height=u * 3.2))
        words(_("Games per mode"), 0.85, bold=True)
        rows: list[tuple[str, float, theme.RGBA]] = [(line, count, family_colour(kind))
                                                      for line, (kind, count) in zip(mode_lines(stats), modes(stats))]
        page.add_widget(Bars(rows, size_hint=(1, None), height=u * 0.7 * len(rows)))
    robots = robot_results(stats)
    if robots:
        words(_("Robots' wins"), 0.85, bold=True)
        words("\n".join(robot_lines(stats)))
        rows = [(_("{level}: {percent} %", level=_(LEVEL_NAMES.get(level, level)), percent=round(100 * won / played)),
                 won / played, theme.BUTTON_DOWN) for level, (won, played) in robots]
        page.add_widget(Bars(rows, full=1.0, size_hint=(1, None), height=u * 0.7 * len(rows)))
    done = TLabel(msg="", scale=0.7, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 1.0)
    button = TButton(msg=N_("Export to a USB stick"), size_hint=(1, None), height=u * 1.1)

    def export_now(*_args: Any) -> None:
        try:
            written = export(store, export_directory())
        except OSError as error:
            done.text = _("Could not write the export: {error}", error=error.strerror or str(error))
        except StoreUnreadable as error:
            done.text = _("Nothing was exported: {error}", error=str(error))
        else:
            done.text = _("Written to {path}", path=str(written))

    button.bind(on_release=export_now)
    page.add_widget(button)
    page.add_widget(done)
    scroll = ScrollView(do_scroll_x=False, bar_width=u * 0.15)
    scroll.add_widget(page)
    return scroll


def export_directory(media: Path = Path("/media"), home: Path | None = None) -> Path:
    """A USB stick mounted by the desktop (``/media/<user>/<label>``, writable), else the home folder."""
    if media.is_dir():
        for user in sorted(media.iterdir()):
            for stick in sorted(user.iterdir()) if user.is_dir() and os.access(user, os.R_OK) else ():
                if stick.is_dir() and os.access(stick, os.W_OK):
                    return stick
    return home or Path.home()


def export(store: Any, directory: Path, now: float | None = None) -> Path:
    """Write the statistics and the game records to ``directory`` as one JSON file; its path.
    :class:`ui.services.StoreUnreadable` when the store cannot be read to the end: nothing is
    written (a failed read gave no records, and the file said no game was kept)."""
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.localtime(now))
    path = directory / f"tantrix-table-{stamp}.json"
    with store.exporting():
        records = [{"id": number, "kind": kind, "record": record}
                   for number, kind, record in store.records(limit=EXPORT_RECORDS)]
        data = {"exported": stamp, "statistics": store.statistics(), "records": records}
    write_whole(path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))  # a stick pulled out mid-way
    return path
