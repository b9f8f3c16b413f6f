"""A variant's profile as JSON-ready data and as the terminal's text (`easymoney analyze`).

Every figure comes with its 95% interval: Wilson's for a share of games, Student's t for a
mean, the order statistics' (distribution-free) for a median, the delta method for a ratio
of sums (a space's return). With --against, each per-game figure of the two variants is
paired over the common seeds (paired t-test for a mean, McNemar's for a share of games),
the p-values Holm-adjusted over the table.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..engine.actions import money
from ..words import count
from .arms import Arm, Batch
from .games import END_LABELS, END_REASONS, PairStats, metric_names
from .profile import DECILES, FLOW_KINDS, PROFILE_METRICS, REFUSALS_EVERY, ProfileStats
from .report import table_lines
from .runner import Result, run
from .stats import Z95, _scipy, adjust, mcnemar, mean_interval, paired_t, turn_figures, wilson

DEFAULT_SECONDS_PER_TURN = 20
NOTES = {
    "minutes": "player-turns x seconds a turn / 60 (--seconds-per-turn)",
    "advantage": "the seat's win rate minus 1/players (percentage points); a win shared by k "
                 "players counts 1/k to each",
    "margin": "the winner's final worth (R28) minus the best other seat's; 0 for a shared win; "
              "share: of the winner's worth",
    "lead_changes": "times the sole leader (strictly largest worth after a player-turn) "
                    "changed; a tie for the lead changes nothing",
    "decided": "the first player-turn from which the eventual sole winner's worth is never "
               "below another's again (a shared win: the last turn); share: of the game's length",
    "comeback": "the sole winner was strictly last (worth below every other seat's) after a "
                "player-turn past the first quarter of the game",
    "rules": "fired: in the game the rule emitted one of its events, or the game changed (any "
             "event: a payment, a move, a card drawn) while one of its hooks or its actions' "
             "own code ran (give_or_take drawing a card); refused: it refused a candidate "
             "answer to a request (four_sides refusing a fourth side's buy), looked at in every "
             f"{REFUSALS_EVERY}th player-turn (0, {REFUSALS_EVERY}, ...), the first refused "
             "candidate of each action type; never mattered: neither in any game (a rule "
             "whose hooks only answer a value the core acts on, such as scoring's worth, "
             "shows so: its effect is in the other figures)",
    "flows": "dollars paid per game by payment kind (ledger.PAYMENT_KINDS), starting cash left out",
    "return": "rent earned / what its owners paid (price or winning bid, plus houses), "
              "interval by the delta method over games",
    "ladder": "each pair plays half its games with the first strategy in seats P1, P3, ... "
              "and half swapped, on the same seeds; share: of the games won by the second",
}


def _mean(n: int, total: int | Fraction, squares: int | Fraction, scale: float = 1.0
          ) -> dict[str, Any]:
    m = mean_interval(n, total, squares)
    return {"mean": m["mean"] * scale, "ci95": [m["ci95"][0] * scale, m["ci95"][1] * scale]}


def _share(k: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"games": k, "percent": 100 * k / n if n else 0.0, "ci95": [100 * lo, 100 * hi]}


def median_interval(hist: Counter[int]) -> list[float]:
    """The 95% interval of a median from the order statistics: ranks from the binomial
    distribution B(n, 1/2), whatever the distribution of the values."""
    n = sum(hist.values())
    if n == 0:
        return [0.0, 0.0]
    lo_rank = max(1, int(_scipy().binom.ppf(0.025, n, 0.5)))
    hi_rank = min(n, n - lo_rank + 1)
    values = sorted(hist)
    out, seen, ranks = [], 0, [lo_rank, hi_rank]
    for v in values:
        seen += hist[v]
        while ranks and seen >= ranks[0]:
            out.append(float(v))
            ranks.pop(0)
    return out


def ratio_interval(n: int, r: int, p: int, rr: int, pp: int, rp: int) -> list[float] | None:
    """The 95% interval of sum(r)/sum(p) over n games by the delta method, or None."""
    if not p or n < 2:
        return None
    ratio = Fraction(r, p)
    resid = (rr - 2 * ratio * rp + ratio * ratio * pp) / (n - 1)  # sd of r - ratio * p
    half = Z95 * math.sqrt(max(float(resid), 0.0) * n) / p
    return [float(ratio) - half, float(ratio) + half]


def profile_summary(result: Result, arm: int = 0,
                    seconds_per_turn: int = DEFAULT_SECONDS_PER_TURN) -> dict[str, Any]:
    """One variant's profile, every figure with its 95% interval."""
    s, batch, variant, a = result.stats[arm], result.batch, result.variants[arm], result.arms[arm]
    assert isinstance(s, ProfileStats)
    n = s.games
    at = {name: k for k, name in enumerate(PROFILE_METRICS)}

    def mean_of(name: str, scale: float = 1.0) -> dict[str, Any]:
        return _mean(n, s.sums[at[name]], s.squares[at[name]], scale)

    turns = turn_figures(s.turns)
    turns["median_ci95"] = median_interval(s.turns)
    turns["histogram"] = [[t, s.turns[t]] for t in sorted(s.turns)]
    per_minute = seconds_per_turn / 60
    minutes = {"mean": turns["mean"] * per_minute,
               "ci95": [x * per_minute for x in turns["ci95"]],
               "median": turns["median"] * per_minute,
               "median_ci95": [x * per_minute for x in turns["median_ci95"]]}
    parity = 1 / batch.players
    seats = []
    for i, (name, strategy) in enumerate(zip(batch.names, batch.seats)):
        wins = float(s.seat_wins[i])
        lo, hi = wilson(wins, n)
        rate = wins / n if n else 0.0
        seats.append({"seat": name, "strategy": strategy, "wins": wins, "rate": rate,
                      "ci95": [lo, hi], "advantage": 100 * (rate - parity),
                      "advantage_ci95": [100 * (lo - parity), 100 * (hi - parity)]})
    reasons = list(END_REASONS) + sorted(r for r in s.ended if r not in END_REASONS)
    flows = []
    for kind in [*FLOW_KINDS, *sorted(k for k in s.flows if k not in FLOW_KINDS)]:
        if s.flows.get(kind) or kind in FLOW_KINDS and s.payments.get(kind):
            flows.append({"kind": kind, "total": s.flows[kind], "payments": s.payments[kind],
                          "per_game": _mean(n, s.flows[kind], s.flow_sq[kind])})
    plugins = result.variants[arm].rules
    rules = []
    registry_events = _declared_events(result, arm)
    for pid in plugins:
        declared = registry_events.get(pid, [])
        games_in = s.in_play.get(pid, 0)
        fired = s.fired.get(pid, 0)
        refused = s.refused_games.get(pid, 0)
        status = "fired" if fired else "refused" if refused else "never mattered"
        shown = _share(fired, games_in)
        shown_refused = _share(refused, games_in)
        rules.append({"rule": pid, "events": declared, "status": status,
                      "fired_games": fired, "percent": shown["percent"], "ci95": shown["ci95"],
                      "refused_games": refused, "refused_percent": shown_refused["percent"],
                      "refused_ci95": shown_refused["ci95"],
                      "refusals_per_game": s.refused.get(pid, 0) / n if n else 0.0,
                      "events_per_game": sum(s.events.get(k, 0) for k in declared) / n if n else 0.0,
                      "by_event": {k: s.events.get(k, 0) for k in declared}})
    spaces = []
    for sp in variant.spaces:
        i = sp.index
        if not s.paid[i] and not s.rent[i]:
            continue
        spaces.append({"index": i, "name": sp.name, "rent": s.rent[i], "paid": s.paid[i],
                       "return": s.rent[i] / s.paid[i] if s.paid[i] else None,
                       "ci95": ratio_interval(n, s.rent[i], s.paid[i], s.space_rr[i],
                                              s.space_pp[i], s.space_rp[i])})
    return {
        "arm": a.name, "variant": variant.name, "games": n, "players": batch.players,
        "seed": batch.seed, "max_turns": batch.turn_limit(variant),
        "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
        "seconds_per_turn": seconds_per_turn, "player_turns": s.player_turns,
        "length": {"turns": turns, "minutes": minutes},
        "ended": {r: _share(s.ended.get(r, 0), n) for r in reasons},
        "wins": {"by_seat": seats, "shared_games": s.shared, "parity": 100 * parity},
        "margin": {"dollars": mean_of("margin"), "share": mean_of("margin_share", 100)},
        "lead": {"changes": mean_of("lead_changes"),
                 "changes_histogram": [[k, s.lead_hist[k]] for k in sorted(s.lead_hist)],
                 "decided_turn": mean_of("decided_turn"),
                 "decided_share": mean_of("decided_share", 100),
                 "decided_deciles": [s.decided_hist.get(d, 0) for d in range(DECILES)]},
        "comebacks": _share(float(s.sums[at["comeback"]]), n),
        "flows": flows, "rules": rules, "spaces": spaces,
    }


