"""Debts (R23), raising money (R25) and bankruptcy (R26).

R23  rent, fines, taxes, card payments and auction bids are debts, paid in full when the
     player's cash covers them.
R25  a player who owes more than their cash must raise the difference by mortgaging and
     selling to other players, at once, out of turn if needed; houses are never sold back.
     The debtor is always asked, even owning nothing (the exemption card may be sold).
R26  a player who cannot pay after mortgaging all they can is bankrupt: the creditor gets
     all their cash, the Bank takes over their spaces (unowned, no houses, unmortgaged).
     From then on they receive nothing and are asked nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from easymoney import (RAISE, Action, Answer, ByAnother, Player, RaisesMoney, Refusal, Request,
                       hookimpl)

if TYPE_CHECKING:
    from easymoney import Account, Game


# the request to raise money (R25) is the engine's (`easymoney.RAISE`): every action with the
# `raises_money` trait answers it, and its words name the ways those actions offer


@dataclass(slots=True)
class GoBankrupt(Answer):
    """`P goes bankrupt` (R26): P's answer to a debt they cannot raise money for."""

    LINE = "{player} goes bankrupt"
    ASKED_BY = (RAISE,)
    player: Player
    verb = "go bankrupt"

    def refusals(self, game: Game) -> list[Refusal]:
        request = game.request
        if request is None or request.kind != RAISE or request.player is not self.player:
            return [Refusal("R26", PLUGIN_ID, f"{self.player} owes nothing that they cannot pay")]
        return []

    def apply(self, game: Game) -> None:
        """Nothing here: the debt procedure that asked carries it out (em_collect)."""



PLUGIN_ID = "debts"
RULES = ("R23", "R25", "R26")
ESSENTIAL = True
ACTIONS = (GoBankrupt,)
EVENTS = {
    "debt": "{player} owes {amount:$} to {creditor} ({reason}) and has {cash:$}: must raise money",
    "card_lost": "The {card} card leaves the game with {player}",
    "bankrupt": "{player} goes bankrupt: {creditor} receives the remaining {cash:$}; "
                "the Bank takes over {spaces}",
}

def raise_accepts(game: Game) -> tuple[type[Action], ...]:
    """What answers a request to raise money: the money-raising action types of every rule
    in play (mortgaging, selling: R25), and going bankrupt."""
    rules = game.ruleset
    return (*(t for t, pid in rules.action_owner.items()
              if t.raises_money and pid in rules.enabled), GoBankrupt)


@hookimpl
def em_collect(game: Game, debtor: Any, creditor: Any, amount: int, reason: str,
               kind: str) -> int | None:
    if type(debtor) is not Player:
        return None
    if amount <= debtor.cash:
        game.transfer(debtor, creditor, amount, reason, kind)
        return amount
    game.emit("debt", player=debtor.name, amount=amount, creditor=creditor.name, reason=reason,
              cash=debtor.cash)
    # always asked, even with nothing to mortgage (R25): the Special Exemption card may be
    # sold at any moment (R16), and such a sale answers too, so that the debt is looked at
    # again; a script writes `P goes bankrupt`, a bot with nothing to sell gives up at once
    request = Request(RAISE, debtor, raise_accepts(game) + tuple(game.any_moment),
                      amount=amount, creditor=creditor)
    while debtor.cash < amount:
        action = game.ask(request)
        if type(action) is GoBankrupt:
            return _bankrupt(game, debtor, creditor)
        game.apply(action)
    game.transfer(debtor, creditor, amount, reason, kind)
    return amount


def _bankrupt(game: Game, player: Player, creditor: Account) -> int:
    cash = player.cash
    game.transfer(player, creditor, cash, f"bankruptcy of {player} (R26)", "bankruptcy")
    spaces = game.owned_by(player)
    for space in spaces:
        game.release(space)
    for card in player.held:  # the Special Exemption card leaves the game (R26)
        game.emit("card_lost", player=player.name, card=card.text)
    player.held.clear()
    player.bankrupt = True
    game.emit("bankrupt", player=player.name, creditor=creditor.name, cash=cash,
              spaces=", ".join(s.name for s in spaces) or "nothing")
    game.hook.em_bankrupt(game, player, creditor)
    return cash


@hookimpl
def em_refusals(game: Game, action: ByAnother[RaisesMoney]) -> list[Refusal] | None:
    """R25: while a player raises money, only they mortgage or sell."""
    request = game.request
    if request is not None and request.kind == RAISE and request.player is not action.player \
            and type(action).raises_money:
        return [Refusal("R25", PLUGIN_ID, f"{request.player} is raising money: only they "
                        f"{action.verb} now")]
    return None
