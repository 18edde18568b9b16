"""What the UI needs from the device runtime, as small protocols, and what the runtime tells it.

The UI never imports ``firmware`` or ``hardware``: the firmware builds the app with a
:class:`Services` bundle (SQLite storage, real or simulated devices, the configuration) and pushes
device events into it with ``app.post(event)`` from any thread. The UI ships in-memory versions of
these services for tests and for running the UI alone during development.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field
from contextlib import AbstractContextManager
from typing import Any, Callable, Iterable, Literal, Protocol

# ------------------------------------------------------------------ events: firmware -> UI


@dataclass(frozen=True)
class BagButtonPressed:
    """The physical "draw from the bag" button was pressed (debounced: one press, one draw)."""


@dataclass(frozen=True)
class BagButtonHeld:
    """The button was held down long enough to ask for the staff menu."""


@dataclass(frozen=True)
class TileScanned:
    """A known tile's tag was read; ``reader`` is the seat index, or None for the central pad."""

    tile: int
    reader: int | None


@dataclass(frozen=True)
class UnknownTag:
    """A tag that is not in the registry was read (a game owing a draw lets the player pick the tile
    on screen; staff see the UID on their Tag enrolment page)."""

    uid: str
    reader: int | None


@dataclass(frozen=True)
class DeviceStatus:
    """The state of one device, shown as a small badge when it is not fine."""

    name: Literal["button", "reader", "rings", "storage"]  # storage: finished games are being kept
    ok: bool
    backend: str  # e.g. "gpio", "simulated", "ws281x", "serial:/dev/ttyUSB0"
    detail: str = ""


@dataclass(frozen=True)
class RingFrames:
    """The current colours of the LED rings, for drawing simulated rings on screen.
    ``rings[i]`` is ring i's LEDs as (r, g, b) 0..255; the centre ring, if any, comes last."""

    rings: tuple[tuple[tuple[int, int, int], ...], ...]


@dataclass(frozen=True)
class EnrolmentProgress:
    """Tag enrolment: ``next_tile`` is the tile to scan next (None when finished)."""

    learned: int
    next_tile: int | None
    error: str = ""


@dataclass(frozen=True)
class StickerProgress:
    """Writing tile numbers on NFC stickers: ``written`` so far, ``last_tile`` the number the
    sticker on the reader now carries (None: none yet), ``next_tile`` the number the next blank
    sticker gets (None: finished, or the reader cannot write: ``error`` says so)."""

    written: int
    next_tile: int | None
    last_tile: int | None = None
    error: str = ""


Event = (BagButtonPressed | BagButtonHeld | TileScanned | UnknownTag | DeviceStatus | RingFrames | EnrolmentProgress
         | StickerProgress)


# -------------------------------------------------------------------- cues: UI -> LED rings


@dataclass(frozen=True)
class Cue:
    """What the LED rings should show now; the firmware turns it into frames.

    ``turn``: seat index whose turn it is (None: nobody), ``colours``: each seat's colour
    ("R", "Y", "G", "B", or "" for an unused seat), ``pulse``: that player must fill a forced
    space, ``forced``: number of open forced spaces, ``bag_empty``: the endgame has begun,
    ``winner``: seats that won (animation), ``attract``: the idle animation.
    """

    turn: int | None = None
    colours: tuple[str, ...] = ()
    pulse: bool = False
    forced: int = 0
    bag_empty: bool = False
    winners: tuple[int, ...] = ()
    attract: bool = False


# --------------------------------------------------------------------------- services


STAT_DAYS = 28
"""How many days back the staff statistics count games day by day (four weeks: the page says so
in words)."""


def games_per_day(games: Iterable[tuple[float, str]], now: float | None = None,
                  days: int = STAT_DAYS) -> dict[str, dict[str, int]]:
    """The finished games ``(when, kind)`` (``when`` in seconds since the epoch) of the last ``days``
    local days up to ``now`` (today included), counted per day and kind: ``{"2026-11-26": {"strategy":
    3}}``, days without games left out. One place for both stores, so they count the same days."""
    today = datetime.date.fromtimestamp(time.time() if now is None else now)
    first = today - datetime.timedelta(days=days - 1)
    counted: dict[str, dict[str, int]] = {}
    for when, kind in games:
        day = datetime.date.fromtimestamp(when)
        if first <= day <= today:
            per_kind = counted.setdefault(day.isoformat(), {})
            per_kind[kind] = per_kind.get(kind, 0) + 1
    return dict(sorted(counted.items()))


CLOCK_FLOOR = datetime.date(2026, 11, 1)
"""No table's clock is right before this day: this version of the program was written after it.
A Pi has no battery clock: started with no time server it says 1970, or the time it last saved.
(A release may move it on; left behind, it only catches less.)"""
CLOCK_SLACK_S = 3600.0
"""How far behind the newest game a clock may be before it is called wrong (a time server's step)."""


