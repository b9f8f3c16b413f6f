"""Plain words for a person at the page: controls labelled from the actions' own
descriptions, refusals with the rule that keeps an answer out, the reader as "you", the
standings, the transcript by turn, and the last throw for the board to show.

`me` is the name of the seat of the person reading (None: a spectator, who reads every
seat in the third person). The engine words it: `Game.describe(event, viewer)` and
`refusal_message(action, refusals, viewer)` know which words are a player's name (an
event's fields) and make its verb agree (`You have`, `your offer`).
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, ActionRange, described, money
from ..engine.decisions import refusal_message
from ..view import state_view
from ..words import second_person

__all__ = ["action_label", "auction", "control", "deal", "ending", "motion", "offer",
           "prompt", "reason", "second_person", "standings", "transcript_by_turn"]

# a range's words around its amount end with a preposition that only the amount completes
_DANGLING = (" for", " at", " of", " to")


def _game(state: Any) -> Any:
    """The Game of a GameState (the page's), or the Game itself."""
    return getattr(state, "game", state)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def action_label(action: Action, me: str | None = None, game: Any = None) -> str:
    """`Buy Highland Avenue for $1,600`, `Roll`, `Offer to sell Dover Street to Bot for
    $500`, `Accept Bot's offer to sell ... to you for $500`: the action's own description
    (`Action.describe`), an offer to another player (an action another player must agree
    to, R16, R22) said as one, and the price of a space bought from the Bank (`acquires`,
    when the description names no amount). `game` is told to a `describe(game)` that takes
    it, for an amount it computes."""
    text = described(action, game)
    kind = type(action)
    space = getattr(action, kind.acquires, None) if kind.acquires else None
    price = getattr(space, "price", None)
    if kind.acquires == "space" and kind.acquirer == "player" and "$" not in text \
            and isinstance(price, int) and price > 0:
        text += f" for {money(price)}"
    if kind.counterparty is not None:
        text = "offer to " + text
    return _capital(second_person(text, me))


def control(k: int, action: Action | ActionRange, me: str | None = None,
            game: Any = None) -> dict[str, Any]:
    """The page's control for legal action number `k`: its script line (`text`), and its
    `label` in plain words; a range has the words before and after its amount (`words`),
    for a button that says the amount chosen (`Bid $760 on Highland Avenue`). Given the
    `game`: an offer's range has `offer` (where its price starts, `offer`), an answer to an
    offer `deal` (what is given and taken, `deal`); an action's `describe(game)` that takes
    it is told it."""
    if not isinstance(action, ActionRange):
        out = {"index": k, "kind": "action", "text": str(action),
               "label": action_label(action, me, game)}
        if game is not None:
            out["deal"] = deal(action, me)
        return out
    shown = action_label(action.at(action.least), me, game)
    mark = money(action.least)
    head, found, tail = shown.rpartition(mark)
    if not found:  # an amount that is not money (a count): the number itself
        head, found, tail = shown.rpartition(str(action.least))
    if not found:
        head, tail = shown + " ", ""
    words = head.rstrip()
    for dangling in _DANGLING:
        if not tail and words.endswith(dangling):
            words = words[:-len(dangling)]
    return {"index": k, "kind": "range", "text": action.line("N"),
            "least": action.least, "most": action.most, "step": action.step,
            "label": (words + tail).strip(), "words": [head, tail],
            "money": found == mark, "offer": None if game is None else offer(game, action)}


def reason(action: Action, refusals: list[Any], me: str | None = None) -> str:
    """`You may not buy Highland Avenue: R13, you own Dover Street on side 1 and have no
    street on sides 2, 3, 4`: the refused action and each rule that refuses it."""
    return refusal_message(action, refusals, viewer=me or action.player.name)


def prompt(state: Any, me: str | None = None) -> str:
    """What the game waits for, to the person reading: `Your turn to buy Highland Avenue
    or decline`, `Waiting for Bot to roll ...`, or how the game ended."""
    request = getattr(state, "request", None)
    game = _game(state)
    if request is None:
        o = game.outcome
        return "The game is over" + (f": {o.reason}, {o.detail}" if o is not None else "")
    words = request.describe()
    name = request.player.name
    if name == me and words.startswith(f"{name} to "):
        return "Your turn " + second_person(words[len(name) + 1:], me)
    return "Waiting for " + second_person(words, me)


def standings(state: Any, me: str | None = None) -> list[dict[str, Any]]:
    """Each player in seat order: cash, worth (R28: cash, streets at their price and houses
    at the street's price, mortgaged ones at half), rank, and holdings: the spaces owned
    with their houses and mortgages, the cards held, the houses left in their supply; and
    what the plugins show of their own state (`shown`, each fact with its `words`)."""
    game = _game(state)
    view = state_view(game)
    ranks = {p.name: rank for p, _, rank in game.standings()}
    spaces = game.variant.spaces
    out = []
    for p in view["players"]:
        mortgaged = set(p["mortgaged"])
        out.append({
            "name": p["name"], "you": p["name"] == me, "cash": p["cash"], "worth": p["worth"],
            "rank": ranks.get(p["name"]), "bankrupt": p["bankrupt"],
            "position": p["position"], "houses_left": p["houses_left"], "cards": p["cards"],
            "shown": p["shown"],  # the plugins' facts of their state (SHOWN)
            "spaces": [{"index": i, "name": spaces[i].name,
                        "houses": view["houses"].get(str(i), 0), "mortgaged": i in mortgaged}
                       for i in p["spaces"]],
        })
    return out


def transcript_by_turn(state: Any, me: str | None = None, since: int = 0) -> list[dict[str, Any]]:
    """The game's transcript grouped by turn, for `me` (`You roll 3 + 4 = 7`): a group a
    turn, `{"turn": 3, "player": "Ann", "lines": [...]}`; the lines before the first turn
    (the game's start) are turn 0, with no player. `since`: only the turns from that one
    on (a page that has the others asks for these, and only they are worded)."""
    game = _game(state)
    groups: list[dict[str, Any]] = []
    group: dict[str, Any] | None = {"turn": 0, "player": None, "lines": []} if since <= 0 else None
    for event in game.log:
        if event.kind == "turn":
            number = event.data.get("number", 0)
            group = {"turn": number, "player": event.data.get("player"), "lines": []} \
                if number >= since else None
            if group is not None:
                groups.append(group)
        if group is None:
            continue
        if not groups:
            groups.append(group)
        text = game.describe(event, me)
        if text is not None:
            group["lines"].append(text)
    return [g for g in groups if g["lines"] or g["turn"]]


def motion(state: Any) -> dict[str, Any] | None:
    """The last throw, for the board to show its dice and move the MAN: `{"seq": 57,
    "dice": [3, 4], "player": "Ann", "path": [12, 13, ..., 19]}`, `seq` the throw's place
    in the game's log (a page animates a throw it has not shown yet), `path` every space
    the MAN stood on from where it was to where it is (a move back runs backwards; a card
    that sends it on, R12, goes on from there). None before the first throw."""
    game = _game(state)
    log = game.log
    at = next((k for k in range(len(log) - 1, -1, -1) if log[k].kind == "roll"), None)
    if at is None:
        return None
    roll = log[at].data
    player = roll["player"]
    n = len(game.variant.spaces)
    path: list[int] = []
    for event in log[at + 1:]:
        if event.kind in ("roll", "turn"):
            break
        data = event.data
        if data.get("player") != player:
            continue
        if event.kind == "move":
            start, steps = data["start"], data["steps"]
            step = 1 if steps >= 0 else -1
            run = [(start + k * step) % n for k in range(abs(steps) + 1)]
            path += run[1:] if path and path[-1] == run[0] else run
    return {"seq": at, "dice": list(roll["dice"]), "player": player, "path": path}


def _printed(space: Any) -> int | None:
    price = getattr(space, "price", None)
    return price if isinstance(price, int) and price > 0 else None


def offer(game: Any, action: ActionRange) -> dict[str, Any] | None:
    """For a range that offers a deal to another player (R16, R22: `counterparty`): what
    the page's offer panel needs to start from a sensible price, not $0. `printed` is the
    space's printed price; `valued` what the deal is worth to the other party at no price
    (the bots' own valuation, `Action.value`, e.g. R28's worth of a space with its houses);
    `start` the first of them within the range; `low` the price below which the page asks
    to confirm (half the printed price, else half the valuation)."""
    from ..engine.deals import counterparty
    first = action.at(action.least)
    other = counterparty(first)
    if other is None:
        return None
    thing = _acquired(first)
    printed = _printed(thing)
    valued = None
    if action.least <= 0 <= action.most and callable(getattr(first, "value", None)):
        try:  # what the deal given for nothing is worth to the other party
            got = action.at(0).value(game, other)
        except Exception:  # noqa: BLE001 -- a plugin's valuation is a hint, never needed
            got = None
        valued = got if isinstance(got, int) and got > 0 else None
    base = printed or valued
    start = action.least if base is None else min(action.most, max(action.least, base))
    if action.step > 1:  # on the range's steps
        start -= (start - action.least) % action.step
    return {"with": getattr(other, "name", str(other)),
            "thing": getattr(thing, "name", None), "printed": printed, "valued": valued,
            "start": start, "low": None if base is None else base // 2}


def deal(action: Action, me: str | None = None) -> dict[str, Any] | None:
    """An answer to an offer (Accept, Reject: an action with an `offer`), said as what the
    one answering gives and takes: `{"give": ["$500"], "take": ["Dover Street (2 houses)"]}`
    for the buyer of R22's sale. None for an action that answers no offer."""
    from ..engine.deals import counterparty
    made = getattr(action, "offer", None)
    if not isinstance(made, Action):
        return None
    kind = type(made)
    amount = None
    for name in ("price", "amount"):
        value = getattr(made, name, None)
        if type(value) is int:
            amount = money(value)
    thing = _acquired(made)
    acquirer = getattr(made, kind.acquirer, None) if kind.acquirer else None
    answering = counterparty(made)
    if thing is None or answering is None:
        return {"give": [], "take": [], "words": _capital(second_person(made.describe(), me))}
    item = getattr(thing, "name", str(thing))
    money_side = [amount] if amount else []
    if acquirer is answering:
        give, take = money_side, [item]
    else:
        give, take = [item], money_side
    who = "You" if me == answering.name else answering.name
    words = f"{who} would give {' and '.join(give) or 'nothing'} and take " \
            f"{' and '.join(take) or 'nothing'}"
    return {"give": give, "take": take, "with": made.player.name, "words": words}


def _acquired(action: Action) -> Any:
    """What `action` acquires (its `acquires` field's value: a space), or None."""
    field = type(action).acquires
    return None if field is None else getattr(action, field, None)


def auction(state: Any) -> dict[str, Any] | None:
    """An auction under way (R11), at a glance: the space, its printed price, the high bid
    and its bidder (from the bids heard since the space was put up for auction), and the
    least next bid (the request's own). None when the request is not a bid."""
    request = getattr(state, "request", None)
    if request is None or request.space is None or request.least is None:
        return None
    # a bid: an amount the asked player names to acquire the space asked about
    if not any(isinstance(a, ActionRange) and _acquired(a.at(a.least)) is request.space
               for a in state.legal_actions()):
        return None
    game = _game(state)
    name = request.space.name
    high = bidder = None
    found = False
    for event in reversed(game.log):
        data = event.data
        if data.get("space") != name:
            continue
        if event.kind == "auction":
            found = True
            break
        if event.kind == "bid" and high is None:
            high, bidder = data.get("amount"), data.get("player")
    if not found:
        return None
    return {"space": name, "printed": _printed(request.space), "high": high,
            "bidder": bidder, "least": request.least, "asked": request.player.name}


def ending(state: Any, me: str | None = None) -> dict[str, Any] | None:
    """The end of a game for the page: who won and why (R27's reason the game ended, R28's
    worth and R29's largest total), the final standings with each seat's worth in its parts
    (cash, and each space it owns at its R28 value, a mortgaged one at $0), and the game's
    length. None while the game goes on."""
    game = _game(state)
    o = game.outcome
    if o is None:
        return None
    space_value = game.hook.em_space_value
    rows = []
    for p, worth, rank in game.standings():
        spaces = []
        for s in p.spaces:
            value = space_value(game=game, space=s) or 0
            spaces.append({"name": s.name, "value": value, "houses": game.houses[s.index],
                           "mortgaged": bool(game.mortgaged[s.index])})
        other = worth - p.cash - sum(s["value"] for s in spaces)  # a plugin's own part
        rows.append({"name": p.name, "you": p.name == me, "rank": rank, "worth": worth,
                     "cash": p.cash, "spaces": spaces, "other": other, "bankrupt": False})
    for p in game.players:
        if p.bankrupt:
            rows.append({"name": p.name, "you": p.name == me, "rank": None, "worth": 0,
                         "cash": 0, "spaces": [], "other": 0, "bankrupt": True})
    winners = list(o.winners)
    named = [("you" if w == me else w) for w in winners]
    if not winners:
        headline = "Nobody wins"
    elif len(winners) == 1:
        headline = "You win" if winners[0] == me else f"{winners[0]} wins"
    else:
        headline = _capital(", ".join(named[:-1]) + " and " + named[-1]) + " share the win"
    best = rows[0]["worth"] if rows and not rows[0]["bankrupt"] else 0
    ended = _capital(second_person(o.detail, me))
    why = f"{ended}; the largest worth (R28: cash and what is owned) wins (R29): {money(best)}"
    return {"winners": winners, "headline": headline, "why": why, "reason": o.reason,
            "detail": o.detail, "turns": game.turns_played,
            "steps": getattr(state, "steps", None), "standings": rows}


def line_mistake(error: Any, text: str, examples: list[str]) -> str:
    """A typed line that does not parse, in words (not the parser's `<line>:1:10: error:
    expected ...`): the words read, where the mistake is, what was expected there, and
    lines the game takes now (`examples`, the legal actions' own lines)."""
    typed = " ".join(text.split()) if text.strip() else ""
    if not typed:
        said = "The line is empty"
    else:
        col = max(1, getattr(error, "col", 1) or 1)
        read = text[:col - 1].strip()
        said = f'The line "{text.strip()}" cannot be read' + (
            f': after "{read}", {error.message}' if read else f": {error.message}")
    said = said.replace("expected ", "the game expected ", 1).rstrip(".")
    if examples:
        shown = "; ".join(examples[:4]) + ("; ..." if len(examples) > 4 else "")
        said += ("" if said.endswith("?") else ".") + f" Lines it takes now: {shown}"
    return said if said.endswith("?") else said + "."
