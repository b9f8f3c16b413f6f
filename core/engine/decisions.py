"""Decisions: asking whoever decides for a player, checking the answer against the rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import RefusedAction
from ..words import second_person
from .actions import Action, Refusal, Request
from .deals import Accept, counterparty, note_rejected, offer_request

if TYPE_CHECKING:
    from .game import Game, Player


class Decider(Protocol):
    """Where the game's questions go: a script, bots, a person, a test. One interface for all."""

    def decide(self, game: Game, request: Request) -> Action:
        """Answer `request` with an action of one of `request.accepts` (or of `game.any_moment`)."""

    def refused(self, game: Game, request: Request, action: Action,
                refusals: list[Refusal]) -> None:
        """The rules refused `action`; the game is unchanged and will ask again (or raise to stop)."""

    def choose_card(self, game: Game, player: Player) -> str | None:
        """The text of the card `player` is about to draw, or None for the top card."""

    # A decider whose answers state agreed deals (a script's line `Ann sells ... to Bob for
    # 500` is the deal both made) sets `states_deals = True`: then the other party of a
    # deal is not asked.


# an action of a type no installed plugin carries out (a plugin that is switched off is
# named by its own refusal, see RuleSet.refusal_check)
NO_RULE = Refusal("-", "-", "no rule in play allows it")
_NONE: list[Refusal] = []  # shared "no refusal" result: never mutated


def refusal_message(action: Action, refusals: list[Refusal], viewer: str | None = None) -> str:
    """`Ann cannot bid on Beacon Street: R13 four_sides: Ann owns ...`; for `viewer` (a
    player's name, a person reading it) in plain words, that player being "you": `You may
    not buy Highland Avenue: R13, you own Dover Street on side 1 and have no street ...`."""
    if viewer is None:
        return f"{action.player} cannot {action.describe()}: " + "; ".join(str(r) for r in refusals)
    reasons = "; ".join(f"{by}, {r.reason}" if (by := r.rule if r.rule != "-" else r.plugin)
                        and by != "-" else r.reason for r in refusals)
    return second_person(f"{action.player} may not {action.describe()}: {reasons}", viewer)


class Decisions:
    """A game's decisions: its decider, the refusal checks, what it waits for.

    The game hands out `ask`, `refusals`, `apply` and `perform` as its own; `game.request`
    is what it waits for while it waits.
    """

    __slots__ = ("game", "decider", "answers", "refusers", "never_refused", "checked",
                 "amount_steps", "moments")

    def __init__(self, game: Game, decider: Decider) -> None:
        self.game = game
        rules = game.ruleset
        self.refusers = rules.refusers  # shared by the games of the rule set
        self.never_refused = rules.never_refused
        self.checked: tuple[Action, list[Refusal]] | None = None
        self.amount_steps: dict[type, int] = {}  # the grid of each type's amounts (legal.amount_step)
        self.moments = 0  # any-moment actions applied: an offer made before may be refused now
        self.answers: dict[Any, Mapping[str, Callable[..., Action]]] | None = None
        self.decider = decider
        self.set_decider(decider)

    def set_decider(self, decider: Decider) -> None:
        """Take the decider's answering functions, when it offers them, so that `ask` calls
        them directly. A decider may have `answers_for(player_name)`: request kind ->
        function(game, request) answering for that player as its `decide` would (None: ask
        `decide`)."""
        self.decider = decider
        self.answers = None
        tables = getattr(decider, "answers_for", None)
        if tables is not None:
            found = {p: tables(p.name) for p in self.game.players}
            if all(t is not None for t in found.values()):
                self.answers = found  # type: ignore[assignment]

    def refusals(self, action: Action) -> list[Refusal]:
        """Why the rules forbid `action` now (empty: allowed). Changes nothing."""
        kind = type(action)
        check = self.refusers.get(kind)
        game = self.game
        if check is None:
            check = game.ruleset.refusal_check(kind)
        found = check(game, action)
        self.checked = (action, found)
        return found

    def apply(self, action: Action) -> None:
        game = self.game
        kind = type(action)
        if kind.apply is Action.apply:  # a class with no effect of its own: nothing applies it
            raise RefusedAction(f"{action.player} cannot {action.describe()}: {NO_RULE.reason}",
                                (NO_RULE,))
        action.apply(game)

    def perform(self, action: Action) -> None:
        """Check then apply; a refused action raises RefusedAction and changes nothing."""
        refusals = self.refusals(action)
        if refusals:
            raise RefusedAction(refusal_message(action, refusals), tuple(refusals))
        self.apply(action)

    def ask(self, request: Request) -> Action:
        """Ask the decider until it gives an allowed answer; any-moment actions are carried out on the way.

        A decider may check its answer with `refusals` before returning it; that verdict
        is reused (deciders do not change the game), so an answer is checked once.
        """
        if request.player.bankrupt:  # R26: a bug in the rule that asks, never the decider's
            raise RuntimeError(f"a rule waits for {request.describe()}, but {request.player} "
                               "is bankrupt, and a bankrupt player is asked nothing (R26)")
        game = self.game
        outer = game.request
        game.request = request
        answers = self.answers
        decider = self.decider
        # no try/finally: an exception out of here ends the game (GameEnded, StopGame or an
        # error), and the request it waited for is then worth keeping
        while True:
            self.checked = None
            if answers is None:
                action = decider.decide(game, request)
            else:
                try:
                    answer = answers[request.player][request.kind]
                except KeyError:
                    answer = decider.decide
                action = answer(game, request)
            kind = type(action)
            if kind in self.never_refused:
                if kind in request.accepts:  # Roll, EndTurn, Pass: the usual answer
                    game.request = outer
                    return action
                refusals = _NONE
            else:
                checked = self.checked
                refusals = (checked[1] if checked is not None and checked[0] is action
                            else self.refusals(action))
            if refusals:
                if kind in request.accepts or kind in game.any_moment:
                    decider.refused(game, request, action, refusals)
                    continue
            elif kind.counterparty is not None and not self.agreed(action, request):
                continue
            if kind in request.accepts:
                game.request = outer
                return action
            if kind in game.any_moment:
                self.apply(action)
                self.moments += 1
            else:
                raise TypeError(f"{action!r} does not answer {request.describe()}")

    def agreed(self, action: Action, request: Request) -> bool:
        """Ask the player `action` binds whether they agree (a deal, R16, R22); True when
        they do and the rules still allow it once they have answered."""
        if getattr(self.decider, "states_deals", False):
            return True
        other = counterparty(action)
        if other is None or other is action.player:
            return True
        game = self.game
        moments = self.moments
        answer = self.ask(offer_request(action, other, moments))
        game.request = request
        if type(answer) is not Accept:
            words = note_rejected(game, request, action)
            game.emit("deal_rejected", player=other.name, offerer=action.player.name,
                      deal=words)
            return False
        if self.moments == moments:  # nothing applied while they answered: judged as before
            return True
        refusals = self.refusals(action)  # an any-moment sale on the way changed things
        if refusals:
            self.decider.refused(game, request, action, refusals)
            return False
        return True
