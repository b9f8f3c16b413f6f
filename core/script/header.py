"""A script's header as the rules in play see it: its variant, rule switches and options, with
the command line's on top. Both the parser (which language) and the runner (which game) read it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.model import Variant
from ..engine.registry import discover
from ..errors import EasyMoneyError, PluginError, ScriptError, UsageError, VariantError
from . import ast as S

DEFAULT_VARIANT = "standard"


@dataclass
class Header:
    """The header statements, with the command line's switches applied on top."""

    variant: S.VariantStmt | None = None
    switches: list[tuple[bool, str, Any]] = field(default_factory=list)  # (enable, rule, stmt)
    options: list[tuple[str, Any]] = field(default_factory=list)  # ("KEY=VALUE", stmt)
    players: S.PlayersStmt | None = None
    seed: int = 0
    setup: list[Any] = field(default_factory=list)

    @classmethod
    def read(cls, script: S.Script, enable: Sequence[str], disable: Sequence[str],
             options: Sequence[str]) -> Header:
        h = cls()
        for stmt in script.header:
            if isinstance(stmt, S.VariantStmt):
                h.variant = stmt
            elif isinstance(stmt, S.RuleSwitch):
                h.switches.append((stmt.enable, stmt.rule, stmt))
            elif isinstance(stmt, S.OptionStmt):
                h.options.append((f"{stmt.key}={stmt.value}", stmt))
            elif isinstance(stmt, S.PlayersStmt):
                h.players = stmt
            elif isinstance(stmt, S.SeedStmt):
                h.seed = stmt.seed
            else:
                h.setup.append(stmt)
        h.switches += [(True, r, None) for r in enable] + [(False, r, None) for r in disable]
        h.options += [(o, None) for o in options]
        return h

    def variant_ref(self, script: S.Script, confine: Any = None) -> tuple[str, str | None]:
        """The variant as the loader takes it, and the folder a relative path is read from
        (under `confine`'s root, relative to it: see loading.Confinement)."""
        if self.variant is None:
            return DEFAULT_VARIANT, None
        if self.variant.path is not None and confine is not None:
            path = self.variant.path
            if confine.folder and not path.startswith(("/", "\\")):
                path = f"{confine.folder}/{path}"
            return path, None
        if self.variant.path is not None:
            base = os.path.dirname(os.path.abspath(script.filename)) if script.filename not in (
                "-", "<stdin>", "<script>") else os.getcwd()
            return os.path.join(base, self.variant.path), base
        return self.variant.name or DEFAULT_VARIANT, None

    def load_variant(self, script: S.Script, registry: Any = None, confine: Any = None
                     ) -> Variant:
        from ..loading.loader import load_variant
        registry = registry or discover()
        switched: dict[str, bool] = {}  # the last switch of a rule wins
        for on, rule, stmt in self.switches:
            try:
                pid = registry.resolve(rule)
            except PluginError as exc:
                raise _located(script, stmt, exc) from None
            switched.pop(pid, None)
            switched[pid] = on
        enable = [pid for pid, on in switched.items() if on]
        disable = [pid for pid, on in switched.items() if not on]
        ref, base = self.variant_ref(script, confine)
        try:
            return load_variant(ref, registry=registry, enable=enable, disable=disable,
                                options=[o for o, _ in self.options], confine=confine)
        except (VariantError, PluginError, UsageError) as exc:
            if exc.file is not None and exc.line is not None:
                raise  # located in the variant file itself
            if exc.file is not None and self.variant is not None:
                raise _located(script, self.variant,
                               type(exc)(f"variant file {exc.file}: {exc.message}")) from None
            for text, stmt in self.options:
                if text.partition("=")[0] in exc.message:
                    raise _located(script, stmt, exc) from None
            for _, rule, stmt in self.switches:
                if rule in exc.message:
                    raise _located(script, stmt, exc) from None
            raise _located(script, self.variant, exc) from None


def variant_of_header(script: S.Script, registry: Any = None, enable: Sequence[str] = (),
                      disable: Sequence[str] = (), options: Sequence[str] = ()) -> Variant:
    """The variant of a script's header (its variant, switches and options) with the
    command line's switches on top: its `rules` are the rules in play."""
    return Header.read(script, enable, disable, options).load_variant(script, registry)


def rules_of_header(script: S.Script, registry: Any = None, enable: Sequence[str] = (),
                    disable: Sequence[str] = (), options: Sequence[str] = ()) -> tuple[str, ...]:
    """The rules in play by a script's header and the command line's switches."""
    return tuple(variant_of_header(script, registry, enable, disable, options).rules)


def _located(script: S.Script, stmt: Any, exc: EasyMoneyError) -> EasyMoneyError:
    if stmt is None or not getattr(stmt, "line", 0):
        return exc
    return ScriptError(exc.message, file=script.filename, line=stmt.line, col=stmt.column,
                       source_line=script.source_lines[stmt.line - 1])
