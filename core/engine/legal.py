"""What is legal now: the actions that may answer a request, listed from the rules.

Each action type lists its candidates (`Action.candidates`), less what the rules that
cross actions narrow away (`em_narrow`, `Game.narrowed`); the rules' refusals judge them,
so what is listed and what is allowed are one truth: a listed action is never refused, and
an action that is not listed always is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import EasyMoneyError, PluginError
from .actions import (WINDOW_KINDS, Action, ActionRange, EndTurn, Refusal, Request, Roll, on_grid,
                      with_field)
from .derived import amount_step

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
    refusal (only whether), and each asks only the rules that may refuse (by what their
    annotations select and promise: easymoney.engine.traits)."""
    plans = game.ruleset.listing_plans
    key = (request.accepts, game.any_moment)
    try:
        return plans[key]
    except KeyError:
        pass
    rules = game.ruleset
    test = rules.refused_test
    # a type of a rule that is installed but off lists nothing: its rule refuses it, and
    # its candidates (the plugin's code, its options unset) are never called
    plan = plans[key] = tuple(
        (kind, kind.candidates, test(kind, listed=True), test(kind, asked=True, listed=True),
         test(kind, amounts=True, listed=True), test(kind, amounts=True, asked=True, listed=True))
        for kind in answer_types(game, request) if rules.switched_off(kind) is None)
    return plan


def _plan_of(game: Game, request: Request, kinds: tuple[type[Action], ...]) -> Plan:
    """The part of `request`'s plan for the action types `kinds`, made once."""
    plans = game.ruleset.listing_plans
    key = (request.accepts, game.any_moment, kinds)
    found = plans.get(key)
    if found is None:
        found = plans[key] = tuple(p for p in _plan(game, request) if p[0] in kinds)
    return found  # type: ignore[no-any-return]


