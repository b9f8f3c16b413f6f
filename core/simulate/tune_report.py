"""What `easymoney tune` hands back: the best variants as YAML files, re-measured on fresh
seeds against the original with compare's paired tests, and a report of the search.

The search's own figures of its best candidate are optimistic (the best of many noisy
estimates: the winner's curse), so each variant handed back is played again on seeds the
search never used, beside the original on the same seeds, and those are the figures shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import yaml

from ..errors import UsageError
from ..words import count
from .arms import Arm, Batch
from .sums import ArmStats
from .report import table_lines
from .runner import Result
from .tune import FIGURES, Domain, Target, batch_seed, describe_params
from .tune_study import finished, ordinals

if TYPE_CHECKING:
    import optuna

    from ..engine.model import Variant


def picks(study: optuna.Study, targets: Sequence[Target], pareto: bool, keep: int
          ) -> list[optuna.trial.FrozenTrial]:
    """The candidates handed back: the Pareto front (--pareto), else the best `keep` by the
    sum of their misses, then by the misses of their intervals' far ends (an interval
    wholly inside the targets first: less luck in it), then by the trial's number."""
    import optuna
    done = [t for t in finished(study) if t.state == optuna.trial.TrialState.COMPLETE]
    if pareto:
        front = study.best_trials if done else []
        chosen = sorted(front, key=lambda t: (sum(t.values), t.user_attrs["far_misses"],
                                              t.number))
    else:
        chosen = sorted(done, key=lambda t: (t.value, t.user_attrs["far_misses"], t.number))
    out: list[optuna.trial.FrozenTrial] = []
    seen: set[str] = set()
    for t in chosen:
        key = repr(sorted(t.params.items()))
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out[:keep]


def variant_rules(candidate: Variant, base: Variant) -> dict[str, Any]:
    """The `rules` of a file extending `base` that plays as `candidate`: each rule switched
    (false, or true) and each option that differs (rules merge per plugin on `extends`)."""
    rules: dict[str, Any] = {}
    for pid in sorted(set(candidate.rules) | set(base.rules)):
        if pid not in candidate.rules:
            rules[pid] = False
            continue
        mine, theirs = dict(candidate.rules[pid]), dict(base.rules.get(pid, {}))
        changed = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if pid not in base.rules:
            rules[pid] = changed or True
        elif changed:
            rules[pid] = changed
    return rules


def write_variant(path: str, extends: str, name: str, description: str,
                  rules: Mapping[str, Any]) -> None:
    from ..outputs import write_atomically
    doc = {"name": name, "extends": extends, "description": description, "rules": dict(rules)}
    write_atomically(path, "# written by easymoney tune\n"
                     + yaml.safe_dump(doc, sort_keys=False, width=88, allow_unicode=True))


def extends_ref(base: Arm, folder: str) -> str:
    """What the written file's `extends` says: a built-in name, or the base file's path
    relative to the folder the file is written in."""
    if not base.is_path:
        return base.variant
    return os.path.relpath(os.path.abspath(base.variant), os.path.abspath(folder))


def hand_back(study: optuna.Study, trials: Sequence[optuna.trial.FrozenTrial], base: Arm,
              base_variant: Variant, domains: Sequence[Domain], folder: str,
              stem: str) -> list[dict[str, Any]]:
    """Write each chosen candidate as `folder/STEM-tuned-K.yaml`, or `STEM-misses-K.yaml`
    when it missed a target in the search (its name says so); check that the file plays as
    the candidate did. A candidate that plays as the original itself is handed back as the
    original (`file` None, `original` True), not written: it would be the original under a
    tuned name. The files' details, in rank order."""
    from .tune import candidate_arm
    plain = Arm(base.variant).load()  # what `extends` starts from
    os.makedirs(folder, exist_ok=True)
    place = ordinals(study)
    out = []
    for rank, t in enumerate(trials, 1):
        arm = candidate_arm(base, domains, t.params)
        candidate = arm.load()
        meets = sum(t.values) == 0
        found = {"rank": rank, "candidate": place[t.number], "meets": meets,
                 "settings": {d.key: d.text(t.params[d.key]) for d in domains},
                 "search": {"games": t.user_attrs["games"], "figures": t.user_attrs["figures"]}}
        if dict(candidate.rules) == dict(base_variant.rules):
            out.append({**found, "file": None, "original": True, "rules": {}})
            continue
        name = f"{stem}-{'tuned' if meets else 'misses'}-{rank}"
        path = os.path.join(folder, f"{name}.yaml")
        rules = variant_rules(candidate, plain)
        what = "tuned by easymoney tune" if meets else \
            "the nearest easymoney tune found; it misses a target"
        write_variant(path, extends_ref(base, folder), name,
                      f"{base.name} {what} (candidate {place[t.number]}): "
                      f"{describe_params(domains, t.params)}", rules)
        written = Arm(path).load()
        if dict(written.rules) != dict(candidate.rules):  # the file must play as searched
            raise UsageError(f"tune: {path} does not read back as the candidate it describes")
        out.append({**found, "file": path, "original": False, "rules": rules})
    return out