def _declared_events(result: Result, arm: int) -> dict[str, list[str]]:
    from ..engine.registry import discover
    plugins = discover().plugins
    return {pid: sorted(plugins[pid].events) for pid in result.variants[arm].rules
            if pid in plugins}


# --- the skill ladder --------------------------------------------------------------------

def ladder_rungs(mc: str, games: int, mc_games: int) -> list[tuple[str, str, int]]:
    """(first, second, games a seat order) of each rung: a short ladder of built-in bots."""
    rungs = [("random", "cautious", games), ("cautious", "greedy", games),
             ("greedy", mc, mc_games)]
    return [r for r in rungs if r[2] > 0]


def play_ladder(arms: Sequence[Arm], batch: Batch, rungs: Sequence[tuple[str, str, int]],
                **run_args: Any) -> list[dict[str, Any]]:
    """Each rung on every arm, both seat orders on the same seeds: the share of games won
    by the second strategy, and with several arms each arm's difference from the first
    (McNemar's test over the common seeds and orders)."""
    out = []
    for first, second, games in rungs:
        won = [Fraction(0)] * len(arms)
        played = 0
        paired = [PairStats(1) for _ in arms[1:]]
        for order in ((first, second), (second, first)):
            b = Batch(games=games, players=batch.players, strategies=order, seed=batch.seed,
                      max_turns=batch.max_turns)
            result = run(arms, b, **run_args)
            played += games
            k = metric_names(b).index(f"strategy:{second}")
            for j, st in enumerate(result.stats):
                won[j] += sum((st.seat_wins[i] for i, name in enumerate(b.seats)
                               if name == second), Fraction(0))
            for mine, theirs in zip(paired, result.pairs):
                mine.n += theirs.n
                mine.sum[0] += theirs.sum[k]
                mine.sq[0] += theirs.sq[k]
                mine.fractional[0] = mine.fractional[0] or theirs.fractional[k]
        arms_out = []
        for j, arm in enumerate(arms):
            lo, hi = wilson(float(won[j]), played)
            arms_out.append({"arm": arm.name, "wins": float(won[j]),
                             "share": 100 * float(won[j]) / played, "ci95": [100 * lo, 100 * hi]})
        rung: dict[str, Any] = {"first": first, "second": second, "games": played,
                                "arms": arms_out}
        if paired:
            rung["differences"] = [mcnemar(p.n, p.sum[0], p.sq[0], p.fractional[0])
                                   for p in paired]
        out.append(rung)
    return out


