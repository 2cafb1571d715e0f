"""``route18xx serve``'s settings from flags, the environment and a TOML file (issue 23, item 4).

Every ``serve`` option can be given three ways. The first found wins:

1. the flag (``--http-port 8081``);
2. the environment variable ``ROUTE18XX_`` + the option's name in capitals,
   dashes as underscores (``ROUTE18XX_HTTP_PORT=8081``); a switch takes
   ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``, a list
   (``--cors-origin``) is comma-separated;
3. the TOML file named by ``--config`` (or ``ROUTE18XX_CONFIG``): one key per
   option, named as the flag without its dashes (``http-port = 8081``,
   ``no-http = true``, ``cors-origin = ["https://a.example"]``);

else the option's default. ``resolve`` returns each setting with where it came
from; ``serve`` prints them at start. A value that cannot be read, an unknown
key or an unreadable file is a ``ConfigError`` naming the variable or the key.

Every number, from whichever source, is checked against its ``BOUNDS`` (issue 34:
``--port 70000`` served on port 4464, ``--http-port 70000`` and ``--queue 10**15``
ended in tracebacks, a time of 0 or ``inf`` was taken): ports 0 to 65535 (0: a free
port the system picks, which the start line names), times finite and above 0, counts
within what a machine can hold. The ``--config`` file is read bounded
(``CONFIG_MAX_BYTES``, a regular file: never a FIFO or a device) and nesting too
deep for the TOML parser is refused as such (a 5 000-deep array ended in a traceback).

The options are read off the ``serve`` parser itself (``defer_defaults``
moves their defaults here), so a new flag is configurable without a line more.
"""

from __future__ import annotations

import argparse
import math
import tomllib
from dataclasses import dataclass
from typing import Any, Mapping

ENV_PREFIX = "ROUTE18XX_"
CONFIG_DEST = "config"
PRECEDENCE = "flag > environment ROUTE18XX_* > --config file > default"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_TABLE = "_serve_options"
#: The largest ``--config`` file read (a serve.toml holds a few lines).
CONFIG_MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Bounds:
    """The values a numeric option may take: ``low`` to ``high``, ``low`` excluded when
    ``above_low`` (a time of 0 means nothing); ``note`` says what a special value means."""

    low: float
    high: float
    what: str
    above_low: bool = False
    note: str = ""

    def refuses(self, value: Any) -> str | None:
        """Why ``value`` is out of bounds (NaN and infinities included); None when it is in."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None  # its type is checked where it is read
        inside = math.isfinite(value) and (value > self.low if self.above_low else value >= self.low) \
            and value <= self.high
        if inside:
            return None
        low, high = _bound(self.low), _bound(self.high)
        span = f"above {low} and at most {high}" if self.above_low else f"from {low} to {high}"
        note = f" ({self.note})" if self.note else ""
        return f"{_shown(value)[:40]} is out of range: {self.what} {span}{note}"


def _bound(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


_PORT = Bounds(0, 65535, "a port", note="0: a free port the system picks")
#: option attribute → its bounds. Times: a day for a call, an hour to send a request;
#: counts: far above any machine's use (the server caps gRPC calls at 256, open files
#: at the system's limit), far below what breaks a library (``--queue 10**15``).
BOUNDS: dict[str, Bounds] = {
    "port": _PORT,
    "http_port": _PORT,
    "health_port": _PORT,
    "metrics_port": _PORT,
    "workers": Bounds(0, 256, "a number of engine workers", note="0: one per core"),
    "queue": Bounds(0, 100_000, "a number of calls"),
    "decode_workers": Bounds(0, 64, "a number of processes"),
    "suggest_lanes": Bounds(1, 256, "a number of lanes"),
    "suggest_queue": Bounds(0, 100_000, "a number of calls"),
    "max_call_s": Bounds(0, 86_400, "a number of seconds", above_low=True),
    "receive_timeout_s": Bounds(0, 3_600, "a number of seconds", above_low=True),
    "max_streams_per_connection": Bounds(1, 256, "a number of calls"),
    "max_http_connections": Bounds(1, 1_000_000, "a number of connections"),
}


@dataclass(frozen=True)
class Option:
    """One ``serve`` option: its attribute, flag, default, value type and choices."""

    dest: str
    flag: str
    default: Any
    kind: str  # "switch", "list", "int", "float" or "str"
    choices: tuple[Any, ...] | None = None

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.dest.upper()

    @property
    def key(self) -> str:
        return self.flag.lstrip("-")


@dataclass(frozen=True)
class Setting:
    """A setting in force and where it came from (``flag``, ``env NAME``, ``file PATH``, ``default``)."""

    option: Option
    value: Any
    source: str


class ConfigError(Exception):
    """A setting that cannot be used: ``where`` names the variable, key or file."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def defer_defaults(parser: argparse.ArgumentParser) -> None:
    """Take the defaults of ``parser``'s options, so that only flags given reach the namespace."""
    options = []
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", CONFIG_DEST):
            continue
        options.append(Option(action.dest, max(action.option_strings, key=len), action.default,
                              _kind(action), tuple(action.choices) if action.choices else None))
        action.default = argparse.SUPPRESS
    parser.set_defaults(**{_TABLE: tuple(options)})


