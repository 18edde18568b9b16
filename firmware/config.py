"""The kiosk's configuration: one TOML file, typed frozen dataclasses, defaults for everything.

The file is ``/etc/tantrix-kiosk/config.toml`` unless ``--config PATH`` or the environment variable
``TANTRIX_KIOSK_CONFIG`` names another; ``systemd/config.example.toml`` documents every key. A
missing file is fine (the built-in defaults are a working kiosk). A broken one must never keep the
kiosk from starting, because nobody in a café can read a traceback on a touchscreen: each problem
(bad TOML, an unknown key, a wrong type, a value out of range) becomes one warning naming the file,
the key, the value found and what was expected, the key keeps its default, and the rest of the file
still applies. The warnings end up in ``Settings.warnings``, which the staff menu shows. Any
exception from the parser (a syntax slip, a duplicated table, a value nested a thousand deep) is
such a warning too; a UTF-8 byte order mark (Notepad's) is accepted.

A broken file never weakens security nor hides the games: the kiosk keeps a copy of the last file
that gave a good staff PIN and storage directory (``last_good``, in the state directory), and when
the file cannot be read at all it runs on that copy; when only ``kiosk.staff_pin`` or
``storage.directory`` is refused, that key comes from the copy (never from the defaults, which
would mean no PIN, or another directory where the old games are not). A file that leaves out one of
these keys, or, with the club link on, ``club.tls`` or ``club.password_file`` (a line deleted by
mistake would mean a table that talks to the broker in clear, or without its password), keeps the
copy's value too: turning one off takes a new value (``tls = false``), never a missing line.

Tables ``[kiosk]``, ``[display]``, ``[rules]``, ``[robots]``, ``[storage]``, ``[web]``, ``[replay]`` and
``[club]`` belong to the firmware and are checked here in full. ``[club]`` and ``[web]`` fail closed: one
refused or unknown key there turns the club link (or the web pages) off (a refused ``tls`` must not mean
"connect in clear", a refused ``password_file`` must not mean "connect without credentials", a
refused ``web.host`` must not mean "listen on every network"; nor must a misspelt ``tsl`` or ``hots``). The device tables ``[button]``,
``[reader]`` and ``[rings]`` become the
hardware package's own configurations (``ButtonConfig``, ``ReaderConfig``, ``RingsConfig``), which
check their values themselves: a value they refuse is reported the same way (file, key, value,
expected) and keeps the device's default, so a broken device table never stops the kiosk either.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import logging
import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Literal, Mapping

from engine.clock import CASUAL_MINUTES
from engine.compact import REPLAY_URL
from hardware.board import board_model
from hardware import (ButtonConfig, ConfigError, PioOverlay, ReaderConfig, RingsConfig, check_pins, check_pio_leds,
                      read_pio_overlays)
from ui.files import write_whole

from .pin import HASH_EXPECTED, is_pin_hash

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/tantrix-kiosk/config.toml")
ENV_VAR = "TANTRIX_KIOSK_CONFIG"
LANGUAGES = ("en", "fr", "nl", "pl")


# ------------------------------------------------------------------------------------ checks


class Expected(ValueError):
    """A value that does not fit; the message is what was expected ("a number from 0 to 1")."""


Check = Callable[[Any], Any]
"""Takes a TOML value, returns it (normalised) or raises :class:`Expected`."""


def one_of(*choices: str) -> Check:
    def check(value: Any) -> Any:
        if value not in choices:
            raise Expected("one of " + ", ".join(json.dumps(c) for c in choices))
        return value

    return check


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number(low: float, high: float) -> Check:
    def check(value: Any) -> float:
        if not _is_number(value) or not low <= value <= high:
            raise Expected(f"a number from {low:g} to {high:g}")
        return float(value)

    return check


def integer(low: int, high: int, what: str = "a whole number") -> Check:
    def check(value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise Expected(f"{what} from {low} to {high}")
        return value

    return check


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Expected("true or false")
    return value


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise Expected("a string in quotes")
    return value


def pin_hash(value: Any) -> str:
    if not isinstance(value, str) or (value and not is_pin_hash(value)):
        raise Expected(HASH_EXPECTED)
    return value


def setting(default: Any, check: Check) -> Any:
    """A dataclass field with its default and the check a value from the file must pass."""
    return field(default=default, metadata={"check": check})


# ---------------------------------------------------------------------- the firmware's tables


@dataclass(frozen=True)
class KioskConfig:
    language: str = setting("en", one_of(*LANGUAGES))
    """Language of the screens at start (staff may change it; the change is remembered)."""
    idle_seconds: float = setting(120.0, number(10, 3600))
    """Time without a touch before the attract screen (a game in progress is kept)."""
    staff_pin: str = setting("", pin_hash)
    """Hash of the staff PIN from ``tantrix-kiosk hash-pin``; empty: the PIN is 0000 (warned)."""
    log_level: str = setting("info", one_of("debug", "info", "warning", "error"))


def whole_one_of(*choices: int) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or value not in choices:
            raise Expected("one of " + ", ".join(str(c) for c in choices))
        return int(value)

    return check


@dataclass(frozen=True)
class DisplayConfig:
    orientation: Literal["flat", "upright"] = setting("flat", one_of("flat", "upright"))
    """``flat``: the screen lies on the table, hands around it; ``upright``: all hands at the bottom."""
    rotation: int = setting(0, whole_one_of(0, 90, 180, 270))
    """Degrees the picture and the touches are turned, for a panel mounted another way round (the
    portrait 720x1280 panel lying landscape: 90 or 270; upside down: 180)."""
    pixels_per_inch: float = setting(0.0, number(0, 1000))
    """The panel's density, when it is none of the known panels; 0: known from the panel's size.
    Touch targets are 9 mm at this density."""


@dataclass(frozen=True)
class RulesConfig:
    end_rule: Literal["all-placed", "first-out"] = setting("all-placed", one_of("all-placed", "first-out"))
    """Default end of a strategy game: when every tile is placed, or when the first player runs out."""
    physical_bag: bool = setting(False, flag)
    """Default for new games: tiles are drawn from the real bag and scanned."""
    confirm_moves: bool = setting(True, flag)
    """A person's placement in the strategy game stays provisional (movable, turnable, taken back)
    until they tap Confirm; experienced tables may turn it off."""
    coach: bool = setting(True, flag)
    """A person may ask, in the strategy game, what the master would play (and why); a club's
    tournament table turns it off."""
    clock_minutes: int = setting(0, whole_one_of(*CASUAL_MINUTES))
    """The clock of a new strategy game, minutes per player (0: no clock), shown on the plates."""
    time_out: Literal["penalty", "loss"] = setting("penalty", one_of("penalty", "loss"))
    """When a player's time is up: ``penalty`` counts time penalties as the online tournaments do
    (the game goes on), ``loss``: the player loses on time."""


@dataclass(frozen=True)
class RobotsConfig:
    master_seconds: float = setting(3.0, number(0.2, 30))
    """Safety cap on the master robot's thinking time per placement (its work is fixed by its
    iterations; the cap only stops a search on an overloaded machine)."""
    master_workers: int = setting(0, integer(0, 8))
    """Worker processes for the master's search; 0: one fewer than the cores (the UI keeps one)."""


