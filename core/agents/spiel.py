"""The game of any variant as an OpenSpiel game (`pyspiel`), for OpenSpiel's algorithms.

    import easymoney.agents.spiel as spiel
    game = spiel.game("standard", players=2)         # or pyspiel.load_game("easymoney", {...})
    state = game.new_initial_state()

The dice and the cards are explicit chance nodes: a seat's `Roll` is followed by a chance
node of the 36 throws, and a card draw is a chance node of the distinct cards left in the
draw pile, each as likely as its copies there. The dice are chosen as a script or
`--choose-dice` chooses them (a `GameState` with `choose_dice`, the throw's line with its
dice); a card as a script's `draw` line chooses it (the decider's `choose_card`, answered
here by the chance outcome). The legal actions are the slots of the agents' catalogue
(`Catalogue`), the observation tensor the agents' `Layout`. docs/openspiel.md says more.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..engine.actions import Action, with_field
from ..engine.game import Game, Player
from ..engine.stepping import THROWAWAY, GameState
from ..view import request_view, state_view
from ..errors import UsageError, did_you_mean
from ..strategies import make_strategy
from ..script.table import game_seed, new_game
from .catalogue import Catalogue
from .observe import Layout
from .table import (LONE_WINDOWS, MAX_AMOUNT_STEPS, ActionNotInMask, lone_place, seat_names,
                    slot_number, worth_share)

# a rollout's turns and count: at least one each, at most what a search can spend
MAX_ROLLOUT_TURNS = 1000
MAX_ROLLOUTS = 1000

GAME_NAME = "easymoney"
DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]  # chance outcomes 0..35
MAX_SEATS = 8
LIMIT_RETURNS = ("worth", "zero")

# the game's parameters and their defaults: what pyspiel.load_game takes (docs/openspiel.md)
DEFAULTS: dict[str, Any] = {
    "variant": "standard",   # a built-in name or a YAML file
    "players": 2,            # seats Ann, Bob, Cy, ...
    "enable": "",            # rules switched on, off, and rule options (`end.max_turns=200`):
    "disable": "",           # what --with, --without and --option take, several separated
    "options": "",           # by spaces or commas
    "seed": 0,               # the game's seed (its deck's first order: no draw depends on it)
    "max_turns": 1000,       # player-turns before the game is cut short
    "max_steps": 20000,      # moves (decisions and chance outcomes): max_game_length
    "limit_returns": "worth",  # a game cut short: "worth" (shares of R28's worth) or "zero"
    "amount_steps": 5,       # the catalogue's slots for an amount
    "lone_windows": "skip",  # a window whose one legal move closes it: "skip" (the state
                             # takes it) or "ask" (a decision, as before issue 37)
}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Easy Money (any variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    # every fact is public: the deck's order is chance to come, the dice too
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    # the winners share +1, every other seat gets -1: the sum depends on who won
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS)


class SpielParameterError(UsageError):
    """A bad parameter of the OpenSpiel game: nothing was made."""


@dataclass(slots=True)
class CardDraw(Action):
    """Chance's card for `player`'s draw: the answer to the decider's `choose_card`."""

    player: Player
    card: str = ""

    def __str__(self) -> str:
        return f'{self.player} draws "{self.card}"'


class ChanceState(GameState):
    """A `GameState` whose card draws wait for the caller, as its questions do: the game
    stops at `choose_card` (its `request` is then a `CardDraw` with no card) until
    `push(CardDraw(player, text))` answers it. A draw is a step, so undo and clone replay it."""

    def card_question(self, player: Player) -> Action | None:
        return CardDraw(player)

    def _push(self, action: Action, rng_state: Any) -> None:
        if type(action) is CardDraw:  # its line is the draw event's (`Ann draws "..."`)
            self._steps.append((action, rng_state))
            self._switch(action)
        else:
            super()._push(action, rng_state)

    @property
    def drawing(self) -> bool:
        return type(self.request) is CardDraw


def _words(value: Any, name: str) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    if not isinstance(value, str):
        raise SpielParameterError(f"OpenSpiel parameter {name}: expected text (names separated "
                                  f"by spaces or commas), found {value!r}")
    return value.replace(",", " ").split()


