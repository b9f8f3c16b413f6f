"""Railroads: a new kind of space, owned and auctioned, whose rent doubles with each railroad its owner has; dividend cards; and loans between players.

A house rule written as a third-party plugin, only from docs/plugins.md: it edits nothing
in easymoney. The `railroad` kind declares what it is (ownable, auctioned when landed on
unowned, mortgageable, its rent and its value); the built-in rules of auctions (R10, R11),
rent (R18), mortgages (R19), sales (R22), bankruptcy (R26) and scoring (R28) read that and
handle railroads with no change. The `dividend` card kind is followed here. And a new
action a script can say: `Ann lends Bob 500` in Ann's window (Bob repays it with 10%
interest at the start of Ann's next turn, as a debt: R23, R25), checked by
`expect Bob owes Ann 550` and set up by `setup Bob owes Ann 550`.

    rules:
      railroads: {doubling: true}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from easymoney import (WINDOW_KINDS, Action, ActionRange, CardKind, Expectation, Refusal,
                       ScriptContext, SetupStatement, SpaceKind, StashKey, hookimpl, money)

if TYPE_CHECKING:
    from easymoney import Card, Game, Money, Player, PlayerName, Request, Space

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
    rent: int = space.rent  # a kind's own key: typed here, where the schema says what it is
    if owner is None or not game.option("railroads.doubling", True):
        return rent
    doubling: int = 2 ** (owned_railroads(game, owner) - 1)  # at least 1: the owner has this one
    return rent * doubling


def railroad_value(game: Game, space: Space, houses: int) -> int:
    """Scored like a utility: three times its printed rent."""
    rent: int = space.rent
    return 3 * rent


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
EVENTS = {
    "dividend": "{player} owns {count:#railroad}: the dividend is {amount:$}",
    "loan": "{player} lends {borrower} {amount:$}, to be repaid with interest: {due:$}",
    "repaid": "{borrower} repays {player} {due:$}",
}


# --- loans: an action of this plugin, with its script lines ----------------------------------

@dataclass(slots=True)
class Lend(Action):
    """`Ann lends Bob 500`: in Ann's window; Bob repays 110% at the start of her next turn.

    The class is its script line too: LINE reads `player`, `borrower` and `amount` by
    their types, and prints them back (what --record writes)."""

    LINE = "{player} lends {borrower} {amount}"
    ASKED_BY = WINDOW_KINDS  # the line answers the lender's windows

    player: Player
    borrower: Player
    amount: Money
    verb = "lend"
    window = True  # taken in the lender's own windows (R5); the turn rule accepts it there
    counterparty = "borrower"  # the borrower is asked whether they take the loan

    def describe(self) -> str:
        return f"lend {money(self.amount)} to {self.borrower}"

    def refusals(self, game: Game) -> list[Refusal]:
        lender, borrower = self.player, self.borrower
        if borrower is lender or borrower.bankrupt:
            return [Refusal("-", PLUGIN_ID, "a loan is made to another player in the game")]
        if self.amount <= 0:
            return [Refusal("-", PLUGIN_ID, "a loan is a positive amount")]
        if self.amount > lender.cash:
            return [Refusal("-", PLUGIN_ID, f"{lender} has only {money(lender.cash)}")]
        if owed(game, borrower, lender):
            return [Refusal("-", PLUGIN_ID, f"{borrower} has not repaid {lender}'s last loan")]
        return []

    def apply(self, game: Game) -> None:
        due = due_for(game, self.amount)
        game.stash.setdefault(LOANS, {})[(self.player.name, self.borrower.name)] = due
        game.emit("loan", player=self.player.name, borrower=self.borrower.name,
                  amount=self.amount, due=due)
        game.transfer(self.player, self.borrower, self.amount, "a loan (railroads)")

    def value(self, game: Game, player: Player) -> int | None:
        """The lender earns the interest from a borrower whose worth covers what they will
        owe; a borrower short of cash (less than the loan) gains by having it, one with
        plenty only pays the interest."""
        due = due_for(game, self.amount)
        interest = due - self.amount
        if player is self.player:
            return interest if game.worth(self.borrower) >= 2 * due else -self.amount
        if player is self.borrower:
            return self.amount - interest if player.cash < self.amount else -interest
        return None

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the lender's window: to each other player who owes them nothing, any amount up
        to the lender's cash (on R30's grid: the amount is Money)."""
        if request.kind not in WINDOW_KINDS:
            return
        lender = request.player
        for borrower in game.players:
            if borrower is not lender and not borrower.bankrupt and not owed(game, borrower, lender):
                yield ActionRange(cls(lender, borrower, 1), "amount", 1, lender.cash)


# (lender, borrower) -> what the borrower owes
LOANS = StashKey["dict[tuple[str, str], int]"]("railroads.loans")


def owed(game: Game, borrower: Player, lender: Player) -> int:
    return game.stash.get(LOANS, {}).get((lender.name, borrower.name), 0)


def due_for(game: Game, amount: int) -> int:
    """The loan with 10% interest, rounded as the rules round (R30)."""
    return game.round(Fraction(amount * 11, 10))


@hookimpl
def em_turn_start(game: Game, player: Player) -> None:
    loans = game.stash.get(LOANS)
    if not loans:
        return
    for (lender, borrower_name), due in sorted(loans.items()):
        if lender != player.name:
            continue
        del loans[(lender, borrower_name)]
        borrower = game.by_name[borrower_name]
        if borrower.bankrupt:
            continue
        game.emit("repaid", player=lender, borrower=borrower_name, due=due)
        game.collect(borrower, player, due, "repaying a loan (railroads)")


@dataclass(frozen=True)
class SetupOwes(SetupStatement):
    """`setup Q owes P MONEY`: Q starts owing P that much, repaid at P's next turn."""

    LINE = "{borrower} owes {lender} {amount}"
    FORMS = ("`setup Q owes P MONEY`",)
    borrower: PlayerName
    lender: PlayerName
    amount: Money

    def apply(self, script: ScriptContext, game: Game) -> None:
        borrower = script.player(self.borrower, self)
        lender = script.player(self.lender, self)
        game.stash.setdefault(LOANS, {})[(lender.name, borrower.name)] = self.amount


@dataclass(frozen=True)
class ExpectOwes(Expectation):
    """`expect Q owes P MONEY` (0: nothing)."""

    LINE = "{borrower} owes {lender} {amount}"
    FORMS = ("`expect Q owes P MONEY`",)
    borrower: PlayerName
    lender: PlayerName
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        due = owed(game, script.player(self.borrower, self), script.player(self.lender, self))
        return None if due == self.amount else f"{self.borrower} owes {self.lender} {money(due)}"


ACTIONS = (Lend,)
STATEMENTS = (SetupOwes, ExpectOwes)  # its other lines (its actions' are theirs)


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> bool | None:
    if card.kind != "dividend":
        return None
    count = owned_railroads(game, player)
    amount = count * card.per_railroad
    game.emit("dividend", player=player.name, count=count, amount=amount)
    if amount:
        game.collect(game.bank, player, amount, f"{card.text} (railroads)")
    return True
