"""The kiosk's configuration: one TOML file, typed frozen dataclasses, defaults for everything.

The file is ``/etc/tantrix-kiosk/config.toml`` unless ``--config PATH`` or the environment variable
``TANTRIX_KIOSK_CONFIG`` names another; ``systemd/config.example.toml`` documents every key. A
missing file is fine (the built-in defaults are a working kiosk). A broken one must never keep the
kiosk from starting, because nobody in a café can read a traceback on a touchscreen: each problem
(bad TOML, an unknown key, a wrong type, a value out of range) becomes one warning naming the file,
the key, the value found and what was expected, the key keeps its default, and the rest of the file
still applies. The warnings end up in ``Settings.warnings``, which the staff menu shows.

Tables ``[kiosk]``, ``[display]``, ``[rules]``, ``[robots]`` and ``[storage]`` belong to the firmware and are
checked here in full. The device tables ``[button]``, ``[reader]`` and ``[rings]`` become the
hardware package's own configurations (``ButtonConfig``, ``ReaderConfig``, ``RingsConfig``), which
check their values themselves: a value they refuse is reported the same way (file, key, value,
expected) and keeps the device's default, so a broken device table never stops the kiosk either.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Literal, Mapping

from hardware import ButtonConfig, ConfigError, ReaderConfig, RingsConfig

from .pin import HASH_EXPECTED, is_pin_hash

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


@dataclass(frozen=True)
class DisplayConfig:
    orientation: Literal["flat", "upright"] = setting("flat", one_of("flat", "upright"))
    """``flat``: the screen lies on the table, hands around it; ``upright``: all hands at the bottom."""


@dataclass(frozen=True)
class RulesConfig:
    end_rule: Literal["all-placed", "first-out"] = setting("all-placed", one_of("all-placed", "first-out"))
    """Default end of a strategy game: when every tile is placed, or when the first player runs out."""
    physical_bag: bool = setting(False, flag)
    """Default for new games: tiles are drawn from the real bag and scanned."""


@dataclass(frozen=True)
class RobotsConfig:
    master_seconds: float = setting(3.0, number(0.2, 30))
    """Safety cap on the master robot's thinking time per placement (its work is fixed by its
    iterations; the cap only stops a search on an overloaded machine)."""
    master_workers: int = setting(0, integer(0, 8))
    """Worker processes for the master's search; 0: one fewer than the cores (the UI keeps one)."""


@dataclass(frozen=True)
class StorageConfig:
    directory: str = setting("", text)
    """Where the database lives; empty: ``$STATE_DIRECTORY`` (set by systemd's StateDirectory=),
    else ``$XDG_STATE_HOME/tantrix-kiosk`` (``~/.local/state/tantrix-kiosk``) for desktop runs."""
    max_mb: int = setting(64, integer(1, 4096))
    """Upper bound of the database size, so it can never fill the SD card."""
    keep_records: int = setting(2000, integer(10, 100_000))
    """Finished games kept for replay; older ones are dropped (the statistics keep counting)."""

    def path(self, environ: Mapping[str, str] = os.environ) -> Path:
        """The state directory this configuration points at."""
        if self.directory:
            return Path(self.directory)
        if environ.get("STATE_DIRECTORY"):
            return Path(environ["STATE_DIRECTORY"].split(":")[0])
        state_home = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(state_home) / "tantrix-kiosk"


SECTIONS: dict[str, type] = {
    "kiosk": KioskConfig,
    "display": DisplayConfig,
    "rules": RulesConfig,
    "robots": RobotsConfig,
    "storage": StorageConfig,
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
    button: ButtonConfig = ButtonConfig()
    reader: ReaderConfig = ReaderConfig()
    rings: RingsConfig = RingsConfig()
    """One ring per seat, in seat order (the number of rings is the number of seats)."""
    source: Path | None = None
    """The file these values came from; None when running on the built-in defaults."""
    warnings: tuple[str, ...] = ()
    """One line per problem found in the file (file, key, value, expected)."""


# ------------------------------------------------------------------------------------ loading


def config_path(path: str | os.PathLike[str] | None, environ: Mapping[str, str] = os.environ) -> tuple[Path, bool]:
    """The file to read and whether it was asked for explicitly (``--config``, the environment)."""
    if path is not None:
        return Path(path), True
    if environ.get(ENV_VAR):
        return Path(environ[ENV_VAR]), True
    return DEFAULT_PATH, False


def load_config(path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> Config:
    """Read the configuration; never raises for a bad file (see the module docstring)."""
    file, explicit = config_path(path, environ)
    defaults = "the kiosk starts on the built-in defaults"
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return Config(warnings=(f"{file}: no such file; {defaults}",) if explicit else ())
    except OSError as exc:
        return Config(warnings=(f"{file}: cannot read it ({exc.strerror}); {defaults}",))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return Config(warnings=(f"{file}: not UTF-8 text (byte {exc.start}); {defaults}",))
    except tomllib.TOMLDecodeError as exc:
        return Config(warnings=(f"{file}: not valid TOML: {exc}; {defaults}",))
    return parse_config(data, file)


def parse_config(data: Mapping[str, Any], file: Path) -> Config:
    """Build the configuration from a parsed TOML document, keeping defaults where it is wrong."""
    warnings: list[str] = []
    values: dict[str, Any] = {}
    known = [*SECTIONS, *DEVICES]
    for name, value in data.items():
        if name not in known:
            warnings.append(f"{file}: unknown table [{name}]{_did_you_mean(name, known)}; ignored "
                            f"(the tables are {', '.join(known)})")
        elif not isinstance(value, dict):
            warnings.append(f"{file}: {name} = {_show(value)}: expected a table [{name}]; using the defaults")
        elif name in SECTIONS:
            values[name] = _section(SECTIONS[name], name, value, file, warnings)
        else:
            values[name] = _device(DEVICES[name], name, value, file, warnings)
    return Config(**values, source=file, warnings=tuple(warnings))


def _section(cls: type, name: str, table_: dict[str, Any], file: Path, warnings: list[str]) -> Any:
    specs = {spec.name: spec for spec in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in table_.items():
        spec = specs.get(key)
        if spec is None:
            warnings.append(_unknown_key(file, name, key, specs))
            continue
        try:
            values[key] = spec.metadata["check"](value)
        except Expected as exc:
            warnings.append(f"{file}: {name}.{key} = {_show(value)}: expected {exc}; "
                            f"using the default {_show(spec.default)}")
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


def _show(value: Any) -> str:
    """A value as it would be written in TOML (near enough), cut short when long."""
    shown = json.dumps(value, default=str, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _did_you_mean(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""