def remeasure(handed: list[dict[str, Any]], base: Arm, base_batch: Batch, games: int,
              targets: Sequence[Target], seconds_per_turn: int,
              run_arms: Callable[[list[Arm], Batch], Result]) -> None:
    """Play the handed-back files beside the original on fresh seeds (never the search's),
    all on the same seeds, the original once: each file's figures with their intervals,
    whether it meets each target there, and compare's paired tests of its difference from
    the original (Holm-adjusted over compare's whole table)."""
    from .report import compare_summary
    handed = [h for h in handed if h["file"] is not None]  # the original is measured anyway
    if not handed:
        return
    batch = Batch(games=games, players=base_batch.players, strategies=base_batch.strategies,
                  seed=batch_seed(base_batch.seed, 0, "recheck"), max_turns=base_batch.max_turns)
    result = run_arms([base, *(Arm(h["file"], label=h["file"]) for h in handed)], batch)
    original = _measure(result.stats[0], batch, targets, seconds_per_turn)
    differences = compare_summary(result)["differences"]
    for h, mine, diff in zip(handed, result.stats[1:], differences):
        h["recheck"] = {
            "games": games, "seed": batch.seed,
            "figures": _measure(mine, batch, targets, seconds_per_turn), "original": original,
            "meets": {t.text: t.miss(FIGURES[t.figure].measure(mine, batch, seconds_per_turn)[0]) == 0
                      for t in targets},
            "tests": diff["tests"]}


def _measure(stats: ArmStats, batch: Batch, targets: Sequence[Target],
             spt: int) -> dict[str, list[float]]:
    names = dict.fromkeys(t.figure for t in targets)
    return {n: list(FIGURES[n].measure(stats, batch, spt)) for n in names}


# PED-ANOVA compares the best candidates with the rest: with a handful of them one lucky
# batch decides the ranking (issue 38: four_sides, the rule that sets the game's length,
# ranked 0.00 after 8 candidates), so below this count the text says it is a rough guide
RELIABLE_FROM = 20


def importance(study: optuna.Study, pareto: bool) -> dict[str, Any]:
    """Each varied setting's importance (Optuna's PED-ANOVA: which settings set apart the
    best candidates; needs no scikit-learn), or why there is none."""
    import warnings

    import optuna
    done = [t for t in finished(study) if t.state == optuna.trial.TrialState.COMPLETE]
    base = {"method": "PED-ANOVA", "candidates": len(done), "reliable_from": RELIABLE_FROM}
    if len(done) < 3:
        return {**base, "values": {}, "note": "fewer than 3 finished candidates"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = optuna.importance.get_param_importances(
                study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(),
                target=(lambda t: sum(t.values)) if pareto else None)
    except (RuntimeError, ValueError, ZeroDivisionError) as exc:
        return {**base, "values": {}, "note": f"not computed: {exc}"}
    return {**base, "values": {k: float(v) for k, v in values.items()}}


def progress_of(study: optuna.Study, pareto: bool) -> list[dict[str, Any]]:
    """The best sum of misses after each finished candidate (0: every target met)."""
    import optuna
    best: float | None = None
    out = []
    for k, t in enumerate(finished(study), 1):
        if t.state == optuna.trial.TrialState.COMPLETE:
            value = float(sum(t.values))
            if best is None or value < best:
                best = value
                out.append({"candidate": k, "miss": best})
    return out


def search_summary(study: optuna.Study, domains: Sequence[Domain], targets: Sequence[Target],
                   pareto: bool) -> dict[str, Any]:
    import optuna
    trials = finished(study)
    pruned = [t for t in trials if t.state == optuna.trial.TrialState.PRUNED]
    failed = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.FAIL,))
    return {"candidates": len(trials), "complete": len(trials) - len(pruned),
            "pruned": len(pruned), "stopped": len(failed),
            "distinct": len({repr(sorted(t.params.items())) for t in trials}),
            "games": sum(int(t.user_attrs.get("games", 0)) for t in trials
                         if "repeat_of" not in t.user_attrs),
            "mode": "pareto" if pareto else "sum of misses",
            "vary": [d.key for d in domains], "targets": [t.text for t in targets],
            "importance": importance(study, pareto), "progress": progress_of(study, pareto),
            "candidates_tried": [
                {"candidate": k, "state": t.state.name.lower(),
                 "settings": {d.key: d.text(t.params[d.key]) for d in domains if d.key in t.params},
                 "games": t.user_attrs.get("games", 0), "figures": t.user_attrs.get("figures", {}),
                 "pruned_by": t.user_attrs.get("pruned_by"),
                 "repeat_of": t.user_attrs.get("repeat_of")} for k, t in enumerate(trials, 1)]}


