"""The coach in the strategy game: "what would the master play?", asked by a learner.

The play screen (:meth:`ui.modes.strategy.play.StrategyScreen.ask_coach`) lets the master search
on a worker thread when the player to move asks (staff can turn the coach off in the settings), so
the board keeps drawing, and gets the :class:`engine.strategy.robots.coach.Advice` on the UI
thread. It shows the placement pale on the board and a :class:`CoachCard` with one sentence of why
(:func:`coach_sentence`, in the player's language) and two buttons: play it, or close the card and
think again.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout

from engine.strategy.robots.coach import Advice, Reason

from ... import theme
from ...i18n import N_, _
from ...widgets import TButton, TLabel, panel_background
from ...words import COLOUR_WORDS

SENTENCES = {
    "closes-loop": N_("Closes your {colour} loop of {length} tiles."),
    "link": N_("Joins two pieces of your {colour} line into one line of {length} tiles."),
    "link-block": N_("Joins two pieces of your {colour} line into one line of {length} tiles and blocks the {other} line."),
    "extend": N_("Extends your {colour} line to {length} tiles."),
    "extend-block": N_("Extends your {colour} line to {length} tiles and blocks an end of the {other} line."),
    "fill-block": N_("Fills a forced space that would otherwise help the {other} line."),
    "block": N_("Blocks the best {other} line."),
    "start": N_("Starts your {colour} line."),
    "fill-safe": N_("Fills a forced space in a way that gives the {other} line nothing."),
    "fill": N_("Fills a forced space, as the rules ask."),
    "only": N_("The only placement the rules allow."),
    "grow": N_("Gives your {colour} line more room to grow."),
    "safe": N_("Placed this way, the tile gives the {other} line nothing."),
    "quiet": N_("A quiet move: it changes no line in play, and tried {tries} times with tiles the bag might bring next, it did best."),
    "outlook": N_("Tried {tries} times with tiles the bag might bring next, it did best."),
}
"""One sentence per reason code of engine.strategy.robots.coach."""


def coach_sentence(reason: Reason) -> str:
    """The reason in the current language, colours named as the player sees them."""
    return _(SENTENCES[reason.code], **_values(reason))


LONGEST, SHORTEST = 9.5, 5.0
"""The coach's card's length along its player's edge, in units: at most a comfortable line to
read; at least what its two buttons side by side need."""


class CoachCard(BoxLayout):
    """The coach's answer: its sentence, "Play it" and "Close" (the screen gives the actions).
    :meth:`lay_out` makes it as long along its player's edge as the table there has room for, and
    as tall as the sentence's lines then need in the language it opens in: a long one wraps, never
    spills over the buttons. :meth:`lengths` are the ones to try, longest first."""

    def __init__(self, advice: Advice, on_play: Callable[[], None], on_close: Callable[[], None],
                 **kwargs: Any) -> None:
        u = theme.unit()
        padding, spacing = u * 0.15, u * 0.12
        self.advice = advice
        self.sentence = TLabel(msg=SENTENCES[advice.reason.code], values=_values(advice.reason),
                               scale=0.8, halign="left", size_hint_y=None)
        self.sentence.bind(size=lambda label, size: setattr(label, "text_size", size))
        kwargs.setdefault("size_hint", (None, None))
        super().__init__(orientation="vertical", padding=padding, spacing=spacing, **kwargs)
        panel_background(self, theme.rgb("#1d2530", 0.97), radius=0.25)
        self.title = TLabel(msg=N_("The master would play this:"), scale=0.7, bold=True, halign="left",
                            size_hint_y=None, height=u * 0.55)
        self.add_widget(self.title)
        self.add_widget(self.sentence)
        buttons = BoxLayout(spacing=u * 0.2, size_hint_y=None, height=u * 1.0)
        self.play_button = TButton(msg=N_("Play it"), scale=0.8)
        self.play_button.bind(on_release=lambda *_: on_play())
        self.close_button = TButton(msg=N_("Close"), scale=0.8)
        self.close_button.bind(on_release=lambda *_: on_close())
        buttons.add_widget(self.play_button)
        buttons.add_widget(self.close_button)
        self.add_widget(buttons)
        self.buttons = buttons
        self.lay_out(u * LONGEST)

    @staticmethod
    def lengths(room: float) -> list[float]:
        """The lengths to try along an edge that gives ``room``, longest first, a quarter unit
        apart: from the longest the card reads well at (no longer than ``room``) to the shortest
        its buttons allow."""
        u = theme.unit()
        longest = max(min(u * LONGEST, room), u * SHORTEST)
        steps = math.ceil((longest - u * SHORTEST) / (u * 0.25))
        return [max(longest - k * u * 0.25, u * SHORTEST) for k in range(steps + 1)]

    def lay_out(self, length: float) -> None:
        """``length`` long along its player's edge (between :data:`SHORTEST` and :data:`LONGEST`
        units), as tall as its sentence wrapped to that length needs."""
        u = theme.unit()
        width = max(min(length, u * LONGEST), u * SHORTEST)
        sentence = self.sentence
        sentence.text_size = (width - self.padding[0] - self.padding[2], None)
        sentence.texture_update()
        sentence.height = max(u * 0.7, sentence.texture_size[1] + u * 0.1)
        self.size = (width, self.title.height + sentence.height + self.buttons.height
                     + self.padding[1] + self.padding[3] + 2 * self.spacing)


def _values(reason: Reason) -> dict[str, Any]:
    """The sentence's fields, colours as translated names (the card is made again when the
    language is switched: its height follows the sentence's lines in that language)."""
    values = dict(reason.params)
    for key in ("colour", "other"):
        if key in values:
            values[key] = _(COLOUR_WORDS[values[key]])
    return values
