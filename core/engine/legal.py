"""What is legal now: the actions that may answer a request, listed from the rules.

Each action type lists its candidates (`Action.candidates`); the rules' refusals judge
them, so what is listed and what is allowed are one truth: a listed action is never
refused, and an action that is not listed always is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionRange, Request, on_grid, with_field

if TYPE_CHECKING:
    from .game import Game, Player


def answer_types(game: Game, request: Request) -> tuple[type[Action], ...]:
    """The action types that may answer `request`: those it accepts, then the any-moment ones."""
    accepts = request.accepts
    return tuple(accepts) + tuple(t for t in sorted(game.any_moment, key=lambda t: t.__name__)
                                  if t not in accepts)


Test = Callable[["Game", Action], bool]
# (type, its candidates, the refusal test of an action by another player than the asked
# one, of the asked player's own, and of a range's other end by either)
Plan = tuple[tuple[type[Action], Any, Test | None, Test | None, Test | None, Test | None], ...]


def _plan(game: Game, request: Request) -> Plan:
    """What a listing asks of each type that may answer `request`: made once per rule set
    and request's types, for a listing is asked every step. The tests stop at the first
    refusal (only whether), and each asks only the rules that may refuse (by their
    declarations: `REFUSES`, `REFUSES_AMOUNTS`, `REFUSES_ASKED`, `REFUSES_UNLISTED`)."""
    plans = game.ruleset.listing_plans
    key = (request.accepts, game.any_moment)
    try:
        return plans[key]
    except KeyError:
        pass
    test = game.ruleset.refused_test
    plan = plans[key] = tuple(
        (kind, kind.candidates, test(kind, listed=True), test(kind, asked=True, listed=True),
         test(kind, amounts=True, listed=True), test(kind, amounts=True, asked=True, listed=True))
        for kind in answer_types(game, request))
    return plan


def amount_step(game: Game, action: Action, field: str | None = None) -> int:
    """The step of the amounts an action of this kind may carry in `field`: for a `Money`
    field, the grid of the amounts a person writes (R30: the smallest bill, em_money_step);
    asked of the rules once per game and action type."""
    steps = game.decisions.amount_steps
    kind = type(action)
    step = steps.get(kind)
    if step is None:
        grid = 1
        if field is None or field in kind.money_fields:
            found = game.hook.em_money_step(game) if kind.money_fields else None
            grid = 1 if found is None else max(1, int(found))
        earlier = game.hook.em_amount_step(game, action)  # plugins written before Money
        step = steps[kind] = grid if earlier is None else max(grid, int(earlier))
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
    if player is not None and player is not request.player:
        moments = game.any_moment
        plan = tuple(p for p in _plan(game, request) if p[0] in moments)
        request = Request(request.kind, player, (), space=request.space, offer=request.offer)
    else:
        plan = _plan(game, request)
    steps = game.decisions.amount_steps
    asked = request.player if request is game.request else None  # whom the rules see asked
    out: list[Action | ActionRange] = []
    append = out.append
    for kind, candidates, refused_other, refused_own, amount_other, amount_own in plan:
        for found in candidates(game, request):
            if type(found) is not ActionRange:
                refused = refused_own if found.player is asked else refused_other  # type: ignore[union-attr]
                if refused is None or not refused(game, found):  # type: ignore[arg-type]
                    append(found)
                continue
            template, field = found.template, found.field
            least, most, step = found.least, found.most, found.step
            grid = steps.get(type(template)) or amount_step(game, template, field)
            if grid > step:  # the rules' grid (R30): the amounts on it, judged before a copy
                step = grid
                least, most = on_grid(least, most, step)
            if least > most:
                continue
            if template.player is asked:
                refused, refused_amount = refused_own, amount_own
            else:
                refused, refused_amount = refused_other, amount_other
            if refused is not None:
                # the template usually carries the least amount already: no copy to judge;
                # at the most, only the rules that may refuse an amount are asked again
                low = template if getattr(template, field) == least \
                    else with_field(template, field, least)
                if refused(game, low) or (
                        most != least and refused_amount is not None
                        and refused_amount(game, with_field(template, field, most))):
                    continue
            append(found if step == found.step else ActionRange(template, field, least, most, step))
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
