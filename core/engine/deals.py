"""Deals between two players: an action that binds another player asks that player first.

A sale names its buyer, a loan its borrower (`Action.counterparty`). Before such an action
is carried out, the game asks the other party an AGREE request, answered by `Accept` or
`Reject`; a script's line states the agreed deal and answers both at once (its decider
says `states_deals`). The game keeps the deals rejected in the turn under way, by the
question they were offered in (`rejected_offer`): the `offers` rule (R22a) refuses them
there again.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionRange, Answer, Request, request_kind
from .stash import Plain, StashKey
from .values import field_plan

if TYPE_CHECKING:
    from .game import Game, Player

def _agree_words(r: Request) -> str:
    offer = r.offer
    what = f"{offer.player} offers to {offer.describe()}" if offer is not None else "an offer"
    return f"{r.player} to accept or reject: {what}"


AGREE = request_kind("agree", _agree_words)


@dataclass(slots=True)
class DealAnswer(Answer):
    """The other party's answer to an offer: `Accept` (it is carried out) or `Reject`
    (nothing happens). Listed for the asked player of an AGREE request."""

    player: Player
    offer: Action

    def describe(self) -> str:
        return f"{self.verb} {self.offer.player}'s offer to {self.offer.describe()}"

    def __str__(self) -> str:
        return f"{self.player} {self.verb}s"


class Accept(DealAnswer):
    """`Bob accepts`: the asked player agrees to `offer`, which is then carried out (judged
    again first); listed only while the rules allow the offer. An `Action`, as any answer."""

    __slots__ = ()
    verb = "accept"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        # the offer was allowed when it was made; an any-moment deal made while it waits (R16's
        # sale, taking the offerer's cash) may have made it refused, and accepting it then
        # answers nothing (the game judges the offer again once it is accepted)
        offer = request.offer
        if request.kind != AGREE or offer is None:
            return
        made = request.data.get("moments") if request.data is not None else None
        if made != game.decisions.moments:  # a deal was made since: judge the offer again
            refused = game.ruleset.refused_test(type(offer))
            if refused is not None and refused(game, offer):
                return
        yield cls(request.player, offer)


class Reject(DealAnswer):
    """`Bob rejects`: the asked player turns `offer` down; nothing happens, and the rejection
    is kept (`rejections`, `em_offer_rejected`): R22a refuses the deal for the rest of the
    window. An `Action`, as any answer."""

    __slots__ = ()
    verb = "reject"


ANSWERS = (Accept, Reject)


def counterparty(action: Action) -> Any:
    """The player `action` binds, or None."""
    field = type(action).counterparty
    return None if field is None else getattr(action, field, None)


def offer_request(action: Action, other: Player, moments: int = 0) -> Request:
    """The AGREE request of `action` to `other`, made when the game had applied `moments`
    any-moment actions (Decisions.moments): the offer was judged then."""
    return Request(AGREE, other, ANSWERS, offer=action, data={"moments": moments})


# the deals rejected in the turn under way: (its game.turns_played, window -> deal -> the
# rejected offer in words), a window being the kind and the asked player of the request
# the offer was made in; plain values, copied with the game (its dicts, one level each)
_REJECTED = StashKey["tuple[int, dict[tuple[str, int], dict[tuple[Any, ...], str]]]"](
    "deals.rejected", copy=lambda held, memo: (held[0], copy.deepcopy(held[1], memo)))


def deal_of(action: Action) -> tuple[Any, ...]:
    """The deal `action` offers, whatever its amounts: its type's name and its fields but the
    whole numbers, a player or a space by its name (`("Sell", "Ann", "Dover Street", "Bob")`)."""
    kind = type(action)
    plan = field_plan(kind)  # made once per type: R22a asks this of every deal a listing offers
    if plan is None:
        return (kind.__name__, str(action))
    deal: list[Any] = [kind.__name__]  # a loop, not a comprehension (a call): R22a asks it of every deal listed
    for v in plan[0](action):
        if type(v) is not int:
            deal.append(getattr(v, "name", v))
    return tuple(deal)


@dataclass(frozen=True, slots=True)
class Rejection:
    """A deal turned down: who offered what to whom, and when (plain values: names, words,
    the turn's number and the request kind of the window it was offered in)."""

    turn: int          # the turn it was offered in (1 the first: game.turns_played + 1)
    window: str        # the kind of the request it was offered in (`window_before`, ...)
    offerer: str       # the player who offered it
    player: str        # the player who rejected it
    offer: str         # its line (`Ann lends Bob 500`)
    words: str         # its words (`lend $500 to Bob`)
    deal: tuple[Any, ...]  # the deal whatever its amounts (`deal_of`)
    # the cash and the estate (estate_version) of the player who rejected it, then: the
    # bots offer it to them again once either has changed
    state: tuple[int, int]

    def __deepcopy__(self, memo: dict[int, Any]) -> Rejection:
        return self  # plain values only: a copy of the game shares it (a clone copies many)


# every deal rejected in the game: (the deal, who rejected it) -> its last Rejection
_HISTORY = StashKey["dict[tuple[Any, str], Rejection]"]("deals.history")


def _situation(player: Player) -> tuple[int, int]:
    return (player.cash, player.estate_version)


def note_rejected(game: Game, request: Request, offer: Action) -> str:
    """The other party rejected `offer`, made while the game asked `request`: kept for its
    window (R22a) and in the game's rejections, and told to `em_offer_rejected`. Its words
    (`describe()`), made once for the rejection and its event."""
    held = game.stash.get(_REJECTED)
    if held is None or held[0] != game.turns_played:  # a new turn: its windows are new
        held = game.stash[_REJECTED] = (game.turns_played, Plain())
    window = (request.kind, request.player.index)
    deal = deal_of(offer)
    words = offer.describe()
    held[1].setdefault(window, Plain())[deal] = words
    other = counterparty(offer)
    history = game.stash.get(_HISTORY)
    if history is None:
        history = game.stash[_HISTORY] = Plain()
    key = (deal, other.name)
    history.pop(key, None)  # the latest last: the history lists rejections in their order
    history[key] = Rejection(game.turns_played + 1, request.kind, offer.player.name, other.name,
                             str(offer), words, deal, _situation(other))
    game.hook.em_offer_rejected(game, other, offer)
    return words


def rejections(game: Game) -> list[Rejection]:
    """Every deal rejected in the game so far, each (deal, player) by its last rejection,
    oldest first."""
    history = game.stash.get(_HISTORY)
    return [] if history is None else list(history.values())


def any_rejected(game: Game) -> bool:
    """Whether any deal was rejected in the game so far: while none was, no offer is made
    in vain, and a bot asks nothing more of its offers."""
    history = game.stash.get(_HISTORY)
    return bool(history)


def last_rejection(game: Game, action: Action) -> Rejection | None:
    """When the deal `action` makes (at any amount) was last rejected by its other party."""
    history = game.stash.get(_HISTORY)
    other = counterparty(action)
    if history is None or other is None:
        return None
    return history.get((deal_of(action), other.name))


def rejected_unchanged(game: Game, action: Action) -> Rejection | None:
    """The rejection of the deal `action` makes, when the cash and the estate of the player
    who rejected it are as they were then: the bots do not offer it again (docs/plugins.md)."""
    found = last_rejection(game, action)
    if found is None or found.state != _situation(counterparty(action)):
        return None
    return found


def rejected_offer(game: Game, action: Action) -> str | None:
    """The offer of the deal `action` makes (at any price) that its other party rejected in
    the window under way, in words (`sell Dover Street to Bob for $500`), or None."""
    held = game.stash.get(_REJECTED)
    request = game.request
    if held is None or request is None or held[0] != game.turns_played:
        return None
    deals = held[1].get((request.kind, request.player.index))
    return None if deals is None else deals.get(deal_of(action))
