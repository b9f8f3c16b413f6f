"""Railroads: a new kind of space, owned and auctioned, whose rent doubles with each railroad its owner has; and dividend cards.

A house rule written as a third-party plugin, only from docs/plugins.md: it edits nothing
in easymoney. The `railroad` kind declares what it is (ownable, auctioned when landed on
unowned, mortgageable, its rent and its value); the built-in rules of auctions (R10, R11),
rent (R18), mortgages (R19), sales (R22), bankruptcy (R26) and scoring (R28) read that and
handle railroads with no change. The `dividend` card kind is followed here.

    rules:
      railroads: {doubling: true}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import CardKind, SpaceKind, hookimpl

if TYPE_CHECKING:
    from easymoney import Card, Game, Player, Space

PLUGIN_ID = "railroads"
RULES = ()
OPTIONS = {
    "doubling": {"type": "boolean", "default": True,
                 "description": "Rent doubles with each further railroad the owner has; "
                                "false: every railroad charges its printed rent."},
}
MONEY = {"type": "integer", "minimum": 0, "x-money": True}


def owned_railroads(game: Game, owner: Player) -> int:
    return sum(1 for space in owner.spaces if space.kind == "railroad")


def railroad_rent(game: Game, space: Space, houses: int, dice: tuple[int, int]) -> int:
    """The printed rent, doubled for each further railroad the owner has."""
    owner = game.owner[space.index]
    if owner is None or not game.option("railroads.doubling", True):
        return space.rent
    return space.rent * 2 ** (owned_railroads(game, owner) - 1)


def railroad_value(game: Game, space: Space, houses: int) -> int:
    """Scored like a utility: three times its printed rent."""
    return 3 * space.rent


SPACE_KINDS = {
    "railroad": SpaceKind(
        schema={
            "description": "A railroad: auctioned when landed on unowned; its `rent` doubles "
                           "with each further railroad its owner has; `mortgage` is M.",
            "properties": {"rent": MONEY, "mortgage": MONEY},
            "required": ["rent", "mortgage"],
        },
        ownable=True, on_landing="auction", mortgageable=True,
        rent=railroad_rent, value=railroad_value, plural="railroads"),
}
CARD_KINDS = {
    "dividend": CardKind(schema={
        "description": "The Bank pays the drawer `per_railroad` for each railroad they own.",
        "properties": {"per_railroad": MONEY},
        "required": ["per_railroad"],
    }),
}
EVENTS = {"dividend": "{player} owns {railroads}: the dividend is {amount:$}"}


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> bool | None:
    if card.kind != "dividend":
        return None
    count = owned_railroads(game, player)
    amount = count * card.per_railroad
    game.emit("dividend", player=player.name, count=count, amount=amount,
              railroads=f"{count} railroad{'' if count == 1 else 's'}")
    if amount:
        game.collect(game.bank, player, amount, f"{card.text} (railroads)")
    return True
