"""A variant's profile (`easymoney analyze`): the shape of its games, from bot games.

A worker follows each game a little more closely than `simulate` does (ProfileStats.watch):
every seat's worth (R28) after each player-turn, the payments by kind, the events of each
rule. What it keeps are exact sums (integers and fractions) merged in game order, as
simulate's, so the profile is the same whatever the workers.

The per-game figures (PROFILE_METRICS, defined in docs/simulation.md, "A variant's profile"):

- lead changes: the sole leader (the one seat of strictly largest worth) after a player-turn
  differs from the last sole leader; a tie for the lead changes nothing;
- decided at: the first player-turn from which the eventual (sole) winner's worth is never
  below another seat's again (a shared win: the last turn), and that turn as a share of the
  game's length;
- comeback: the sole winner was strictly last (worth below every other seat's) after some
  player-turn past the first quarter of the game;
- margin: the winner's final worth minus the best other seat's (0 for a shared win), and
  that margin as a share of the winner's worth;
- flow:KIND: the dollars paid in payments of that kind (ledger.PAYMENT_KINDS) in the game.

A rule's activity in a game (profile_report.NOTES["rules"]): it *fired* when it emitted one
of its own events or when the game changed (any event: a payment, a move, a card drawn, a
sale) while one of its hooks or its actions' own code was running, found by the frames on
the stack at the event (rule_code); give_or_take, which draws a card on landing and emits
nothing of its own, fires so. It *refused* when a candidate answer to a request was refused
by it (engine.legal.refused_candidates, asked before each decision): four_sides refusing
the buy of a fourth side of a board.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..engine.actions import Action, Request
from ..engine.events import Event
from ..engine.game import Game
from ..engine.actions import ActionRange, on_grid
from ..engine.legal import amount_step, answer_types, candidates_of, unnarrowed
from ..engine.ledger import PAYMENT_KINDS
from .sums import ArmStats, GameRow


# the money of play: a player's starting cash ("setup") is not a flow of the game
FLOW_KINDS = tuple(k for k in PAYMENT_KINDS if k != "setup")
PROFILE_METRICS = ("lead_changes", "decided_turn", "decided_share", "comeback", "margin",
                   "margin_share", *(f"flow:{k}" for k in FLOW_KINDS))
COMEBACK_AFTER = Fraction(1, 4)  # a comeback counts from this share of the game's length on
DECILES = 10
# events of every player-turn, all from the turn's own rule, which its move shows acting
_EVERY_TURN = frozenset({"turn", "roll"})
_PLAY = Game.play.__code__
REFUSALS_EVERY = 20  # the player-turns whose requests' refusals are looked at: 0, 20, 40...


def rule_events(game: Game) -> dict[str, str]:
    """Event kind -> the rule in play that declares it (its EVENTS)."""
    plugins = game.ruleset.registry.plugins
    owner: dict[str, str] = {}
    for pid in game.ruleset.enabled:
        info = plugins.get(pid)
        if info is not None:
            for kind in info.events:
                owner.setdefault(kind, pid)
    return owner


def rule_code(game: Game) -> dict[Any, str]:
    """Code object -> the rule in play it belongs to: each of the rule's hook implementations
    and the own `apply` of its action types (what runs when it acts)."""
    ruleset = game.ruleset
    enabled = set(ruleset.enabled)
    owner: dict[Any, str] = {}
    pm = ruleset.pm
    for name, plugin in pm.list_name_plugin():
        if name not in enabled:
            continue
        for hook in pm.get_hookcallers(plugin) or ():
            for impl in hook.get_hookimpls():
                code = getattr(impl.function, "__code__", None)
                if impl.plugin is plugin and code is not None:
                    owner.setdefault(code, name)
    for kind, pid in ruleset.action_owner.items():
        apply = vars(kind).get("apply")
        code = getattr(apply, "__code__", None)
        if pid in enabled and code is not None:
            owner.setdefault(code, pid)
    return owner


def first_refusals(game: Game, request: Request) -> set[str]:
    """The rules refusing the first refused candidate of each of the request's own action
    types (as engine.legal.refused_candidates judges them, a range at its least and most
    amounts on the rules' grid), stopping there: judging every candidate (every house of
    every street after each move) would cost more than the game. Changes nothing."""
    found: set[str] = set()
    rules = game.ruleset
    for kind in answer_types(game, request)[:len(request.accepts)]:
        if kind in rules.action_owner and kind not in rules.handled:
            continue  # its rule is installed but not in play
        with unnarrowed(game):  # a refusal narrowed away is the rule's refusal all the same
            candidates = candidates_of(game, kind, request)
        for candidate in candidates:
            judged: list[Action]
            if isinstance(candidate, ActionRange):
                least, most = candidate.least, candidate.most
                grid = amount_step(game, candidate.template, candidate.field)
                if grid > candidate.step:
                    least, most = on_grid(least, most, grid)
                if least > most:
                    continue
                judged = [candidate.at(least), candidate.at(most)]
            else:
                judged = [candidate]
            refusals = next((r for r in map(game.refusals, judged) if r), None)
            if refusals:
                found.update(r.plugin for r in refusals)
                break
    return found


class _CountingDecider:
    """The game's decider, and before each decision the refusals of the request's candidates
    counted by rule (ProfileStats.refused): what the rules kept the player from doing."""

    def __init__(self, inner: Any, note: Callable[[Game, Request], None]) -> None:
        self.inner = inner
        self.note = note
        self.strategies = getattr(inner, "strategies", {})

    def answers_for(self, name: str) -> Mapping[str, Callable[..., Action]] | None:
        table = getattr(self.inner, "answers_for", lambda n: None)(name)
        if table is None:
            return None
        note = self.note

        def counted(answer: Callable[..., Action]) -> Callable[..., Action]:
            def ask(game: Game, request: Request) -> Action:
                note(game, request)
                return answer(game, request)
            return ask
        return {kind: counted(answer) for kind, answer in table.items()}

    def decide(self, game: Game, request: Request) -> Action:
        self.note(game, request)
        action: Action = self.inner.decide(game, request)
        return action

    def refused(self, game: Game, request: Request, action: Action, refusals: list[Any]) -> None:
        self.inner.refused(game, request, action, refusals)

    def choose_card(self, game: Game, player: Any) -> str | None:
        card: str | None = self.inner.choose_card(game, player)
        return card


def game_figures(turns: list[int], marks: list[tuple[int, ...]], winners: Sequence[int],
                 length: int) -> tuple[int, int, int, int]:
    """(lead changes, decided at, comeback 0/1, margin) of a game from each seat's worth
    after each player-turn (`marks`, at `turns`), the last being the end."""
    changes = 0
    leader: int | None = None
    for w in marks:
        top = max(w)
        if w.count(top) == 1:
            sole = w.index(top)
            if leader is not None and sole != leader:
                changes += 1
            leader = sole
    if len(winners) != 1:
        return changes, length, 0, 0
    s = winners[0]
    decided = length
    for turn, w in zip(reversed(turns), reversed(marks)):
        if w[s] < max(w):
            break
        decided = turn
    others = [i for i in range(len(marks[-1])) if i != s]
    comeback = int(any(COMEBACK_AFTER * length < turn and w[s] < min(w[i] for i in others)
                       for turn, w in zip(turns, marks))) if others else 0
    final = marks[-1]
    margin = final[s] - max(final[i] for i in others) if others else 0
    return changes, decided, comeback, margin


class ProfileStats(ArmStats):
    """ArmStats and the sums of a profile: exact, merged in any order to the same result."""

    def __init__(self, players: int, spaces: int) -> None:
        super().__init__(players, spaces)
        self.sums: list[int | Fraction] = [0] * len(PROFILE_METRICS)
        self.squares: list[int | Fraction] = [0] * len(PROFILE_METRICS)
        self.lead_hist: Counter[int] = Counter()      # lead changes -> games
        self.decided_hist: Counter[int] = Counter()   # decile of the game decided at -> games
        self.flows: Counter[str] = Counter()          # kind -> dollars (plugins' own kinds too)
        self.flow_sq: Counter[str] = Counter()        # kind -> sum of each game's dollars squared
        self.payments: Counter[str] = Counter()       # kind -> payments
        self.fired: Counter[str] = Counter()          # rule -> games in which it acted (see above)
        self.refused: Counter[str] = Counter()        # rule -> candidates it refused
        self.refused_games: Counter[str] = Counter()  # rule -> games in which it refused one
        self.events: Counter[str] = Counter()         # event kind -> times emitted
        self.in_play: Counter[str] = Counter()        # rule -> games it was in play
        # per space, sums over games of rent^2, paid^2 and rent*paid: the return's interval
        self.space_rr = [0] * spaces
        self.space_pp = [0] * spaces
        self.space_rp = [0] * spaces

    def merge(self, other: ArmStats) -> None:
        super().merge(other)
        assert isinstance(other, ProfileStats)
        self.sums = [a + b for a, b in zip(self.sums, other.sums)]
        self.squares = [a + b for a, b in zip(self.squares, other.squares)]
        for name in ("lead_hist", "decided_hist", "flows", "flow_sq", "payments", "fired",
                     "refused", "refused_games", "events", "in_play"):
            getattr(self, name).update(getattr(other, name))
        for name in ("space_rr", "space_pp", "space_rp"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])

    def watch(self, game: Game) -> Callable[[GameRow], GameRow]:
        players = game.players
        worth = game.worth
        turns: list[int] = []
        marks: list[tuple[int, ...]] = []
        flows: Counter[str] = Counter()
        owner = rule_events(game)
        code_owner = rule_code(game)
        fired: set[str] = set()
        refused: Counter[str] = Counter()
        events = self.events
        payments = self.payments
        rent0, paid0 = list(self.rent), list(self.paid)

        def on_turn(event: Event) -> None:
            if game.turns_played:  # each seat's worth after the player-turns played so far
                turns.append(game.turns_played)
                marks.append(tuple(0 if p.bankrupt else worth(p) for p in players))

        def on_pay(event: Event) -> None:
            data = event.data
            kind = data.get("payment", "other")
            flows[kind] += data["amount"]
            payments[kind] += 1

        def on_rule(event: Event) -> None:
            events[event.kind] += 1
            fired.add(owner[event.kind])

        acting = len(set(code_owner.values()))

        def on_change(event: Event) -> None:
            # the rules whose code is running as the game changes acted: walk the stack up
            # to the game's loop (what is outside it is the simulator's)
            if len(fired) >= acting:
                return
            frame = sys._getframe(1)
            while frame is not None:
                code = frame.f_code
                if code is _PLAY:
                    return
                found = code_owner.get(code)
                if found is not None:
                    fired.add(found)
                frame = frame.f_back  # type: ignore[assignment]

        asked: set[tuple[int, str]] = set()

        def on_request(game: Game, request: Request) -> None:
            # once a kind of request in every REFUSALS_EVERY-th player-turn: judging every
            # request's candidates would cost more than the game
            turn = game.turns_played
            key = (turn, request.kind)
            if turn % REFUSALS_EVERY or key in asked:
                return
            asked.add(key)
            for by in first_refusals(game, request):
                refused[by] += 1

        game.listen(on_turn, ("turn",))
        game.listen(on_pay, ("pay",))
        game.listen(on_rule, tuple(owner))
        game.listen(on_change, tuple(k for k in game.ruleset.templates if k not in _EVERY_TURN))
        game.decider = _CountingDecider(game.decider, on_request)

        def finish(row: GameRow) -> GameRow:
            if turns and turns[-1] == row.turns:  # the end is the last mark
                turns.pop()
                marks.pop()
            turns.append(row.turns)
            marks.append(row.worths)
            winners = row.winners
            changes, decided, comeback, margin = game_figures(turns, marks, winners, row.turns)
            top = row.worths[winners[0]] if len(winners) == 1 else 0
            share = Fraction(decided, row.turns) if row.turns else Fraction(1)
            values: list[int | Fraction] = [
                changes, decided, share, comeback, margin,
                Fraction(margin, top) if top > 0 else Fraction(0),
                *(flows.get(k, 0) for k in FLOW_KINDS)]
            for k, v in enumerate(values):
                if v:
                    self.sums[k] += v
                    self.squares[k] += v * v
            self.lead_hist[changes] += 1
            self.decided_hist[min(DECILES - 1, int(share * DECILES))] += 1
            for kind, amount in flows.items():
                if kind != "setup":
                    self.flows[kind] += amount
                    self.flow_sq[kind] += amount * amount
            payments.pop("setup", None)
            self.fired.update(fired)
            self.refused.update(refused)
            self.refused_games.update(refused.keys())
            self.in_play.update(game.ruleset.enabled)
            rent, paid = self.rent, self.paid
            for i, (r0, p0) in enumerate(zip(rent0, paid0)):
                r, p = rent[i] - r0, paid[i] - p0
                if r or p:
                    self.space_rr[i] += r * r
                    self.space_pp[i] += p * p
                    self.space_rp[i] += r * p
            return GameRow(row.game, row.seed, row.turns, row.end, row.winners, row.worths,
                           row.bank, row.arm, tuple(values))
        return finish
