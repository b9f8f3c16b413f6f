"""House rule: a player may pay another for a holiday from that player's rent, for some turns.

`Ann pays Bob 200 for a rent holiday`, in Ann's window: once Bob agrees (a deal, R22a), Ann
pays Bob $200 and owes him no rent (R18) during her next `holiday.turns` turns (default
3). One holiday at a time between two players. Written from docs/plugins.md alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from easymoney import (WINDOW_KINDS, Action, Expectation, Money, Player, PlayerName, Refusal,
                       ScriptContext, StashKey, hookimpl, money)

if TYPE_CHECKING:
    from easymoney import Game

PLUGIN_ID = "holiday"
RULES = ()
OPTIONS = {"turns": {"type": "integer", "minimum": 1, "default": 3,
                     "description": "How many of the payer's turns a rent holiday lasts."}}
EVENTS = {"rent_holiday": "{player} pays {owner} {amount:$} for a rent holiday of "
                          "{turns:#turn}",
          "rent_waived": "{player} owes {owner} no rent: a rent holiday"}
# (payer, owner) -> the payer's turns the holiday still lasts
HOLIDAYS = StashKey["dict[tuple[str, str], int]"]("holiday.holidays")


# (board version, owner, turns) -> the rent expected: the rents read only the board, whose
# version is new at every change of it in any game of the process (docs/plugins.md)
_EXPECTED: dict[tuple[int, int, int], int] = {}


def expected_rent(game: Game, payer: Player, owner: Player, turns: int) -> int:
    """What `payer` would owe `owner` in rent over `turns` turns, landing anywhere alike."""
    key = (game.board_version, owner.index, turns)
    found = _EXPECTED.get(key)
    if found is None:
        total = 0
        for space in owner.spaces:
            rent = game.kinds[space.kind].rent
            if rent is not None and not game.mortgaged[space.index]:
                total += rent(game, space, game.houses[space.index], (3, 4))
        if len(_EXPECTED) > 4096:  # the versions of boards long gone
            _EXPECTED.clear()
        found = _EXPECTED[key] = game.round(Fraction(total * turns, len(game.spaces)))
    return found


@dataclass(slots=True)
class BuyHoliday(Action):
    LINE = "{player} pays {owner} {amount} for a rent holiday"
    ASKED_BY = WINDOW_KINDS
    window = True  # in the payer's own windows (R5)
    counterparty = "owner"  # the owner agrees to the deal or rejects it
    player: Player
    owner: Player
    amount: Money
    verb = "buy a rent holiday"

    def describe(self) -> str:
        return f"pay {self.owner} {money(self.amount)} for a rent holiday"

    def refusals(self, game: Game) -> list[Refusal]:
        payer, owner = self.player, self.owner
        why = ("a rent holiday is bought from another player in the game"
               if owner is payer or owner.bankrupt else
               f"{owner} owns nothing that takes rent" if not owner.spaces else
               f"{payer} has a rent holiday from {owner} already"
               if (payer.name, owner.name) in game.stash.get(HOLIDAYS, {}) else
               "a rent holiday costs a positive amount" if self.amount <= 0 else
               f"{payer} has only {money(payer.cash)}" if self.amount > payer.cash else None)
        return [Refusal("-", PLUGIN_ID, why)] if why else []

    def apply(self, game: Game) -> None:
        turns = game.option("holiday.turns")
        game.stash.setdefault(HOLIDAYS, {})[(self.player.name, self.owner.name)] = turns
        game.emit("rent_holiday", player=self.player.name, owner=self.owner.name,
                  amount=self.amount, turns=turns)
        game.transfer(self.player, self.owner, self.amount, "a rent holiday", "holiday")

    def value(self, game: Game, player: Player) -> int | None:
        # the owner takes cash now over half the rent expected (which may never come); the
        # payer offers only what the owner would take: no offer made to be turned down
        saved = expected_rent(game, self.player, self.owner, game.option("holiday.turns"))
        taken = self.amount - saved // 2
        if player is self.owner:
            return taken
        if player is self.player:
            return saved - self.amount if taken > 0 else None
        return None


@dataclass(frozen=True)
class ExpectHoliday(Expectation):
    """`expect Ann holiday from Bob 2`: the turns Ann's rent holiday from Bob still lasts."""
    LINE = "{player} holiday from {owner} {turns}"
    player: PlayerName
    owner: PlayerName
    turns: int

    def check(self, script: ScriptContext, game: Game) -> str | None:
        key = (script.player(self.player, self).name, script.player(self.owner, self).name)
        left = game.stash.get(HOLIDAYS, {}).get(key, 0)
        return None if left == self.turns else f"the holiday lasts {left} more turns"


@hookimpl(tryfirst=True)  # before `debts`, which would collect the rent
def em_collect(game: Game, debtor: object, creditor: object, amount: int, reason: str,
               kind: str) -> int | None:
    holidays = game.stash.get(HOLIDAYS)
    if kind != "rent" or not holidays or not isinstance(debtor, Player) \
            or not isinstance(creditor, Player) or (debtor.name, creditor.name) not in holidays:
        return None
    game.emit("rent_waived", player=debtor.name, owner=creditor.name)
    return 0


@hookimpl
def em_turn_end(game: Game, player: Player) -> None:
    holidays = game.stash.get(HOLIDAYS)
    for key in [k for k in holidays or () if k[0] == player.name]:
        holidays[key] -= 1
        if holidays[key] <= 0:
            del holidays[key]


ACTIONS = (BuyHoliday,)
STATEMENTS = (ExpectHoliday,)