def clock_wrong(now: float, newest: float | None) -> bool:
    """Whether the wall clock, saying ``now``, is clearly wrong: before :data:`CLOCK_FLOOR`, or
    behind the newest finished game the table kept (``newest``: when it ended, as this clock said
    then), as ``firmware.players`` finds a clock behind the last game's end. Days counted from such
    a clock put the games on wrong days, or none in the last weeks, without a word."""
    return datetime.date.fromtimestamp(now) < CLOCK_FLOOR or (newest is not None and now < newest - CLOCK_SLACK_S)


class StoreUnreadable(Exception):
    """The store's database could not be read where nothing may stand in for what it holds (an
    export, :meth:`Store.exporting`): a read that gave nothing left a short file that looked whole."""


class Store(Protocol):
    """Everything that must survive a power cut. Each method commits before it returns."""

    def save_current(self, saved: dict[str, Any]) -> None:
        """Journal the game or puzzle in progress (``engine.modes.save(mode)``) after every step."""

    def load_current(self) -> dict[str, Any] | None:
        """The interrupted game or puzzle, if any (offered as "resume?" at start)."""

    def clear_current(self) -> None:
        """Forget the game in progress (finished, or the players declined to resume)."""

    def add_record(self, kind: str, record: dict[str, Any]) -> int:
        """Keep a finished game's record (replayable); returns its id."""

    def records(self, kind: str | None = None, limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        """Recent records as (id, kind, record), newest first."""

    def progress(self, key: str) -> dict[str, Any]:
        """Saved progress for ``key`` (e.g. "learn", "puzzles"); {} when none."""

    def saved_progress(self, key: str) -> dict[str, Any] | None:
        """The progress saved for ``key``; None when none ever was; ValueError when it is there but
        cannot be read back as an object (damaged). For what must fail closed, as the keypad's
        lockout: :meth:`progress`'s {} for both read as "no wrong PINs yet"."""

    def set_progress(self, key: str, value: dict[str, Any]) -> None: ...

    def add_score(self, mode: str, name: str, score: int) -> None:
        """A high-score entry for ``mode``."""

    def high_scores(self, mode: str, limit: int = 10) -> list[tuple[str, int]]: ...

    def statistics(self) -> dict[str, Any]:
        """Counts for the staff menu: ``games`` played per mode, ``robots``' wins and losses per level,
        ``days``: the games of each of the last :data:`STAT_DAYS` days (:func:`games_per_day`),
        ``newest``: when the newest game kept ended (None: none kept; see :func:`clock_wrong`), ..."""

    def batch(self) -> AbstractContextManager[None]:
        """``with store.batch():`` makes every write inside one transaction: a finished game's
        record, its scores and the clearing of ``current`` are all kept or none (a power cut in
        between must neither lose the game nor count it twice)."""

    def exporting(self) -> AbstractContextManager[None]:
        """``with store.exporting():`` every read inside gives all it was asked for or raises
        :class:`StoreUnreadable`, for an export (elsewhere a read that fails gives nothing, and is
        told, so that a screen still shows)."""


class Devices(Protocol):
    """The devices, as far as the UI needs them."""

    def status(self) -> list[DeviceStatus]: ...

    def cue(self, cue: Cue) -> None:
        """Show ``cue`` on the LED rings (ignored when there are none)."""

    def start_enrolment(self, tiles: list[int]) -> None:
        """Staff menu: learn tags by scanning ``tiles`` in this order (progress comes as events)."""

    def cancel_enrolment(self) -> None: ...

    def start_writing(self, first_tile: int) -> None:
        """Staff menu: write tile numbers on blank NFC stickers, ``first_tile`` on the next one put
        on the reader, then the following numbers up to 56 (progress comes as events)."""

    def cancel_writing(self) -> None: ...

    def simulated(self) -> bool:
        """Whether the devices are simulated (the UI then offers keyboard/scan controls and draws
        the rings on screen)."""

    def press_button(self, held: bool = False) -> None:
        """Simulated devices only: act as the bag button."""

    def scan(self, tile: int, reader: int | None) -> None:
        """Simulated devices only: act as if ``tile`` were put on ``reader``."""


PIN_DIGITS = (4, 12)
"""A staff PIN has 4 to 12 digits (``tantrix-kiosk hash-pin`` and the keypad agree on it)."""


def valid_pin(pin: str) -> bool:
    """Whether ``pin`` is a staff PIN: :data:`PIN_DIGITS` digits, as typed on the on-screen keypad
    (a PIN with a letter could never be typed there)."""
    return pin.isascii() and pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]


