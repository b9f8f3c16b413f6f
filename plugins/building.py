"""Building (R17): the owner of an unmortgaged street adds houses at its price, up to a Subdivision of five.

R17  in a window of their own turn, the owner of an unmortgaged street may add one house at
     a time, each for the street's price B, up to five houses; five houses make a
     Subdivision. Each house comes from the player's supply (R3).
"""

from __future__ import annotations

from easymoney.engine.actions import Build, Refusal, money
from easymoney.engine.hookspecs import hookimpl
from easymoney import words

PLUGIN_ID = "building"
REFUSES = (Build,)
RULES = ("R17",)
ACTIONS = (Build,)
EVENTS = {
    "build": "{player} builds {count:#house} on {space} for {cost:$}: {houses} now",
    "subdivision": "{space} is a Subdivision",
}


@hookimpl
def em_refusals(game, action):
    if type(action) is not Build:
        return None
    p, space, count = action.player, action.space, action.count
    i = space.index
    if space.kind != "street":
        return [Refusal("R17", PLUGIN_ID, f"{space} is not a street: houses are built on streets")]
    if game.owner[i] is not p:
        return [Refusal("R17", PLUGIN_ID, f"{p} does not own {space}")]
    if game.mortgaged[i]:
        return [Refusal("R19", PLUGIN_ID, f"{space} is mortgaged: no house may be added")]
    limit = game.variant.houses_per_street
    if count < 1 or game.houses[i] + count > limit:
        return [Refusal("R17", PLUGIN_ID, f"{space} has {words.count(game.houses[i], 'house')} and a street "
                        f"holds at most {limit}")]
    cost = space.price * count
    if p.cash < cost:
        return [Refusal("R17", PLUGIN_ID, f"{p} has {money(p.cash)} and {words.count(count, 'house')} on "
                        f"{space} cost {money(cost)}")]
    return None


@hookimpl
def em_apply(game, action):
    if type(action) is not Build:
        return None
    p, space, count = action.player, action.space, action.count
    cost = space.price * count
    game.collect(p, game.bank, cost, f"building on {space} (R17)")
    game.add_houses(space, count)
    game.emit("build", player=p.name, space=space.name, count=count, cost=cost,
              houses=game.houses[space.index])
    if game.houses[space.index] == game.variant.houses_per_street:
        game.emit("subdivision", space=space.name)
    return True
