"""The kiosk app: screens, device events, idle time, the staff way out.

``KioskApp(services)`` is all the firmware needs: it builds the app with its services, calls
``app.post(event)`` from any thread for device events, and runs it. There is no way out of the app
but the staff menu (behind a PIN): Escape does nothing and, in kiosk mode, closing the window is
refused.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from typing import Any

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.config import Config
from kivy.core.window import Window
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.widget import Widget

from engine import modes as engine_modes
from engine.modes import Mode

from . import solo_players, theme
from .devices_view import SimulatedPanel, StatusBadge
from .i18n import LANGUAGES, i18n
from .modes import Family, family, load_screens, resume_factory, screen_factory
from .screens.attract import AttractScreen
from .screens.home import HomeScreen
from .screens.ladder import add_ladder_button
from .screens.prompts import ResumeScreen
from .screens.staff import PinScreen, StaffScreen
from .screens.staff_players import add_players_button
from .screens.tournament import add_evening_button
from .services import (BagButtonHeld, Cue, DeviceStatus, EnrolmentProgress, Event, RingFrames, Services,
                       StickerProgress, TileScanned, UnknownTag)
from .tournament_store import follow, given_up

log = logging.getLogger(__name__)

STAFF_PRESS_SECONDS = 2.5
"""How long the hidden staff corner must be held."""
BUTTON_HOLD_SECONDS = 1.0
"""Simulated bag button: holding the space bar this long is a hold (staff menu)."""
TILE_READS = (TileScanned, UnknownTag)
"""The device events that are a player's move (a tile drawn from the real bag and read): made while
the staff menu is open, they are kept for the game it returns to (:meth:`KioskApp.leave_staff`)."""


class StaffCorner(Widget):
    """An unmarked target in the top-left corner; a long press opens the staff PIN."""

    def __init__(self, on_long_press: Any, **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), **kwargs)
        self._fire = Clock.create_trigger(lambda dt: on_long_press(), STAFF_PRESS_SECONDS)

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            touch.grab(self)
            self._fire()
            return True
        return False

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self and not self.collide_point(*touch.pos):
            self._fire.cancel()
        return touch.grab_current is self

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            self._fire.cancel()
            return True
        return False


class Root(FloatLayout):
    """The window's content; every touch counts as activity (it postpones the attract screen)."""

    def __init__(self, app: KioskApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = app

    def on_touch_down(self, touch: Any) -> bool:
        self.app.touched()
        return super().on_touch_down(touch)


class KioskApp(App):
    """The touchscreen app. ``kiosk`` refuses window close requests (the staff menu's "quit to the
    system" is the way out)."""

    title = "Tantrix Table"

    def __init__(self, services: Services, kiosk: bool = True, simulated_panel: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.kiosk = kiosk
        self.show_simulated_panel = simulated_panel
        self._events: deque[Event] = deque()
        self._drain = Clock.create_trigger(self._drain_events, 0)
        self._last_activity = Clock.time()  # the UI's one clock (a soak speeds it up)
        self._space = "up"  # the simulated bag button: "up", "down", or "held" once the hold is sent
        self._space_held = Clock.create_trigger(lambda dt: self._hold_button(), BUTTON_HOLD_SECONDS)
        self.first_frame_at: float | None = None
        self.staff_return = "home"
        """The screen the staff menu's Cancel and Close go back to."""
        self._in_staff = False
        """From :meth:`open_staff` to :meth:`leave_staff`: the PIN pad, the menu or one of its pages
        (Players...) is showing, or the attract screen came over them (:meth:`wake` then leaves
        them as Close does)."""
        self._kept: list[Event] = []
        """Tile reads made meanwhile, for the screen the menu goes back to."""

    # ------------------------------------------------------------------ building

    def build(self) -> Root:
        Config.set("kivy", "exit_on_escape", "0")
        Window.bind(on_request_close=self._on_request_close, on_key_down=self._key_down, on_key_up=self._key_up)
        Window.clearcolor = theme.TABLE_DARK
        load_screens()  # every game's screens now, not at a visitor's first tap (and not later in the day)
        language = self.services.settings.language
        i18n.language = language if language in LANGUAGES else "en"
        root = Root(self)
        self.manager = ScreenManager(transition=NoTransition())
        root.add_widget(self.manager)
        self.attract = AttractScreen(self)
        self.home = HomeScreen(on_family=self._visit, on_language=self.set_language)
        self.home.bind(on_pre_enter=self._rings_idle)
        add_ladder_button(self.home, self)
        add_evening_button(self.home, self)
        self.pin = PinScreen(self.services.settings, on_open=self._open_staff_menu, on_cancel=self.leave_staff)
        self.staff = StaffScreen(self)
        add_players_button(self.staff, self)
        for screen in (self.attract, self.home, self.pin, self.staff):
            self.manager.add_widget(screen)
        u = theme.unit()
        self.corner = StaffCorner(self.open_staff, size=(u * 1.1, u * 1.1))
        root.add_widget(self.corner)
        self.badge = StatusBadge(size_hint=(None, None))
        root.add_widget(self.badge)
        self.simulated_panel: SimulatedPanel | None = None
        if self.services.devices.simulated():
            self.simulated_panel = SimulatedPanel(self.services.devices.scan)
            if self.show_simulated_panel:
                root.add_widget(self.simulated_panel)
        root.bind(size=self._place_overlays)
        for status in self.services.devices.status():
            self.badge.update(status)
        return root

    def _place_overlays(self, root: Widget, size: Any) -> None:
        """The staff corner and the badge at the top; the simulated devices' panel, when shown, a
        strip along the bottom with the screens above it (over them it hid their buttons)."""
        self.corner.pos = (0, root.height - self.corner.height)
        self.badge._follow()
        panel = self.simulated_panel
        strip = panel.height if panel is not None and panel.parent is not None else 0.0
        self.manager.size_hint_y = None
        self.manager.y, self.manager.height = strip, root.height - strip
        for screen in self.manager.screens:  # the manager moves only the screen shown; the rest come back here
            screen.pos = self.manager.pos
        if panel is not None:
            panel.pos = (0, 0)

    def on_start(self) -> None:
        if not self._offer_saved_game():
            self.manager.current = "attract"
        Clock.schedule_interval(self._tick, 1.0)
        # the callback runs in the first frame's clock tick, before it is drawn: wait one more
        Clock.schedule_once(lambda dt: Clock.schedule_once(self._first_frame, 0), 0)

    def _first_frame(self, _dt: float) -> None:
        self.first_frame_at = time.time()  # wall clock: comparable with a parent process's start time
        self.services.on_first_frame()

    def _on_request_close(self, *_args: Any, **_kwargs: Any) -> bool:
        return self.kiosk  # True swallows the request

    # ------------------------------------------------------------------ navigation

    def show(self, screen: Screen) -> None:
        """Show ``screen``, replacing any screen of the same name. The one on show gives its name
        up as it slides out: Kivy's ``switch_to`` would rename the new one ("_screen0") instead, and
        the next screen of that name would then be added beside it, for good. A screen shown gets
        the whole idle time before the attract screen: the results of a game robots played to its
        end while people watched without a touch once gave way to it at once."""
        self.touched()
        manager, leaving = self.manager, None
        if manager.has_screen(screen.name):
            old = manager.get_screen(screen.name)
            if old is not screen:
                if manager.current == screen.name:
                    leaving, old.name = old, f"{screen.name} (leaving)"  # the manager's current follows
                else:
                    manager.remove_widget(old)
        if not manager.has_screen(screen.name):
            manager.add_widget(screen)
        manager.current = screen.name
        if leaving is not None:
            manager.remove_widget(leaving)  # no longer current: it slides out, then goes

    def _rings_idle(self, *_args: Any) -> None:
        """Put the rings out at the home screen: nobody plays there, and what a game left on them
        (a seat's turn after Leave, the winner after the results) would otherwise stay lit."""
        self.services.devices.cue(Cue())

    def go_home(self) -> None:
        self.manager.current = "home"

    def open(self, name: str, **args: Any) -> Screen:
        """Show the screen registered as ``name`` (:mod:`ui.navigation`), built with ``args``: how a
        screen goes to another without importing it."""
        screen = screen_factory(name)(self, **args)
        self.show(screen)
        return screen

    def open_family(self, fam: Family | str) -> Screen:
        """The family's own screen (its setup, or its list of puzzles)."""
        return self.open(family(fam).key if isinstance(fam, str) else fam.key)

    def _visit(self, fam: Family) -> None:
        """A visitor at the home screen opens a family: a guest in the solo games until they pick
        their name (nobody plays under the previous visitor's)."""
        solo_players.forget(self)
        self.open_family(fam)

    def open_staff(self) -> None:
        if self.manager.current not in ("staff", "staff-pin"):
            self.staff_return = self.manager.current
            self._in_staff, self._kept = True, []
            self.manager.current = "staff-pin"

    def leave_staff(self) -> None:
        """Back to the screen that was showing when the staff corner or the bag button was held
        (a game in progress goes on), or home if that screen is gone. The tiles read meanwhile
        reach that screen once it is back, as if read then: the game waits behind the menu, as
        its clocks and robots do, and the player sees what became of their draw. A game staff
        cleared meanwhile is gone, and so are they (the menu goes back home)."""
        before = self.staff_return
        kept, self._in_staff, self._kept = self._kept, False, []
        self.manager.current = before if self.manager.has_screen(before) else "home"
        screen = self.manager.current_screen
        if kept and hasattr(screen, "on_device_event"):
            def entered(*_args: Any) -> None:
                # after the screen's own on_enter (which runs after the handlers bound to it) has
                # told its players what to do now: what the reads bring comes after that
                screen.unbind(on_enter=entered)
                Clock.schedule_once(lambda _dt: self._hand_over(screen, kept), 0)

            screen.bind(on_enter=entered)

    def _hand_over(self, screen: Screen, events: list[Event]) -> None:
        if self.manager.current_screen is screen:
            for event in events:
                screen.on_device_event(event)

    def _open_staff_menu(self) -> None:
        self.manager.current = "staff"

    def set_language(self, language: str) -> None:
        i18n.language = language
        self.services.settings.set_language(language)

    # ------------------------------------------------------------ interrupted games

    def _offer_saved_game(self) -> bool:
        """Offer the game a power cut (or a crash) interrupted, if one is saved; False if none is."""
        try:
            saved = self.services.store.load_current()
        except Exception as error:  # a damaged saved game is offered to discard, never a crash
            log.warning("the saved game cannot be read: %s", error)
            self.offer_resume({})
            self.manager.get_screen("resume").cannot_resume(str(error))
            return True
        if saved is None:
            return False
        self.offer_resume(saved)
        return True

    def wake(self) -> None:
        """Someone is back at the attract screen: to the game still saved, if one is, else home.
        A game waits on screen however long its players are away, but the card offering one after
        a power cut gave way to the attract screen after the idle time, and the game was then never
        offered again until the next start (the players back from the bar found the home screen).
        A staff menu left open gave way to it too: back to what it was opened over, as its Close
        goes (a game there goes on, with the tiles read meanwhile), never to the menu itself."""
        if self._in_staff and self.staff_return != self.attract.name:
            self.leave_staff()
            return
        self._in_staff, self._kept = False, []
        if not self._offer_saved_game():
            self.go_home()

    def offer_resume(self, saved: dict[str, Any]) -> None:
        self.saved = saved
        self.show(ResumeScreen(on_resume=self.resume, on_discard=self.discard))

    def resume(self) -> None:
        """Restore the saved mode and open the screen registered for its kind."""
        screen = self.manager.get_screen("resume")
        try:
            mode = engine_modes.restore(self.saved)
        except Exception as error:  # whatever a damaged state raises: it can only be discarded
            log.warning("cannot resume the saved game: %s", error)
            screen.cannot_resume(str(error))
            return
        factory = resume_factory(mode.KIND)
        if factory is None:
            screen.cannot_resume(f"no screen plays {mode.KIND!r}")
            return
        self.show(factory(self, mode))

    def discard(self) -> None:
        self.forget_current()
        self.go_home()

    def forget_current(self) -> None:
        """Forget the game in progress: in one transaction with saying the evening's game is played
        here no more (cut between them, the journal came back without the evening's game, whose
        result was then entered nowhere)."""
        store = self.services.store
        with store.batch():
            given_up(self)
            store.clear_current()

    def journal(self, mode: Mode[Any]) -> None:
        """Save ``mode``'s whole state (mode screens call this after every step)."""
        self.services.store.save_current(engine_modes.save(mode))

    # ------------------------------------------------------------------ events

    def post(self, event: Event) -> None:
        """Hand a device event to the UI; safe from any thread (it is handled on the Kivy clock)."""
        self._events.append(event)
        self._drain()

    def _drain_events(self, _dt: float) -> None:
        """Handle the events queued so far, of the rings' frames only the newest. Events posted
        meanwhile wait for the next frame: a device posting faster than the UI draws (the rings'
        frames on a busy Pi) can neither hold a frame up for ever nor pile up in memory."""
        batch = [self._events.popleft() for _ in range(len(self._events))]
        newest_frames = max((i for i, event in enumerate(batch) if isinstance(event, RingFrames)), default=-1)
        for i, event in enumerate(batch):
            if i == newest_frames or not isinstance(event, RingFrames):
                self.handle(event)
        if self._events:
            self._drain()

    def handle(self, event: Event) -> None:
        if isinstance(event, DeviceStatus):
            self.badge.update(event)
        elif isinstance(event, RingFrames):
            if self.simulated_panel is not None:
                self.simulated_panel.rings.show(event)
            return
        else:
            self.touched()
        if isinstance(event, BagButtonHeld):
            self.open_staff()
            return
        if isinstance(event, (EnrolmentProgress, StickerProgress, UnknownTag, DeviceStatus)):
            self.staff.on_device_event(event)
        current = self.manager.current_screen
        if current is self.attract and not isinstance(event, DeviceStatus):
            self.wake()
        elif current is not self.staff and hasattr(current, "on_device_event"):
            current.on_device_event(event)
        elif self._in_staff and isinstance(event, TILE_READS) and event not in self._kept:
            self._kept.append(event)  # the same tile read again at the same reader is the same draw

    # --------------------------------------------------------------- idle, keys

    def touched(self) -> None:
        self._last_activity = Clock.time()

    def _tick(self, _dt: float) -> None:
        self.services.on_tick()
        follow(self)  # a club evening run here: results the club's tables sent, the next round
        if EventLoop.touches:  # a finger resting on the screen is not idleness
            self.touched()
        idle = Clock.time() - self._last_activity
        current = self.manager.current_screen
        if idle >= self.services.settings.idle_seconds and current is not self.attract:
            if getattr(current, "attract_when_idle", True):
                self.manager.current = "attract"

    def toggle_simulated_panel(self) -> None:
        panel = self.simulated_panel
        if panel is not None:
            if panel.parent is None:
                self.root.add_widget(panel)
            else:
                self.root.remove_widget(panel)
            self._place_overlays(self.root, self.root.size)

    def _key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        if key == 27:
            return True  # Escape never leaves the kiosk
        if key == 283 and self.simulated_panel is not None:  # F2
            self.toggle_simulated_panel()
            return True
        if key == 32 and self.services.devices.simulated():
            if self._space == "up":  # key repeats while held are ignored
                self._space = "down"
                self._space_held()
            return True
        return False

    def _key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        if key == 32 and self._space != "up":
            self._space_held.cancel()
            if self._space == "down":
                self.services.devices.press_button(held=False)
            self._space = "up"
            return True
        return False

    def _hold_button(self) -> None:
        if self._space == "down":
            self._space = "held"
            self.services.devices.press_button(held=True)
