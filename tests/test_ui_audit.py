"""The audit (ui.audit) finds each kind of problem it looks for, and nothing in a screen without
them: it can fail, so test_ui_fit's passing means something."""

from __future__ import annotations

from ui_harness import run_scenario


def scenario_faults(app):
    from kivy.graphics import Color, Rectangle
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import Screen
    from kivy.uix.widget import Widget

    from ui import theme
    from ui.audit import Picture, audit

    screen = Screen(name="faults")
    layer = FloatLayout()
    with layer.canvas.before:
        Color(*theme.TABLE_DARK)
        Rectangle(size=(2000, 2000))
    found = {}

    def place(widget, pos, size):
        widget.size_hint = (None, None)
        widget.pos, widget.size = pos, size
        layer.add_widget(widget)
        return widget

    place(Label(text="Wszystkie płytki wyłożone", font_size=30), (10, 400), (120, 40))  # spills out
    split = place(Label(text="Beginner", font_size=30), (10, 300), (60, 120))
    split.text_size = (60, None)  # "Beginn / er"
    padded = place(Label(text="Cécile", font_size=30, padding=[40, 0, 0, 0]), (140, 300), (120, 80))
    padded.text_size = (120, None)  # its box takes "Cécile" (96 px), its padding leaves 80: "Céci / le"
    from kivy.uix.boxlayout import BoxLayout

    squeezed = place(BoxLayout(), (560, 300), (200, 60))  # a column a layout left nothing
    squeezed.add_widget(Label(text="Gracz", font_size=20, size_hint=(None, 1), width=200))
    squeezed.add_widget(Label(text="Ana", font_size=20))
    place(Button(text="Go", font_size=14), (300, 300), (120, 30))  # 30 px high: under 9 mm
    place(Label(text="faint", font_size=30, color=(0.2, 0.3, 0.25, 1)), (300, 150), (200, 60))
    place(Label(text="Fine", font_size=30, color=theme.TEXT), (10, 150), (200, 60))
    place(Button(text="Big", font_size=20), (500, 150), (200, 80))
    place(Label(text="off the edge", font_size=30), (700, 10), (300, 60))
    place(Button(text="", font_size=20), (740, 220), (100, 60))  # a control half off the screen (a flag)
    cut = place(Label(text="Speler 4", font_size=30, shorten=True), (420, 400), (100, 40))
    cut.text_size = cut.size  # drawn "Sp..."
    from ui.widgets import TLabel

    shrunk = place(TLabel(text="Player 4", scale=0.85, bold=True, shorten=True), (560, 400), (60, 40))
    place(Label(text="fine print", font_size=11, color=theme.TEXT), (10, 220), (120, 40))  # 11 px: under 12.5
    place(Label(text="Play\n[size=10]a subtitle[/size]", markup=True, font_size=20, color=theme.TEXT),
          (140, 220), (140, 60))  # its second line 10 px
    place(Label(text="Roomy", font_size=13, color=theme.TEXT), (300, 220), (120, 40))  # 13 px: enough
    place(Label(text="under a card", font_size=9, color=theme.TEXT), (20, 110), (100, 20))
    place(Widget(), (10, 100), (130, 40)).covers = True  # a question over it: it cannot be read meanwhile
    from ui.board import HandView

    place(HandView(tiles=list(range(1, 13))), (10, 10), (300, 30))  # 12 tiles in 300x30: tiny
    place(HandView(tiles=list(range(1, 13)), for_fingers=False), (10, 60), (300, 30))  # a robot's: only looked at
    screen.add_widget(layer)
    app.show(screen)
    yield
    yield
    found["shrunk"] = shrunk.font_size < theme.font(0.85)  # to fit whole rather than be cut
    for problem in audit(app.root, (800, 480), 45.0, Picture(app.root)):
        found.setdefault(problem.kind, []).append(problem.widget)
    return found


def test_the_audit_finds_each_kind_of_problem_and_only_those():
    found = run_scenario("test_ui_audit", "scenario_faults", size=(800, 480), settings={"idle_seconds": 1e6})
    assert found.pop("overflow") == ["Label('Ana')", "Label('Wszystkie płytki wyłożone')"]
    assert found.pop("split-word") == ["Label('Beginner')", "Label('Cécile')"]
    assert found.pop("small-control") == ["Button('Go')", "HandView of 12 tiles"]
    assert found.pop("contrast") == ["Label('faint')"]
    assert found.pop("off-screen") == ["Label('off the edge')", "Button"]
    assert found.pop("shortened") == ["Label('Speler 4')"]
    assert found.pop("small-text") == ["Label('fine print')", "Label('Play / a subtitle')"]
    assert found.pop("shrunk") is True
    assert found == {}


