"""What is legal now: the actions that may answer a request, listed from the rules.

Each action type lists its candidates (`Action.candidates`); the rules' refusals judge
them, so what is listed and what is allowed are one truth: a listed action is never
refused, and an action that is not listed always is.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import Action, ActionRange, Request

if TYPE_CHECKING:
    from .game import Game, Player


# (accepted types, any-moment types) -> the types that answer, in order: asked every step
_ANSWER_TYPES: dict[tuple[tuple[type, ...], frozenset[type]], tuple[type[Action], ...]] = {}


def answer_types(game: Game, request: Request) -> tuple[type[Action], ...]:
    """The action types that may answer `request`: those it accepts, then the any-moment ones."""
    key = (tuple(request.accepts), game.any_moment)
    found = _ANSWER_TYPES.get(key)
    if found is None:
        accepts = request.accepts
        extra = tuple(t for t in sorted(game.any_moment, key=lambda t: t.__name__)
                      if t not in accepts)
        found = _ANSWER_TYPES[key] = tuple(accepts) + extra
    return found


def amount_step(game: Game, action: Action) -> int:
    """The step of the amounts an action of this kind may carry (R30: the smallest bill),
    asked of the rules once per game and action type."""
    steps = game.decisions.amount_steps
    kind = type(action)
    step = steps.get(kind)
    if step is None:
        found = game.hook.em_amount_step(game, action)
        step = steps[kind] = 1 if found is None else max(1, int(found))
    return step


def legal_actions(game: Game, request: Request | None = None,
                  player: Player | None = None) -> list[Action | ActionRange]:
    """The actions that may answer `request` (default: what the game waits for) now, in the
    order of the request's action types; amounts as `ActionRange`s.

    For another `player` than the asked one: the any-moment actions they may take while
    the game waits (R16's sale of the Special Exemption card).
    """
    request = request if request is not None else game.request
    if request is None or game.outcome is not None:
        return []
    types = answer_types(game, request)
    if player is not None and player is not request.player:
        types = tuple(t for t in types if t in game.any_moment)
        request = Request(request.kind, player, (), space=request.space, offer=request.offer)
    steps = game.decisions.amount_steps
    out: list[Action | ActionRange] = []
    for kind in types:
        # the rules `game.refusals` asks, stopping at the first refusal: only whether
        refused = game.ruleset.refused_test(kind)
        for found in kind.candidates(game, request):
            if type(found) is ActionRange:
                template = found.template
                step = steps.get(type(template)) or amount_step(game, template)
                if step != found.step:
                    found = ActionRange(template, found.field, found.least, found.most,
                                        max(step, found.step))
                least, most = found.least, found.most
                if least > most:
                    continue
                if refused is not None:
                    # the template usually carries the least amount already: no copy to judge
                    low = template if getattr(template, found.field) == least else found.at(least)
                    if refused(game, low) or (most != least and refused(game, found.at(most))):
                        continue
                out.append(found)
            elif refused is None or not refused(game, found):  # type: ignore[arg-type]  # an Action
                out.append(found)
    return out


def is_listed(legal: list[Action | ActionRange], action: Action) -> bool:
    """Whether `action` is one of `legal` (or in one of its ranges)."""
    for found in legal:
        if isinstance(found, ActionRange):
            if type(action) is found.kind:
                amount = getattr(action, found.field, None)
                if isinstance(amount, int) and amount in found and found.at(amount) == action:
                    return True
        elif found == action:
            return True
    return False


def random_action(legal: list[Action | ActionRange], rng: random.Random) -> Action:
    """One of `legal` at random, a range at a random amount of its grid: a random player's
    move, for tests, fuzzing and benches."""
    found = rng.choice(legal)
    if isinstance(found, ActionRange):
        return found.at(rng.choice(found.values()))
    return found


def concrete(legal: list[Action | ActionRange]) -> list[Action]:
    """Each listed action, a range by its least and most amounts: a short list to choose from."""
    out: list[Action] = []
    for found in legal:
        if isinstance(found, ActionRange):
            out.append(found.at(found.least))
            if found.most != found.least:
                out.append(found.at(found.most))
        else:
            out.append(found)
    return out
