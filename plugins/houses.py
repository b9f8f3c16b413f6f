"""The house supply (R3): each player's houses; with none left a player acquires and builds nothing.

R3  each player has the variant's number of houses (16) of their colour; a house marks
    ownership of every space they own and further houses raise a street's rent. A player
    with no house left in their supply can neither acquire anything nor build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Builds, HandsOver, Refusal, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player, Space

PLUGIN_ID = "houses"
RULES = ("R3",)
ESSENTIAL = True


@hookimpl
def em_setup(game: Game) -> None:
    for player in game.players:
        player.houses_left = game.variant.houses_per_player


def _short(player: Player, needed: int, what: str) -> list[Refusal]:
    left = player.houses_left
    have = "no house" if left == 0 else f"only {left} house{'s' if left != 1 else ''}"
    return [Refusal("R3", PLUGIN_ID, f"{player} has {have} left in their supply and {what} "
                    f"needs {needed}")]


# (taker, houses left, needed, space, new) -> the refusal: a listing asks R3 about every
# sale to a player whose supply is empty, and the words are the same each time
_ACQUIRING: dict[tuple[str, int, int, str, bool], Refusal] = {}


def _short_of(key: tuple[str, int, int, str, bool], taker: Player, needed: int,
              space: Space) -> Refusal:
    """R3's refusal of `taker` acquiring `space` (new to the board or not, as `key` says),
    kept under `key`."""
    if len(_ACQUIRING) > 4096:  # many games of many boards: keep it small
        _ACQUIRING.clear()
    found = _ACQUIRING[key] = _short(taker, needed, _acquiring(space, key[4]))[0]
    return found


def _acquiring(space: Space, new: bool) -> str:
    """What a refusal calls acquiring `space`: a new space by its name."""
    return f"{space}" if new else f"taking over {space}"


# board_version -> whether every space owned carries a house (R3's mark): then a player
# with none left is refused every space, new or taken over
_MARKED: dict[int, bool] = {}


@hookimpl
def em_narrow(game: Game, kind: type[HandsOver]) -> dict[str, list[Player]] | None:
    """R3 narrows what hands one space over: nobody with no house left is given a space (a
    listing of sales makes none to them). Exact where every space owned carries a house;
    else (a space taken over with none needs none) nothing is narrowed."""
    field = kind.acquires
    if field is None:  # several spaces change hands (a swap): judged whole
        return None
    broke = []
    for player in game.players:
        if player.houses_left <= 0:
            broke.append(player)
    if not broke:
        return None
    version = game.board_version
    marked = _MARKED.get(version)
    if marked is None:
        if len(_MARKED) > 4096:  # the versions of boards long gone
            _MARKED.clear()
        owner, houses = game.owner, game.houses
        marked = _MARKED[version] = all(houses[i] > 0 for i in range(len(owner))
                                        if owner[i] is not None)
    return {kind.acquirer: broke} if marked else None


@hookimpl
def em_refusals(game: Game, action: HandsOver | Builds) -> list[Refusal] | None:
    """R3 judges every action that hands a space over (one house marks it) or builds."""
    kind = type(action)
    field = kind.acquires
    if field is not None:  # one space handed over (a purchase, a bid, a sale): the hot path
        space = getattr(action, field)
        taker = getattr(action, kind.acquirer)
        i = space.index
        # a new space: one house marks it; else taken over with its houses, in the taker's
        # colour (R22)
        new = game.owner[i] is None
        needed = 1 if new else game.houses[i]
        left = taker.houses_left
        if left < needed:
            key = (taker.name, left, needed, space.name, new)
            try:  # kept: the same words each time (a subscript, cheaper than get())
                return [_ACQUIRING[key]]
            except KeyError:
                return [_short_of(key, taker, needed, space)]
        return None
    added = kind.adds_houses
    if added is not None:
        count = getattr(action, added)
        if action.player.houses_left < count:
            return _short(action.player, count, "building")
        return None
    # several spaces change hands (a swap): each receiver needs houses for all they receive,
    # from their supply as it is now (the houses of what they give are not theirs yet)
    wanted: dict[Player, tuple[int, list[Space]]] = {}
    for space_field, receiver_field in kind.hands_over:
        space, taker = getattr(action, space_field), getattr(action, receiver_field)
        total, spaces = wanted.get(taker, (0, []))
        i = space.index
        wanted[taker] = total + (1 if game.owner[i] is None else game.houses[i]), [*spaces, space]
    return [_short(taker, needed, " and ".join(_acquiring(s, game.owner[s.index] is None)
                                               for s in spaces))[0]
            for taker, (needed, spaces) in wanted.items() if taker.houses_left < needed] or None
