"""The Optuna study of `easymoney tune`: stored in SQLite, resumed losing nothing, seeded.

Each candidate is a trial, asked and told by hand (Optuna's ask-and-tell), so that a
signal never leaves a traceback: a trial stopped by Ctrl-C or SIGTERM is told FAIL, one
whose process was killed outright stays RUNNING and is marked FAIL when the study is
opened again; failed trials count for nothing and the next trial asks the same question
again. Every finished trial (COMPLETE, or PRUNED by racing) is committed to the database as
it ends: that is all the state there is.

Determinism: the sampler of trial n is made afresh with a seed derived from --seed and n,
n the number of trials finished before it, and it sees only the finished trials (TPE
ignores failed ones): a study killed and resumed asks exactly the questions that one run
straight through asks, and gets the same answers (common random numbers, exact sums).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

try:
    import fcntl
except ImportError:  # Windows: no flock; two runs on one study are then the user's care
    fcntl = None  # type: ignore[assignment]

from ..errors import UsageError
from ..outputs import raise_if_signalled
from .tune import Domain, Evaluation, Target

if TYPE_CHECKING:
    import optuna

STUDY_NAME = "easymoney-tune"
SQLITE_MAGIC = b"SQLite format 3\x00"


def require_optuna() -> None:
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise UsageError("tune needs Optuna: pip install 'easymoney-game[tune]'") from None


def default_study_path(variant: str) -> str:
    """`<variant>.tune.db` in the current folder (a file's variant: its name, no folders)."""
    stem = os.path.basename(variant)
    for ext in (".yaml", ".yml"):
        if stem.lower().endswith(ext):
            stem = stem[:-len(ext)]
    return f"{stem}.tune.db"


def _check_file(path: str) -> None:
    """A study file that exists must be an SQLite database holding Optuna's tables."""
    if os.path.isdir(path):
        raise UsageError(f"--study {path}: is a folder; expected a study file (SQLite)")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise UsageError(f"--study {path}: cannot read it: {exc.strerror}") from None
    if head != SQLITE_MAGIC:
        raise UsageError(f"--study {path}: not a study file (not an SQLite database); give "
                         f"another --study FILE or remove this one")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
            con.execute("pragma integrity_check").fetchone()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise UsageError(f"--study {path}: a corrupt database ({exc}); give another --study "
                         f"FILE or remove this one") from None
    if not {"studies", "trials"} <= names:
        raise UsageError(f"--study {path}: an SQLite database but not an Optuna study; give "
                         f"another --study FILE")


@contextlib.contextmanager
def holding(path: str) -> Iterator[None]:
    """Hold the study file for this run: a second run on it is refused in one line instead
    of failing the first's candidate under way (opening a study fails the trials left
    RUNNING, which are then surely a killed run's). An advisory flock on the file itself,
    which SQLite's own (fcntl) locks do not see; the descriptor is closed only when the run
    ends, when SQLite holds no lock on the file (closing it earlier would drop them)."""
    if fcntl is None or os.path.isdir(path):
        yield  # no flock here (Windows), or a folder: open_study names the mistake
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield  # unreadable or not creatable: open_study says what is wrong with it
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"--study {path}: another easymoney tune run is using this study "
                             f"now; wait for it to end (then the same command resumes it), or "
                             f"give another --study FILE") from None
        yield
    finally:
        os.close(fd)


def signature(variant: str, domains: Sequence[Domain], targets: Sequence[Target],
              setup: Mapping[str, Any], pareto: bool) -> dict[str, Any]:
    """What a study was made for: resuming it with anything else would mix two searches."""
    return {"variant": variant,
            "vary": [[d.key, d.kind, list(d.choices), d.low, d.high, d.step] for d in domains],
            "targets": [t.text for t in targets], "pareto": pareto, **setup}


def open_study(path: str, sig: Mapping[str, Any], directions: int) -> optuna.Study:
    """Create the study in `path`, or open it to resume: refused (one line naming --study)
    when it is corrupt, or was made for another variant or other settings."""
    import optuna
    import sqlalchemy.exc
    _check_file(path)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            storage = optuna.storages.RDBStorage(f"sqlite:///{os.path.abspath(path)}")
            existing = [s.study_name for s in storage.get_all_studies()]
            if STUDY_NAME in existing:
                study = optuna.load_study(study_name=STUDY_NAME, storage=storage)
            else:
                study = optuna.create_study(study_name=STUDY_NAME, storage=storage,
                                            directions=["minimize"] * directions)
                study.set_user_attr("signature", dict(sig))
    except (sqlalchemy.exc.SQLAlchemyError, ValueError, KeyError) as exc:
        raise UsageError(f"--study {path}: cannot open the study ({type(exc).__name__}); give "
                         f"another --study FILE or remove this one") from None
    found = study.user_attrs.get("signature")
    if found is None:
        raise UsageError(f"--study {path}: a study not made by easymoney tune")
    if found.get("variant") != sig["variant"]:
        raise UsageError(f"--study {path}: a study of variant {found.get('variant')!r}, not "
                         f"{sig['variant']!r}; give another --study FILE, or remove {path} to "
                         f"start afresh")
    if json.dumps(found, sort_keys=True) != json.dumps(dict(sig), sort_keys=True):
        differs = sorted(k for k in set(found) | set(sig) if found.get(k) != sig.get(k))
        raise UsageError(f"--study {path}: made with other settings ({', '.join(differs)} "
                         f"differ); run it with the same flags to resume it, give another "
                         f"--study FILE, or remove {path} to start afresh")
    _fail_stale(study)
    return study


