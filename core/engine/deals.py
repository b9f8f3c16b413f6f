"""Deals between two players: an action that binds another player asks that player first.

A sale names its buyer, a loan its borrower (`Action.counterparty`). Before such an action
is carried out, the game asks the other party an AGREE request, answered by `Accept` or
`Reject`; a script's line states the agreed deal and answers both at once (its decider
says `states_deals`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionRange, Request, request_kind

if TYPE_CHECKING:
    from .game import Game, Player

def _agree_words(r: Request) -> str:
    offer = r.offer
    what = f"{offer.player} offers to {offer.describe()}" if offer is not None else "an offer"
    return f"{r.player} to accept or reject: {what}"


AGREE = request_kind("agree", _agree_words)


@dataclass(slots=True)
class DealAnswer(Action):
    """The other party's answer to an offer: `Accept` (it is carried out) or `Reject`
    (nothing happens). Listed for the asked player of an AGREE request."""

    player: Player
    offer: Action

    def describe(self) -> str:
        return f"{self.verb} {self.offer.player}'s offer to {self.offer.describe()}"

    def __str__(self) -> str:
        return f"{self.player} {self.verb}s"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        if request.kind == AGREE and request.offer is not None:
            yield cls(request.player, request.offer)


class Accept(DealAnswer):
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
