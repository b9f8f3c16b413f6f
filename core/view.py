"""One outward view of a decision point: the state, the request, the legal listing, and
reading a choice back, each field spelt once.

Whatever shows the game to someone outside it (a program at a seat, `play --json`, an
agent's facts) builds from `decision_view`, so that a field added here shows everywhere.
The view is plain JSON values (its dict keys are strings); it is made on demand, never on
a stepping game's hot path.

Spellings: a player is their name; a space is `{"number", "name"}` (its number on the
board, 0 the start); an action is its script line, its type's name, its fields by name and
its words (`describe()`); an amount left open is `N` in the line, with `least`, `most` and
`step`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import TYPE_CHECKING, Any

from .errors import EasyMoneyError, PluginError
from .engine.actions import Action, ActionRange, Request, described
from .engine.legal import legal_actions
from .engine.model import Space

if TYPE_CHECKING:
    from .engine.game import Game, Player
    from .engine.shown import Shown

MAX_DIGITS = 30   # digits of an amount or an index: more are listed nowhere (and int()
                  # refuses 4,300 and more)
MAX_ECHO = 80     # characters of a bad answer repeated in a message
_NUMBER = r"\$?([0-9][0-9,]*)"

Listing = list[Action | ActionRange]


class DecisionView(dict[str, Any]):
    """The view: a plain dict (`state`, `request`, `legal`, `me`) that also keeps the
    listing it shows (`listed`), so that `read_choice` reads an answer against it."""

    listed: Listing


class ChoiceError(EasyMoneyError):
    """An answer that names no listed action; `problem` is `garbage` (no answer at all) or
    `illegal` (an answer, but not one listed). Nothing changed."""

    def __init__(self, problem: str, message: str) -> None:
        super().__init__(message)
        self.problem = problem


def decision_view(game: Game, request: Request | None = None,
                  legal: Listing | None = None, *, for_player: Player | None = None) -> DecisionView:
    """The decision the game waits for (or `request`), as one JSON-ready dict: `state`,
    `request` (None when nothing is asked), `legal` (the listing, `legal` if given), and
    `me`, the seat it is shown to (`for_player`, whose listing it is when they are not
    the one asked: the actions they may take at any moment)."""
    request = request if request is not None else game.request
    if legal is None:
        legal = legal_actions(game, request, player=for_player) if request is not None else []
    view = DecisionView(state=state_view(game), request=request_view(request),
                        legal=legal_view(legal, game),
                        me=None if for_player is None else for_player.name)
    view.listed = legal
    return view


# --- what of the plugins' own state every player sees (their SHOWN facts) ---

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


def state_view(game: Game) -> dict[str, Any]:
    """Everything a player sees of the game: never the order of the deck."""
    owners, houses, mortgaged, estates = _board(game)
    shown = []
    facts = shown_declarations(game)
    for p, (spaces, pledged) in zip(game.players, estates):
        shown.append({"name": p.name, "cash": p.cash, "position": p.position,
                      "bankrupt": p.bankrupt, "worth": None if p.bankrupt else game.worth(p),
                      "houses_left": p.houses_left, "spaces": list(spaces),
                      "mortgaged": list(pledged), "cards": [c.text for c in p.held],
                      # what of the plugins' own state they show (their SHOWN facts)
                      "shown": shown_of(game, p) if facts else []})
    pots = game.pots
    current, o = game.current, game.outcome
    return {
        # the turn under way (or the next one, between turns); `turns_played` those over
        "turn": game.turns_played + 1,
        "turns_played": game.turns_played,
        "current": None if current is None else current.name,
        "players": shown,
        "owners": dict(owners),
        "houses": dict(houses),
        "mortgaged": list(mortgaged),
        "pots": {name: pot.cash for name, pot in pots.items()},
        "pot_titles": {name: pot.title for name, pot in pots.items()},
        "bank": game.bank.cash,
        # the cards drawers keep (the Special Exemption card): who holds each, or None
        "kept_cards": {text: None if p is None else p.name for text, p in game.kept_cards()},
        "deck": len(game.deck),
        "discard": len(game.discard),
        "outcome": None if o is None else {"reason": o.reason, "detail": o.detail,
                                           "winners": list(o.winners)},
    }


Board = tuple[dict[str, str], dict[str, int], list[int], list[tuple[list[int], list[int]]]]
# the board part of the last game's view: (the game, its board_version, the part). An
# agent's facts make a view a step, and the board changes far less often, always bumping
# the version (as the observation's layout relies on); the view hands out copies
_last_board: list[Any] = [None, -1, None]


def _board(game: Game) -> Board:
    """(owners, houses, mortgaged, each player's (spaces, mortgaged)) of `game`, by number."""
    if _last_board[0] is game and _last_board[1] == game.board_version:
        board: Board = _last_board[2]
        return board
    mortgaged = game.mortgaged
    keys = _keys(len(mortgaged))
    owners: dict[str, str] = {}
    estates = []
    for p in game.players:
        spaces = [s.index for s in p.spaces]
        for n in spaces:
            owners[keys[n]] = p.name
        estates.append((spaces, [n for n in spaces if mortgaged[n]]))
    board = (owners, {keys[n]: h for n, h in enumerate(game.houses) if h},
             [n for n, m in enumerate(mortgaged) if m], estates)
    _last_board[:] = [game, game.board_version, board]
    return board


_KEYS: list[str] = []  # each space's number as a JSON key, made once


def _keys(size: int) -> list[str]:
    if len(_KEYS) < size:
        _KEYS.extend(map(str, range(len(_KEYS), size)))
    return _KEYS


def request_view(request: Request | None) -> dict[str, Any] | None:
    """What is asked and every fact of it; a fact the kind does not carry is None (0 for
    the amounts)."""
    if request is None:
        return None
    return {"kind": request.kind, "player": request.player.name, "words": request.describe(),
            "space": plain(request.space), "high_bid": request.high_bid,
            "high_bidder": _name(request.high_bidder), "least": request.least,
            "amount": request.amount, "creditor": plain(request.creditor),
            "next_player": _name(request.next_player),
            "offer": None if request.offer is None else action_view(request.offer),
            "data": plain(request.data)}


def legal_view(legal: Listing, game: Game | None = None) -> list[dict[str, Any]]:
    """Each listed action: its index, line, type, fields, words; a range also its amount's
    field, `least`, `most` and `step`, `N` standing for the amount in its line and words."""
    out: list[dict[str, Any]] = []
    for index, found in enumerate(legal):
        if isinstance(found, ActionRange):
            entry = {"index": index, **action_view(found.template, game)}
            field = found.field
            entry["line"] = found.line("N")
            entry["label"] = _open_amount(entry["label"], found.least)
            entry["fields"][field] = None
            if type(found.template).money_fields[:1] == (field,):
                entry["price"] = None  # the amount left open
            entry.update(amount_field=field, least=found.least, most=found.most,
                         step=found.step)
        else:
            entry = {"index": index, **action_view(found, game)}
        out.append(entry)
    return out


def action_view(action: Action, game: Game | None = None) -> dict[str, Any]:
    """An action: its line, type, fields by name, words (`describe`, told the game when
    given); the player it binds (a deal's `counterparty`) and the amount it names (`price`:
    its first money field), or None."""
    kind = type(action)
    party, price = deal_terms(action)
    return {"line": str(action), "type": kind.__name__,
            "fields": {name: plain(getattr(action, name, None)) for name in _fields(kind)},
            "label": described(action, game),
            "counterparty": _name(party), "price": price}


def deal_terms(action: Action) -> tuple[Any, int | None]:
    """(the player `action` binds, the amount it names: its first money field), None each
    where it has none: what an offer's view and an agent's observation show of its terms."""
    kind = type(action)
    money = kind.money_fields
    return (None if kind.counterparty is None else getattr(action, kind.counterparty, None),
            getattr(action, money[0], None) if money else None)


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type[Action]) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = (tuple(f.name for f in dataclasses.fields(kind))
                                 if dataclasses.is_dataclass(kind) else kind.line_fields())
    return names


