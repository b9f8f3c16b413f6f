"""Actions players take, the requests that ask for them, and refusals; each action is its script line.

An action class declares the line that says it (`GRAMMAR`, `WORDS`, `FORMS`, `FIELDS`) and
prints it (`__str__`): the parser reads the line into an `ActionLine` of that class
(easymoney.script.ast), which prints through the same `__str__` and resolves to the action
against what the game waits for (`Action.from_line`). The turn's own actions (`Roll`,
`EndTurn`) and its requests (`WINDOW_BEFORE`, `WINDOW_AFTER`) are the core's: every rule
and the script, the bots and the prompt speak of them.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import operator
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import is_control, unquotable
from .derived import derived_candidates
from .lines import LineError, compile_line, money_fields
from .values import IMMUTABLE
# re-exported: defined below the line templates, which use them too
from .values import (ActionRange as ActionRange, on_grid as on_grid, quoted as quoted,
                     with_field as with_field)

if TYPE_CHECKING:
    from .game import Game, Player
    from .model import Space
    from .statements import ScriptContext


def money(amount: int) -> str:
    """`$1,100`: how amounts are written for people."""
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


class LineSyntax:
    """How a class's script line is written, for an action class and a statement class
    alike (docs/plugins.md): `LINE`, a template said once (easymoney.engine.lines), or the
    escape hatch for a line a template cannot say, `GRAMMAR` with `__str__`."""

    __slots__ = ()
    # `{player} lends {borrower} {amount}`: the grammar, words, forms, fields and str() in one
    LINE: ClassVar[str] = ""
    # what is wrong with LINE (the registry refuses the plugin at load, naming the class)
    _LINE_PROBLEM: ClassVar[str | None] = None
    # LINE's words that are values (a Literal field's words, a flag's): kept in the tree
    _KEPT: ClassVar[tuple[str, ...]] = ()
    # LINE's flags: bool fields, true when their word is written
    _FLAGS: ClassVar[tuple[str, ...]] = ()
    # the right-hand side of a lark rule over the language's terminals (NAME, MONEY, INT,
    # STRING, space) and the keywords `_WORD` of the words in WORDS; empty: no line says it
    GRAMMAR: ClassVar[str] = ""
    # the keywords of GRAMMAR, lower case
    WORDS: ClassVar[tuple[str, ...]] = ()
    # how messages list the line (`P bids MONEY`)
    FORMS: ClassVar[tuple[str, ...]] = ()
    # field -> how messages name its value ("a number of houses")
    WHAT: ClassVar[dict[str, str]] = {}
    # the fields the grammar's values give, in order (None: every field but the position);
    # a field an action's line does not give is the request's attribute of that name (a
    # bid's `space`)
    FIELDS: ClassVar[tuple[str, ...] | None] = None
    # a GRAMMAR's absent optional part takes the field's default (an action's does; a
    # statement's is None, as its GRAMMAR always read it)
    _GRAMMAR_DEFAULTS: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        line = cls.__dict__.get("LINE")
        if not line:
            return
        try:
            template = compile_line(cls, line, cls.line_prefix_words())
        except LineError as exc:
            cls._LINE_PROBLEM = str(exc)
            return
        cls.GRAMMAR, cls.WORDS = template.grammar, template.words
        if "FORMS" not in cls.__dict__:  # a class may name its placeholders itself
            cls.FORMS = template.forms
        cls.FIELDS, cls._KEPT, cls._FLAGS = template.fields, template.kept, template.flags
        cls.__str__ = template.printer  # type: ignore[method-assign,assignment]

    @classmethod
    def line_prefix_words(cls) -> str:
        """The words a line of this kind starts with before its own (`expect `)."""
        return ""

    @classmethod
    def template_values(cls, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """A LINE's values as its fields take them: a flag's word is True, its absence False."""
        if not cls._FLAGS:
            return values
        return tuple(value is not None and value is not False if name in cls._FLAGS else value
                     for name, value in zip(cls.line_fields(), values))

    @classmethod
    def line_values(cls, values: list[Any]) -> tuple[Any, ...]:
        """The values of `line_fields()` from the grammar's values, in order (a repeated
        last part is cut): an absent optional part is the field's default where it has one
        (None in a statement's GRAMMAR, `_GRAMMAR_DEFAULTS`)."""
        names = cls.line_fields()
        given = tuple((list(values) + [None] * len(names))[:len(names)])
        if not cls.LINE and not cls._GRAMMAR_DEFAULTS:
            return given
        defaults = _defaults(cls)
        return cls.template_values(tuple(defaults.get(name) if value is None else value
                                         for name, value in zip(names, given)))

    @classmethod
    def line_fields(cls) -> tuple[str, ...]:
        """The fields a line's values give, in order."""
        if cls.FIELDS is not None:
            return cls.FIELDS
        return tuple(f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                     if f.init and not f.kw_only)

    @classmethod
    def check_line(cls, texts: list[str]) -> tuple[int, str] | None:
        """What is wrong with a line's values as written (`texts`, in order), before they
        are read: (the index of the bad one, a message), or None. Nothing by default."""
        return None


# a value, as actions are: never changed once made; not frozen, for a frozen dataclass
# takes four times as long to make, and a listing of the legal actions makes many
@dataclass(slots=True, unsafe_hash=True)
class Refusal:
    """Why the rules forbid an action: the rule id, the plugin that enforces it, and words."""

    rule: str
    plugin: str
    reason: str

    def __str__(self) -> str:
        """`R13 four_sides: ...`; a house rule with no rule id of the rule book (`-`, or its
        plugin id again) prints `loans: ...`, and a refusal by no rule its reason alone."""
        by = " ".join(dict.fromkeys(n for n in (self.rule, self.plugin) if n and n != "-"))
        return f"{by}: {self.reason}" if by else self.reason


class Action(LineSyntax):
    """Base of everything a player can do. `player` is the actor.

    Actions are values: once made, never changed (they are not frozen dataclasses only
    because a frozen dataclass takes three times as long to make, and bots make millions).
    """

    __slots__ = ()
    player: Player
    verb = "act"
    # taken in the mover's own windows, before the throw or after the landing (R5)
    window: ClassVar[bool] = False
    # may answer a request to raise money (R25)
    raises_money: ClassVar[bool] = False
    # the field naming another player the action binds (a sale's buyer): that player is
    # asked to agree first, unless the decider states agreed deals (a script's line does)
    counterparty: ClassVar[str | None] = None
    # the field the game fills by chance when it is left None (a throw's dice): a table
    # chooses it only where chance is chosen (scripts, `--choose-dice`)
    chance: ClassVar[str | None] = None
    # the event that tells what chance gave, under the field's name (`roll`: its dice)
    chance_event: ClassVar[str | None] = None
    # it closes the mover's last window: the turn is over (a script may leave it unwritten)
    ends_turn: ClassVar[bool] = False
    # traits the cross-cutting rules read (R13 four sides, R3 the house supply), so that a
    # plugin's action gets them with no line of theirs: every space that changes hands and
    # to whom, as (the field naming the space, the field naming who gets it) pairs; a swap
    # declares two, `(("gives", "other"), ("gets", "player"))`
    hands_over: ClassVar[tuple[tuple[str, str], ...]] = ()
    # the one-pair case said shortly: the field naming the one space the action hands over
    # and the field naming who gets it (derived from `hands_over` when it holds one pair;
    # None when it holds several, so that a rule reading `acquires` judges no space wrongly)
    acquires: ClassVar[str | None] = None
    acquirer: ClassVar[str] = "player"
    # the field holding how many houses it adds from the actor's supply (building)
    adds_houses: ClassVar[str | None] = None
    # the fields annotated `Money`: amounts a person writes (R30 judges them), derived
    money_fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.money_fields = money_fields(cls)
        if "hands_over" in cls.__dict__:  # the general trait said: the shorthand follows it
            one = cls.hands_over[0] if len(cls.hands_over) == 1 else (None, "player")
            cls.acquires, cls.acquirer = one
        elif "acquires" in cls.__dict__ or "acquirer" in cls.__dict__:  # the shorthand said
            field = cls.acquires
            cls.hands_over = () if field is None else ((field, cls.acquirer),)
        if cls.raises_money and cls.ASKED_BY is not None and RAISE not in cls.ASKED_BY:
            # the trait alone makes its line answer a debt (R25), as the bots already take it
            cls.ASKED_BY = (*cls.ASKED_BY, RAISE)

    def describe(self) -> str:
        """`bid on Beacon Street`: used in 'Ann cannot bid on Beacon Street: ...', and as
        the label of its control at the page. An override may take the game,
        `describe(self, game=None)`, to show a computed amount (`repay Bob $550`): the
        engine passes it wherever it has one (`described`), and `describe(self)` keeps
        working. The page says the words in the second person to the player they name
        (`buy Dover Street` is the button **Buy Dover Street**; `sell to Bob` reads `sell
        to you` on Bob's page): write them in the third person, naming players by name."""
        return self.verb

    # --- the action's own rule: its checks, its effect, its value to a bot ---------------
    # A class that defines them keeps its whole story in one place; the rules that cross
    # actions (whose turn it is, four sides, the house supply, debts, rounding) judge it
    # too, by its traits, through em_refusals. A class that leaves `refusals` or `value`
    # out is judged and valued by the rules' hooks only (em_refusals, em_action_value).

    def refusals(self, game: Game) -> Iterable[Refusal]:
        """Why the action's own rule forbids it now, as Refusals (its rule id, its plugin
        id, words); empty: allowed. Must not change the game. The candidates of the class
        list only what these allow (the invariants check holds them to it), so a listing of
        the legal actions does not ask them again."""
        return ()

    def apply(self, game: Game) -> None:
        """Carry out the action, once the rules allow it (the engine checks first)."""
        raise NotImplementedError

    def value(self, game: Game, player: Player) -> int | None:
        """What the action is worth to `player` in dollars, as a bot judges it (see
        docs/plugins.md, "How bots judge"); None: no opinion."""
        return None

    # At most what any action of this type could be worth to a player: a number, or a
    # classmethod `(game, player) -> int | None` when it depends on the game; None: no
    # bound. A bot in its window does not list nor value a type whose bound is not worth
    # taking, so a rule the bots never take (a loan that only costs interest) costs them
    # nothing. The invariants check holds the listed actions' values to it.
    value_bound: ClassVar[Any] = None

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """The actions of this type that may answer `request`, before the rules judge them.

        The game lists those the rules do not refuse (`legal_actions`): one truth for what
        is legal, so a candidate must not leave out an action the rules would allow, and
        must not list one the class's own `refusals` refuse (the other rules judge it). An
        amount is offered as an `ActionRange`. By default they are derived from the fields
        (easymoney.engine.derived): each player, space, word or flag a field may be, an
        amount between `amount_bounds`, judged by `refusals`.
        """
        found = derived_candidates(cls)
        return () if isinstance(found, str) else found(game, request)

    def amount_bounds(self, game: Game, field: str) -> tuple[int, int]:
        """The least and most of the amount `field` derived candidates offer: by default
        from 1 to what the actor has (a price another player pays says that player's cash)."""
        return 1, self.player.cash

    # the request kinds a line answers (None: those whose `accepts` holds this type); a line
    # by another player than the one asked answers only a window, where R5 refuses it
    ASKED_BY: ClassVar[tuple[str, ...] | None] = None
    # the line answers any request, by anyone, and belongs to no turn (R16's sale)
    ANY_MOMENT: ClassVar[bool] = False

    @classmethod
    def from_line(cls, script: ScriptContext, request: Request, line: Any) -> Action | None:
        """The action `line` (an ActionLine of this class) gives in answer to `request`, or
        None when it does not answer it. Each field is read by its type: a `Player` by its
        name, a `Space` by its reference, anything else as written."""
        actor = script.player(line.player, line)
        if not cls.ANY_MOMENT:
            kinds = cls.ASKED_BY
            if request.kind not in kinds if kinds is not None else cls not in request.accepts:
                return None
            if actor is not request.player and not (cls.window and request.kind in WINDOW_KINDS):
                return None
        given = dict(zip(cls.line_fields(), line.values))
        args: dict[str, Any] = {}
        for name, kind, has_default in _field_kinds(cls):
            if name == "player":
                args[name] = actor
                continue
            if name in given:
                value = given[name]
                if value is not None and kind == "Player":
                    value = script.player(value, line)
                elif value is not None and kind == "Space":
                    value = script.space(value, line)
            else:
                value = getattr(request, name, None)
                if value is None:
                    if not has_default:
                        return None  # what the request would give is not there
                    continue
            args[name] = value
        return cls(**args)


def own_candidates(kind: type[Action]) -> bool:
    """Whether the action type `kind` writes its own `candidates` (not derived ones)."""
    return getattr(kind.candidates, "__func__", None) is not _DERIVED


def own(kind: type, method: str) -> bool:
    """Whether the action type `kind` defines its own `refusals`, `apply` or `value`."""
    return getattr(kind, method) is not getattr(Action, method)


_DERIVED = Action.candidates.__func__  # type: ignore[attr-defined]

# an action class -> (field, the name of its type without `| None`, has a default)
_FIELD_KINDS: dict[type, tuple[tuple[str, str, bool], ...]] = {}


def _field_kinds(cls: type) -> tuple[tuple[str, str, bool], ...]:
    found = _FIELD_KINDS.get(cls)
    if found is None:
        found = _FIELD_KINDS[cls] = tuple(
            (f.name, _type_name(f.type), f.default is not dataclasses.MISSING
             or f.default_factory is not dataclasses.MISSING)
            for f in dataclasses.fields(cls) if f.init)  # type: ignore[arg-type]
    return found


def amount_fields(kind: type) -> frozenset[str] | None:
    """The fields of `kind` a range of amounts may vary (a count, a `Money` amount: its
    whole numbers); None when its fields are not known (no dataclass)."""
    if not dataclasses.is_dataclass(kind):
        return None
    return frozenset(name for name, type_name, _ in _field_kinds(kind)
                     if type_name in ("int", "Money"))


def _type_name(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__",
                                                                     str(annotation))
    return text.split("|")[0].strip().rpartition(".")[2]


def _defaults(cls: type) -> dict[str, Any]:
    return {f.name: f.default for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            if f.default is not dataclasses.MISSING}


def chance_taken(action: Action, event: Any) -> Action | None:
    """`action` (a throw left to chance) with what `event`, its `chance_event`, says chance
    gave (`Ann rolls 3 4`); None when `event` is another one. What a record writes."""
    kind = type(action)
    field = kind.chance
    if field is None or event.kind != kind.chance_event:
        return None
    value = event.data.get(field)
    return with_field(action, field, tuple(value) if isinstance(value, list) else value)


# --- requests: what the game waits for ------------------------------------------------

# request kind -> the words saying what the game waits for (see `request_kind`)
_REQUEST_WORDS: dict[str, Callable[[Request], str]] = {}


def request_kind(name: str, words: Callable[[Request], str]) -> str:
    """Declare a kind of request and its words; returns the kind, a plain string.

    A plugin that asks declares its kinds once, at module level: `BUY = request_kind("buy",
    lambda r: f"{r.player} to buy {r.space} or decline")`. The words are what a script
    error and the prompt say the game waits for. Kinds are plain strings (bots and scripts
    look answers up by kind on every decision, and a plain string is the quickest key).
    """
    _REQUEST_WORDS[name] = words
    return sys.intern(name)



class Request:
    """What the game waits for: who must act, of which kind, and the facts a decider needs.

    kind      a kind declared with `request_kind` by the plugin that asks (turn: window_before,
              window_after; streets: buy; auction: bid; debts: raise)
    player    who is asked
    accepts   the action types that answer it (any-moment actions come on top)
    space     BUY, BID: the space at stake
    high_bid, high_bidder   BID: the auction so far
    least                   BID: the smallest bid the rules accept now (set by whoever
                            makes the request: bots bid from it)
    amount, creditor        RAISE: the debt
    next_player             WINDOW_AFTER: whose turn follows
    offer                   AGREE: the action another player proposes, binding this one
    data                    anything else a plugin's request carries (a dict, or None)
    """

    __slots__ = ("kind", "player", "accepts", "space", "high_bid", "high_bidder", "least",
                 "amount", "creditor", "next_player", "offer", "data")

    def __init__(self, kind: str, player: Player, accepts: tuple[type, ...], *,
                 space: Space | None = None, high_bid: int = 0, high_bidder: Player | None = None,
                 least: int = 0, amount: int = 0, creditor: Any = None,
                 next_player: Player | None = None, offer: Action | None = None,
                 data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.accepts = accepts
        self.space: Any = space  # set for BUY and BID
        self.high_bid = high_bid
        self.high_bidder = high_bidder
        self.least = least
        self.amount = amount
        self.creditor = creditor
        self.next_player = next_player
        self.offer = offer
        self.data = data

    def __deepcopy__(self, memo: dict[int, Any]) -> Request:
        """A copy for a copy of the game (a stepping game keeps copies, and a rule may keep
        requests in its stash): the copy's players (by `memo`), the same kind and types."""
        twin = memo[id(self)] = Request.__new__(Request)
        # the copy's player (in the memo) without a call to deepcopy: a clone copies the
        # turn's requests; the action types `accepts` are the same in every copy
        (twin.kind, twin.player, twin.space, twin.high_bid, twin.high_bidder, twin.least,
         twin.amount, twin.creditor, twin.next_player, twin.offer, twin.data) = [
            value if type(value) in IMMUTABLE else _copied(value, memo)
            for value in _read_copied(self)]
        twin.accepts = self.accepts
        return twin

    def describe(self) -> str:
        """`Bob to bid on Waldorf Hotel or pass`: the game waits for ..."""
        words = _REQUEST_WORDS.get(self.kind)
        return words(self) if words is not None else f"{self.player} to {self.kind}"

    def __repr__(self) -> str:
        return f"Request({self.kind}, {self.player})"


# what Request.__deepcopy__ copies: every slot but `accepts`, in order
_REQUEST_COPIED = tuple(n for n in Request.__slots__ if n != "accepts")
_read_copied = operator.attrgetter(*_REQUEST_COPIED)
_ABSENT = object()


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    found = memo.get(id(value), _ABSENT)
    return copy.deepcopy(value, memo) if found is _ABSENT else found


class Answer(Action):
    """A one-word answer (`P buys`, `P declines`, `P passes`, `P ends turn`, a deal's `P
    accepts`): its only choice is to be given. Listed once for the asked player of each
    request it answers (`ASKED_BY`, else those whose `accepts` holds it), its fields after
    `player` taken from the request's attributes of the same names (a purchase's `space`,
    a deal's `offer`); none when one of them is unset. Subclasses are dataclasses."""

    __slots__ = ()

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        asked_by = cls.ASKED_BY
        if request.kind not in asked_by if asked_by is not None else cls not in request.accepts:
            return ()
        taken = _ANSWER_FIELDS.get(cls)
        if taken is None:  # the dataclass's fields exist once its decorator has run
            taken = _ANSWER_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls)[1:])  # type: ignore[arg-type]
        if not taken:  # a tuple, not a generator: listed at most decisions
            return (cls(request.player),)  # type: ignore[call-arg]
        values = []  # a loop, not a comprehension (a call): listed at most decisions
        for name in taken:
            values.append(getattr(request, name))
        if None in values:
            return ()
        return (cls(request.player, *values),)  # type: ignore[call-arg]


