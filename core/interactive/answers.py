"""What a person may answer now, as script lines, and the words the prompt completes."""

from __future__ import annotations

from ..engine import actions as A
from ..engine.actions import money
from ..engine.game import Game, Player
from ..plugins.auction import BID
from ..plugins.debts import RAISE
from ..plugins.streets import BUY
from ..plugins.turn import WINDOW_AFTER, WINDOW_BEFORE
from ..script import parser

COMMANDS = ("?", "board", "status", "history", "save", "undo", "help", "quit")


def _quoted(name: str) -> str:
    return f'"{name}"'


def _allowed(game: Game, action: A.Action) -> bool:
    return not game.refusals(action)


def _action_types(game: Game) -> dict[str, type]:
    """The installed action types by verb ("build", "mortgage", ...): the rules own them."""
    return {t.verb: t for t in game.ruleset.action_owner}


def possible_answers(game: Game, request: A.Request) -> list[str]:
    """The lines that answer `request` now, with the player's name left out (as typed)."""
    p = request.player
    kind = request.kind
    out: list[str] = []
    if kind == WINDOW_BEFORE:
        out.append("rolls                (or `rolls 3 4` to choose the dice)")
    elif kind == WINDOW_AFTER:
        nxt = f" ({request.next_player} plays next)" if request.next_player else ""
        out.append(f"ends turn{nxt}")
    elif kind == BUY:
        out.append(f"buys                 ({request.space} for "
                   f"{money(int(request.space.get('price', 0)))})")
        out.append("declines             (the space goes to auction)")
    elif kind == BID:
        high = (f"high bid {money(request.high_bid)} by {request.high_bidder}, "
                if request.high_bidder is not None else "")
        out.append(f"bids N               ({high}at least {money(request.least)}; "
                   f"you have {money(p.cash)})")
        out.append("passes")
    elif kind == RAISE:
        out.append("goes bankrupt")
    window = kind in (WINDOW_BEFORE, WINDOW_AFTER)
    if window or kind == RAISE:
        out += _estate_answers(game, p, builds=window)
    if any(c.kind == "exemption" for c in p.held):
        out.append("sells exemption to PLAYER for N")
    return out


def _estate_answers(game: Game, p: Player, builds: bool) -> list[str]:
    out: list[str] = []
    types = _action_types(game)
    build, mortgage, redeem = types.get("build"), types.get("mortgage"), types.get("redeem")
    for s in game.owned_by(p):
        name = _quoted(s.name)
        if builds and build is not None and _allowed(game, build(p, s, 1)):
            out.append(f"builds on {name}")
        if mortgage is not None and _allowed(game, mortgage(p, s)):
            out.append(f"mortgages {name}")
        if builds and redeem is not None and _allowed(game, redeem(p, s)):
            out.append(f"redeems {name}")
    if game.owned_by(p):
        out.append("sells \"SPACE\" to PLAYER for N")
    return out


def completions(game: Game, words: list[str], current: str) -> list[str]:
    """The words that may follow `words` (the finished words of the line), starting with `current`."""
    players = [q.name for q in game.players]
    spaces = sorted({_quoted(s.name) for s in game.spaces})
    # the verbs of the language as installed (plugins contribute statements); cards are
    # drawn by the game, not typed
    verbs = [v for v in parser.language_for(game.ruleset.registry, game.ruleset.enabled).verbs
             if v != "draws"]
    if words and words[0] in players:
        words = words[1:]
    if not words:
        options = list(COMMANDS) + verbs + players
    else:
        last = words[-1]
        if words[0] == "save":
            options = []
        elif last in ("on", "mortgages", "redeems") or (last == "sells" and len(words) == 1):
            options = spaces + (["exemption"] if last == "sells" else [])
        elif last == "builds":
            options = ["on"]
        elif last == "goes":
            options = ["bankrupt"]
        elif last == "ends":
            options = ["turn"]
        elif last == "to":
            options = players
        elif words[0] == "sells" and len(words) == 2:
            options = ["to"]
        elif words[0] == "sells" and len(words) == 4:
            options = ["for"]
        else:
            options = []
    low = current.lower()
    return [o for o in options if o.lower().startswith(low)]


def split_words(text: str) -> tuple[list[str], str]:
    """The finished words of `text` (a quoted name is one word) and the word being typed."""
    words: list[str] = []
    word = ""
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
            word += ch
        elif ch.isspace() and not quoted:
            if word:
                words.append(word)
            word = ""
        else:
            word += ch
    return words, word


def status_text(game: Game) -> str:
    """Every player's cash, worth, position and spaces; the pots and the card's holder."""
    worth = {p.name: (w, r) for p, w, r in game.standings()}
    lines = []
    for p in game.players:
        if p.bankrupt:
            lines.append(f"{p.name}: bankrupt")
            continue
        w, r = worth[p.name]
        here = game.spaces[p.position]
        lines.append(f"{p.name}{' (' + p.strategy + ' bot)' if p.strategy else ''}: cash "
                     f"{money(p.cash)}, worth {money(w)} (rank {r}), on {here.index} {here}, "
                     f"{p.houses_left} houses left")
        owned = []
        for s in game.owned_by(p):
            h = game.houses[s.index]
            extra = []
            if h > 1 or s.get("rent") is not None and isinstance(s.get("rent"), list):
                extra.append("a Subdivision" if h >= 5 else f"{h} house{'s' if h != 1 else ''}")
            if game.mortgaged[s.index]:
                extra.append("mortgaged")
            owned.append(s.name + (f" ({', '.join(extra)})" if extra else ""))
        lines.append("    owns " + (", ".join(owned) if owned else "nothing"))
    for name, pot in game.pots.items():
        lines.append(f"{name.capitalize()} pot: {money(pot.cash)}")
    lines += [f"{text} card: {'not held' if holder is None else holder.name}"
              for text, holder in game.kept_cards()]
    lines.append(f"The Bank: {money(game.bank.cash)}; Give or Take cards in the pile: "
                 f"{len(game.deck)}")
    return "\n".join(lines)


def turn_of(game: Game) -> int:
    for event in reversed(game.log):
        if event.kind == "turn":
            return int(event.data["number"])
    return 0


def describe_wait(game: Game, request: A.Request) -> str:
    """The line shown before a person's prompt: the turn, what the game waits for, the cash."""
    p = request.player
    turn = turn_of(game)
    whose = "" if game.current is p else f" ({game.current}'s turn)"
    return (f"Turn {turn}{whose}: the game waits for {request.describe()}. "
            f"{p} has {money(p.cash)}.")


def help_text() -> str:
    return "\n".join([
        "Answer in the script language; your name may be left out:",
        "  rolls | rolls 3 4 | buys | declines | bids 300 | passes | builds on \"Dover Street\"",
        "  builds 2 on \"Dover Street\" | mortgages \"Waldorf Hotel\" | redeems \"Waldorf Hotel\"",
        "  sells \"Dover Street\" to Bob for 500 | sells exemption to Bob for 300",
        "  goes bankrupt | ends turn",
        "Commands:",
        "  ?             what may be answered now",
        "  board         the board, its owners, houses and MEN",
        "  status        every player's cash, worth and spaces",
        "  history [N]   the game so far (the last N lines)",
        "  save FILE     write the game as a script that `easymoney play FILE` replays",
        "  undo          take back your last decision",
        "  quit          leave (as do Ctrl-D and Ctrl-C)",
        "Tab completes words, space names and player names.",
    ])

