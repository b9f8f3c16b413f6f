"""Rent (R18): landing on a space another player owns pays its owner the rent.

R18  a street's rent is the entry of its schedule for its number of houses (1 to 5); a
     utility or commercial building pays its printed rent, or a multiple of the dice total
     (rounded, R30). Landing on one's own space costs nothing. A mortgaged space collects
     according to the `mortgage.rent` option (R19): `one_house` the rent for one house (a
     street) or the printed rent (a commercial building); `none` nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Rented, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player, Space


PLUGIN_ID = "rent"
RULES = ("R18",)
EVENTS = {
    "own_space": "{player} is on their own {space}",
    "no_rent": "{player} pays no rent for {space}: it is mortgaged",
    "rent": None,  # data only (for statistics): the payment itself is the `pay` line
}


def rent_for(game: Game, space: Space, dice: tuple[int, int]) -> int:
    """The rent a lander owes for `space` now (0 when nothing is owed): its kind's rent rule."""
    rule = game.kinds[space.kind].rent
    if rule is None:
        return 0
    i = space.index
    if game.mortgaged[i]:
        if game.variant.option("mortgage.rent", "one_house") == "none":
            return 0
        return rule(game, space, 1, dice)  # R19: the rent for one house
    return rule(game, space, game.houses[i], dice)


@hookimpl
def em_land(game: Game, player: Player, space: Rented, dice: tuple[int, int]) -> bool | None:
    """R18: a landing on any kind of space with a rent rule, any plugin's too."""
    owner = game.owner[space.index]
    if owner is None:
        return None
    if owner is player:
        game.emit("own_space", player=player.name, space=space.name)
        return True
    amount = rent_for(game, space, dice)
    if amount == 0:
        game.emit("no_rent", player=player.name, space=space.name)
    else:
        paid = game.collect(player, owner, amount, f"rent for {space.name} (R18)", "rent")
        game.emit("rent", player=player.name, owner=owner.name, space=space.name, amount=paid)
    return True