# answer type -> the fields its candidates take from the request
_ANSWER_FIELDS: dict[type, tuple[str, ...]] = {}


def described(action: Action, game: Game | None = None) -> str:
    """`action.describe(game)`, or `action.describe()` for a class whose `describe` takes no
    game (written before it could): the words of an action wherever a game is at hand."""
    kind = type(action)
    takes = _DESCRIBE_TAKES_GAME.get(kind)
    if takes is None:
        try:
            parameters = inspect.signature(kind.describe).parameters
        except (TypeError, ValueError):  # a builtin or an odd callable: the old way
            parameters = {}  # type: ignore[assignment]
        takes = _DESCRIBE_TAKES_GAME[kind] = len(parameters) > 1
    return (action.describe(game) if takes and game is not None  # type: ignore[call-arg]
            else action.describe())


_DESCRIBE_TAKES_GAME: dict[type, bool] = {}  # action type -> its describe takes a game


# --- the turn: its requests and its two actions (the `turn` rule plays it) ------------------

# the kind of the mover's window before the throw (R5): answered by a Roll or a window action
WINDOW_BEFORE = request_kind(
    "window_before", lambda r: f"{r.player} to roll (or to build, mortgage, redeem or sell first)")
# the kind of the mover's window after the landing (R5): an EndTurn or a window action
WINDOW_AFTER = request_kind(
    "window_after", lambda r: f"{r.player} to build, mortgage, redeem or sell"
                              + (f", or {r.next_player} to begin the next turn" if r.next_player else ""))
