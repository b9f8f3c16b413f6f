"""What of a plugin's own state every player sees: its `SHOWN` facts, per player.

A plugin keeps its state in the stash, where no face of the game looks. It declares what of
it a player sees, in words and as data, once, at module level:

    SHOWN = (Shown("owed", "owes the Bank", owed_to_the_bank, money=True),)

and every face shows it: the board and the prompt's `status` (in words: `owes the Bank
$300`), the state of `play --json`, of a seat's protocol and of the page (as data: each
player's `shown`), and an agent's observation (a number per fact of money or count).
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


def shown_declarations(game: Game) -> tuple[tuple[str, Shown], ...]:
    """(plugin id, fact) of every plugin in play that declares `SHOWN`, in the order of the
    rules (made once per rule set)."""
    rules = game.ruleset
    found: tuple[tuple[str, Shown], ...] | None = getattr(rules, "_shown", None)
    if found is None:
        plugins = rules.registry.plugins
        found = tuple((pid, fact) for pid in rules.enabled if pid in plugins
                      for fact in plugins[pid].shown)
        rules._shown = found  # type: ignore[attr-defined]
    return found


def read_shown(game: Game, pid: str, fact: Shown, player: Player) -> int | str | None:
    """The value of `fact` for `player`; a plugin whose `read` fails or gives another type
    is one PluginError naming it and the fact."""
    try:
        value = fact.read(game, player)
    except Exception as exc:
        raise PluginError(f"plugin '{pid}' failed reading its SHOWN fact {fact.name!r} for "
                          f"{player.name}: {type(exc).__name__}: {exc}") from exc
    if value is None:
        return None
    wrong = isinstance(value, bool) or not isinstance(value, (str, int)) or (
        fact.text != isinstance(value, str))
    if wrong:
        expected = "a str" if fact.text else "an int"
        raise PluginError(f"plugin '{pid}': its SHOWN fact {fact.name!r} gave "
                          f"{type(value).__name__} {value!r} for {player.name}; expected "
                          f"{expected} or None")
    return value


def shown_of(game: Game, player: Player) -> list[dict[str, Any]]:
    """The facts `player`'s state shows, as plain values: each its `rule` (plugin id),
    `name`, `label`, `value` and `words`; a fact with nothing to show is left out."""
    out = []
    for pid, fact in shown_declarations(game):
        value = read_shown(game, pid, fact, player)
        if value is not None:
            out.append({"rule": pid, "name": fact.name, "label": fact.label, "value": value,
                        "words": fact.words(value)})
    return out


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
