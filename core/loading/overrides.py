"""The command line's (or a script header's) rule changes: --with, --without, --option."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.registry import Registry
from ..errors import PluginError, UsageError, did_you_mean
from .origins import Origins
from .schema import validator_class
from .validate import explain
from .yamlload import parse_scalar, show_value

def parse_option(item: str | tuple[str, Any], registry: Registry) -> tuple[str, str, Any]:
    """`doubles.after_card=forward` -> ('doubles', 'after_card', 'forward'), checked against the schema."""
    if isinstance(item, str):
        key, sep, text = item.partition("=")
        if not sep:
            raise UsageError(f"option {item!r}: expected KEY=VALUE, like doubles.after_card=forward")
        raw: Any = text
    else:
        key, raw = item
    try:
        value: Any = parse_scalar(raw) if isinstance(raw, str) else raw
    except ValueError as exc:
        raise UsageError(f"option {key.strip()!r}: {exc}") from None
    key = key.strip()
    plugin, dot, name = key.partition(".")
    if not dot or not plugin or not name:
        raise UsageError(f"option {key!r}: expected RULE.OPTION, like doubles.after_card")
    try:
        pid = registry.resolve(plugin)
    except PluginError as exc:
        raise UsageError(f"option {key!r}: {exc.message}") from None
    info = registry.plugins[pid]
    if name not in info.options:
        if not info.options:
            raise UsageError(f"option {key!r}: rule {pid!r} has no options")
        raise UsageError(f"option {key!r}: unknown option: found {name!r}; expected one of "
                         f"{', '.join(info.options)}{did_you_mean(name, info.options)}")
    errors = list(validator_class()(dict(info.options[name])).iter_errors(value))
    if errors:
        message, _, _ = explain(errors[0], registry)
        raise UsageError(f"option {key!r}: {message}")
    return pid, name, value


def in_force(settings: Iterable[tuple[str, str, Any]]) -> list[tuple[str, str, Any]]:
    """Each (rule, option, value) once, with its last value: a script's header sets an option
    and the command line may set it again, which wins."""
    last: dict[tuple[str, str], Any] = {}
    for pid, name, value in settings:
        last.pop((pid, name), None)  # said where it was set last
        last[pid, name] = value
    return [(pid, name, value) for (pid, name), value in last.items()]


def apply_overrides(doc: dict[str, Any], origins: Origins, registry: Registry,
                     enable: Iterable[str], disable: Iterable[str],
                     options: Iterable[str | tuple[str, Any]]) -> tuple[str, ...]:
    """Apply the command line's (or a script header's) rule changes; return them in words."""
    on = list(dict.fromkeys(registry.resolve(r) for r in enable))
    off = list(dict.fromkeys(registry.resolve(r) for r in disable))
    both = [pid for pid in on if pid in off]
    if both:
        raise UsageError(f"rule {both[0]!r} is both switched on (--with) and off (--without)")
    for pid in off:
        if registry.plugins[pid].essential:
            raise PluginError(f"rule {pid!r} is essential and cannot be switched off")
    settings = in_force(parse_option(item, registry) for item in options)
    for pid, name, _ in settings:
        if pid in off:
            raise UsageError(f"option '{pid}.{name}': rule {pid!r} is switched off (--without); "
                             f"setting its option would switch it on")
    if not (on or off or settings):
        return ()
    if not isinstance(doc.get("rules"), dict):
        doc["rules"] = {}
    rules = doc["rules"]
    for pid in on:
        if not isinstance(rules.get(pid), dict):
            rules[pid] = True
            origins.command_line(("rules", pid))
    for pid in off:
        rules[pid] = False
        origins.command_line(("rules", pid))
    for pid, name, value in settings:
        if not isinstance(rules.get(pid), dict):
            rules[pid] = {}
            origins.command_line(("rules", pid))
        rules[pid][name] = value
        origins.command_line(("rules", pid, name))
    return (*(f"with {pid}" for pid in on), *(f"without {pid}" for pid in off),
            *(f"option {pid}.{name}={value if isinstance(value, str) else show_value(value)}"
              for pid, name, value in settings))