# the mover's windows, before the throw and after the landing (R5)
WINDOW_KINDS = (WINDOW_BEFORE, WINDOW_AFTER)


def _gerund(verb: str) -> str:
    """`mortgaging` for `mortgage`, `selling` for `sell`: how the words of a debt name a way."""
    head, space, rest = verb.partition(" ")
    stem = head[:-1] if head.endswith("e") and not head.endswith("ee") else head
    return stem + "ing" + space + rest


def raise_words(request: Request) -> str:
    """`Bob to raise $400 by mortgaging or selling (owes $1,000 to the Bank), or to go
    bankrupt`: the ways named are those of the request's `raises_money` types (R25), the
    rules on offer's own."""
    ways = list(dict.fromkeys(_gerund(getattr(kind, "verb", "")) for kind in request.accepts
                              if getattr(kind, "raises_money", False)))
    by = f" by {ways[0] if len(ways) == 1 else ', '.join(ways[:-1]) + ' or ' + ways[-1]}" \
        if ways else ""
    return (f"{request.player} to raise {money(request.amount - request.player.cash)}{by} "
            f"(owes {money(request.amount)} to {request.creditor}), or to go bankrupt")


# a debt larger than the debtor's cash (R25, asked by the debts rule): every `raises_money`
# action answers it, by that trait alone
RAISE = request_kind("raise", raise_words)