# --- two variants side by side ---------------------------------------------------------

# (label, metric, scale of the per-game value to the figure shown, a share of games)
def against_rows(summary: Mapping[str, Any]) -> list[tuple[str, str, float, bool]]:
    minutes = summary["seconds_per_turn"] / 60
    rows = [("player-turns", "turns", 1.0, False), ("table minutes", "turns", minutes, False)]
    rows += [(f"% ended by {END_LABELS.get(r, r)}", f"ended:{r}", 100.0, True) for r in END_REASONS]
    rows += [(f"% won by {s['seat']} ({s['strategy']})", f"seat:{s['seat']}", 100.0, True)
             for s in summary["seats"]]
    rows += [("winner's margin ($)", "margin", 1.0, False),
             ("winner's margin (% of worth)", "margin_share", 100.0, False),
             ("lead changes", "lead_changes", 1.0, False),
             ("decided at (player-turn)", "decided_turn", 1.0, False),
             ("decided at (% of the game)", "decided_share", 100.0, False),
             ("% comebacks", "comeback", 100.0, True)]
    rows += [(f"{k} paid per game ($)", f"flow:{k}", 1.0, False) for k in FLOW_KINDS]
    return rows


def against_summary(result: Result, seconds_per_turn: int,
                    ladder: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Both profiles and each per-game figure's difference (the second minus the first)."""
    profiles = [profile_summary(result, i, seconds_per_turn) for i in range(len(result.arms))]
    pair = result.pairs[0]
    names = metric_names(result.batch, PROFILE_METRICS)
    tests = []
    for label, metric, scale, share in against_rows(profiles[0]):
        if metric.startswith("flow:") and not any(
                f["kind"] == metric[5:] for p in profiles for f in p["flows"]):
            continue  # a kind of payment neither variant made
        k = names.index(metric)
        if share:
            t = mcnemar(pair.n, pair.sum[k], pair.sq[k], pair.fractional[k])
        else:
            t = paired_t(pair.n, pair.sum[k], pair.sq[k])
        tests.append({"figure": label, "metric": metric, "scale": scale, **t,
                      "mean": t["mean"] * scale, "ci95": [x * scale for x in t["ci95"]]})
    family = tests + [d for rung in ladder for d in rung.get("differences", [])]
    adjust(family)
    return {"profiles": profiles, "differences": tests, "ladder": list(ladder),
            "against": {"first": profiles[0]["arm"], "second": profiles[1]["arm"],
                        "games": pair.n, "tests": len(family), "adjustment": "Holm"}}


# --- in words ----------------------------------------------------------------------------

def _ci(interval: Sequence[float], fmt: Callable[[float], str]) -> str:
    lo, hi = interval
    return f"({fmt(lo)} to {fmt(hi)})"


def _f1(x: float) -> str:
    return f"{x:,.1f}"


def _pct(x: float) -> str:
    return f"{x:.1f}%"


def _dollars(x: float) -> str:
    return money(round(x))


def profile_lines(p: Mapping[str, Any]) -> list[str]:
    """One profile as the terminal shows it."""
    n = p["games"]
    t, m = p["length"]["turns"], p["length"]["minutes"]
    lines = [f"Profile of {p['arm']}: {count(n, 'game')}, {count(p['players'], 'player')}, "
             f"seed {p['seed']}, at most {count(p['max_turns'], 'turn')} a game",
             "Seats: " + ", ".join(f"{s['seat']} {s['strategy']}" for s in p["seats"]),
             "Every figure with its 95% interval in brackets.", "",
             "Length",
             f"  player-turns   mean {_f1(t['mean'])} {_ci(t['ci95'], _f1)}, median "
             f"{_f1(t['median'])} {_ci(t['median_ci95'], _f1)}",
             f"  table minutes  mean {_f1(m['mean'])} {_ci(m['ci95'], _f1)}, median "
             f"{_f1(m['median'])} {_ci(m['median_ci95'], _f1)} at {p['seconds_per_turn']} s "
             f"a player-turn", "", "How games end"]
    for reason, e in p["ended"].items():
        lines.append(f"  {END_LABELS.get(reason, reason):<12} {_pct(e['percent']):>6} "
                     f"{_ci(e['ci95'], _pct)}")
    lines += ["", f"Seats (parity {_pct(p['wins']['parity'])}; advantage: win rate minus parity)"]
    for s in p["wins"]["by_seat"]:
        lines.append(f"  {s['seat']:<4} {s['strategy']:<10} wins {_pct(100 * s['rate']):>6} "
                     f"{_ci([100 * x for x in s['ci95']], _pct):<18} advantage "
                     f"{s['advantage']:+.1f} pp")
    mg, ld = p["margin"], p["lead"]
    cb = p["comebacks"]
    lines += ["", "The race",
              f"  winner's margin      {_dollars(mg['dollars']['mean'])} "
              f"{_ci(mg['dollars']['ci95'], _dollars)}, {_pct(mg['share']['mean'])} of the "
              f"winner's worth {_ci(mg['share']['ci95'], _pct)}",
              f"  lead changes a game  {_f1(ld['changes']['mean'])} {_ci(ld['changes']['ci95'], _f1)}",
              f"  winner leads for good from player-turn {_f1(ld['decided_turn']['mean'])} "
              f"{_ci(ld['decided_turn']['ci95'], _f1)}, {_pct(ld['decided_share']['mean'])} "
              f"into the game {_ci(ld['decided_share']['ci95'], _pct)}",
              f"  comebacks            {_pct(cb['percent'])} of games {_ci(cb['ci95'], _pct)}"
              f" (the winner was last after the first quarter)"]
    if p["flows"]:
        lines += ["", "Money flows per game by payment kind"]
        for f in p["flows"]:
            g = f["per_game"]
            lines.append(f"  {f['kind']:<11} {_dollars(g['mean']):>10} "
                         f"{_ci(g['ci95'], _dollars)}")
    lines += ["", "Rules' activity (fired: acted or emitted its events; refused: refused a "
                  f"candidate, looked at every {REFUSALS_EVERY}th player-turn)"]
    for r in p["rules"]:
        parts = []
        if r["fired_games"]:
            parts.append(f"fired in {_pct(r['percent'])} of games {_ci(r['ci95'], _pct)}"
                         + (f", {_f1(r['events_per_game'])} of its events a game"
                            if r["events_per_game"] else ""))
        if r["refused_games"]:
            parts.append(f"refused in {_pct(r['refused_percent'])} of games "
                         f"{_ci(r['refused_ci95'], _pct)}")
        what = "; ".join(parts) or "never mattered: neither acted nor refused in any game"
        lines.append(f"  {r['rule']:<14} {what}")
    spaces = sorted(p["spaces"], key=lambda s: (-(s["return"] or 0), s["index"]))
    if spaces:
        lines += ["", "Return on price: rent earned / what owners paid (all spaces with --json)"]
        shown = spaces[:5] + ([None] if len(spaces) > 10 else []) + spaces[-5:] \
            if len(spaces) > 10 else spaces
        for s in shown:
            if s is None:
                lines.append("  ...")
                continue
            ret = "-" if s["return"] is None else f"{s['return']:.2f}"
            ci = "" if s["ci95"] is None else _ci(s["ci95"], lambda x: f"{x:.2f}")
            lines.append(f"  {s['index']:>2} {s['name']:<22} {ret:>6} {ci}")
    return lines


def ladder_lines(ladder: Sequence[Mapping[str, Any]]) -> list[str]:
    if not ladder:
        return []
    lines = ["", "Skill ladder: the share of games won by the second strategy of a pair "
                 "(seats swapped; parity 50%)"]
    for rung in ladder:
        cells = [f"{a['arm']}: {_pct(a['share'])} {_ci(a['ci95'], _pct)}" for a in rung["arms"]]
        diff = ""
        for d in rung.get("differences", []):
            p = d.get("p_holm", d["p"])
            diff = (f"; diff {100 * d['mean']:+.1f} pp, p {p:.3f}"
                    + (" *" if d.get("significant") else ""))
        lines.append(f"  {rung['first']} vs {rung['second']} ({count(rung['games'], 'game')}): "
                     + "; ".join(cells) + diff)
    return lines


def profile_text(summary: Mapping[str, Any]) -> str:
    return "\n".join([*profile_lines(summary), *ladder_lines(summary.get("ladder", ()))]) + "\n"


def against_text(summary: Mapping[str, Any]) -> str:
    first, second = summary["profiles"]
    table = [["figure", first["arm"][:30], second["arm"][:30], "diff (95% CI)", "p"]]
    for d in summary["differences"]:
        a = _value(first, d)
        b = _value(second, d)
        p = d["p_holm"]
        table.append([d["figure"], f"{a:,.1f}", f"{b:,.1f}",
                      f"{d['mean']:+,.1f} ({d['ci95'][0]:+,.1f} to {d['ci95'][1]:+,.1f})",
                      ("<0.001" if p < 0.001 else f"{p:.3f}") + (" *" if d["significant"] else "")])
    ag = summary["against"]
    lines = [*profile_lines(first), "", *profile_lines(second), "",
             f"{second['arm']} against {first['arm']}: the same {count(ag['games'], 'seed')}, "
             f"each figure's difference (the second minus the first)"]
    lines += ["  " + line for line in table_lines(table)]
    lines += ["  p: paired t-test for a mean, McNemar's test for a %; Holm-adjusted over "
              f"{count(ag['tests'], 'test')}; * significant at 95%"]
    lines += ladder_lines(summary["ladder"])
    return "\n".join(lines) + "\n"


def _value(p: Mapping[str, Any], d: Mapping[str, Any]) -> float:
    """A profile's figure of a row of the differences."""
    metric, scale = d["metric"], d["scale"]
    kind, _, name = metric.partition(":")
    if metric == "turns":
        return float(p["length"]["turns"]["mean"] * scale)
    if kind == "ended":
        return float(p["ended"][name]["percent"])
    if kind == "seat":
        return next(100 * s["rate"] for s in p["wins"]["by_seat"] if s["seat"] == name)
    if kind == "flow":
        return next((f["per_game"]["mean"] for f in p["flows"] if f["kind"] == name), 0.0)
    if metric == "comeback":
        return float(p["comebacks"]["percent"])
    if metric in ("margin", "margin_share"):
        return float(p["margin"]["dollars" if metric == "margin" else "share"]["mean"])
    key = {"lead_changes": "changes"}.get(metric, metric)
    return float(p["lead"][key]["mean"])
