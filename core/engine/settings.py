"""How games are run, apart from the rules: the invariants check, the hook dispatch, the trace.

One frozen value passed along (script runner, simulator, commands) instead of environment
variables read deep inside: only the command line turns `EASYMONEY_CHECK_INVARIANTS` and
`EASYMONEY_TRACE` into a `Settings` (see easymoney.commands._variant_args).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TextIO

DISPATCHES = ("fast", "pluggy")


@dataclass(frozen=True)
class Settings:
    """`invariants`: the `invariants` plugin checks every event; `dispatch`: "fast" or
    "pluggy" (the same results); `trace`: a stream every hook call is written to, or None.

    Picklable (a process of `simulate --workers` or a Dask worker gets it with its plan):
    the trace stream, which is not, is left behind.
    """

    invariants: bool = False
    dispatch: str = "fast"
    trace: TextIO | None = None

    def __post_init__(self) -> None:
        if self.dispatch not in DISPATCHES:
            raise ValueError(f"dispatch must be one of {', '.join(DISPATCHES)}, "
                             f"found {self.dispatch!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Settings, (self.invariants, self.dispatch, None))

    def rules(self, enabled: tuple[str, ...], installed: Any) -> tuple[str, ...]:
        """The enabled rules with the `invariants` check added when these settings ask for it."""
        if self.invariants and "invariants" not in enabled and "invariants" in installed:
            return enabled + ("invariants",)
        return enabled


DEFAULT = Settings()
