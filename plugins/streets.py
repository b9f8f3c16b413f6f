"""Buying streets (R9): the lander of an unowned street may buy it at its price, or it goes to auction.

R9  a MAN landing on an unowned street: its player is asked whether to buy it for its
    price B, placing one house on it; they may buy only if R13 and R3 allow it and their
    cash covers B. If they do not buy, the street is auctioned (R11) at once.
"""

from __future__ import annotations

from easymoney.engine.actions import BUY, Buy, Decline, Refusal, Request, money
from easymoney.engine.hookspecs import hookimpl

PLUGIN_ID = "streets"
LANDS_ON = ("street",)
REFUSES = (Buy,)
RULES = ("R9",)
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
SPACE_KINDS = {
    "street": {
        "description": "A yellow street: bought at `price` (B) with one house; each further "
                       "house costs B (R17); `rent` lists the rent for 1..5 houses (R18); "
                       "`mortgage` is M (R19).",
        "properties": {
            "price": MONEY,
            "mortgage": MONEY,
            "rent": {"type": "array", "items": MONEY, "x-per-house": True},
        },
        "required": ["price", "mortgage", "rent"],
        # what a script's `setup P owns SPACE N houses mortgaged` may give a player
        "x-ownable": True, "x-mortgageable": True, "x-builds": True,
    },
}
EVENTS = {
    "buy": "{player} buys {space} for {price:$}",
    "decline": "{player} declines to buy {space}",
}

ACCEPTS = (Buy, Decline)


@hookimpl
def em_land(game, player, space, dice):
    if space.kind != "street" or game.owner[space.index] is not None:
        return None
    action = game.ask(Request(BUY, player, ACCEPTS, space=space))
    if type(action) is Buy:
        game.collect(player, game.bank, space.price, f"buying {space} (R9)")
        game.acquire(player, space)
        game.emit("buy", player=player.name, space=space.name, price=space.price)
    else:
        if "decline" in game.seen:
            game.emit("decline", player=player.name, space=space.name)
        game.hook.em_auction(game, space, player)
    return True


@hookimpl
def em_refusals(game, action):
    if type(action) is not Buy:
        return None
    if action.space.kind != "street" or game.owner[action.space.index] is not None:
        return [Refusal("R9", PLUGIN_ID, f"{action.space} is not an unowned street: only those "
                        f"are bought at their price")]
    if action.player.cash < action.space.price:
        p = action.player
        return [Refusal("R9", PLUGIN_ID, f"{p} has {money(p.cash)} and {action.space} costs "
                        f"{money(action.space.price)}")]
    return None