def file_path(value: Any) -> str:
    if not isinstance(value, str) or (value and not value.startswith("/")):
        raise Expected("an absolute path in quotes (starting with /), or \"\" for none")
    return value


@dataclass(frozen=True)
class StorageConfig:
    directory: str = setting("", file_path)
    """Where the database lives, an absolute path (a relative one would follow the working directory:
    ``/`` under systemd, read-only, so nothing would be kept, and elsewhere wherever the kiosk was
    started, another directory each time, the games kept in none); empty: ``$STATE_DIRECTORY`` (set by systemd's StateDirectory=),
    else ``$XDG_STATE_HOME/tantrix-kiosk`` (``~/.local/state/tantrix-kiosk``) for desktop runs."""
    max_mb: int = setting(64, integer(1, 4096))
    """Upper bound of the database size, so it can never fill the SD card."""
    keep_records: int = setting(2000, integer(10, 100_000))
    """Finished games kept for replay; older ones are dropped (the statistics keep counting)."""

    def path(self, environ: Mapping[str, str] = os.environ) -> Path:
        """The state directory this configuration points at."""
        if self.directory:
            return Path(self.directory)
        state = unit_state_directory(environ)
        if state is not None:
            return state
        state_home = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(state_home) / "tantrix-kiosk"


def host(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9A-Za-z.:-]{1,253}", value):
        raise Expected("an IP address or host name in quotes, such as \"0.0.0.0\" or \"127.0.0.1\"")
    return value


