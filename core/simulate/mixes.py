"""Does the answer depend on the bots? One question of `compare` or `sweep` under several
strategy mixes (`--strategies-sets cautious greedy mc`), and where its effects change sign
or significance between them.

Each mix is played as `--strategies` would play it, on the same seeds; an effect is one
contrast of the question (an arm against the first, a setting's value against its first
value) on one figure (turns, the Bank's cash, how games ended, a seat's wins). The figures
by strategy are left out: they differ from mix to mix by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .report import table_lines

Run = tuple[str, Mapping[str, Any]]  # (the mix as typed, the command's summary under it)


def contrasts(summary: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(what the contrast is, its tests by figure) of a compare or sweep summary."""
    if "effects" in summary:
        return [(f"{e['setting']}={e['value']} (against {e['against']})", e["tests"])
                for e in summary["effects"]]
    return [(f"{d['arm']} (against {d['against']})", d["tests"])
            for d in summary["differences"]]


def _figures(runs: Sequence[Run], index: int) -> list[str]:
    """The figures every mix tested for contrast `index`, in the first mix's order."""
    tested = [contrasts(summary)[index][1] for _, summary in runs]
    return [m for m in tested[0] if not m.startswith("strategy:")
            and all(m in t for t in tested[1:])]


def _sign(mean: float) -> int:
    return (mean > 0) - (mean < 0)


def _value(metric: str, mean: float) -> str:
    if metric in ("turns", "bank"):
        return f"{mean:+,.1f}" if metric == "turns" else f"{mean:+,.0f}"
    return f"{100 * mean:+.1f} pp"  # a rate: percentage points


def changes(runs: Sequence[Run]) -> list[dict[str, Any]]:
    """Each effect whose sign or significance differs between two mixes: one entry per
    effect and kind of change, naming the first pair of mixes that shows it."""
    found: list[dict[str, Any]] = []
    for index, (label, _) in enumerate(contrasts(runs[0][1])):
        for metric in _figures(runs, index):
            tests = [(mix, contrasts(summary)[index][1][metric]) for mix, summary in runs]
            signs = [(mix, _sign(t["mean"])) for mix, t in tests if _sign(t["mean"])]
            flip = next(((a, b) for a, sa in signs for b, sb in signs if sa > 0 > sb), None)
            yes = [mix for mix, t in tests if t["significant"]]
            no = [mix for mix, t in tests if not t["significant"]]
            if flip is not None:
                found.append({"effect": label, "figure": metric, "change": "sign",
                              "mixes": list(flip), "significant_under": yes})
            if yes and no:
                found.append({"effect": label, "figure": metric, "change": "significance",
                              "mixes": [yes[0], no[0]], "significant_under": yes})
    return found


def change_line(change: Mapping[str, Any]) -> str:
    a, b = change["mixes"]
    what = f"the effect of {change['effect']} on {change['figure']}"
    if change["change"] == "sign":
        under = change["significant_under"]
        return (f"{what} changes sign between mixes {a} and {b} ("
                + (f"significant under {', '.join(under)})" if under
                   else "significant under none: it may be noise)"))
    return f"{what} is significant under {a} but not under {b}"


def mixes_text(runs: Sequence[Run], text: Callable[[Mapping[str, Any]], str]) -> str:
    """Each mix's report as the command prints it, then the effects side by side and what
    changes between the mixes."""
    out: list[str] = []
    for mix, summary in runs:
        out.append(f"=== strategies {mix} ===")
        out.append(text(summary).rstrip("\n"))
        out.append("")
    out.append(f"Does the answer depend on the bots? The effects under each mix "
               f"({', '.join(mix for mix, _ in runs)}; * significant at 95%, Holm-adjusted)")
    for index, (label, _) in enumerate(contrasts(runs[0][1])):
        out.append(f"  {label}")
        table = [["figure", *(mix for mix, _ in runs)]]
        for metric in _figures(runs, index):
            row = [metric]
            for _, summary in runs:
                t = contrasts(summary)[index][1][metric]
                row.append(_value(metric, t["mean"]) + (" *" if t["significant"] else ""))
            table.append(row)
        out.extend("    " + line for line in table_lines(table))
    found = changes(runs)
    if found:
        out.extend(change_line(c) for c in found)
    else:
        out.append("every effect keeps its sign and its significance under every mix")
    return "\n".join(out) + "\n"


def mixes_json(runs: Sequence[Run]) -> dict[str, Any]:
    return {"strategies_sets": [{"strategies": mix, "summary": summary} for mix, summary in runs],
            "changes": [dict(c, text=change_line(c)) for c in changes(runs)]}