@dataclass(slots=True)
class Roll(Action):
    """`P rolls D1 D2` (dice chosen) or `P rolls` (dice None: the game throws them)."""

    GRAMMAR = "NAME _ROLLS INT*"
    WORDS = ("rolls",)
    FORMS = ("`P rolls`", "`P rolls D1 D2`")
    ASKED_BY = (WINDOW_BEFORE,)
    player: Player
    dice: tuple[int, int] | None = None
    verb = "roll"
    chance = "dice"  # None: the game throws them
    chance_event = "roll"

    def __str__(self) -> str:
        return f"{self.player} rolls" + (f" {self.dice[0]} {self.dice[1]}" if self.dice else "")

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        if request.kind == WINDOW_BEFORE:
            yield cls(request.player)

    @classmethod
    def check_line(cls, texts: list[str]) -> tuple[int, str] | None:
        dice = texts[1:]
        if dice and len(dice) != 2:
            return 1, f"a throw is two dice, e.g. `{clip(texts[0])} rolls 3 4`"
        for i, text in enumerate(dice, 1):
            value = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else 0
            if not 1 <= value <= 6:
                return i, f"a die is a number from 1 to 6, found '{clip(text)}'"
        return None

    @classmethod
    def line_values(cls, values: list[Any]) -> tuple[Any, ...]:
        return (values[0], (values[1], values[2]) if len(values) == 3 else None)