def scenario_spacing(app):
    """Buttons at the 800x480 panel's density (45 px to 9 mm, so 1.5 mm is 7.5 px)."""
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.screenmanager import Screen
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget

    from ui.audit import audit

    screen = Screen(name="spacing")
    layer = FloatLayout()

    def place(widget, pos, size, parent=layer):
        widget.size_hint = (None, None)
        widget.pos, widget.size = pos, size
        parent.add_widget(widget)
        return widget

    place(Button(text="Leave"), (10, 400), (60, 60))
    place(Button(text="Zoom -"), (70, 400), (60, 60))  # touching Leave
    place(Button(text="Near"), (10, 300), (60, 60))
    place(Button(text="Nearer"), (72, 300), (60, 60))  # 2 px from Near
    place(Button(text="Apart"), (200, 250), (60, 60))
    place(Button(text="Clear"), (268, 250), (60, 60))  # 8 px (1.6 mm) from Apart: enough
    place(Button(text="Corner"), (200, 410), (50, 50))
    place(Button(text="Diagonal"), (253, 360), (50, 47))  # 3 px right of and 3 px below Corner: 4 px apart
    group = place(Widget(), (400, 0), (400, 480))
    group.close_targets = True  # a keypad: its keys may touch, never overlap
    place(Button(text="1"), (400, 400), (60, 60), group)
    place(Button(text="2"), (460, 400), (60, 60), group)
    place(Button(text="3"), (500, 300), (60, 60), group)
    place(Button(text="4"), (540, 300), (60, 60), group)  # 20 px over 3
    card = place(Button(text="Card"), (600, 100), (150, 150))
    place(Button(text="x"), (690, 190), (50, 50), card)  # a card's own button
    scroll = place(ScrollView(), (10, 10), (200, 100))
    rows = place(Widget(), (0, 0), (200, 300), scroll)
    place(Button(text="Hidden"), (0, 200), (150, 60), rows)  # scrolled out of sight, under Shown
    scroll.scroll_y = 0
    place(Button(text="Shown"), (10, 200), (150, 60))
    place(Button(text="Under"), (300, 10), (60, 45))
    place(Button(text="Beneath"), (360, 10), (60, 45))  # touching Under, both under a question
    question = place(Widget(), (280, 0), (160, 70))
    question.covers = True
    screen.add_widget(layer)
    app.show(screen)
    yield
    yield
    return sorted(str(p) for p in audit(app.root, (800, 480), 45.0) if p.kind == "crowded")


def test_the_audit_finds_controls_too_close_to_tell_apart():
    found = run_scenario("test_ui_audit", "scenario_spacing", size=(800, 480), settings={"idle_seconds": 1e6})
    assert found == [
        "crowded: Button('3'): overlaps Button('4') by 20 px",
        "crowded: Button('Corner'): 4 px from Button('Diagonal'), under 8 px (1.5 mm)",
        "crowded: Button('Leave'): 0 px from Button('Zoom -'), under 8 px (1.5 mm)",
        "crowded: Button('Near'): 2 px from Button('Nearer'), under 8 px (1.5 mm)",
    ]


def scenario_under_a_card(app):
    """The Professor puzzle opens with its colour choice card over the screen: its shade dims the
    Hint button under it on purpose (it cannot be pressed until the card goes)."""
    from ui import theme
    from ui.audit import Picture, audit
    from ui.modes.solo import puzzle as solo_puzzle

    from ui_harness import until

    screen = solo_puzzle.open_puzzle(app, "professor")

    def laid_out():  # the card's answers each in its own place
        card = screen.choice_card
        return card is not None and card.parent is not None and \
            len({tuple(b.to_window(*b.pos)) for b in card.buttons.values()}) == len(card.buttons)

    yield until(laid_out)
    yield
    found = [str(p) for p in audit(app.root, (800, 480), theme.min_target((800, 480)), Picture(app.root))]
    screen.choice_card.dismiss()
    yield 0.2
    return found


def test_what_lies_under_a_card_is_not_judged_for_contrast():
    assert run_scenario("test_ui_audit", "scenario_under_a_card", size=(800, 480),
                        settings={"idle_seconds": 1e6}) == []



def scenario_in_the_tick_of_a_change(app):
    """A tag the table does not know is read at a side seat, then a puzzle's hint is found, each in
    the very tick the audit runs (as when a screenshot's time ran out while the event was
    handled): the picker's buttons and tiles, and the hint's words, are judged where the next frame
    draws them, not piled at the screen's corner (the picker) nor drawn with no letters (the hint)."""
    from engine.strategy.game import StrategyGame
    from ui import theme
    from ui.audit import Picture, audit
    from ui.modes.solo import puzzle as solo_puzzle
    from ui.modes.strategy import play as strategy_play
    from ui.services import UnknownTag

    from ui_harness import settled_screens

    size = tuple(app.root.size)

    def problems():
        return [str(problem) for problem in audit(app.root, size, theme.min_target(size), Picture(app.root))]

    game = StrategyGame.new(4, "RYGB", [None] * 4, physical_bag=True, seed=8)
    game.report_draw(30)
    screen = strategy_play.open_game(app, game)
    yield from settled_screens()
    yield
    app.handle(UnknownTag("04A1B2C3D4", game.awaiting_draw))
    assert screen.picker is not None and screen.picker_seat in (1, 3)  # a side seat's: turned
    found = problems()
    puzzle = solo_puzzle.open_puzzle(app, "professor")
    yield from settled_screens()
    yield 0.2
    puzzle.choice_card.dismiss()
    puzzle.choose(("Y", "B"))
    yield
    puzzle._hinted(puzzle.play.hint(), False)
    return found + problems()


def test_the_audit_judges_the_frame_a_player_sees_not_one_half_made():
    for size in ((800, 480), (1280, 800)):
        assert run_scenario("test_ui_audit", "scenario_in_the_tick_of_a_change", size=size,
                            settings={"idle_seconds": 1e6}) == []
