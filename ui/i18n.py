"""Every word on screen goes through here: gettext catalogues, switchable while the app runs.

The catalogues are the ``.po`` files under ``ui/locale`` (English is the source language); Babel
compiles them in memory when a language is first used, so there are no compiled files to keep in
step. Widgets show translated text through :class:`Translated` (``TLabel``, ``TButton``): they
hold the English ``msg`` and re-translate themselves when :data:`i18n` changes language, so a
switch updates everything visible at once.
"""

from __future__ import annotations

import gettext
import io
import weakref
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, Callable

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from kivy.event import EventDispatcher
from kivy.properties import DictProperty, OptionProperty, StringProperty

LANGUAGES: tuple[str, ...] = ("en", "fr", "nl", "pl")
"""The booklets' languages, in the order the flag buttons show them."""

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "nl": "Nederlands", "pl": "Polski"}
DOMAIN = "tantrix"


Words = Callable[[], str]
"""A message composed in the current language each time it is called (``lambda: _("Your turn")``):
what a message shown for a few seconds keeps, to say itself again in a language staff switch to
while it shows (its text alone would stay in the language it was shown in)."""


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it yet (for tables of messages)."""
    return message


def catalogue_path(language: str) -> Traversable:
    return files(__package__).joinpath(f"locale/{language}/LC_MESSAGES/{DOMAIN}.po")


def load_catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (the identity for English)."""
    if language == "en":
        return gettext.NullTranslations()
    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class I18n(EventDispatcher):
    """The current language. A widget follows switches with :func:`follow_language`, not by
    binding to ``language``: what binds to it stays listed, gone or not, until the next switch."""

    language = OptionProperty("en", options=list(LANGUAGES))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._catalogues: dict[str, gettext.NullTranslations] = {}

    def catalogue(self, language: str | None = None) -> gettext.NullTranslations:
        language = language or self.language
        found = self._catalogues.get(language)
        if found is None:
            found = self._catalogues[language] = load_catalogue(language)
        return found

    def gettext(self, message: str) -> str:
        return self.catalogue().gettext(message) if message else ""

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue().ngettext(singular, plural, n)


i18n = I18n()
"""The app's one language state (Kivy runs one app per process)."""


_FOLLOWERS: weakref.WeakKeyDictionary[Any, list[Callable[[Any], None]]] = weakref.WeakKeyDictionary()
_TRANSLATED: weakref.WeakSet[Translated] = weakref.WeakSet()
"""The :class:`Translated` widgets, which say their words again before any follower acts."""


def follow_language(owner: Any, action: Callable[[Any], None]) -> None:
    """Call ``action(owner)`` after every language switch, for as long as ``owner`` lives, once
    every :class:`Translated` widget shows its words in the new language: an action that lays
    widgets out measures the words they show (a screen whose badge was made after it measured the
    badge's English words, "Bag empty", and the Polish "Woreczek pusty" overran its backing).

    The owner is held weakly and ``action`` must not hold it (it is handed the owner). Each widget
    binding to :data:`i18n` itself left an entry there after the widget was gone (a weak method
    Kivy prunes only when the language next changes: 1,000 labels made and dropped left 1,000),
    and a lambda naming the widget kept it, and its screen, alive: a kiosk that plays for weeks in
    one language gathered them game after game (bench/RESULTS.md, the soak)."""
    _FOLLOWERS.setdefault(owner, []).append(action)


def _switched(*_args: Any) -> None:
    for widget in list(_TRANSLATED):
        widget._retranslate()
    for owner, actions in list(_FOLLOWERS.items()):  # an action may build widgets that follow too
        for action in actions:
            action(owner)


i18n.bind(language=_switched)


def _(message: str, **values: Any) -> str:
    """``message`` in the current language, with ``{name}`` fields filled from ``values``."""
    text = i18n.gettext(message)
    return text.format(**values) if values else text


def n_(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form of a message for the number ``n`` by the current language's plural rule (Polish has
    three: 1 płytka, 2-4 płytki, 5 płytek), with ``{name}`` fields filled from ``values``."""
    text = i18n.ngettext(singular, plural, n)
    return text.format(**values) if values else text


class Translated:
    """Mixin for a widget with a ``text``: set ``msg`` (English, with optional ``{fields}`` filled
    from ``values``) and ``text`` follows it in the current language; ``msg`` set to "" clears it."""

    msg = StringProperty("")
    values = DictProperty({})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _TRANSLATED.add(self)  # its words follow a switch before anything lays them out
        # a mixin: the Kivy widget it is mixed into (an EventDispatcher) has bind()
        self.bind(msg=self._new_msg, values=self._retranslate)  # type: ignore[attr-defined]
        self._retranslate()

    def _new_msg(self, _widget: Any, msg: str) -> None:
        if msg:
            self._retranslate()
        else:  # told to say nothing: what it said before goes (a widget never given one keeps its text)
            self.text = ""

    def _retranslate(self, *_args: Any) -> None:
        if self.msg:  # a widget without msg keeps the text it was given (e.g. a language's own name)
            self.text = _(self.msg, **self.values)

    def say(self, msg: str, **values: Any) -> None:
        """Show ``msg`` with its fields from ``values`` ("": nothing), the two changed together: the
        message before is never filled from the new fields, nor the new one from the old."""
        self.msg = ""
        self.values = values
        self.msg = msg
