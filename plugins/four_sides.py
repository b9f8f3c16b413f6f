"""Four sides (R13): one street per side, and no second house, until a player owns a street on every side.

R13  a player who does not own a street on each of the four sides may not acquire a second
     street on a side where they already own one (by buying, auction or sale), and may not
     build a second house on any street. Corners belong to no side; mortgaged streets count
     as owned; utilities and commercial buildings are outside the rule. Judged at the moment
     of the act. House rule: a variant may switch it off (the description's NOTE).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Builds, HandsOver, Refusal, StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player, Space, Variant


PLUGIN_ID = "four_sides"
RULES = ("R13",)


def _streets_by_side(game: Game, player: Player) -> dict[int, str]:
    sides: dict[int, str] = {}
    for space in player.spaces:
        if game.kinds[space.kind].builds and space.side is not None:
            sides.setdefault(space.side, space.name)
    return sides


def _missing(game: Game, sides: dict[int, str]) -> list[int]:
    return [s for s in sorted(game.variant.sides) if s not in sides]


def _sides_text(numbers: list[int]) -> str:
    words = ", ".join(str(n) for n in numbers)
    return f"side {words}" if len(numbers) == 1 else f"sides {words}"


@hookimpl
def em_check_variant(variant: Variant) -> list[str] | None:
    if not variant.sides:
        return ["board.sides: the four-sides rule (R13) needs the board's sides; "
                "list them or switch the rule off"]
    return None


# player index -> (estate version, streets by side, the sides with none in words or ""):
# a made entry is never changed, so a copy of the game copies the dict and shares them
_CACHE = StashKey["dict[int, tuple[int, dict[int, str], str]]"](
    "four_sides.estates", copy=lambda cache, memo: dict(cache))


def _estate(game: Game, player: Player) -> tuple[int, dict[int, str], str]:
    """(estate version, side -> the name of a street on it, the sides with no street in
    words: "" when there is one on every side), cached until what they own changes."""
    try:
        cache = game.stash[_CACHE]
    except KeyError:
        cache = game.stash[_CACHE] = {}
    known = cache.get(player.index)
    if known is None or known[0] != player.estate_version:
        sides = _streets_by_side(game, player)
        missing = _missing(game, sides)
        known = cache[player.index] = (player.estate_version, sides,
                                 _sides_text(missing) if missing else "")
    return known


def _second_on_side(game: Game, space: Space, player: Player) -> Refusal | None:
    """R13's refusal of `player` acquiring `space`, or None."""
    if space.side is None or not game.kinds[space.kind].builds:
        return None  # outside R13 (looked at first: cheaper than what the player owns)
    _, sides, missing = _estate(game, player)
    if missing and space.side in sides:  # missing: "" once there is a street on every side
        return Refusal("R13", PLUGIN_ID, f"{player} owns {sides[space.side]} on side "
                       f"{space.side} and has no street on {missing}")
    return None


@hookimpl
def em_refusals(game: Game, action: HandsOver | Builds) -> list[Refusal] | None:
    """R13 judges every action that hands a space over or builds, any plugin's too."""
    kind = type(action)
    field = kind.acquires
    if field is not None:  # one space handed over (a purchase, a bid, a sale): the hot path
        refusal = _second_on_side(game, getattr(action, field), getattr(action, kind.acquirer))
        return None if refusal is None else [refusal]
    if kind.adds_houses is not None:
        _, _, missing = _estate(game, action.player)
        if missing:
            return [Refusal("R13", PLUGIN_ID, f"{action.player} has no street on "
                            f"{missing}: no second house until they own a street "
                            f"on every side")]
        return None
    # several spaces change hands (a swap): each judged for its receiver, as they own now
    refusals = [_second_on_side(game, getattr(action, space), getattr(action, receiver))
                for space, receiver in kind.hands_over]
    return [r for r in refusals if r is not None] or None