def or_empty(check: Check) -> Check:
    """``check``, or "" for a key not set (a file may show the key without a value)."""

    def checked(value: Any) -> Any:
        if value == "":
            return value
        try:
            return check(value)
        except Expected as exc:
            raise Expected(f'{exc}, or "" for none') from None

    return checked


def ip_address(value: Any) -> str:
    """An IP address as the kernel reports a peer's ("::1", never "0:0:0:0:0:0:0:1")."""
    try:
        return str(ipaddress.ip_address(value if isinstance(value, str) else ""))
    except ValueError:
        raise Expected("an IP address in quotes, such as \"127.0.0.1\"") from None


def replay_page(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"https?://[^\s#\"<>]{1,500}", value):
        raise Expected("an http:// or https:// address in quotes, without a \"#\" (the game follows it), "
                       f"such as {json.dumps(REPLAY_URL)}")
    return value


@dataclass(frozen=True)
class ReplayConfig:
    url: str = setting(REPLAY_URL, replay_page)
    """Where ``replay/index.html`` is served: the address the results' QR code opens, the game
    after its "#"."""


@dataclass(frozen=True)
class WebConfig:
    """The staff and spectator web pages (``tantrix-web``, a separate process and systemd unit)."""

    enabled: bool = setting(False, flag)
    """Off by default: nothing listens on the network unless this is true."""
    host: str = setting("0.0.0.0", host)
    """The address to listen on ("0.0.0.0": every network of the Pi; "127.0.0.1": this Pi only)."""
    port: int = setting(8080, integer(1024, 65535, "a port number"))
    spectators: bool = setting(True, flag)
    """Whether the live table (board, scores, hands) is shown without a PIN."""
    session_minutes: int = setting(30, integer(1, 24 * 60))
    """A staff session ends after this long without a request."""
    proxy: str = setting("", or_empty(ip_address))
    """The address a reverse proxy in front of the pages connects from ("127.0.0.1" when it runs
    on the Pi; "": none). Each other address may hold only a few connections at once; the proxy's
    carry all its guests, so its own limit per client (nginx's ``limit_conn``) must do that."""


