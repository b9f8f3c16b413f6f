"""What of a plugin's own state every player sees: its `SHOWN` facts, per player.

A plugin keeps its state in the stash, where no face of the game looks. It declares what of
it a player sees, in words and as data, once, at module level:

    SHOWN = (Shown("owed", "owes the Bank", owed_to_the_bank, money=True),)

and every face shows it: the board and the prompt's `status` (in words: `owes the Bank
$300`), the state of `play --json`, of a seat's protocol and of the page (as data: each
player's `shown`), and an agent's observation (a number per fact of money or count).
The faces read the facts through easymoney.view (`shown_of`); the engine only checks them
at load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import PluginError
from .actions import money as dollars

if TYPE_CHECKING:
    from .game import Game, Player


@dataclass(frozen=True)
class Shown:
    """One fact of a plugin's state, per player, that every player sees.

    `read(game, player)` gives its value for a player: an `int` (dollars when `money`, else a
    count), a `str`, or None when there is nothing to show for them (it is then left out).
    It must not change the game. An agent's observation has one number per fact that is
    not text, for each seat: dollars scaled by the money in the game, a count by `most`.
    """

    name: str   # its key in the data: a lower-case identifier, unique in its plugin
    label: str  # its words before the value: `owes the Bank` (`owes the Bank $300`)
    read: Callable[[Game, Player], int | str | None]
    money: bool = False     # an amount in dollars, written `$1,100`
    text: bool = False      # words, not a number: shown, but no number of an observation
    most: int = 100         # a count's bound: an observation shows count / most, cut to 1

    def words(self, value: int | str) -> str:
        """`owes the Bank $300`, `holiday turns left 2`, `mood calm`."""
        shown = dollars(value) if self.money and isinstance(value, int) else str(value)
        return f"{self.label} {shown}"


def check_shown(pid: str, origin: str, declared: Any) -> tuple[Shown, ...]:
    """A plugin's `SHOWN`, checked at load: a tuple of `Shown`, each name once."""
    if declared is None:
        return ()
    facts = tuple(declared) if isinstance(declared, (tuple, list)) else None
    if facts is None or not all(isinstance(f, Shown) for f in facts):
        raise PluginError(f"plugin {pid} ({origin}): SHOWN must be a tuple of Shown(name, label, "
                          f"read), found {declared!r}")
    names = [f.name for f in facts]
    for fact in facts:
        if not fact.name.isidentifier() or names.count(fact.name) > 1 or not callable(fact.read):
            raise PluginError(f"plugin {pid} ({origin}): SHOWN fact {fact.name!r} needs a name "
                              f"of its own (an identifier) and a callable read(game, player)")
        if fact.most < 1 or fact.money and fact.text:
            raise PluginError(f"plugin {pid} ({origin}): SHOWN fact {fact.name!r}: `most` is a "
                              f"count of at least 1, and a fact is money or text, not both")
    return facts
