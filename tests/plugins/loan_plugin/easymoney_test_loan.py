"""House rule: in their window a player may borrow from the Bank, in $50 steps up to $1,000.

`Ann borrows 500`: the Bank pays Ann $500 and Ann owes it $550 (10% interest), collected
as a debt (R23, R25, R26) when her third turn after the loan starts. One loan at a time.
Written from docs/plugins.md alone. The built-in bots never take it: its value is the
interest it costs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from easymoney import (WINDOW_KINDS, Action, ActionRange, Expectation, Money, Player,
                       PlayerName, Refusal, ScriptContext, StashKey, hookimpl, money)

if TYPE_CHECKING:
    from easymoney import Game, Request

PLUGIN_ID = "loan"
RULES = ()
STEP, MOST, TERM = 50, 1000, 3  # $50 steps up to $1,000, repaid when the 3rd turn starts
EVENTS = {"bank_loan": "{player} borrows {amount:$} from the Bank, to repay {due:$}",
          "bank_loan_repaid": "{player} repays the Bank's loan: {due:$}"}
# borrower's name -> [what is due, the turns still to start before it is collected]
LOANS = StashKey["dict[str, list[int]]"]("loan.loans")


@dataclass(slots=True)
class Borrow(Action):
    LINE = "{player} borrows {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True  # in the borrower's own windows (R5)
    player: Player
    amount: Money
    verb = "borrow"
    value_bound = -(STEP // 10)  # every loan costs its interest: bots need not list them

    def describe(self) -> str:
        return f"borrow {money(self.amount)} from the Bank"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterator[Action | ActionRange]:
        if request.kind in WINDOW_KINDS and request.player.name not in game.stash.get(LOANS, {}):
            most = min(MOST, game.bank.cash // STEP * STEP)
            if most >= STEP:
                yield ActionRange(cls(request.player, STEP), "amount", STEP, most, STEP)

    def refusals(self, game: Game) -> list[Refusal]:
        why = (f"a loan is $50 to $1,000 in $50 steps, not {money(self.amount)}"
               if not (STEP <= self.amount <= MOST and self.amount % STEP == 0) else
               f"{self.player} has not repaid the last loan"
               if self.player.name in game.stash.get(LOANS, {}) else
               f"the Bank has only {money(game.bank.cash)}"
               if self.amount > game.bank.cash else None)
        return [Refusal("-", PLUGIN_ID, why)] if why else []

    def due(self, game: Game) -> int:  # 10% interest, rounded as R30 rounds
        return game.round(Fraction(self.amount * 11, 10))

    def apply(self, game: Game) -> None:
        due = self.due(game)
        game.stash.setdefault(LOANS, {})[self.player.name] = [due, TERM]
        game.emit("bank_loan", player=self.player.name, amount=self.amount, due=due)
        game.transfer(game.bank, self.player, self.amount, "a bank loan", "loan")

    def value(self, game: Game, player: Player) -> int | None:
        # the interest it costs, about 10% (due() rounds it): the built-in bots never borrow
        return -(self.amount // 10) if player is self.player else None


@dataclass(frozen=True)
class ExpectOwesBank(Expectation):
    """`expect Ann owes the bank 550` (0: nothing)."""
    LINE = "{player} owes the bank {amount}"
    player: PlayerName
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        due = game.stash.get(LOANS, {}).get(script.player(self.player, self).name, [0])[0]
        return None if due == self.amount else f"{self.player} owes the Bank {money(due)}"


@hookimpl
def em_turn_start(game: Game, player: Player) -> None:
    loans = game.stash.get(LOANS)
    loan = loans.get(player.name) if loans else None
    if loan is None:
        return
    loan[1] -= 1
    if loan[1] <= 0:
        del loans[player.name]
        game.emit("bank_loan_repaid", player=player.name, due=loan[0])
        game.collect(player, game.bank, loan[0], "repaying a bank loan", "loan")


ACTIONS = (Borrow,)
STATEMENTS = (ExpectOwesBank,)
