"""One refusal vocabulary: every rule code the engine can refuse with is worded once, by the UI's
read-only table, whatever screens were imported before (each screen once reworded the others')."""

from __future__ import annotations

import importlib
import pkgutil
from enum import StrEnum

import pytest

from engine.board import Board, IllegalPlacement, Placement, Refused, Rule
from engine.four import FourRule
from engine.strategy.game import StrategyRule
from engine.gobble.rules import GobbleRule
from engine.modes import Play
from engine.solo.rules import SoloRule

FAMILIES: tuple[type[StrEnum], ...] = (Rule, Play, StrategyRule, SoloRule, GobbleRule, FourRule)


def test_each_code_belongs_to_one_family():
    seen: dict[str, type[StrEnum]] = {}
    for family in FAMILIES:
        for code in family:
            assert code.value not in seen, f"{code.value} is both {seen[code.value].__name__} and {family.__name__}"
            seen[code.value] = family


def test_every_code_is_worded_and_no_screen_rewords_another():
    import ui.modes
    from ui.refusals import RULE_MESSAGES, explain
    from ui.i18n import _

    before = dict(RULE_MESSAGES)
    for module in pkgutil.iter_modules(ui.modes.__path__, "ui.modes."):
        importlib.import_module(module.name)
    assert dict(RULE_MESSAGES) == before
    with pytest.raises(TypeError):
        RULE_MESSAGES["not-in-hand"] = "anything"  # type: ignore[index]
    missing = [code for family in FAMILIES for code in family if code not in RULE_MESSAGES]
    assert missing == []
    # the wordings that were wrong in the strategy game while the solo screens were loaded
    assert explain(Refused(Play.NOT_IN_HAND, "tile 5 is not in the hand of seat 1")) == _("That tile is not in your hand.")
    assert "Solitaire" not in explain(Refused(Play.NO_UNDO, "there is no undo"))


def test_the_board_refuses_with_the_same_shape_as_every_mode():
    board = Board()
    board.place(Placement(1, 0, 0, 0))
    refusal = board.check(Placement(2, 5, 5, 0))
    assert isinstance(refusal, Refused) and refusal.rule is Rule.CONTACT and refusal.cells == ((5, 5),)
    with pytest.raises(Refused) as raised:
        board.place(Placement(2, 5, 5, 0))
    assert isinstance(raised.value, IllegalPlacement) and raised.value.rule is Rule.CONTACT
    assert raised.value.placement == Placement(2, 5, 5, 0) and len(board) == 1


def test_the_forced_space_refusal_says_what_a_forced_space_is_and_where():
    """A newcomer who skipped How to play first meets the booklet's "forced space" in this refusal
    (dropping a tile elsewhere): it says what one is and which space it is, in every language."""
    from ui.i18n import load_catalogue
    from ui.refusals import RULE_MESSAGES

    message = RULE_MESSAGES[Play.MUST_FILL_FORCED]
    assert "the orange space with three or more tiles around it" in message
    for language, what in (("fr", "entouré de trois tuiles ou plus"), ("nl", "drie of meer stenen eromheen"),
                           ("pl", "otoczone co najmniej trzema płytkami")):
        assert what in load_catalogue(language).gettext(message), language


def test_the_bag_rules_say_what_a_player_may_do_not_the_booklets_terms():
    """"The restrictions are lifted" and "this is a controlled side" told a newcomer nothing: the
    news says what a player may now do, the refusal what would happen, in every language, without
    the booklet's terms."""
    from ui.i18n import load_catalogue
    from ui.modes.strategy.play import BAG_EMPTY_NEWS
    from ui.refusals import RULE_MESSAGES

    refusal = RULE_MESSAGES[Rule.CONTROLLED_SIDE]
    jargon = {"en": ("controlled side", "restrictions are lifted"), "fr": ("Côté Contrôlé", "restrictions sont levées"),
              "nl": ("bezette kant", "regels vervallen"), "pl": ("krawędź kontrolowana", "przestają obowiązywać")}
    said = {"en": ("wherever it fits", "surrounded by four tiles"), "fr": ("partout où elle convient", "entouré de quatre tuiles"),
            "nl": ("overal waar hij past", "door vier stenen omringd"), "pl": ("gdzie pasuje", "czterema płytkami")}
    for language, terms in jargon.items():
        words = load_catalogue(language)
        texts = (words.gettext(BAG_EMPTY_NEWS), words.gettext(refusal))
        assert not any(term in text for term in terms for text in texts), (language, texts)
        assert all(plain in text for plain, text in zip(said[language], texts)), (language, texts)
