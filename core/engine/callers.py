"""Hook callers generated from a hook's spec: one function per way of combining results.

pluggy's `_multicall` is one loop over the implementations, with its bookkeeping; a caller
here is that loop written out for one hook and one list of implementations, with the spec's
parameter names (so a call by position or by keyword costs a plain call) and each
implementation given only the arguments it takes. The source is kept in `linecache`, so a
traceback through a caller shows its line.
"""

from __future__ import annotations

import linecache
import types
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import pluggy

# an implementation: the function and the spec's arguments it takes, in its own order
Impl = tuple[Callable[..., Any], tuple[str, ...]]

_made: dict[tuple[str, str, tuple[str, ...], tuple[tuple[str, ...], ...]], Callable[..., Any]] = {}


def is_notification(caller: pluggy.HookCaller) -> bool:
    """A hook whose spec returns None (em_setup, em_moved, em_turn_end, ...): its callers
    look at no result, so a caller only calls the implementations, sparing the list of
    results: it returns None, and a lone implementation is called directly."""
    spec = caller.spec
    return spec is not None and getattr(spec.function, "__annotations__", {}).get("return") == "None"


def impl_of(impl: pluggy.HookImpl) -> Impl:
    return impl.function, tuple(impl.argnames)


def _body(how: str, spec_args: tuple[str, ...], arg_lists: Sequence[tuple[str, ...]]) -> list[str]:
    calls = [f"_f{i}({', '.join(args)})" for i, args in enumerate(arg_lists)]
    if how == "first":  # the first non-None result (a firstresult hook), else None
        lines = []
        for call in calls[:-1]:
            lines += [f"_r = {call}", "if _r is not None:", "    return _r"]
        return lines + [f"return {calls[-1]}" if calls else "return None"]
    if how == "collect":  # the list of the non-None results
        if len(calls) == 1:
            return [f"_r = {calls[0]}", "return [] if _r is None else [_r]"]
        lines = ["_out = []"]
        for call in calls:
            lines += [f"_r = {call}", "if _r is not None:", "    _out.append(_r)"]
        return lines + ["return _out"]
    if how == "notify":  # every implementation called, nothing returned
        return [*calls, "return None"]
    if how == "keywords":  # one callee taking the spec's arguments by keyword (pluggy's caller)
        return [f"return _f0({', '.join(f'{a}={a}' for a in spec_args)})"]
    raise ValueError(how)


def generate(how: str, name: str, spec_args: tuple[str, ...],
             impls: Sequence[Impl]) -> Callable[..., Any]:
    """The caller of hook `name` calling `impls` in order, combining their results `how`:
    first, collect, notify (see _body), or keywords."""
    arg_lists = tuple(args for _, args in impls)
    key = (how, name, spec_args, arg_lists)
    make = _made.get(key)
    if make is None:
        inner = "\n".join("        " + line for line in _body(how, spec_args, arg_lists))
        source = (f"def _make({', '.join(f'_f{i}' for i in range(len(impls)))}):\n"
                  f"    def {name}({', '.join(spec_args)}):\n{inner}\n    return {name}\n")
        filename = f"<easymoney caller {len(_made)}: {name}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope: dict[str, Any] = {}
        exec(compile(source, filename, "exec"), scope)  # noqa: S102 -- our own source, above
        make = _made[key] = scope["_make"]
    return make(*(f for f, _ in impls))


def compose(how: str, name: str, spec_args: tuple[str, ...],
            impls: Sequence[Impl]) -> Callable[..., Any]:
    """As `generate`, but a lone implementation of a firstresult hook or a notification
    taking exactly the spec's arguments is its own caller (no call in between)."""
    if how in ("first", "notify") and len(impls) == 1:
        fn, args = impls[0]
        if args == spec_args and isinstance(fn, (types.FunctionType, types.MethodType)):
            return fn
    return generate(how, name, spec_args, impls)


def how_combined(caller: pluggy.HookCaller) -> str:
    if caller.spec is not None and caller.spec.opts.get("firstresult"):
        return "first"
    return "notify" if is_notification(caller) else "collect"


def via_pluggy(name: str, caller: pluggy.HookCaller, spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """pluggy's own call, wrappers and all (a notification's list of results dropped)."""
    call = generate("keywords", name, spec_args, [(caller, spec_args)])
    if is_notification(caller):
        return generate("notify", name, spec_args, [(call, spec_args)])
    return call


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def traced(name: str, caller: pluggy.HookCaller, spec_args: tuple[str, ...],
           out: TextIO) -> Callable[..., Any]:
    """Call each implementation by hand, printing which plugin answered what."""
    impls = list(reversed(caller.get_hookimpls()))
    if any(i.hookwrapper or i.wrapper for i in impls):
        plain = via_pluggy(name, caller, spec_args)

        def via(*args: Any) -> Any:
            result = plain(*args)
            print(f"trace: {name} -> {_short(result)} (with wrappers)", file=out)
            return result
        return generate("first", name, spec_args, [(via, spec_args)])
    how = how_combined(caller)
    pairs = [(i.plugin_name, generate("first", name, spec_args, [impl_of(i)])) for i in impls]

    def trace(*args: Any) -> Any:
        shown = ", ".join(f"{a}={_short(v)}" for a, v in zip(spec_args[1:], args[1:]))
        print(f"trace: {name}({shown})", file=out)
        results = []
        for plugin, fn in pairs:
            r = fn(*args)
            if r is not None:
                print(f"trace:   {plugin} -> {_short(r)}", file=out)
                if how == "first":
                    return r
                results.append(r)
        return results if how == "collect" else None
    return generate("first", name, spec_args, [(trace, spec_args)])