@dataclass(slots=True)
class EndTurn(Answer):
    """`P ends turn`: closes the window after the landing; the turn is over."""

    LINE = "{player} ends turn"
    ASKED_BY = (WINDOW_AFTER,)
    player: Player
    verb = "end the turn"
    ends_turn = True


CLIP = 40  # the longest piece of a line a message quotes


def clip(text: str) -> str:
    """A piece of a line as a message quotes it: long ones are cut (a line may be 1 MB)."""
    return text if len(text) <= CLIP else text[:CLIP - 3] + "..."


def line_of(action: Action, owner: str | None) -> str:
    """`str(action)`, its script line, which its plugin (`owner`) writes: where that raises,
    one PluginError naming the plugin and the class."""
    from ..errors import PluginError
    who = f"plugin {owner or type(action).__module__!r}"
    kind = type(action)
    try:
        line = str(action)
    except Exception as exc:
        raise PluginError(f"{who} failed writing its action {kind.__name__} as a line (its "
                          f"__str__): {type(exc).__name__}: {exc}") from exc
    names: tuple[str, ...] = kind.line_fields() if dataclasses.is_dataclass(kind) else ()
    for name in names:
        value = getattr(action, name, None)
        why = unquotable(value) if isinstance(value, str) else None
        if why is not None:  # between its quotes it would end the quote, or the line, early
            raise PluginError(f"{who} cannot write its action {kind.__name__} as a script "
                              f"line: its field {name} is {value!r}, which a line cannot quote: "
                              f"{why}; keep quotes and line breaks out of it (refuse such a "
                              f"value in the action's refusals)")
    if not line.isprintable() and any(is_control(ch) for ch in line):
        # a line break would put a line of the plugin's choosing into the script
        raise PluginError(f"{who} writes its action {kind.__name__} as {line!r}, which holds "
                          f"a control character (a line break?); an action's text must be the "
                          f"one script line that makes it")
    return line