def _fail_stale(study: optuna.Study) -> None:
    """Trials left RUNNING by a process killed outright: failed, asked again."""
    import optuna
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)


def finished(study: optuna.Study) -> list[optuna.trial.FrozenTrial]:
    import optuna
    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return study.get_trials(deepcopy=False, states=states)


def finished_in_file(path: str | os.PathLike[str]) -> int:
    """Finished candidates in a study file, read with sqlite3 alone (0 while there is
    none): what a watcher of a running search counts."""
    if not os.path.exists(path):
        return 0
    try:
        con = sqlite3.connect(f"file:{os.fspath(path)}?mode=ro", uri=True)
        try:
            row = con.execute("select count(*) from trials where state in "
                              "('COMPLETE', 'PRUNED')").fetchone()
        finally:
            con.close()
    except sqlite3.Error:  # not yet made, or being made
        return 0
    return int(row[0])


def _sampler_seed(seed: int, n: int) -> int:
    digest = hashlib.blake2b(f"easymoney-tune-sampler:{seed}:{n}".encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def suggest(trial: optuna.Trial, domains: Sequence[Domain]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for d in domains:
        if d.kind in ("switch", "choice"):
            params[d.key] = trial.suggest_categorical(d.key, list(d.choices))
        elif d.kind == "int":
            params[d.key] = trial.suggest_int(d.key, int(d.low), int(d.high), step=d.step or 1)
        else:
            params[d.key] = trial.suggest_float(d.key, d.low, d.high)
    return params


def ordinals(study: optuna.Study) -> dict[int, int]:
    """Trial number -> the candidate's place among the finished (1-based): what the user
    sees, the same in a run resumed (a failed trial takes a trial number too)."""
    return {t.number: k for k, t in enumerate(finished(study), 1)}


def distinct(study: optuna.Study) -> dict[str, optuna.trial.FrozenTrial]:
    out: dict[str, optuna.trial.FrozenTrial] = {}
    for t in finished(study):
        out.setdefault(repr(sorted(t.params.items())), t)
    return out


def _same(study: optuna.Study, params: Mapping[str, Any]) -> optuna.trial.FrozenTrial | None:
    """The finished candidate of the same settings, if any."""
    return distinct(study).get(repr(sorted(params.items())))


def space_size(domains: Sequence[Domain]) -> float:
    """How many candidates the search space holds (infinite with a decimal range)."""
    size = 1.0
    for d in domains:
        if d.kind in ("switch", "choice"):
            size *= len(d.choices)
        elif d.kind == "int":
            size *= (d.high - d.low) // (d.step or 1) + 1
        else:
            return float("inf")
    return size


def run_trials(study: optuna.Study, total: int, seed: int, domains: Sequence[Domain],
               targets: Sequence[Target], pareto: bool,
               evaluate: Callable[[dict[str, Any], Callable[[Evaluation], None], float | None],
                                  Evaluation],
               on_trial: Callable[[int, dict[str, Any], Evaluation | None, str], None] | None = None
               ) -> int:
    """Ask, play and tell trials until `total` have finished; the number played now."""
    import optuna
    played = 0
    while True:
        raise_if_signalled()
        done = len(finished(study))
        if done >= total or space_size(domains) <= len(distinct(study)):
            return played  # the budget spent, or every candidate of a finite space known
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            study.sampler = optuna.samplers.TPESampler(
                seed=_sampler_seed(seed, done), constant_liar=False,
                n_startup_trials=min(10, max(2, total // 4)))
            trial = study.ask()
        params = suggest(trial, domains)
        single = not pareto
        earlier = _same(study, params)
        if earlier is not None:  # common random numbers: it would play the very same games
            for key, value in earlier.user_attrs.items():
                trial.set_user_attr(key, value)
            place = ordinals(study)[earlier.number]
            trial.set_user_attr("repeat_of", place)
            if earlier.state == optuna.trial.TrialState.PRUNED:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, earlier.values if pareto else earlier.values[0])
            if on_trial is not None:
                on_trial(done, params, None, f"the settings of candidate {place}")
            continue

        def report(ev: Evaluation) -> None:
            trial.set_user_attr("games", ev.games)
            trial.set_user_attr("figures", {k: list(v) for k, v in ev.figures.items()})
            if single:
                trial.report(ev.history[-1], ev.batches - 1)
        played_out = [float(t.values[0]) for t in finished(study)
                      if t.state == optuna.trial.TrialState.COMPLETE] if single else []
        try:
            ev = evaluate(params, report, min(played_out) if played_out else None)
        except BaseException:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            raise
        trial.set_user_attr("batches", ev.batches)
        trial.set_user_attr("misses", ev.misses(targets))
        trial.set_user_attr("far_misses", ev.far_misses(targets))
        if ev.pruned_by is not None:
            trial.set_user_attr("pruned_by", ev.pruned_by)
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            state = "pruned"
        else:
            values = ev.misses(targets) if pareto else [sum(ev.misses(targets))]
            study.tell(trial, values if pareto else values[0])
            state = "complete"
        played += 1
        if on_trial is not None:
            on_trial(done, params, ev, state)