def _kind(action: argparse.Action) -> str:
    if action.nargs == 0:
        return "switch"
    if isinstance(action.default, list):
        return "list"
    if action.type is int:
        return "int"
    if action.type is float:
        return "float"
    return "str"


def resolve(args: argparse.Namespace, environ: Mapping[str, str]) -> list[Setting]:
    """Every option's setting: flag, else environment, else file, else default."""
    options: tuple[Option, ...] = getattr(args, _TABLE)
    config_path = getattr(args, CONFIG_DEST, None) or environ.get(ENV_PREFIX + "CONFIG") or None
    from_file = _read_file(config_path, options) if config_path else {}
    settings = []
    for option in options:
        if hasattr(args, option.dest):
            setting = Setting(option, _checked(option, getattr(args, option.dest), option.flag),
                              "flag")
        elif option.env in environ:
            setting = Setting(option, _from_text(option, environ[option.env], option.env),
                              f"env {option.env}")
        elif option.dest in from_file:
            setting = Setting(option, from_file[option.dest], f"file {config_path}")
        else:
            setting = Setting(option, option.default, "default")
        settings.append(setting)
    return settings


def apply(args: argparse.Namespace, settings: list[Setting]) -> argparse.Namespace:
    """``args`` with every option set as ``settings`` say."""
    values = vars(args).copy()
    values.update({s.option.dest: s.value for s in settings})
    return argparse.Namespace(**values)


def describe(settings: list[Setting]) -> str:
    """One line: each setting, its value and its source, for the start of the log."""
    parts = [f"{s.option.key}={_shown(s.value)} [{s.source}]" for s in settings]
    return f"settings ({PRECEDENCE}): " + ", ".join(parts)


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "[]"
    return str(value)


def _from_text(option: Option, text: str, where: str) -> Any:
    """An environment variable's text as the option's value."""
    value: Any
    if option.kind == "switch":
        lowered = text.strip().lower()
        if lowered not in _TRUE + _FALSE:
            raise ConfigError(where, f"'{text[:40]}' is not one of {'/'.join(_TRUE + _FALSE)}")
        value = lowered in _TRUE
    elif option.kind == "list":
        value = [item.strip() for item in text.split(",") if item.strip()]
    elif option.kind in ("int", "float"):
        try:
            value = int(text) if option.kind == "int" else float(text)
        except ValueError:
            raise ConfigError(where, f"'{text[:40]}' is not {_NAMES[option.kind]}") from None
    else:
        value = text
    return _checked(option, value, where)


_NAMES = {"int": "an integer", "float": "a number", "str": "a string", "switch": "true or false",
          "list": "a list of strings"}


def _from_toml(option: Option, value: Any, where: str) -> Any:
    """A TOML value as the option's value (TOML has types: they must match)."""
    ok = {
        "switch": isinstance(value, bool),
        "list": isinstance(value, list) and all(isinstance(v, str) for v in value),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "str": isinstance(value, str),
    }[option.kind]
    if not ok:
        raise ConfigError(where, f"{str(value)[:40]!r} is not {_NAMES[option.kind]}")
    return _checked(option, float(value) if option.kind == "float" else value, where)


def _checked(option: Option, value: Any, where: str) -> Any:
    """``value`` if it is one of the option's choices and within its ``BOUNDS``."""
    if option.choices is not None and value not in option.choices:
        raise ConfigError(where, f"'{str(value)[:40]}' is not one of {', '.join(map(str, option.choices))}")
    bounds = BOUNDS.get(option.dest)
    reason = bounds.refuses(value) if bounds is not None else None
    if reason is not None:
        raise ConfigError(where, reason)
    return value


def _read_file(path: str, options: tuple[Option, ...]) -> dict[str, Any]:
    """The options set in the TOML file at ``path``, by attribute."""
    from route18xx.engine.api import MalformedInput, read_input_file  # only when a file is named

    try:
        raw = tomllib.loads(read_input_file(path, "--config", CONFIG_MAX_BYTES).decode("utf-8"))
    except MalformedInput as exc:
        raise ConfigError("--config", f"cannot read {path}: {exc.reason}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError("--config", f"{path} is not TOML: {exc}") from None
    except RecursionError:
        raise ConfigError("--config", f"{path} is not TOML this server reads: nested too deeply") from None
    by_key = {o.key: o for o in options} | {o.dest: o for o in options}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        option = by_key.get(key)
        if option is None:
            known = ", ".join(sorted(o.key for o in options))
            raise ConfigError(f"{path}: {key[:40]}", f"not a serve option (one of {known})")
        values[option.dest] = _from_toml(option, value, f"{path}: {key}")
    return values
