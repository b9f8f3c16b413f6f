"""The Give or Take deck (R21): shuffled at setup, drawn from the top, discards reshuffled; and its money cards.

R21  the deck's cards are shuffled at setup. A drawn card is followed and put on a discard
     pile, except a card its drawer keeps (the Special Exemption card, R16). When the draw
     pile is empty the discards are shuffled into a new draw pile.
     Money cards (docs/board.md): `take` receives from the Bank, `pay` pays the Bank or a pot,
     `pay_per_house` pays per house on the board (rounded, R30), `collect_from_each`
     collects from every other player; `tax`/`traffic_fine` charges are waived by R16.
     A card kind whose rule is off is left out of the deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Account, Card, Game, Player

PLUGIN_ID = "deck"
RULES = ("R21",)
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
_FLAGS = {"tax": {"type": "boolean", "default": False},
         "traffic_fine": {"type": "boolean", "default": False}}
CARD_KINDS = {
    "take": {"description": "Receive `amount` from the Bank.",
             "properties": {"amount": MONEY}, "required": ["amount"]},
    "pay": {"description": "Pay `amount` to the Bank, or into a pot (`to: hospital`).",
            "properties": {"amount": MONEY, "to": {"enum": ["bank", "hospital"], "default": "bank"},
                           **_FLAGS},
            "required": ["amount"]},
    "pay_per_house": {"description": "Pay `amount` for each of your houses on the board.",
                      "properties": {"amount": MONEY, **_FLAGS}, "required": ["amount"]},
    "collect_from_each": {"description": "Collect `amount` from every other player.",
                          "properties": {"amount": MONEY}, "required": ["amount"]},
}
EVENTS = {
    "draw": "{player} draws \"{card}\"",
    "reshuffle": "The discards are shuffled into a new draw pile ({cards:#card})",
}


@hookimpl
def em_setup(game: Game) -> None:
    registry = game.ruleset.registry
    kinds: set[str] = set()
    for pid in ("core", *game.ruleset.enabled):
        info = registry.plugins.get(pid)
        if info is not None:
            kinds.update(info.card_kinds)
    game.deck = [card for card in game.variant.cards if card.kind in kinds]
    game.rng.shuffle(game.deck)
    game.discard = []


@hookimpl
def em_draw(game: Game, player: Player) -> Card | None:
    if not game.deck:
        if not game.discard:
            return None
        game.deck, game.discard = game.discard, []
        game.rng.shuffle(game.deck)
        game.emit("reshuffle", cards=len(game.deck))
    wanted = game.choose_card(player)
    deck = game.deck
    if wanted is None:
        card = deck.pop()
    else:
        for k in range(len(deck) - 1, -1, -1):
            if deck[k].text == wanted:
                card = deck.pop(k)
                break
        else:
            raise LookupError(f"no card {wanted!r} in the draw pile")
    return card  # the engine tells of the draw (draw_and_follow)


def _charge(game: Game, player: Player, card: Card, amount: int, payee: Account) -> None:
    kind = "card"
    for category in ("tax", "traffic_fine"):
        if not card.get(category):
            continue
        if kind == "card":
            kind = "tax" if category == "tax" else "fine"
        if game.hook.has("em_exempt"):  # R16's hook, when something answers it
            why = game.hook.em_exempt(game, player, category)
            if why:
                game.emit("exempt", player=player.name, what=f'"{card.text}"', why=why)
                return
    game.collect(player, payee, amount, f'"{card.text}" (R21)', kind)


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> bool | None:
    kind = card.kind
    if kind == "take":
        game.collect(game.bank, player, card.amount, f'"{card.text}" (R21)', "card")
    elif kind == "pay":
        to = card.get("to", "bank")
        payee = game.pots.get(to, game.bank) if to != "bank" else game.bank
        _charge(game, player, card, card.amount, payee)
    elif kind == "pay_per_house":
        houses = sum(game.houses[s.index] for s in player.spaces)
        _charge(game, player, card, game.round(card.amount * houses), game.bank)
    elif kind == "collect_from_each":
        for other in game.players:
            if other is not player and not other.bankrupt and not player.bankrupt:
                game.collect(other, player, card.amount, f'"{card.text}" (R21)', "card")
    else:
        return None
    return True


@hookimpl
def em_card_done(game: Game, player: Player, card: Card) -> None:
    if card not in player.held:
        game.discard.append(card)