def name(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
        raise Expected("1 to 32 letters, digits, - or _ in quotes, such as \"table-3\"")
    return value


def topic_prefix(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}(/[A-Za-z0-9_-]{1,32}){0,3}", value):
        raise Expected("1 to 4 words of letters, digits, - or _ joined by /, such as \"tantrix\" or \"club/tantrix\"")
    return value


@dataclass(frozen=True)
class ClubConfig:
    """A club's tables as one (``firmware.club``): players, rated games and the ladder shared through
    an MQTT broker. Any refused key turns the link off (see the module docstring)."""

    enabled: bool = setting(False, flag)
    """Off by default: the kiosk opens no connection."""
    broker: str = setting("", or_empty(host))
    """The broker's address (the club's server, or the table that runs Mosquitto)."""
    port: int = setting(1883, integer(1, 65535, "a port number"))
    """1883 for plain MQTT, 8883 usually for MQTT over TLS."""
    table: str = setting("", or_empty(name))
    """This table's name in the club, also its user name on the broker (each table its own)."""
    password_file: str = setting("", file_path)
    """A file holding this table's broker password (readable by the kiosk only); "": none."""
    tls: bool = setting(False, flag)
    """Connect over TLS, checking the broker's certificate and host name."""
    ca_file: str = setting("", file_path)
    """The certificate authority that signed the broker's certificate ("": the system's)."""
    topic: str = setting("tantrix", topic_prefix)
    """The first words of every topic (several clubs can share one broker)."""


SECTIONS: dict[str, type] = {
    "kiosk": KioskConfig,
    "display": DisplayConfig,
    "rules": RulesConfig,
    "robots": RobotsConfig,
    "storage": StorageConfig,
    "web": WebConfig,
    "replay": ReplayConfig,
    "club": ClubConfig,
}

DEVICES: dict[str, type] = {
    "button": ButtonConfig,
    "reader": ReaderConfig,
    "rings": RingsConfig,
}
"""The device tables, checked by the hardware package's configuration classes."""


@dataclass(frozen=True)
class Config:
    kiosk: KioskConfig = KioskConfig()
    display: DisplayConfig = DisplayConfig()
    rules: RulesConfig = RulesConfig()
    robots: RobotsConfig = RobotsConfig()
    storage: StorageConfig = StorageConfig()
    web: WebConfig = WebConfig()
    replay: ReplayConfig = ReplayConfig()
    club: ClubConfig = ClubConfig()
    button: ButtonConfig = ButtonConfig()
    reader: ReaderConfig = ReaderConfig()
    rings: RingsConfig = RingsConfig()
    """One ring per seat, in seat order (the number of rings is the number of seats)."""
    source: Path | None = None
    """The file these values came from; None when running on the built-in defaults."""
    warnings: tuple[str, ...] = ()
    """One line per problem found in the file (file, key, value, expected)."""
    refused: frozenset[str] = frozenset()
    """The keys ("kiosk.staff_pin") whose value in the file was refused, and the unknown keys of the
    firmware's tables (whose value is not used either)."""
    given: frozenset[str] = frozenset()
    """The keys the file gives a value (right or wrong)."""


GUARDED = ("kiosk.staff_pin", "storage.directory")
"""Keys a broken file must never take back to their defaults (see the module docstring)."""
GUARDED_CLUB = ("club.tls", "club.password_file")
"""Keys a file with the club link on must not lose by leaving them out (a refused one turns the link
off instead: :data:`FAIL_CLOSED`)."""
LAST_GOOD = "config.last-good.toml"


def unit_state_directory(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The unit's state directory (``$STATE_DIRECTORY``, set by systemd's StateDirectory=; the first
    if it names several), writable by the kiosk; None outside systemd."""
    state = environ.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(state) if state else None


def last_good_path(environ: Mapping[str, str] = os.environ) -> Path | None:
    """Where the last good configuration is kept: the unit's state directory (writable by the
    kiosk, which ``/etc`` is not). None for desktop runs, where the file is all."""
    state = unit_state_directory(environ)
    return state / LAST_GOOD if state is not None else None


# ------------------------------------------------------------------------------------ loading


def config_path(path: str | os.PathLike[str] | None, environ: Mapping[str, str] = os.environ) -> tuple[Path, bool]:
    """The file to read and whether it was asked for explicitly (``--config``, the environment)."""
    if path is not None:
        return Path(path), True
    if environ.get(ENV_VAR):
        return Path(environ[ENV_VAR]), True
    return DEFAULT_PATH, False


def load_config(path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ,
                last_good: Path | None = None) -> Config:
    """Read the configuration; never raises for a bad file (see the module docstring). With
    ``last_good``, a file whose guarded keys are fine is copied there, and a broken one falls back
    on that copy."""
    file, explicit = config_path(path, environ)
    config, whole = _read(file, explicit)
    if last_good is None:
        return config
    good, _ = _read(last_good, True) if last_good.exists() else (Config(), None)
    if good.source is None or good.refused & set(GUARDED):
        if whole is None and config.source is not None and not config.refused & set(GUARDED):
            _keep(file, last_good)
        return config  # nothing good kept yet: the file's own values (a PIN refused stays unset)
    if whole is not None:
        return replace(good, source=file, warnings=(
            f"{whole}; the kiosk runs on the last good configuration ({last_good})",))
    guarded = GUARDED + (GUARDED_CLUB if config.club.enabled else ())
    dropped = [key for key in guarded if key not in config.given and _value(good, key)]
    kept = [key for key in GUARDED if key in config.refused] + dropped
    if not kept:
        _keep(file, last_good)
        return config
    for key in kept:
        config = _with(config, key, _value(good, key))
    missing = f" (a file without {' or '.join(dropped)} cannot unset it: give a new value)" if dropped else ""
    return replace(config, warnings=tuple(_kept_instead(warning, file, kept) for warning in config.warnings) + (
        f"{file}: {' and '.join(kept)} kept from the last good configuration ({last_good}){missing}",))


def _kept_instead(warning: str, file: Path, kept: list[str]) -> str:
    """``warning``, where it is a refused key's of ``kept``, saying the last good value is used: it
    said "using the default" (for the PIN: none), which the kiosk did not do."""
    for key in kept:
        default = _using(_value(Config(), key))
        if warning.startswith(f"{file}: {key} = ") and warning.endswith(default):
            return warning.removesuffix(default) + "; keeping the last good configuration's value"
    return warning


def _value(config: Config, key: str) -> Any:
    table, _, name = key.partition(".")
    return getattr(getattr(config, table), name)


def _with(config: Config, key: str, value: Any) -> Config:
    """``config`` with ``key`` ("club.tls") set to ``value``."""
    table, _, name = key.partition(".")
    return replace(config, **{table: replace(getattr(config, table), **{name: value})})


def _read(file: Path, explicit: bool) -> tuple[Config, str | None]:
    """The configuration in ``file`` and, when none of it could be used, why."""
    defaults = "the kiosk starts on the built-in defaults"
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        problem = f"{file}: no such file"
        return Config(warnings=(f"{problem}; {defaults}",) if explicit else ()), problem if explicit else None
    except OSError as exc:
        problem = f"{file}: cannot read it ({exc.strerror})"
        return Config(warnings=(f"{problem}; {defaults}",)), problem
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        problem = f"{file}: not UTF-8 text (byte {exc.start})"
    except tomllib.TOMLDecodeError as exc:
        problem = f"{file}: not valid TOML: {exc}"
    except Exception as exc:  # e.g. RecursionError for a value nested too deep: still just a bad file
        problem = f"{file}: cannot be read as TOML ({type(exc).__name__})"
    else:
        try:
            return parse_config(data, file), None
        except Exception as exc:  # not expected; a configuration must never stop the kiosk
            problem = f"{file}: cannot be used ({type(exc).__name__}: {str(exc)[:80]})"
    return Config(warnings=(f"{problem}; {defaults}",)), problem


def _keep(file: Path, last_good: Path) -> None:
    """Copy ``file`` to ``last_good`` (whole or not at all, only when it changed); a failure is only logged."""
    try:
        raw = file.read_bytes()
        if last_good.exists() and last_good.read_bytes() == raw:
            return
        last_good.parent.mkdir(parents=True, exist_ok=True)
        write_whole(last_good, raw)
    except OSError as exc:
        log.warning("cannot keep a copy of the configuration in %s: %s", last_good, exc)


def _switched_off(name: str, off: str, needed: tuple[str, ...] = ()) -> Callable[[Any, Path, set[str], list[str]], Any]:
    """The check of a section turned off (``enabled = false``, ``off`` tells staff) when one of its
    keys was refused or a ``needed`` one is missing: its defaults are the widest settings (every
    network, no credentials), never a safe stand-in for a value the file meant."""

    def closed(section: Any, file: Path, refused: set[str], warnings: list[str]) -> Any:
        problems = sorted(key for key in refused if key.startswith(f"{name}."))
        missing = [f"{name}.{key}" for key in needed if not getattr(section, key)]
        if not problems and not missing:
            return section
        why = (f"{' and '.join(problems)} refused" if problems else "") + \
              ("; " if problems and missing else "") + (f"{' and '.join(missing)} not given" if missing else "")
        warnings.append(f"{file}: [{name}] {why}: {off} until the table is fixed "
                        f"(never run with a weaker setting)")
        return replace(section, enabled=False)

    return closed


FAIL_CLOSED: dict[str, Callable[[Any, Path, set[str], list[str]], Any]] = {
    "club": _switched_off("club", "the club link stays off", needed=("broker", "table")),
    "web": _switched_off("web", "the web pages stay off"),
}
"""Sections that are switched off, not run on defaults, when one of their keys is wrong."""


def parse_config(data: Mapping[str, Any], file: Path) -> Config:
    """Build the configuration from a parsed TOML document, keeping defaults where it is wrong."""
    warnings: list[str] = []
    refused: set[str] = set()
    given = {f"{name}.{key}" for name, table_ in data.items() if isinstance(table_, dict) for key in table_}
    values: dict[str, Any] = {}
    known = [*SECTIONS, *DEVICES]
    for name, value in data.items():
        if name not in known and not isinstance(value, dict):  # above the first [table]: whose key?
            owners = [table for table, cls in (*SECTIONS.items(), *DEVICES.items())
                      if name in {spec.name for spec in fields(cls)}]
            where = f" (a key of [{owners[0]}]: put it under that line)" if owners else ""
            warnings.append(f"{file}: {name} = {_show(value)} is outside every table{where}; ignored")
        elif name not in known:
            warnings.append(f"{file}: unknown table [{name}]{_did_you_mean(name, known)}; ignored "
                            f"(the tables are {', '.join(known)})")
        elif not isinstance(value, dict):
            warnings.append(f"{file}: {name} = {_show(value)}: expected a table [{name}]; using the defaults")
            refused.update(key for key in GUARDED if key.startswith(f"{name}."))
        elif name in SECTIONS:
            values[name] = _section(SECTIONS[name], name, value, file, warnings, refused)
            if name in FAIL_CLOSED and getattr(values[name], "enabled", False):
                values[name] = FAIL_CLOSED[name](values[name], file, refused, warnings)
        else:
            values[name] = _device(DEVICES[name], name, value, file, warnings)
    overlays = _pio_overlays(values.get("rings", RingsConfig()), file, warnings)
    values["button"] = _free_pin(values, overlays, file, warnings)
    return Config(**values, source=file, warnings=tuple(warnings), refused=frozenset(refused),
                  given=frozenset(given))


def _pio_overlays(rings: RingsConfig, file: Path, warnings: list[str]) -> tuple[PioOverlay, ...]:
    """The Pi 5 LED driver's lines of the boot configuration (``rings.boot_config``), with a warning
    when the rings cannot work as they set the driver up (``check_pio_leds``): the LEDs would stay
    dark or stop short, and the staff would not know why."""
    overlays: tuple[PioOverlay, ...] = ()
    try:
        overlays = read_pio_overlays(rings.boot_config, board_model())
        check_pio_leds(rings, overlays)
    except ConfigError as exc:  # a key of the boot configuration names its file; one of ours, not
        warnings.append(f"{file}: {exc}" if exc.field.startswith("rings.") else str(exc))
    return overlays


def _free_pin(values: dict[str, Any], overlays: tuple[PioOverlay, ...], file: Path,
              warnings: list[str]) -> ButtonConfig:
    """The button, back on its default pin when the file puts it on a GPIO the reader or the rings
    drive (``check_pins``); when the default pin is taken too (a PIO overlay's), the simulated
    button: gpiozero must not take the LEDs' pin."""
    button: ButtonConfig = values.get("button", ButtonConfig())
    reader, rings = values.get("reader", ReaderConfig()), values.get("rings", RingsConfig())
    try:
        check_pins(button, reader, rings, overlays)
    except ConfigError as exc:
        try:
            check_pins(ButtonConfig(), reader, rings, overlays)
        except ConfigError:
            warnings.append(f"{file}: {exc}; the bag button is off (choose a free [button] pin)")
            return replace(button, backend="simulated")
        warnings.append(f"{file}: {exc}; using the default {ButtonConfig.pin}")
        return replace(button, pin=ButtonConfig.pin)
    return button


def _section(cls: type, name: str, table_: dict[str, Any], file: Path, warnings: list[str],
             refused: set[str]) -> Any:
    specs = {spec.name: spec for spec in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in table_.items():
        spec = specs.get(key)
        if spec is None:  # refused too: in [web] or [club] a misspelt "host" or "tls" is a wrong key
            refused.add(f"{name}.{key}")
            warnings.append(_unknown_key(file, name, key, specs))
            continue
        try:
            values[key] = spec.metadata["check"](value)
        except Expected as exc:
            refused.add(f"{name}.{key}")
            warnings.append(f"{file}: {name}.{key} = {_show(value)}: expected {exc}{_using(spec.default)}")
    return cls(**values)


def _device(cls: type, name: str, table_: dict[str, Any], file: Path, warnings: list[str]) -> Any:
    """``cls(**table_)``; each key it refuses is reported and left out, so it keeps its default."""
    specs = {spec.name: spec for spec in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in table_.items():
        if key in specs:
            values[key] = value
        else:
            warnings.append(_unknown_key(file, name, key, specs))
    while True:
        try:
            return cls(**values)
        except ConfigError as exc:
            # exc.field is "rings.brightness" or, inside a ring, "rings.rings[1].leds": the key is "rings"
            key = re.split(r"[.[]", exc.field.removeprefix(f"{name}."))[0]
            default = specs[key].default if key in specs else None
            shown = f" {_show(default)}" if isinstance(default, (str, int, float)) else ""
            if key not in values:  # a check across keys that names one left at its default
                warnings.append(f"{file}: {exc}; using the defaults of [{name}]")
                return cls()
            warnings.append(f"{file}: {exc}; using the default{shown}")
            del values[key]
        except TypeError as exc:  # not expected once unknown keys are out; still never fatal
            warnings.append(f"{file}: [{name}]: {exc}; using the defaults of [{name}]")
            return cls()


def _unknown_key(file: Path, name: str, key: str, known: Mapping[str, Any]) -> str:
    return (f"{file}: unknown key {name}.{key}{_did_you_mean(key, known)}; ignored "
            f"(the keys of [{name}] are {', '.join(known)})")


def _using(default: Any) -> str:
    """The end of a refused key's warning: what is used instead."""
    return f"; using the default {_show(default)}"


def _show(value: Any) -> str:
    """A value as it would be written in TOML (near enough), cut short when long."""
    shown = json.dumps(value, default=str, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _did_you_mean(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""
