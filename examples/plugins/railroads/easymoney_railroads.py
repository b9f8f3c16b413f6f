"""Railroads: a new kind of space, owned and auctioned, whose rent doubles with each railroad its owner has; dividend cards; and loans between players.

Written from docs/plugins.md alone: the built-in rules (R10, R11, R18, R19, R22, R26, R28)
read what the `railroad` kind declares. `Ann lends Bob 500`, in Ann's window, is repaid with
10% interest as a debt (R23, R25) when her next turn starts: `expect Bob owes Ann 550`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from easymoney import (WINDOW_KINDS, Action, Card, CardKind, Expectation, Game, Money, Player,
                       PlayerName, Refusal, ScriptContext, SetupStatement, Space, SpaceKind,
                       StashKey, hookimpl, money)

PLUGIN_ID = "railroads"
OPTIONS = {"doubling": {"type": "boolean", "default": True, "description": "Rent doubles with "
           "each further railroad the owner has; false: every railroad charges its printed rent."}}
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
EVENTS = {"dividend": "{player} owns {count:#railroad}: the dividend is {amount:$}",
          "loan": "{player} lends {borrower} {amount:$}, to be repaid with interest: {due:$}",
          "repaid": "{borrower} repays {player} {due:$}"}
LOANS = StashKey["dict[tuple[str, str], int]"]("railroads.loans")  # (lender, borrower) -> due


def owned_railroads(owner: Player) -> int:
    return sum(space.kind == "railroad" for space in owner.spaces)


def railroad_rent(game: Game, space: Space, houses: int, dice: tuple[int, int]) -> int:
    """The printed rent, doubled for each further railroad the owner has (R18)."""
    owner, rent = game.owner[space.index], int(space.rent)  # a kind's own key, typed here
    if owner is None or not game.option("railroads.doubling", True):
        return rent
    return rent << (owned_railroads(owner) - 1)  # doubled per railroad beyond this one


SPACE_KINDS = {"railroad": SpaceKind(
    schema={"description": "A railroad: auctioned when landed on unowned; its `rent` doubles "
                           "with each further railroad its owner has; `mortgage` is M.",
            "properties": {"rent": MONEY, "mortgage": MONEY}, "required": ["rent", "mortgage"]},
    ownable=True, on_landing="auction", mortgageable=True, rent=railroad_rent, plural="railroads",
    value=lambda game, space, houses: 3 * int(space.rent))}  # R28: as a utility, 3 x its rent
CARD_KINDS = {"dividend": CardKind(schema={
    "description": "The Bank pays the drawer `per_railroad` for each railroad they own.",
    "properties": {"per_railroad": MONEY}, "required": ["per_railroad"]})}


@dataclass(slots=True)
class Lend(Action):
    """`Ann lends Bob 500`, in Ann's window. Its candidates are derived from its fields:
    each other player its refusals allow, any amount up to the lender's cash (R30's grid)."""
    LINE = "{player} lends {borrower} {amount}"  # read by the fields' types, and printed
    ASKED_BY = WINDOW_KINDS
    player: Player
    borrower: Player
    amount: Money
    verb = "lend"
    window = True  # taken in the lender's own windows (R5)
    counterparty = "borrower"  # who is asked to take the loan first

    def describe(self) -> str:
        return f"lend {money(self.amount)} to {self.borrower}"

    def refusals(self, game: Game) -> list[Refusal]:
        lender, borrower = self.player, self.borrower
        why = ("a loan is made to another player in the game"
               if borrower is lender or borrower.bankrupt else
               "a loan is a positive amount" if self.amount <= 0 else
               f"{lender} has only {money(lender.cash)}" if self.amount > lender.cash else
               f"{borrower} has not repaid {lender}'s last loan"
               if owed(game, borrower, lender) else None)
        return [Refusal("-", PLUGIN_ID, why)] if why else []

    def apply(self, game: Game) -> None:
        due = self.due(game)
        game.stash.setdefault(LOANS, {})[(self.player.name, self.borrower.name)] = due
        game.emit("loan", player=self.player.name, borrower=self.borrower.name,
                  amount=self.amount, due=due)
        game.transfer(self.player, self.borrower, self.amount, "a loan (railroads)")

    def due(self, game: Game) -> int:  # what is repaid: 10% interest, rounded as R30 rounds
        return game.round(Fraction(self.amount * 11, 10))

    def value(self, game: Game, player: Player) -> int | None:  # to a bot, in dollars
        due = self.due(game)
        interest = due - self.amount
        if player is self.player:  # the interest, from a borrower worth twice the debt
            return interest if game.worth(self.borrower) >= 2 * due else -self.amount
        if player is self.borrower:  # the loan less the interest, to one short of cash
            return self.amount - interest if player.cash < self.amount else -interest
        return None


def owed(game: Game, borrower: Player, lender: Player) -> int:
    return game.stash.get(LOANS, {}).get((lender.name, borrower.name), 0)


@dataclass(frozen=True)
class SetupOwes(SetupStatement):
    """`setup Bob owes Ann 550`: repaid as Ann's next turn starts."""
    LINE = "{borrower} owes {lender} {amount}"
    borrower: PlayerName
    lender: PlayerName
    amount: Money

    def apply(self, script: ScriptContext, game: Game) -> None:
        borrower, lender = script.player(self.borrower, self), script.player(self.lender, self)
        game.stash.setdefault(LOANS, {})[(lender.name, borrower.name)] = self.amount


@dataclass(frozen=True)
class ExpectOwes(Expectation):
    """`expect Bob owes Ann 550` (0: nothing)."""
    LINE = "{borrower} owes {lender} {amount}"
    borrower: PlayerName
    lender: PlayerName
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        due = owed(game, script.player(self.borrower, self), script.player(self.lender, self))
        return None if due == self.amount else f"{self.borrower} owes {self.lender} {money(due)}"


@hookimpl
def em_turn_start(game: Game, player: Player) -> None:
    loans = game.stash.get(LOANS) or {}
    for (lender, name), due in sorted(loans.items()):
        if lender == player.name:
            del loans[(lender, name)]
            if not game.by_name[name].bankrupt:
                game.emit("repaid", player=lender, borrower=name, due=due)
                game.collect(game.by_name[name], player, due, "repaying a loan (railroads)")


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> bool | None:
    if card.kind != "dividend":
        return None
    count = owned_railroads(player)
    amount = count * card.per_railroad
    game.emit("dividend", player=player.name, count=count, amount=amount)
    if amount:
        game.collect(game.bank, player, amount, f"{card.text} (railroads)")
    return True


ACTIONS = (Lend,)
STATEMENTS = (SetupOwes, ExpectOwes)  # its lines that are no action