def plain(value: Any) -> Any:
    """`value` as JSON values: a space as its number and name, an action as its view, a
    player (or the Bank, or a pot) as its name, a tuple as a list, anything else as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Space):
        return {"number": value.index, "name": value.name}
    if isinstance(value, Action):
        return action_view(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else str(value)


def _name(who: Any) -> str | None:
    return None if who is None else who.name  # type: ignore[no-any-return]


def _open_amount(words: str, least: int) -> str:
    """`bid $10 on Grove Street` -> `bid N on Grove Street`: the amount left open."""
    for mark in (f"${least:,}", str(least)):
        head, found, tail = words.rpartition(mark)
        if found:
            return head + "N" + tail
    return words


# --- reading a choice back ---------------------------------------------------------------

class LongNumber:
    """A JSON number of more than MAX_DIGITS digits, kept as its length (never read)."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))


def _json_int(text: str) -> int | LongNumber:
    return LongNumber(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def clip(text: str) -> str:
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def parse_answer(line: str) -> dict[str, Any]:
    """A JSON line's answer: an object with `line` or `index`; a number too long to read
    is kept as a LongNumber (so that it is refused by its length, not by int())."""
    got = clip(line)
    try:
        data = json.loads(line, parse_int=_json_int)
    except ValueError:
        data = None
    except RecursionError:  # a line of 10,000 `[`: the decoder recurses once a level
        data, got = None, "JSON nested too deep"
    if not isinstance(data, dict) or not ({"line", "index"} & data.keys()):
        raise ChoiceError("garbage", f"expected {{\"line\": ...}} or {{\"index\": ...}}, got "
                                     f"{got}")
    return data


def read_choice(view_or_legal: DecisionView | Listing, answer: Any) -> Action:
    """The listed action `answer` names: `{"index": i}`, `{"index": i, "amount": n}` for a
    range, `{"line": ...}` or a script line (an amount in place of `N`; `$` and commas
    allowed). Anything else raises ChoiceError, one line, and nothing changes."""
    legal = view_or_legal.listed if isinstance(view_or_legal, DecisionView) else view_or_legal
    if isinstance(answer, str):
        answer = {"line": answer}
    if not isinstance(answer, dict) or not ({"line", "index"} & answer.keys()):
        raise ChoiceError("garbage", f"expected {{\"line\": ...}} or {{\"index\": ...}}, got "
                                     f"{clip(repr(answer))}")
    if "index" in answer:
        index = answer["index"]
        if isinstance(index, LongNumber):
            raise ChoiceError("illegal", f"an index of {index.digits:,} digits is not one of "
                                         f"the {len(legal)} listed")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
            raise ChoiceError("illegal", f"index {index!r} is not one of the {len(legal)} listed")
        found = legal[index]
        if not isinstance(found, ActionRange):
            return found
        amount = answer.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount not in found:
            raise _out_of_range(found, amount)
        return found.at(amount)
    text = answer["line"]
    if not isinstance(text, str):
        shown = json.dumps(text, default=lambda n: f"<{n.digits:,} digits>")
        raise ChoiceError("garbage", f"\"line\" must be a string, got {clip(shown)}")
    text = " ".join(text.split())
    for found in legal:
        if isinstance(found, ActionRange):
            m = _range_pattern(found).match(text)
            if m is not None:
                digits = m.group(1).replace(",", "")
                if len(digits) > MAX_DIGITS:
                    raise _out_of_range(found, LongNumber(digits))
                amount = int(digits)
                if amount in found:
                    return found.at(amount)
        elif str(found) == text:
            return found
    raise ChoiceError("illegal", f"{clip(text)} is not one of the listed actions")


def _range_pattern(found: ActionRange) -> re.Pattern[str]:
    before, _, after = found.line("N").rpartition("N")
    return re.compile(re.escape(before) + _NUMBER + re.escape(after) + "$")


def _out_of_range(found: ActionRange, amount: object) -> ChoiceError:
    shown = (f"an amount of {amount.digits:,} digits" if isinstance(amount, LongNumber)
             else f"amount {amount!r}")
    return ChoiceError("illegal", f"{shown} for {found.line('N')!r} is not from {found.least} "
                                  f"to {found.most} in steps of {found.step}")