class Settings(Protocol):
    """Configuration the UI reads, and the few settings staff may change from the menu."""

    language: str  # "en", "fr", "nl", "pl"
    brightness: float  # LED brightness 0..1
    idle_seconds: float  # idle time before the attract screen
    orientation: Literal["flat", "upright"]  # hands around the table, or all at the bottom
    physical_bag: bool  # default for new games: tiles drawn from the real bag and scanned
    end_rule: Literal["all-placed", "first-out"]  # default end-of-game rule
    confirm_moves: bool  # a person's placement in the strategy game waits for their Confirm
    coach: bool  # a person may ask what the master would play (strategy game); staff may change it
    clock_minutes: int  # the clock of a new strategy game, minutes per player (0: none)
    time_out: Literal["penalty", "loss"]  # a player out of time: time penalties, or loss on time
    replay_url: str  # where replay/index.html is served (the results' QR code opens it)
    version: str  # the installed version, shown in the staff menu

    @property
    def staff_pin_set(self) -> bool:
        """False while no PIN opens the staff menu (an installed kiosk without one; the file's PIN
        damaged): looked at each time, as the owner may set a new PIN while the kiosk runs."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """Configuration problems to show staff (file, key, value, expected)."""

    @property
    def web_address(self) -> str:
        """The spectators' web page ("" while the web pages are off), a QR code in the staff menu
        (read-only: the firmware knows it once the web server runs)."""

    def check_pin(self, pin: str) -> bool: ...

    def pin_wait(self) -> float:
        """Seconds until the keypad takes a PIN again after wrong ones (0: now)."""

    def set_language(self, language: str) -> None: ...

    def set_brightness(self, brightness: float) -> None: ...

    def set_coach(self, coach: bool) -> None:
        """Offer the coach ("Hint") in strategy games, or not; a table on screen follows at once."""


class PlayerBook(Protocol):
    """The table's players and ladder (``firmware.players.Players``): the setup's name buttons and
    new players, the ladder screen, the rating of finished games."""

    def all(self) -> list[Any]: ...

    def get(self, player_id: str) -> Any:
        """The player ``player_id``; an error for one deleted (or merged into another) since."""

    def create(self, name: str, avatar: str) -> Any: ...

    def ladder(self) -> list[Any]: ...

    def history(self, player_id: str) -> list[Any]: ...

    def record_game(self, kind: str, outcome: Any, record_id: int | None = None) -> list[Any]: ...

    def add_best(self, player_id: str, mode: str, score: int) -> bool:
        """Keep a solo score as the player's best if it beats theirs; whether it did."""

    def bests(self, player_id: str) -> dict[str, int]: ...

    def rename(self, player_id: str, name: str, avatar: str | None = None) -> Any: ...

    def merge(self, duplicate: str, into: str) -> None: ...

    def delete(self, player_id: str) -> None: ...

    def export_file(self) -> str:
        """Write everything kept about the players to a JSON file; its path."""

    def tournament_entries(self, tournament: str) -> list[dict[str, Any]]:
        """The tournament entries (``engine.tournament.entry``) of the rated games whose records
        name ``tournament``: played here or at another table of the club, whatever their clocks."""


TOURNAMENT = "tournament"
"""The store's progress key of this table's club evening (``ui.tournament_store``): the tournament it
runs, or the game of another table's tournament it plays. The firmware shows it to the club's other
tables as it is (:class:`ClubView`)."""


class ClubView(Protocol):
    """This table's view of its club's other tables (``firmware.club.ClubLink``): what each says of
    its club evening, so a tournament runs on several tables at once."""

    @property
    def table(self) -> str:
        """This table's name in the club."""

    def tournaments(self) -> dict[str, dict[str, Any]]:
        """Each other table's :data:`TOURNAMENT` progress as it last told the club (checked: a
        ``tournament`` in it reads as an ``engine.tournament.Tournament``), by table name."""

    def online(self, table: str) -> bool:
        """Whether ``table`` is connected to the club now, as this table last heard."""

    def connected(self) -> bool:
        """Whether this table is connected to the club's broker now (else what it heard of the
        others, whether they are connected too, may be old)."""


@dataclass
class Services:
    """What the firmware hands the UI."""

    store: Store
    devices: Devices
    settings: Settings
    on_first_frame: Callable[[], None] = field(default=lambda: None)
    """Called once the first frame is on screen (the firmware sends READY=1 to systemd)."""
    on_tick: Callable[[], None] = field(default=lambda: None)
    """Called from the UI's own clock about once a second (the firmware sends WATCHDOG=1), so a
    frozen UI stops the watchdog, not only a dead process."""
    quit_to_system: Callable[[], None] = field(default=lambda: None)
    """Staff menu "quit to the system"."""
    players: PlayerBook | None = None
    """The table's players (None: seats are colours only, no ladder)."""
    club: ClubView | None = None
    """The club's other tables (None: this table plays alone)."""