def _whole(value: Any, name: str, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least \
            or most is not None and value > most:
        bound = f"from {least}" if most is None else f"from {least} to {most:,}"
        raise SpielParameterError(f"OpenSpiel parameter {name}: expected a whole number "
                                  f"{bound}, found {value!r}")
    return int(value)


def check_names(params: Mapping[str, Any]) -> None:
    """Each parameter one the game takes, of its default's type (what OpenSpiel checks
    itself, in its own words, before the game sees them)."""
    for name, value in params.items():
        if name not in DEFAULTS:
            raise SpielParameterError(f"OpenSpiel parameter {name!r} is unknown"
                                      f"{did_you_mean(str(name), DEFAULTS)}; the game takes "
                                      f"{', '.join(DEFAULTS)}")
        wanted = type(DEFAULTS[name])
        if wanted is int and (isinstance(value, bool) or not isinstance(value, (int, np.integer))) \
                or wanted is str and not isinstance(value, str):
            what = "a whole number" if wanted is int else "text"
            raise SpielParameterError(f"OpenSpiel parameter {name}: expected {what}, found "
                                      f"{value!r}")


class Spec:
    """The checked parameters of one OpenSpiel game, with its catalogue and layout."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        check_names(params)
        given = {**DEFAULTS, **params}
        variant = given["variant"]
        if not isinstance(variant, str) or not variant:
            raise SpielParameterError(f"OpenSpiel parameter variant: expected a variant's name "
                                      f"or YAML file, found {variant!r}")
        self.variant = variant
        players = _whole(given["players"], "players", 1)
        if players > MAX_SEATS:
            raise SpielParameterError(f"OpenSpiel parameter players: at most {MAX_SEATS}, "
                                      f"found {players}")
        self.seats = seat_names(players)
        self.enable = _words(given["enable"], "enable")
        self.disable = _words(given["disable"], "disable")
        self.options = _words(given["options"], "options")
        try:
            self.seed = game_seed(given["seed"])
        except UsageError as exc:
            raise SpielParameterError(f"OpenSpiel parameter {exc.message}") from None
        self.max_turns = _whole(given["max_turns"], "max_turns", 1)
        self.max_steps = _whole(given["max_steps"], "max_steps", 1)
        self.amount_steps = _whole(given["amount_steps"], "amount_steps", 1, MAX_AMOUNT_STEPS)
        self.limit_returns = given["limit_returns"]
        if self.limit_returns not in LIMIT_RETURNS:
            raise SpielParameterError(f"OpenSpiel parameter limit_returns: 'worth' or 'zero', "
                                      f"found {self.limit_returns!r}")
        if given["lone_windows"] not in LONE_WINDOWS:
            raise SpielParameterError(f"OpenSpiel parameter lone_windows: 'skip' or 'ask', "
                                      f"found {given['lone_windows']!r}")
        self.skips = given["lone_windows"] == "skip"
        self.params = {**DEFAULTS, **{k: int(v) if isinstance(v, np.integer) else v
                                      for k, v in params.items()}}
        # a bad variant, rule, option or seat count fails here; the game at its start is
        # kept, and each new state is its copy (a variant file is read and checked once)
        self.start = self.new_state()
        game = self.start.game
        self.catalogue = Catalogue(game, self.amount_steps)
        self.layout = Layout(game)
        for kind in game.ruleset.handled:
            chance = getattr(kind, "chance", None)
            if chance is not None and chance != "dice":
                raise UsageError(f"OpenSpiel game: {kind.__name__} leaves its {chance!r} "
                                 "to chance, and only a throw's dice have known outcomes")
        self.cards = sorted({c.text for c in game.variant.cards})
        self.card_index = {text: k for k, text in enumerate(self.cards)}

    def fresh(self) -> ChanceState:
        """A new game at its start: a copy of the one kept (no step to replay)."""
        state = self.start.clone()
        assert isinstance(state, ChanceState)
        return state

    def new_state(self) -> ChanceState:
        state = new_game(self.variant, self.seats, self.seed, enable=self.enable,
                         disable=self.disable, options=self.options, choose_dice=True,
                         keep_log=False, snapshot_every=64, state_type=ChanceState)
        assert isinstance(state, ChanceState)
        return state

    def info(self) -> pyspiel.GameInfo:
        return pyspiel.GameInfo(
            num_distinct_actions=self.catalogue.size,
            max_chance_outcomes=len(DICE) + len(self.cards),
            num_players=len(self.seats),
            min_utility=-1.0, max_utility=1.0, utility_sum=None,
            max_game_length=self.max_steps)


class EasyMoneyGame(pyspiel.Game):
    """Easy Money, any variant: `pyspiel.load_game("easymoney", {"variant": ..., ...})`."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = Spec(dict(params or {}))
        super().__init__(GAME_TYPE, spec.info(), spec.params)
        self.spec = spec

    def new_initial_state(self) -> EasyMoneyState:
        return EasyMoneyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise SpielParameterError(f"the OpenSpiel observer takes no parameters, found {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec, recall)


class Play:
    """What an `EasyMoneyState` holds: the stepping game, the throw waiting for its dice,
    the moves taken, the lone windows taken by the state itself (`lone_windows="skip"`:
    after each move, so that the moves replay to it). OpenSpiel copies a state by
    deep-copying this (a `GameState.clone()`) and serialises it by its moves (replayed)."""

    __slots__ = ("spec", "state", "throw", "moves", "skipped", "_listed")

    def __init__(self, spec: Spec, state: ChanceState | None = None) -> None:
        self.spec = spec
        self.throw: Action | None = None   # a Roll chosen, its dice not yet thrown
        self.moves: list[int] = []
        self.skipped = 0                   # the lone windows taken, no moves of the history
        self._listed: Any = None           # (legal listing, catalogue places, mask) now
        if state is None:
            self.state = spec.fresh()
            self._take_lone()
        else:
            self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        twin = Play(self.spec, self.state.clone())  # type: ignore[arg-type]
        twin.throw, twin.moves, twin.skipped = self.throw, list(self.moves), self.skipped
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.spec.params, list(self.moves)))

    # --- where it stands -------------------------------------------------------------------
    @property
    def steps(self) -> int:
        """The game's steps so far: the moves, and the lone windows the state took (which
        count towards `max_steps` as the moves they were, so that a game is cut where it
        would be if they were asked)."""
        return len(self.moves) + self.skipped

    @property
    def cut_short(self) -> bool:
        """The limits of the OpenSpiel game (not the rules'): cut short, returns 0."""
        return self.steps >= self.spec.max_steps or \
            self.state.game.turns_played >= self.spec.max_turns

    def terminal(self) -> bool:
        return self.state.is_over or self.cut_short

    def chance(self) -> bool:
        return self.throw is not None or self.state.drawing

    def player(self) -> int:
        if self.terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance():
            return int(pyspiel.PlayerId.CHANCE)
        return self.state.request.player.index  # type: ignore[union-attr]

    def listed(self) -> Any:
        state = self.state
        legal = state.legal_actions()
        if self._listed is None or self._listed[0] is not legal:
            self._listed = (legal, *self.spec.catalogue.places(legal))
        return self._listed

    def legal(self) -> list[int]:
        marks = self.listed()[2]
        return np.flatnonzero(np.frombuffer(marks, np.int8)).tolist()  # ascending, as OpenSpiel wants

    def outcomes(self) -> list[tuple[int, float]]:
        if self.throw is not None:
            p = 1.0 / len(DICE)
            return [(k, p) for k in range(len(DICE))]
        counts = Counter(card.text for card in self.state.game.deck)
        total = sum(counts.values())
        index = self.spec.card_index
        return sorted((len(DICE) + index[text], n / total) for text, n in counts.items())

    # --- moves -----------------------------------------------------------------------------
    def apply(self, move: int) -> None:
        """One move: a seat's slot, or chance's outcome. Anything else raises
        `ActionNotInMask` and changes nothing."""
        if self.terminal():
            raise ActionNotInMask(f"move {move}: the game is over; no move can be made")
        if self.chance():
            self._apply_chance(move)
        else:
            listed = self.listed()
            entry = self.spec.catalogue.entry(listed[1], move) \
                if isinstance(move, int) and 0 <= move < len(listed[2]) and listed[2][move] \
                else None
            if entry is None:
                raise ActionNotInMask(f"move {move!r} is not legal now: the game waits for "
                                      f"{self.state.request.describe()}; legal moves: "  # type: ignore[union-attr]
                                      f"{', '.join(map(str, self.legal()))}")
            action = self.spec.catalogue.action(entry)
            chance = type(action).chance
            if chance is not None and getattr(action, chance) is None:
                self.throw = action  # a chance node of its dice comes next
            else:
                self.state.push(action, listed=True)
        self.moves.append(move)
        self._take_lone()

    def _take_lone(self) -> None:
        """While a seat is asked a window whose one legal slot closes it (a `Roll`, an
        `EndTurn`: `lone_place`), take it as its move would: a `Roll` becomes the chance node
        of its dice, which is no decision."""
        if not self.spec.skips:
            return
        while not self.terminal() and not self.chance():
            action = lone_place(self.state.request, self.listed()[1])
            if action is None:
                return
            self.skipped += 1
            if type(action).chance is not None:  # a Roll: its dice are chance's
                self.throw = action
            else:
                self.state.push(action, listed=True)

    def _apply_chance(self, move: int) -> None:
        if not any(move == k for k, _ in self.outcomes()):
            raise ActionNotInMask(f"chance outcome {move!r} is not possible now; the outcomes "
                                  f"are {', '.join(str(k) for k, _ in self.outcomes())}")
        if self.throw is not None:
            throw, self.throw = self.throw, None
            self.state.push(with_field(throw, throw.chance, DICE[move]), listed=True)  # type: ignore[arg-type]
        else:
            asked = self.state.request
            self.state.push(CardDraw(asked.player, self.spec.cards[move - len(DICE)]))  # type: ignore[union-attr]

    # --- words -----------------------------------------------------------------------------
    def move_name(self, player: int, move: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if 0 <= move < len(DICE):
                return f"dice {DICE[move][0]} {DICE[move][1]}"
            if 0 <= move - len(DICE) < len(self.spec.cards):
                return f'card "{self.spec.cards[move - len(DICE)]}"'
        elif 0 <= move < self.spec.catalogue.size:
            return self.spec.catalogue.name(move)
        return f"move {move} (none)"

    def returns(self) -> list[float]:
        state = self.state
        seats = self.spec.seats
        if not state.is_over:
            if self.cut_short and self.spec.limit_returns == "worth":
                return shares_of_worth(state.game)
            return [0.0] * len(seats)
        outcome = state.outcome
        winners = outcome.winners if outcome is not None else ()
        return [1.0 / len(winners) if name in winners else -1.0 for name in seats]

    def request(self) -> Any:
        """The request of the observation: the seat's, or the throw's while its dice wait."""
        state = self.state
        return None if state.drawing or state.is_over else state.request

    def text(self) -> str:
        state = self.state
        lines = state.history[-12:]
        if self.cut_short and not state.is_over:
            lines.append(f"(cut short: {self.steps} moves, "
                         f"{state.game.turns_played} turns)")
        elif state.is_over:
            o = state.outcome
            lines.append(f"(over: {o.reason}: {o.detail})" if o else "(over)")
        elif self.throw is not None:
            lines.append(f"(chance: the dice of {self.throw})")
        elif state.drawing:
            lines.append(f"(chance: the card {state.request.player} draws)")  # type: ignore[union-attr]
        else:
            lines.append(f"({state.request.describe()})")  # type: ignore[union-attr]
        return "\n".join(lines)


def shares_of_worth(game: Game) -> list[float]:
    """Each seat's return from its share of the worth (R28) of the seats still in `game`:
    `(n * share - 1) / (n - 1)` for n seats, so that equal shares give 0 to each, all of it
    +1 to its holder, nothing -1/(n - 1); the returns add up to 0. One seat alone: 0."""
    n = len(game.players)
    if n < 2:
        return [0.0] * n
    return [(n * worth_share(game, k) - 1) / (n - 1) for k in range(n)]


def _replayed(params: Mapping[str, Any], moves: list[int]) -> Play:
    """A `Play` of the game `params` after `moves` (a serialised state read back)."""
    play = Play(_spec(params))
    for move in moves:
        play.apply(move)
    return play


_SPECS: dict[str, Spec] = {}


def _spec(params: Mapping[str, Any]) -> Spec:
    key = json.dumps(dict(params), sort_keys=True, default=str)
    if key not in _SPECS:
        _SPECS[key] = Spec(params)
    return _SPECS[key]


class EasyMoneyState(pyspiel.State):
    """One state of the game: OpenSpiel's `State` over a stepping game."""

    def __init__(self, game: EasyMoneyGame) -> None:
        super().__init__(game)
        # made when first asked: OpenSpiel's clone makes a new state and copies this in
        self._play: Play | None = None

    @property
    def play(self) -> Play:
        play = self._play
        if play is None:
            play = self._play = Play(self.get_game().spec)
        return play

    def current_player(self) -> int:
        return self.play.player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.play.outcomes()

    def apply_action(self, action: Any) -> None:
        """OpenSpiel's `apply_action`, with a move that is no whole number (an infinity,
        "abc") the "not legal now" `ActionNotInMask`, as any other move not legal now,
        not pybind's TypeError."""
        if slot_number(action) is None:
            self.play.apply(action)  # raises ActionNotInMask, changing nothing
        super().apply_action(int(action))

    def _apply_action(self, action: int) -> None:
        self.play.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.play.move_name(player, action)

    def is_terminal(self) -> bool:
        return self.play.terminal()

    def returns(self) -> list[float]:
        return self.play.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EasyMoneyState:
        """Every fact is public (perfect information): the only state of the information
        state is this one."""
        return self.clone()

    @property
    def game_state(self) -> GameState:
        """The stepping game (read it; step the OpenSpiel state)."""
        return self.play.state

    def __str__(self) -> str:
        return self.play.text()


class RolloutEvaluator:
    """An evaluator for OpenSpiel's `MCTSBot` on long games: from a leaf, `rollouts` times,
    the game is played on for `turns` player-turns by a built-in strategy at every seat
    (`strategy`, `greedy` unless told; chance drawn from `random_state`), then valued by
    each seat's share of the worth (R28) as `limit_returns="worth"` values a game cut short,
    or by its real returns if it ended first. A random rollout of a game of hundreds of
    turns tells a search nothing; a few turns of sensible play tell it what a move is worth.
    `prior` is uniform, as OpenSpiel's `RandomRolloutEvaluator`'s."""

    def __init__(self, turns: int = 10, rollouts: int = 1, strategy: str = "greedy",
                 random_state: np.random.RandomState | None = None) -> None:
        self.turns = _bounded(turns, "turns", MAX_ROLLOUT_TURNS)
        self.rollouts = _bounded(rollouts, "rollouts", MAX_ROLLOUTS)
        self.strategy = strategy
        make_strategy(strategy)  # an unknown name: one line now, not at the first leaf
        self._bots: dict[str, Any] = {}
        self._rng = random_state if random_state is not None else np.random.RandomState()

    def _bot(self, name: str) -> Any:
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = make_strategy(self.strategy)
        return bot

    def evaluate(self, state: EasyMoneyState) -> np.ndarray:
        total = np.zeros(len(state.play.spec.seats))
        for _ in range(self.rollouts):
            play = state.clone().play
            play.state.snapshot_every = THROWAWAY
            self._play_on(play)
            total += play.returns() if play.terminal() else shares_of_worth(play.state.game)
        return total / self.rollouts

    def _play_on(self, play: Play) -> None:
        steps = play.state
        stop = steps.game.turns_played + self.turns
        # the bots' moves are no slots of `play.moves` (chance's are), yet count towards the
        # game's max_steps as they did
        bots_moved, most = 0, play.spec.max_steps
        rng = self._rng
        while not play.terminal() and steps.game.turns_played < stop \
                and play.steps + bots_moved < most:
            if play.chance():
                outcomes, probs = zip(*play.outcomes())
                play.apply(int(outcomes[rng.choice(len(outcomes), p=probs)]))
                continue
            request = steps.request
            assert request is not None  # not over, not chance: a seat is asked
            action = self._bot(request.player.name).decide(steps.game, request)
            chance = type(action).chance
            if chance is not None and getattr(action, chance) is None:
                play.throw = action  # its dice are chance's, drawn next
            else:
                steps.push(action)
            bots_moved += 1

    def prior(self, state: EasyMoneyState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def _bounded(value: Any, name: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 1 <= value <= most:
        raise SpielParameterError(f"RolloutEvaluator {name}: expected a whole number from 1 "
                                  f"to {most}, found {value!r}")
    return int(value)


class Observer:
    """OpenSpiel's observer: the tensor is the agents' observation vector (docs/agents.md);
    the string the state as JSON (the engine's view). With perfect recall (the information
    state) there is no tensor and the string is every move so far, for the player asked."""

    def __init__(self, spec: Spec, recall: bool) -> None:
        self.spec = spec
        self.recall = recall
        size = 0 if recall else spec.layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EasyMoneyState, player: int) -> None:
        if self.recall:
            return
        play = state.play
        self.tensor[:] = self.spec.layout.vector(play.state.game, player, play.request())

    def string_from(self, state: EasyMoneyState, player: int) -> str:
        play = state.play
        if self.recall:
            return f"p{player}: " + " ".join(map(str, play.moves))
        view = {"me": self.spec.seats[player], "state": state_view(play.state.game),
                "request": request_view(play.request()),
                "chance": "dice" if play.throw is not None else
                          "card" if play.state.drawing else None}
        return json.dumps(view, sort_keys=True)


def register() -> None:
    """Register the game with OpenSpiel under "easymoney" (once; importing this does it)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, EasyMoneyGame)


def game(variant: str = "standard", players: int = 2, **params: Any) -> EasyMoneyGame:
    """The OpenSpiel game of `variant` for `players` seats (any other DEFAULTS parameter
    by name). A bad one raises one EasyMoneyError and makes nothing."""
    register()
    given = {"variant": variant, "players": players, **params}
    check_names(given)  # OpenSpiel's own check would be a SpielError
    made = pyspiel.load_game(GAME_NAME, {k: int(v) if isinstance(v, np.integer) else v
                                         for k, v in given.items()})
    return made  # type: ignore[no-any-return]


register()

__all__ = ["EasyMoneyGame", "EasyMoneyState", "ChanceState", "CardDraw", "DEFAULTS",
           "RolloutEvaluator", "game", "register", "shares_of_worth"]