# --- in words ----------------------------------------------------------------------------

def _fig(v: Sequence[float]) -> str:
    return f"{v[0]:,.1f} ({v[1]:,.1f} to {v[2]:,.1f})"


def tune_text(report: Mapping[str, Any]) -> str:
    s = report["search"]
    lines = [f"Search of {report['variant']}: {count(s['candidates'], 'candidate')}, "
             f"{s['distinct']} distinct ({s['complete']} played out, {s['pruned']} dropped "
             f"early by racing), "
             f"{count(s['games'], 'game')}, seed {report['seed']}, study {report['study']}",
             "Targets: " + "; ".join(s["targets"]),
             f"Objective: {s['mode']} (a miss: how far the figure is from its target, "
             f"relative to the target)", ""]
    if s.get("exhausted"):
        lines += [f"The search space holds {count(int(s['space_size']), 'candidate')}, and "
                  f"every one was played: fewer than the trials asked for.", ""]
    imp = s["importance"]
    if imp["values"]:
        rests = imp.get("candidates", 0)
        caveat = (f"; fewer than {imp['reliable_from']}: a rough guide, not a ranking to trust"
                  if rests < imp.get("reliable_from", 0) else "")
        lines.append(f"Which settings mattered ({imp['method']} importance, from "
                     f"{count(rests, 'played-out candidate')}{caveat})")
        lines += [f"  {k:<28} {v:.2f}" for k, v in imp["values"].items()]
    else:
        lines.append(f"Which settings mattered: {imp.get('note', 'not computed')}")
    lines += ["", "How the best candidate's miss moved (0: every target met)"]
    lines += [f"  after candidate {p['candidate']:>3}: {p['miss']:.3f}" for p in s["progress"]]
    if not report["variants"]:
        lines += ["", "No candidate was played out: every one missed a target by its whole "
                      "interval. Widen the --vary ranges or loosen the --target values."]
    for h in report["variants"]:
        settings = " ".join(f"{k}={v}" for k, v in h["settings"].items())
        if h.get("original"):
            lines += ["", f"{h['rank']}. the original, {report['variant']}, itself ({settings}): "
                          f"no file written; searched on {count(h['search']['games'], 'game')}: "
                          + "; ".join(f"{k} {_fig(v)}" for k, v in h["search"]["figures"].items())
                          + ("" if h["meets"] else "; misses a target")]
            continue
        lines += ["", f"{h['rank']}. {h['file']}: {settings}"]
        if not h.get("meets", True):
            lines.append("   misses a target in the search (hence the name): the nearest found, "
                         "not a tuned variant")
        if "recheck" not in h:
            lines.append(f"   searched on {count(h['search']['games'], 'game')}: "
                         + "; ".join(f"{k} {_fig(v)}" for k, v in h["search"]["figures"].items())
                         + " (not re-measured: --recheck-games 0)")
            continue
        r = h["recheck"]
        lines.append(f"   searched on {count(h['search']['games'], 'game')}; re-measured on "
                     f"{count(r['games'], 'fresh seed')} beside {report['variant']}")
        table = [["figure", "search saw", "re-measured", report["variant"][:24], "target"]]
        for t in s["targets"]:
            name = t.split("<")[0].split(">")[0].split(" in ")[0].strip()
            table.append([name, _fig(h["search"]["figures"][name]), _fig(r["figures"][name]),
                          _fig(r["original"][name]),
                          t + (" met" if r["meets"][t] else " missed")])
        lines += ["   " + line for line in table_lines(table)]
        tests = [(m, x) for m, x in r["tests"].items()]
        if tests:
            lines.append("   paired tests against the original (compare's; Holm-adjusted):")
            for m, x in tests:
                scale = 1 if m in ("turns", "bank") else 100
                lines.append(f"     {m:<16} diff {x['mean'] * scale:+,.1f} "
                             f"({x['ci95'][0] * scale:+,.1f} to {x['ci95'][1] * scale:+,.1f}), "
                             f"p {x['p_holm']:.3g}" + (" *" if x["significant"] else ""))
    lines += ["", "Figures: value (95% interval). A target is met on the fresh seeds when its "
                  "value is; the search's own figures are optimistic (the best of many)."]
    return "\n".join(lines) + "\n"
