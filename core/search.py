"""The searching bot `mc`: flat Monte Carlo over the legal actions, from a stepping copy.

At a decision with more than one sensible answer, each candidate (the legal actions, an
amount at a few points of its range) is played out `rollouts` times from a copy of the
game (`GameState.clone`) to a horizon of `horizon` more player-turns, every seat then
played by a fast default strategy (cautious). A playout scores the seat's worth (R28)
minus the best other seat's, with a bonus for a game won or lost on the way; the
candidate with the best mean is taken.

It does not see the order of the deck: before each playout the copy's draw pile is
shuffled, and its dice generator reseeded, with the playout's own generator
(information-set sampling). The same playout seeds serve every candidate (common random
numbers), so the candidates are compared on the same dice and cards. Those seeds come
from the game's seed and the step number, never from the clock: a game is the same game
each time it is played.

It needs a stepping game: a game run by a `GameState` (the prompt, the agents, and
`simulate`, `compare` and `sweep`, which step the games of a seat that searches, see
`play_stepping`). Anywhere else (a bot seat of a replayed script) it plays as its default
strategy.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from typing import Any

from .bots import WINDOW_AFTER, WINDOW_BEFORE, Strategy
from .engine.actions import Action, ActionRange, Request
from .engine.game import Game, StopGame
from .engine.legal import legal_actions
from .engine.stepping import THROWAWAY, GameState, stepping_state
from .errors import UsageError

# a playout that ends the game: won or lost counts more than any worth it could leave
_OUTCOME_BONUS = 10**7


class _Horizon:
    """The decider of a playout: the default strategy for every seat, up to the horizon."""

    def __init__(self, policy: Strategy, limit: int) -> None:
        self.policy = policy
        self.limit = limit
        self._answers = policy.answers()

    def decide(self, game: Game, request: Request) -> Action:
        if game.turns_played >= self.limit:
            raise StopGame("horizon")  # Game.play ends quietly on it
        answer = self._answers.get(request.kind)
        return answer(game, request) if answer is not None else self.policy.decide(game, request)

    def refused(self, game: Game, request: Request, action: Action, refusals: list[Any]) -> None:
        raise StopGame("the default strategy was refused")  # score the playout as it stands

    def choose_card(self, game: Game, player: Any) -> str | None:
        return None


class MonteCarlo(Strategy):
    """Looks ahead: plays each legal answer out with random dice and shuffled cards.

    Flat Monte Carlo. Options (`mc:rollouts=16,horizon=6`, the defaults): `rollouts`
    playouts a decision (shared among the candidates, at least 2 each), `horizon`
    player-turns a playout, `amounts` points of an amount's range, `policy` the strategy
    of the playouts, made by `make_policy` from its name (easymoney.strategies.make_strategy:
    the names table stands above this module).
    """

    name = "mc"
    searches = True  # simulate steps the games this seat plays in (see play_stepping)
    OPTIONS = {"rollouts": int, "horizon": int, "amounts": int, "policy": str}

    def __init__(self, make_policy: Callable[[str], Strategy], rollouts: int = 16,
                 horizon: int = 6, amounts: int = 3, policy: str = "cautious") -> None:
        super().__init__()
        if rollouts < 1 or horizon < 1 or amounts < 2:
            raise UsageError(f"strategy mc: rollouts and horizon must be at least 1, amounts at "
                             f"least 2 (got rollouts={rollouts}, horizon={horizon}, "
                             f"amounts={amounts})")
        if policy == "mc" or policy.startswith("mc:"):
            raise UsageError("strategy mc: its playouts need a strategy that does not search")
        self.rollouts, self.horizon, self.amounts = rollouts, horizon, amounts
        self.policy_name, self.make_policy = policy, make_policy
        self.policy = make_policy(policy)
        self.name = "mc" if (rollouts, horizon, amounts, policy) == (16, 6, 3, "cautious") else \
            f"mc:rollouts={rollouts},horizon={horizon},amounts={amounts},policy={policy}"
        self.decisions = 0  # searched decisions and playouts, for the bench
        self.playouts = 0

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries by its options
        return (MonteCarlo, (self.make_policy, self.rollouts, self.horizon, self.amounts,
                             self.policy_name))

    def answers(self) -> dict[str, Any]:
        return {kind: self.decide for kind in self._methods()}

    def decide(self, game: Any, request: Request) -> Action:
        options = self.candidates(game, request)
        if not options:  # nothing it searches over: the default strategy's answer
            return self.policy.decide(game, request)
        if len(options) == 1:
            return options[0]
        state = stepping_state(game)
        if state is None or state.request is not request:
            return self.policy.decide(game, request)  # no stepping copy to play out from
        return self.search(state, options)

    def candidates(self, game: Any, request: Request) -> list[Action]:
        """The answers worth playing out. A window's voluntary mortgages and any offer of a
        deal are left out (a mortgage raises cash the turn does not need; an offer waits on
        the other party); an amount is tried at `amounts` points of its range."""
        window = request.kind in (WINDOW_BEFORE, WINDOW_AFTER)
        kinds: tuple[type[Action], ...] = tuple(
            k for k in request.accepts if issubclass(k, Action) and k.counterparty is None
            and not (window and k.verb == "mortgage"))
        narrowed = copy.copy(request)  # only the kinds it tries are listed (listing costs)
        narrowed.accepts = kinds
        out: list[Action] = []
        for found in legal_actions(game, narrowed):
            kind = found.kind if isinstance(found, ActionRange) else type(found)
            if kind not in kinds:  # an any-moment action: not an answer it plays out
                continue
            if isinstance(found, ActionRange):
                out.extend(self._points(found))
            else:
                out.append(found)
        return out

    def _points(self, found: ActionRange) -> list[Action]:
        least, most, step = found.least, found.most, found.step
        points: list[int] = []
        for k in range(self.amounts):
            n = least + (most - least) * k // (self.amounts - 1)
            n = least + (n - least) // step * step
            if n not in points:
                points.append(n)
        return [found.at(n) for n in points]

    def search(self, state: GameState, options: list[Action]) -> Action:
        game = state.game
        seat = state.request.player.index  # type: ignore[union-attr]
        per = max(2, self.rollouts // len(options))
        # seeded from the game and the step: the same game searches the same way
        seeds = random.Random(f"mc:{game.seed}:{game.turns_played}:{state.steps}")
        playout_seeds = [seeds.getrandbits(64) for _ in range(per)]
        limit = game.turns_played + self.horizon
        best, best_score = options[0], None
        for action in options:
            total = 0
            for playout_seed in playout_seeds:
                total += self.playout(state, action, seat, limit, playout_seed)
            if best_score is None or total > best_score:
                best, best_score = action, total
        self.decisions += 1
        self.playouts += per * len(options)
        return best

    def playout(self, state: GameState, action: Action, seat: int, limit: int, seed: int) -> int:
        """One playout of `action` from a copy of `state`: the seat's score at the horizon."""
        twin = state.clone()
        twin.snapshot_every = THROWAWAY
        game = twin.game
        rng = random.Random(seed)
        rng.shuffle(game.deck)  # the order of the draw pile is not known to the seat
        game.rng.seed(rng.getrandbits(64))  # nor are the dice to come
        game.decider = _Horizon(self.policy, limit)
        twin.push(action)  # listed as legal: the game judges it once more itself
        return score(game, seat)


