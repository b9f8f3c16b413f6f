"""The Special Exemption card (R16): its holder pays no taxes and no traffic fines, and may sell it at any moment.

R16  the holder pays no taxes and no traffic fines (tax spaces, tax cards, the Red Traffic
     Light, the Speed Trap). The holder may sell it to any other player at any moment for
     any agreed price (a multiple of $10, possibly 0). The drawer keeps it (R21); it never
     goes back into the deck, and leaves the game with a bankrupt holder (R26).
     Without this rule the card is not in the deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (Action, ActionRange, CardKind, Expectation, Refusal, ScriptContext, ScriptError,
                       SetupStatement, hookimpl, hookspec, money)

if TYPE_CHECKING:
    from easymoney import Card, Game, Money, Player, PlayerName, Request


@dataclass(slots=True)
class SellExemption(Action):
    """`P sells exemption to Q for MONEY` (R16): at any moment, by its holder."""

    LINE = "{player} sells exemption to {buyer} for {price}"
    ANY_MOMENT = True
    player: Player
    buyer: Player
    price: Money
    verb = "sell the Special Exemption card"
    counterparty = "buyer"  # for an agreed price (R16)

    def describe(self) -> str:
        return f"sell the Special Exemption card to {self.buyer} for {money(self.price)}"

    def refusals(self, game: Game) -> list[Refusal]:
        seller, buyer = self.player, self.buyer
        if not holds(seller):
            return [Refusal("R16", PLUGIN_ID, f"{seller} does not hold the Special Exemption "
                                              f"card")]
        if buyer is seller or buyer.bankrupt:
            return [Refusal("R16", PLUGIN_ID, "the card may be sold only to another player in "
                                              "the game")]
        if self.price < 0 or self.price > buyer.cash:
            return [Refusal("R16", PLUGIN_ID, f"{buyer} has {money(buyer.cash)} and cannot pay "
                            f"{money(self.price)}")]
        return []

    def apply(self, game: Game) -> None:
        seller, buyer = self.player, self.buyer
        card = next(c for c in seller.held if c.kind == "exemption")
        game.transfer(buyer, seller, self.price, "the Special Exemption card (R16)", "sale")
        seller.held.remove(card)
        buyer.held.append(card)
        game.emit("exemption_sold", player=seller.name, buyer=buyer.name, price=self.price)

    def value(self, game: Game, player: Player) -> int | None:
        if player is self.buyer:
            return CARD_VALUE - self.price
        if player is self.player:
            return self.price - CARD_VALUE
        return None

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """At any moment, by the asked player if they hold the card: to each other player,
        for any price the buyer can pay."""
        p = request.player
        if holds(p):
            for buyer in game.players:
                if buyer is not p and not buyer.bankrupt:
                    yield ActionRange(cls(p, buyer, 0), "price", 0, buyer.cash)


# what the card is worth to a bot: about the taxes and fines it saves in a game
CARD_VALUE = 500


class ExemptionHooks:
    """The hook this rule declares: the rules that charge a tax or a fine ask it, and any
    plugin may answer it (a tax holiday), whether or not this rule is on."""

    @staticmethod
    @hookspec(firstresult=True)
    def em_exempt(game: Game, player: Player, charge: str) -> str | None:
        """Is `player` exempt from a charge of this category (`tax`, `traffic_fine`)? First result wins.

        Return the reason in words (R16: "holds the Special Exemption card"), or None.
        """


PLUGIN_ID = "exemption"
HOOKSPECS = ExemptionHooks
RULES = ("R16",)
ACTIONS = (SellExemption,)
CARD_KINDS = {"exemption": CardKind(kept=True, schema={
    "description": "Kept by its drawer: exempts from taxes and traffic fines (R16)."})}
EVENTS = {
    "keep": "{player} keeps the {card} card",
    "exemption_sold": "{player} sells the Special Exemption card to {buyer} for {price:$}",
}
EXEMPT_FROM = ("tax", "traffic_fine")


def holds(player: Player) -> bool:
    for card in player.held:  # a loop, not any(): asked at every listing, of a short list
        if card.kind == "exemption":
            return True
    return False


def holder(game: Game) -> Player | None:
    for player in game.players:
        if holds(player):
            return player
    return None


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> bool | None:
    if card.kind != "exemption":
        return None
    player.held.append(card)
    game.emit("keep", player=player.name, card=card.text)
    return True


@hookimpl
def em_exempt(game: Game, player: Player, charge: str) -> str | None:
    if charge in EXEMPT_FROM and player.held and holds(player):
        return "holds the Special Exemption card (R16)"
    return None


# --- script lines -----------------------------------------------------------------------------

@dataclass(frozen=True)
class SetupExemption(SetupStatement):
    """`setup exemption P`: P starts holding the card (it leaves the deck)."""

    LINE = "exemption {player}"
    player: PlayerName

    def apply(self, script: ScriptContext, game: Game) -> None:
        player = script.player(self.player, self)
        for card in game.deck:
            if card.kind == "exemption":
                game.deck.remove(card)
                player.held.append(card)
                return
        if holder(game) is not None:
            raise ScriptError("the Special Exemption card is already held")
        raise ScriptError("the Special Exemption card is not in play: the rule 'exemption' is off")


@dataclass(frozen=True)
class ExpectExemption(Expectation):
    """`expect exemption P` / `expect exemption nobody` (nobody: it is in the deck)."""

    GRAMMAR = "_EXEMPTION (NAME | _NOBODY)"
    WORDS = ("exemption", "nobody")
    FORMS = ("`expect exemption P`", "`expect exemption nobody`")
    player: str | None = None

    def __str__(self) -> str:
        return f"expect exemption {self.player if self.player is not None else 'nobody'}"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        found = holder(game)
        want = None if self.player is None else script.player(self.player, self)
        if found is want:
            return None
        return (f"the Special Exemption card is held by {found}" if found
                else "nobody holds the Special Exemption card")


STATEMENTS = (SetupExemption, ExpectExemption)
