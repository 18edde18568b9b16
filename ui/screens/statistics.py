"""The staff statistics page: games played per mode and the robots' results, in words in the
kiosk's language and as bars (drawn with Kivy's own graphics: no plotting library to load on a Pi),
and an export of the statistics and the game records to a USB stick, or a file when there is none.

The store's :meth:`~ui.services.Store.statistics` gives ``games`` ({kind: count}) and ``robots``
({level: {won, lost, drawn}}); :func:`export` writes them with :meth:`~ui.services.Store.records`
as one JSON file.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from .. import theme
from ..i18n import N_, _, n_
from ..widgets import TButton, TLabel

MODE_NAMES = {"strategy": N_("Tantrix"), "gobbles": N_("Gobbles"), "gobble-solo": N_("Gobble solo"),
              "solitaire": N_("Solitaire"), "tanagra": N_("Tanagra"), "puzzle": N_("Puzzles"),
              "rotation": N_("Great Pyramid"), "four-lines": N_("Four lines"), "four-loops": N_("Four loops")}
LEVEL_NAMES = {"beginner": N_("Beginner"), "casual": N_("Casual"), "club": N_("Club"), "expert": N_("Expert")}
EXPORT_RECORDS = 10_000


def mode_name(kind: str) -> str:
    return _(MODE_NAMES[kind]) if kind in MODE_NAMES else kind


def summary(stats: dict[str, Any]) -> list[str]:
    """The statistics as sentences in the current language."""
    games: dict[str, int] = stats.get("games") or {}
    total = sum(games.values())
    if not total:
        return [_("No games played yet.")]
    lines = [n_("{count} game played in all.", "{count} games played in all.", total, count=total)]
    for kind, count in sorted(games.items(), key=lambda kv: -kv[1]):
        lines.append(n_("{mode}: {count} game", "{mode}: {count} games", count, mode=mode_name(kind), count=count))
    for level, results in sorted((stats.get("robots") or {}).items()):
        played = sum(results.values())
        if played:
            won = results.get("won", 0)
            lines.append(n_("Robot {level}: won {won} of {played} game ({percent} %)",
                            "Robot {level}: won {won} of {played} games ({percent} %)", played,
                            level=_(LEVEL_NAMES.get(level, level)), won=won, played=played,
                            percent=round(100 * won / played)))
    return lines


class Bars(Widget):
    """Horizontal bars, one per ``(label, value, colour)``, the longest filling the width."""

    def __init__(self, rows: list[tuple[str, float, theme.RGBA]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows = rows
        self.labels = [TLabel(msg="", text=label, scale=0.7, halign="right") for label, _v, _c in rows]
        for label in self.labels:
            self.add_widget(label)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        if not self.rows:
            return
        largest = max(value for _l, value, _c in self.rows) or 1
        step = self.height / len(self.rows)
        names = self.width * 0.38
        with self.canvas.before:
            for i, ((_label, value, colour), label) in enumerate(zip(self.rows, self.labels)):
                y = self.top - step * (i + 1)
                label.pos, label.size = (self.x, y), (names - theme.unit() * 0.2, step)
                Color(*colour)
                Rectangle(pos=(self.x + names, y + step * 0.15),
                          size=(max(2.0, (self.width - names) * value / largest), step * 0.7))


def statistics_page(app: Any) -> BoxLayout:
    """The page's content: the sentences, the bars of games per mode, the export button."""
    u = theme.unit()
    store = app.services.store
    stats = store.statistics()
    page = BoxLayout(orientation="vertical", spacing=u * 0.15)
    lines = summary(stats)
    page.add_widget(TLabel(msg="", text="\n".join(lines), scale=0.75, halign="left", size_hint=(1, 1.4)))
    games = stats.get("games") or {}
    if games:
        rows = [(mode_name(kind), count, theme.FAMILY_COLOURS.get("tantrix" if kind == "strategy" else kind,
                                                                  theme.BUTTON_DOWN))
                for kind, count in sorted(games.items(), key=lambda kv: -kv[1])]
        page.add_widget(Bars(rows, size_hint=(1, 1)))
    done = TLabel(msg="", scale=0.7, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 1.0)
    button = TButton(msg=N_("Export to a USB stick"), size_hint=(1, None), height=u * 1.1)

    def export_now(*_args: Any) -> None:
        try:
            written = export(store, export_directory())
        except OSError as error:
            done.text = _("Could not write the export: {error}", error=error.strerror or str(error))
        else:
            done.text = _("Written to {path}", path=str(written))

    button.bind(on_release=export_now)
    page.add_widget(button)
    page.add_widget(done)
    return page


def export_directory(media: Path = Path("/media"), home: Path | None = None) -> Path:
    """A USB stick mounted by the desktop (``/media/<user>/<label>``, writable), else the home folder."""
    if media.is_dir():
        for user in sorted(media.iterdir()):
            for stick in sorted(user.iterdir()) if user.is_dir() and os.access(user, os.R_OK) else ():
                if stick.is_dir() and os.access(stick, os.W_OK):
                    return stick
    return home or Path.home()


def export(store: Any, directory: Path, now: float | None = None) -> Path:
    """Write the statistics and the game records to ``directory`` as one JSON file; its path."""
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.localtime(now))
    path = directory / f"tantrix-table-{stamp}.json"
    records = [{"id": number, "kind": kind, "record": record}
               for number, kind, record in store.records(limit=EXPORT_RECORDS)]
    data = {"exported": stamp, "statistics": store.statistics(), "records": records}
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    partial.replace(path)  # a stick pulled out mid-way leaves no file that looks whole
    return path
