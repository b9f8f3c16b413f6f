"""Invariants: after every event, check that the game's bookkeeping is sound; stop the game at the first breach.

Not a rule of the game: a safety net, on in the test suite and behind `--check-invariants`
(or EASYMONEY_CHECK_INVARIANTS=1). After every event it checks that money is conserved (the
Bank, the players and every pot hold the variant's total), no cash is negative, each
player's houses on the board plus their supply equal their allotment, every owned space
carries a house, no space more houses than a street holds (`houses.per_street`), no
unowned space is mortgaged, the Special Exemption card is in at most one place, and a bankrupt player
owns nothing, holds nothing, never acts or pays again and never receives money (R26). A
breach raises `InvariantViolation`, naming the event that broke it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney.errors import EasyMoneyError
from easymoney import hookimpl
from easymoney.words import count

if TYPE_CHECKING:
    from easymoney import Event, Game

PLUGIN_ID = "invariants"
RULES: tuple[str, ...] = ()
ENV = "EASYMONEY_CHECK_INVARIANTS"


class InvariantViolation(EasyMoneyError):
    """The game's state broke an invariant: a bug in a rule plugin or the engine."""


def violations(game: Game, event: Event | None = None) -> list[str]:
    """Every invariant the game breaks now, in words (empty when sound)."""
    found: list[str] = []
    variant = game.variant
    total = game.total_money()
    if total != variant.bank_total:
        found.append(f"money is not conserved: the Bank, players and pots hold ${total:,}, "
                     f"not ${variant.bank_total:,}")
    for account in [game.bank, *game.players, *game.pots.values()]:
        if account.cash < 0:
            found.append(f"{account} has negative cash ({account.cash})")
    allotment = variant.houses_per_player
    on_board = {p.name: 0 for p in game.players}
    for space in game.spaces:
        owner = game.owner[space.index]
        houses = game.houses[space.index]
        if houses > variant.houses_per_street:
            found.append(f"{space} carries {count(houses, 'house')}, more than a street holds "
                         f"({variant.houses_per_street}, houses.per_street)")
        if owner is None:
            if houses:
                found.append(f"unowned {space} carries {count(houses, 'house')}")
            if game.mortgaged[space.index]:
                found.append(f"unowned {space} is mortgaged")
            continue
        if houses < 1:
            found.append(f"{space} is owned by {owner} but carries no house")
        on_board[owner.name] += houses
        if space not in owner.spaces:
            found.append(f"{space} is owned by {owner} but missing from their holdings")
    for p in game.players:
        if game.ruleset.enabled and "houses" in game.ruleset.enabled and \
                on_board[p.name] + p.houses_left != allotment:
            found.append(f"{p} has {count(on_board[p.name], 'house')} on the board and "
                         f"{p.houses_left} in supply, not {allotment} in all")
        if p.bankrupt and (p.spaces or p.held or p.cash):
            found.append(f"bankrupt {p} still owns or holds something")
    places = [id(c) for c in game.deck] + [id(c) for c in game.discard] + [
        id(c) for p in game.players for c in p.held]
    if len(places) != len(set(places)):
        found.append("a card is in more than one place")
    exemptions = sum(1 for c in [*game.deck, *game.discard, *(c for p in game.players
                                                                for c in p.held)]
                     if c.kind == "exemption")
    if exemptions > sum(1 for c in variant.cards if c.kind == "exemption"):
        found.append("the Special Exemption card is in more than one place")
    if event is not None and event.kind in ("pay", "turn", "roll"):
        names = {p.name for p in game.players if p.bankrupt}
        data = event.data
        if event.kind == "pay":
            # R26: the payment of their last cash is the only one a bankrupt player makes,
            # and they receive nothing after it
            if data.get("payee") in names:
                found.append(f"bankrupt {data['payee']} receives ${data.get('amount', 0):,} "
                             f"from {data.get('payer')} (R26)")
            if data.get("payer") in names and "bankruptcy" not in data.get("reason", ""):
                found.append(f"bankrupt {data['payer']} acts or pays again")
        elif data.get("player") in names:
            found.append(f"bankrupt {data['player']} acts or pays again")
    return found


@hookimpl
def em_setup(game: Game) -> None:
    def check(event: Event) -> None:
        problems = violations(game, event)
        if problems:
            text = game.describe(event) or event.kind
            raise InvariantViolation(f"invariant broken by event '{text}': " + "; ".join(problems))
    game.listen(check)