def score(game: Game, seat: int) -> int:
    """The seat's worth (R28) minus the best other seat's; a game over counts as won or lost."""
    me = game.players[seat]
    mine = 0 if me.bankrupt else game.worth(me)
    others = max((game.worth(p) for p in game.players if p is not me and not p.bankrupt),
                 default=0)
    value = mine - others
    if game.outcome is not None:
        value += _OUTCOME_BONUS if me.name in game.outcome.winners else -_OUTCOME_BONUS
    return value


def play_stepping(game: Game, strategies: Mapping[str, Any], max_turns: int | None) -> GameState:
    """Set up and play `game` through a `GameState`, each request answered by the strategy
    of the player asked, until it ends or `max_turns` player-turns are played: a seat that
    searches copies the game mid-turn, which only a stepping game can do. The state is
    returned: its history replays the game."""
    state = GameState(game)
    while state.request is not None:
        if max_turns is not None and game.turns_played >= max_turns:
            break
        request = state.request
        state.push(strategies[request.player.name].decide(game, request))
    return state


def parse_options(name: str, text: str, kinds: Mapping[str, type]) -> dict[str, Any]:
    """`rollouts=64,horizon=8` -> {'rollouts': 64, 'horizon': 8}, checked against `kinds`."""
    out: dict[str, Any] = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in kinds or not value:
            raise UsageError(f"strategy {name}:{text}: expected KEY=VALUE options separated by "
                             f"commas; {name} takes {', '.join(kinds)}")
        try:
            out[key] = kinds[key](value)
        except ValueError:
            raise UsageError(f"strategy {name}: option {key}={value!r} is not "
                             f"{'a whole number' if kinds[key] is int else 'valid'}") from None
    return out