def legal_actions(game: Game, request: Request | None = None,
                  player: Player | None = None,
                  kinds: tuple[type[Action], ...] | None = None) -> list[Action | ActionRange]:
    """The actions that may answer `request` (default: what the game waits for) now, in the
    order of the request's action types; amounts as `ActionRange`s.

    For another `player` than the asked one: the any-moment actions they may take while
    the game waits (R16's sale of the Special Exemption card). `kinds`: only the actions
    of these types (what a bot weighs beside its own answers), judged alike.
    """
    request = asked_for = request if request is not None else game.request
    if request is None or game.outcome is not None:
        return []
    if player is not None and player is not request.player:
        plan = _plan_of(game, request, tuple(game.any_moment) if kinds is None else
                        tuple(k for k in kinds if k in game.any_moment))
        request = Request(request.kind, player, (), space=request.space, offer=request.offer)
    else:
        plan = _plan(game, request) if kinds is None else _plan_of(game, request, kinds)
    steps = game.decisions.amount_steps
    asked = request.player if request is game.request else None  # whom the rules see asked
    out: list[Action | ActionRange] = []
    append = out.append
    found: Any  # a plugin's candidate: anything, until it is read
    try:  # one try for the listing: it costs nothing until something raises
        for kind, candidates, refused_other, refused_own, amount_other, amount_own in plan:
            grid = 0  # the type's amount_step, read at its first range
            for found in candidates(game, request):
                if type(found) is kind:
                    refused = refused_own if found.player is asked else refused_other
                    if refused is None or not refused(game, found):
                        append(found)
                    continue
                # else a range: what is none fails here, in this frame (see below)
                template, field = found.template, found.field
                if type(template) is not kind:
                    raise not_its_own(game, kind, found)
                least, most, step = found.least, found.most, found.step
                if not grid:
                    grid = steps.get(kind) or amount_step(game, template, field)
                if grid > step:  # the rules' grid (R30): the amounts on it, judged before a copy
                    step = grid
                    least, most = -(-least // step) * step, most // step * step  # on_grid's
                if least > most:
                    continue
                if template.player is asked:
                    refused, refused_amount = refused_own, amount_own
                else:
                    refused, refused_amount = refused_other, amount_other
                if refused is None:
                    append(found if step == found.step else ActionRange(template, field, least, most, step))
                    continue
                # the template usually carries the least amount already: no copy to judge;
                # at the most, only the rules that may refuse an amount are asked again. A
                # range put on the grid keeps its copies at both ends: a bot valuing its
                # ends makes none again
                if getattr(template, field) != least:
                    template = with_field(template, field, least)
                if step != found.step:
                    found = ActionRange(template, field, least, most, step)
                if refused(game, template) or (
                        most != least and refused_amount is not None
                        and refused_amount(game, found.at_most())):
                    continue
                append(found)
    except Exception as exc:
        # raised in this frame, not in a call: reading the candidate `found` failed, for it
        # is no action nor range (its type's own is checked where that costs no more)
        read = exc.__traceback__ is not None and exc.__traceback__.tb_next is None
        failure = listing_failure(game, kind, exc, found if read else _NONE_YET)
        if failure is exc:
            raise
        raise failure from exc
    if game.ruleset.narrow_audit:
        narrowing_kept(game, asked_for, player, kinds, out)
    return out


def narrowing_kept(game: Game, request: Request | None, player: Player | None,
                   kinds: tuple[type[Action], ...] | None,
                   listed: list[Action | ActionRange]) -> None:
    """Under the invariants check: the listing `listed` made again with no narrowing
    (em_narrow) must be the same. An action it adds was narrowed away although the rules
    allow it: one PluginError naming the plugins that narrow its type and the seed."""
    rules = game.ruleset
    if game in rules.unnarrowed:
        return
    with unnarrowed(game):
        whole = legal_actions(game, request, player, kinds)
    missing = [found for found in whole if found not in listed]
    if not missing:
        return
    found = missing[0]
    kind = found.kind if isinstance(found, ActionRange) else type(found)
    names = rules.hook.selecting("em_narrow", kind)
    raise PluginError(f"plugin{'s' if len(names) > 1 else ''} {', '.join(map(repr, names))} "
                      f"narrow{'' if len(names) > 1 else 's'} away `{found}`, which the rules "
                      f"allow: em_narrow and em_refusals disagree {_where(game)}")


@contextmanager
def unnarrowed(game: Game) -> Iterator[None]:
    """Within: the candidates as their types make them, nothing narrowed away (em_narrow),
    so that what the rules refuse can be told (refused_candidates) and a listing checked."""
    games = game.ruleset.unnarrowed
    if game in games:  # within already
        yield
        return
    games.add(game)
    try:
        yield
    finally:
        games.discard(game)


_NONE_YET = object()  # no candidate listed yet


def _its_own(kind: type[Action], found: Any) -> bool:
    return type(found) is kind or (type(found) is ActionRange and type(found.template) is kind)


def candidates_of(game: Game, kind: type[Action], request: Request) -> list[Action | ActionRange]:
    """`kind`'s candidates for `request`, unjudged: what a bot weighs beside the listing.
    They are the plugin's code: a failure, or a candidate of another type, is one
    PluginError naming the plugin and the type."""
    try:
        found = list(kind.candidates(game, request))
    except Exception as exc:
        failure = listing_failure(game, kind, exc)
        if failure is exc:
            raise
        raise failure from exc
    for one in found:
        if not _its_own(kind, one):
            raise not_its_own(game, kind, one)
    return found


def own_check(game: Game, action: Action) -> None:
    """A listed action about to be taken: its class's own `refusals`, which a listing does
    not ask of the candidates its class writes (they list only what they allow), must allow
    it. Where they refuse it, the plugin's generation and refusals disagree: one PluginError
    naming the plugin, the class and the seed, and nothing is applied."""
    kind = type(action)
    if kind.refusals is Action.refusals:
        return
    refused = list(action.refusals(game))
    if refused:
        raise PluginError(f"plugin {_owner(game, kind)!r} lists `{action}` among the candidates "
                          f"of its action type {kind.__name__}, which its own refusals refuse "
                          f"({refused[0]}): its candidates and its refusals disagree "
                          f"{_where(game)}")


def bound_check(game: Game, request: Request, kind: type[Action], bound: int) -> None:
    """A type left out of a bot's window by its `value_bound`, under the invariants check:
    no legal action of it may be worth more to the asked player. Where one is, the plugin's
    bound and values disagree: one PluginError naming the plugin, the class and the seed."""
    player = request.player
    for found in concrete(legal_actions(game, request, kinds=(kind,))):
        value = found.value(game, player)
        if value is not None and value > bound:
            raise PluginError(f"plugin {_owner(game, kind)!r}: `{found}` is worth {value} to "
                              f"{player.name} by its `value`, more than its class "
                              f"{kind.__name__}'s `value_bound` of {bound}: the bound and the "
                              f"values disagree {_where(game)}")


def _owner(game: Game, kind: type[Action]) -> str:
    return game.ruleset.action_owner.get(kind, kind.__module__)


def _where(game: Game) -> str:
    player = f", {game.current.name}'s turn" if game.current is not None else ""
    return f"(game seed {game.seed}, turn {game.turns_played + 1}{player})"


def not_its_own(game: Game, kind: type[Action], found: object) -> PluginError:
    """A type's `candidates` yielded something else than its own actions."""
    what = type(found).__name__
    if type(found) is ActionRange:
        what = f"ActionRange of {found.kind.__name__}"  # type: ignore[attr-defined]
    what = "None" if found is None else ("an " if what[0] in "AEIOU" else "a ") + what
    name = kind.__name__
    return PluginError(f"plugin {_owner(game, kind)!r} listed {what} among the candidates of "
                       f"its action type {name}, which lists only {name} actions and "
                       f"ActionRanges of them {_where(game)}")


def listing_failure(game: Game, kind: type[Action], exc: Exception,
                    found: Any = _NONE_YET) -> Exception:
    """What a listing raises for `exc`, met with the candidate `found` last listed: itself
    when it is the user's (an EasyMoneyError) or the engine's; one PluginError naming the
    plugin and the type where that candidate is none of the type's own (what a listing
    reads of it failed), or where its `candidates` failed; naming the plugin and the hook
    where a rule's hook failed."""
    if isinstance(exc, EasyMoneyError):
        return exc
    if found is not _NONE_YET and not _its_own(kind, found):
        return not_its_own(game, kind, found)
    where = game.ruleset.blame(exc)[1]
    if where is not None and where != f"{kind.__name__}.candidates":
        return game.plugin_failure(exc)  # a rule's hook, or an action's own check, on the way
    code = getattr(getattr(kind.candidates, "__func__", kind.candidates), "__code__", None)
    tb = exc.__traceback__
    while tb is not None and (code is None or tb.tb_frame.f_code.co_filename != code.co_filename):
        tb = tb.tb_next
    if tb is None:
        return exc
    return PluginError(f"plugin {_owner(game, kind)!r} failed listing the candidates of its "
                       f"action type {kind.__name__}: {type(exc).__name__}: {exc} {_where(game)}")


def refused_candidates(game: Game, request: Request | None = None
                       ) -> list[tuple[Action, list[Refusal]]]:
    """What `request` (default: what the game waits for) would otherwise allow and the rules
    refuse now, each with their refusals: the candidates of its own action types that are
    not listed (a range judged at its least amount on the rules' grid, then at its most),
    so that a person can be told why an answer is missing (R13 refusing a buy leaves only
    the decline). Not the any-moment actions. Changes nothing."""
    request = request if request is not None else game.request
    if request is None or game.outcome is not None:
        return []
    out: list[tuple[Action, list[Refusal]]] = []
    rules = game.ruleset
    for kind in answer_types(game, request)[:len(request.accepts)]:  # the request's own
        if kind in rules.action_owner and kind not in rules.handled:
            continue  # its rule is installed but not in play: nothing this game allows
        with unnarrowed(game):  # what is narrowed away is refused too: said as well
            candidates = candidates_of(game, kind, request)
        for found in candidates:
            judged: list[Action]
            if not isinstance(found, ActionRange):
                judged = [found]
            else:
                least, most = found.least, found.most
                grid = amount_step(game, found.template, found.field)
                if grid > found.step:
                    least, most = on_grid(least, most, grid)
                if least > most:
                    continue  # no amount the rules' grid allows: nothing a rule refused
                judged = [found.at(least), found.at(most)]
            for action in judged:
                refusals = game.refusals(action)
                if refusals:
                    out.append((action, refusals))
                    break
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


def lone_closing(request: Request | None, listing: Sequence[Action | ActionRange]) -> Action | None:
    """The one action of `listing` when it is all that the mover's window (R5) offers and it
    closes the window: a `Roll` whose dice the game throws, or an `EndTurn`; else None.
    A program asked through a listing (an environment, OpenSpiel, a seat's program) would
    have no choice to make: its face takes it without asking (issue 37). A window that
    another action closes (a plugin's), or that offers anything else, is asked."""
    if request is None or request.kind not in WINDOW_KINDS or len(listing) != 1:
        return None
    only = listing[0]
    if type(only) is Roll and only.dice is None or type(only) is EndTurn:
        action: Action = only  # type: ignore[assignment]
        return action if action.player is request.player else None
    return None


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
                out.append(found.at_most())
        else:
            out.append(found)
    return out
