"""Rent (R18): landing on a space another player owns pays its owner the rent.

R18  a street's rent is the entry of its schedule for its number of houses (1 to 5); a
     utility or commercial building pays its printed rent, or a multiple of the dice total
     (rounded, R30). Landing on one's own space costs nothing. A mortgaged space collects
     according to the `mortgage.rent` option (R19): `one_house` the rent for one house (a
     street) or the printed rent (a commercial building); `none` nothing.
"""

from __future__ import annotations

from easymoney.engine.hookspecs import hookimpl

PLUGIN_ID = "rent"
LANDS_ON = ("street", "utility", "commercial")
RULES = ("R18",)
EVENTS = {
    "own_space": "{player} is on their own {space}",
    "no_rent": "{player} pays no rent for {space}: it is mortgaged",
    "rent": None,  # data only (for statistics): the payment itself is the `pay` line
}


def rent_for(game, space, dice):
    """The rent a lander owes for `space` now (0 when nothing is owed)."""
    i = space.index
    kind = space.kind
    if game.mortgaged[i]:
        if game.variant.option("mortgage.rent", "one_house") == "none":
            return 0
        if kind == "street":
            return space.rent[0]
        return space.data.get("rent", 0)
    if kind == "street":
        return space.rent[game.houses[i] - 1]
    per_dice = space.data.get("rent_per_dice")
    if per_dice is not None:
        return game.round(per_dice * (dice[0] + dice[1]))
    return space.rent


@hookimpl
def em_land(game, player, space, dice):
    owner = game.owner[space.index]
    if owner is None:
        return None
    if owner is player:
        if "own_space" in game.seen:
            game.emit("own_space", player=player.name, space=space.name)
        return True
    amount = rent_for(game, space, dice)
    if amount == 0:
        game.emit("no_rent", player=player.name, space=space.name)
    else:
        paid = game.collect(player, owner, amount, f"rent for {space.name} (R18)")
        if "rent" in game.seen:
            game.emit("rent", player=player.name, owner=owner.name, space=space.name,
                      amount=paid)
    return True
