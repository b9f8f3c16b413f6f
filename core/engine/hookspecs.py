"""Every hook a rule plugin can implement, in the order a game fires them.

Hooks take the game first. Implementations may accept any subset of a hook's arguments
(pluggy passes them by name); taking them all saves a call on hooks fired every turn.
Unless a hook says "first result", every implementation is called and the non-None
results are collected into a list; a hook that returns None is a notification, and what
its implementations return is not looked at.

The smallest plugin is one function in a module found through the `easymoney.plugins`
entry point (whose name is the plugin's id); everything else a plugin may declare is
optional. docs/plugins.md explains each declaration:

    PLUGIN_ID = "four_sides"          # the id users type (default: the entry point's name)
    RULES = ("R13",)                  # rule ids of docs/rulebook.md it implements
    OPTIONS = {"after_card": {"enum": ["backward", "forward"], "default": "backward"}}
    SPACE_KINDS = {"street": SpaceKind(schema={...}, ownable=True, rent=..., ...)}
    CARD_KINDS = {"take": CardKind(schema={...})}
    EVENTS = {"rent": "{player} pays {owner} ${amount} rent for {space}"}
    ACTIONS = (Mortgage, Redeem)      # the action types it defines, each with its script
                                      # line (GRAMMAR, WORDS, FORMS, __str__)
    STATEMENTS = (SetupOwes, ExpectOwes)  # its setup and expect lines
    END_REASONS = ("bank",)           # the reasons it ends a game with (`expect game over by`)
    REQUIRES = ("streets",)           # plugins that must be on with it
    HOOKSPECS = AuctionHooks          # hooks it declares for other plugins (a class or
                                      # module of @hookspec functions, as pytest_addhooks)
    ESSENTIAL = False                 # built-in rules only: refuses to be switched off

A plugin declares nothing for speed: the engine reads what a hook handles from its
structure. `em_refusals(game, action: HandsOver | Builds)` is asked only about the actions
its annotation selects (easymoney's traits, or action classes), `em_land(game, player,
space: Rented, dice)` only about the kinds of space it selects (`space: OwnKind`: those its
plugin declares). Earlier plugins' REFUSES, REFUSES_AMOUNTS, REFUSES_ASKED, REFUSES_UNLISTED,
LANDS_ON, PASSES, em_apply and em_amount_step still work, with a DeprecationWarning: loading
says them in this form (easymoney.engine.earlier).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .actions import Action, Refusal
    from .game import Game, Player
    from .model import Card, Space, Variant

hookspec = pluggy.HookspecMarker("easymoney")
hookimpl = pluggy.HookimplMarker("easymoney")


# --- checking a variant -----------------------------------------------------------------

@hookspec
def em_check_variant(variant: Variant) -> list[str] | None:
    """Semantic checks of a variant that only this plugin can make.

    Fired by `easymoney check` and every load, after the schema, for enabled plugins.
    Return a list of messages (each names the key or space at fault), or None.
    """


# --- setting up ----------------------------------------------------------------------------

@hookspec
def em_setup(game: Game) -> None:
    """Set up this plugin's part of a new game (deal cash, shuffle, create pots, stash state).

    Fired once, after the core has built the empty state (the Bank holds the variant's
    whole total, players have no cash) and before the script's `setup` lines are applied.
    Implementations run in pluggy's order: the last registered first. The built-in rules
    are registered in the order `easymoney rules` lists them and third-party plugins after
    them, so a third-party plugin sets up before the built-in rules; mark yours
    `@hookimpl(trylast=True)` to run after them (to see the dealt cash, say).
    """


@hookspec
def em_any_moment_actions(game: Game) -> list[type] | None:
    """Action types that may be taken at any decision point, out of turn, besides the
    classes of the rules in play that say `ANY_MOMENT = True` (R16's sale), which need no
    hook: another plugin's type, say.

    Fired once at setup; results are merged into `game.any_moment`.
    """


# --- a turn ------------------------------------------------------------------------------

@hookspec(firstresult=True)
def em_play_turn(game: Game) -> Any:
    """Play one whole player-turn; first result ends the call.

    Fired by the core's game loop while the game is not over. The `turn` plugin
    (R4, R5, R6) implements it and fires, in order:

    1. `em_turn_start(game, player)`
    2. the window before the throw: `game.ask(Request(WINDOW_BEFORE))` until a `Roll`,
       every other answer checked (its own `refusals`, and `em_refusals`) and applied
       (its own `apply`)
    3. the throw (dice from the `Roll`, or from `game.rng`), event `roll`
    4. `em_move(game, player, dice)`: first result; the default moves forward and resolves
       the landing, which fires `em_moved` then `em_land` (and `em_card` for a card)
    5. the window after the landing: `game.ask(Request(WINDOW_AFTER))` until `EndTurn`
    6. `em_turn_end(game, player)`
    """


@hookspec
def em_turn_start(game: Game, player: Player) -> None:
    """A player's turn begins (before the window before the throw)."""


@hookspec(firstresult=True)
def em_move(game: Game, player: Player, dice: tuple[int, int]) -> Any:
    """Move the player's MAN for this throw and resolve where it ends; first result wins.

    The `doubles` plugin (R12) answers for doubles. When no plugin answers, the `turn`
    plugin moves the MAN forward by the total (R6). Return a non-None value when the move
    was handled.
    """


@hookspec
def em_moved(game: Game, player: Player, start: int, steps: int) -> None:
    """The MAN moved from space `start` by `steps` (negative: backward) and stands on its end.

    For what happens on the way: the Bonus Corner (R7), the Red Traffic Light (R8).
    Fired once per move, before `em_land`: every rule is told of every move, built-in or
    not, and does nothing for those that touch none of its spaces (a rule of its own kinds
    of space may keep, from `em_setup`, what it needs to say so at once: the Bonus Corner
    keeps the fewest steps that reach it from each start).
    """


@hookspec(firstresult=True)
def em_land(game: Game, player: Player, space: Space, dice: tuple[int, int]) -> Any:
    """Resolve the landing on `space`; first result wins (return True when handled).

    Implementations answer only for the space kinds and states they own: unowned streets
    (R9), unowned utilities and commercial buildings (R10), owned spaces (R18), legends
    (R15), Give or Take (R14), City Hospital (R15a). Nobody answering means nothing happens.
    An implementation whose `space` is annotated with traits of kinds (`space: Rented`,
    `BoughtOnLanding`, `AuctionedOnLanding`) is called only for those kinds; one whose
    `space` is annotated `OwnKind`, for the kinds its plugin declares (SPACE_KINDS), as
    the built-in rules of legends, Give or Take and the Hospital write it.
    """


@hookspec(firstresult=True)
def em_draw(game: Game, player: Player) -> Card | None:
    """Take the next Give or Take card for `player` (R21); first result wins.

    The decider may name the card (`Ann draws "Take $500"`): see `Decider.choose_card`.
    The card is followed with `em_card` by the caller.
    """


@hookspec(firstresult=True)
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> Any:
    """Follow a drawn card; first result wins. Implementations answer for their card kinds.

    Return "moved" when the card moved the MAN (its landing resolved), True otherwise: R12
    moves the MAN backward after a card that did not move it.
    """


@hookspec
def em_card_done(game: Game, player: Player, card: Card) -> None:
    """A card has been followed: the deck puts it on the discard pile unless it was kept."""


@hookspec
def em_turn_end(game: Game, player: Player) -> None:
    """A player's turn ended (after the window after the landing). `end.max_turns` is judged here."""


# --- actions and decisions -------------------------------------------------------------

@hookspec
def em_refusals(game: Game, action: Action) -> list[Refusal] | None:
    """Veto: the reasons the rules forbid `action` now, as `Refusal`s (rule id, plugin id, words).

    For a rule that judges other rules' actions, by their traits (`window`, `hands_over`,
    `adds_houses`, `raises_money`, `money_fields`); an action's own checks are its class's
    `refusals`, which the engine asks first, then these. Every implementation is asked; all
    refusals are collected. An empty result allows the action. Must not change the game. The annotation
    of `action` says what it judges, and it is asked only about those: traits
    (`WindowAction`, `RaisesMoney`, `Deal`, `HandsOver`, `Builds`, `Priced`, `OffGrid`),
    action classes, a union of them, `ByAnother[...]` (only others than the asked player).
    """


@hookspec
def em_narrow(game: Game, kind: type[Action]) -> dict[str, Any] | None:
    """Optional, for speed: what a rule that crosses actions refuses of every `kind` action
    now by one field's value alone, as `{field: values}`: an action of `kind` whose `field`
    is one of `values` is refused by this rule's `em_refusals`, whatever its other fields.

    A listing then never makes those candidates: a type's own `candidates` skip what
    `game.narrowed(cls, field)` returns, the candidates derived from a class's fields skip
    it by themselves. The refusals stay the judge of everything listed; under the
    invariants check every listing is made again without narrowing, and a difference is a
    PluginError naming this plugin. Every implementation is asked; none: no narrowing. The
    annotation of `kind` (`kind: type[HandsOver]`) says which types it narrows, as
    em_refusals's `action` does. Must not change the game.
    """


@hookspec
def em_offer_rejected(game: Game, player: Player, offer: Action) -> None:
    """`player` rejected `offer`, a deal (an action with a `counterparty`) that
    `offer.player` made them (R22a); every implementation is called.

    Fired once the rejection is kept: `easymoney.engine.deals.rejections(game)` lists every
    deal turned down so far, with the turn and the window it was offered in, and the
    `offers` rule refuses the deal again in that window. The built-in bots do not offer a
    rejected deal to the same player again until that player's cash or holdings change
    (`rejected_unchanged`).
    """


@hookspec(firstresult=True)
def em_money_step(game: Game) -> int | None:
    """The grid of the amounts a person writes (R30: a multiple of the smallest bill); first
    result wins; None: any whole number. Every field annotated `Money` of every action is on
    it: the legal actions offer its amounts in these steps, and the rule that says the grid
    refuses the amounts off it.
    """


@hookspec(firstresult=True)
def em_action_value(game: Game, player: Player, action: Action) -> int | None:
    """What `action` is worth to `player` in dollars, as a bot judges it (how much their R28
    total gains); first result wins; None: the rule has no opinion.

    The built-in strategies judge a range at its two ends only. They take a plugin's window
    or any-moment action in their windows when it is worth more than 0, answer a request
    they do not know with its answer worth the most, raise money (with nothing left to
    mortgage) by the `raises_money` action worth the most even at a loss, and accept a deal
    offered to them (a sale, a loan: `Action.counterparty`) when it is worth more than 0:
    docs/plugins.md, "How the built-in bots use your actions".
    """


# --- money --------------------------------------------------------------------------------

@hookspec(firstresult=True)
def em_round(game: Game, amount: int) -> int | None:
    """Round an amount the game computed (R30); first result wins; None leaves it as it is."""


@hookspec(firstresult=True)
def em_collect(game: Game, debtor: Any, creditor: Any, amount: int, reason: str,
               kind: str) -> int | None:
    """Make `debtor` (a player, the Bank or a pot) pay `amount` to `creditor`; first result wins.

    `reason` is the payment in words, `kind` what it is: "tax", "fine", "rent",
    "purchase", "bid", "card", ... (`easymoney.engine.ledger.PAYMENT_KINDS`; "other" when
    the caller does not say). `debts` (R23, R25, R26) answers for a player who may have to
    raise money or go bankrupt; `bank` (R2, R27) answers for the Bank, which pays what it
    has. Returns what was paid. A house rule may answer first (`tryfirst=True`) for the
    kinds it changes: pay taxes and fines into a pot by calling `game.collect` again with
    the pot as the creditor.
    """


@hookspec
def em_bankrupt(game: Game, player: Player, creditor: Any) -> None:
    """`player` has gone bankrupt (R26) and their estate has been settled. `end` judges R27 here."""


# --- scoring ------------------------------------------------------------------------------

@hookspec(firstresult=True)
def em_worth(game: Game, player: Player) -> int | None:
    """A player's total by R28 (cash plus the value of what they own); first result wins."""


@hookspec
def em_worth_adjustment(game: Game, player: Player) -> int | None:
    """Add to (positive) or take from (negative) a player's R28 total, in whole dollars.

    Every implementation is called and their results are added to `em_worth`'s, so a
    rule's debt to the Bank or its own asset counts without re-implementing R28, and two
    rules adjusting the same player both count. None (or 0): no adjustment. What
    `game.worth` returns, and so the standings, `expect P worth` and the end (R27, R28).
    """


@hookspec(firstresult=True)
def em_space_value(game: Game, space: Space) -> int | None:
    """What an owned space is worth to its owner by R28; first result wins."""
