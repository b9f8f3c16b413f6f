"""What a person may answer now, from the game's legal actions, and the words the prompt completes.

Every line offered (`?`, Tab, `help`, the "waits for" line) comes from
`GameState.legal_actions()`: the installed rules, built-in or not, say what is legal, so
nothing here names a rule's action or request.
"""

from __future__ import annotations

import dataclasses

from ..engine.actions import Action, ActionRange, Request, money, with_field
from ..engine.game import Game, Player
from ..engine.stepping import GameState
from ..view import shown_of

COMMANDS = ("?", "board", "status", "history", "save", "undo", "auto", "act", "help", "quit")
PLACEHOLDER = "N"


def _unnamed(line: str, player: Player) -> str:
    """`line` without the player's name in front (as a person types it)."""
    head = f"{player.name} "
    return line[len(head):] if line.startswith(head) else line


def is_throw(action: Action) -> bool:
    """A throw whose outcome the game draws (`rolls` without dice)."""
    chance = type(action).chance
    return chance is not None and getattr(action, chance, None) is None


def ends_turn(action: Action) -> bool:
    return bool(getattr(type(action), "ends_turn", False))


def _unwritten(action: Action) -> str:
    """What a line leaves for the game to fill in (the street of `buys`), in words, with the
    price of a space it acquires at its price (R9): `buy Elmwood Avenue for $260`; "" when
    the line names everything."""
    kind = type(action)
    written = set(kind.line_fields()) | {"player"}
    left = [f.name for f in dataclasses.fields(action)  # type: ignore[arg-type]
            if f.init and f.name not in written]
    if not left:
        return ""
    words = action.describe()
    acquired = getattr(action, kind.acquires, None) if kind.acquires in left else None
    price = getattr(acquired, "data", {}).get("price") if acquired is not None else None
    if isinstance(price, int) and not kind.money_fields:
        words += f" for {money(price)}"
    return words


def answer_lines(state: GameState) -> list[str]:
    """Each legal action now as its script line without the player's name; an amount as
    `N` with its range: `bids N (N from 110 to 2,500 in steps of 10)`."""
    request = state.request
    if request is None:
        return []
    out: list[str] = []
    for found in state.legal_actions():
        if isinstance(found, ActionRange):
            step = f" in steps of {found.step:,}" if found.step > 1 else ""
            out.append(f"{_unnamed(found.line(PLACEHOLDER), request.player)} "
                       f"({PLACEHOLDER} from {found.least:,} to {found.most:,}{step})")
            continue
        line = _unnamed(str(found), request.player)
        gloss = _unwritten(found)
        out.append(f"{line}  ({gloss})" if gloss else line)
        if state.choose_dice and is_throw(found) and type(found).chance == "dice":
            chosen = _unnamed(str(with_field(found, "dice", (3, 4))), request.player)
            out.append(f"{chosen}  (you choose the dice: --choose-dice)")
    return out


def _line_words(state: GameState) -> list[tuple[list[str], ActionRange | None]]:
    """The words of each legal line (without the player's name), with its range if any."""
    request = state.request
    if request is None:
        return []
    out: list[tuple[list[str], ActionRange | None]] = []
    for found in state.legal_actions():
        if isinstance(found, ActionRange):
            text = _unnamed(found.line(PLACEHOLDER), request.player)
            out.append((split_words(text + " ")[0], found))
        else:
            out.append((split_words(_unnamed(str(found), request.player) + " ")[0], None))
    return out


def completions(state: GameState, words: list[str], current: str) -> list[str]:
    """The words that may follow `words` (the finished words of the line), starting with
    `current`: the commands, then the words of the legal lines (verbs, spaces, players,
    amounts: a range offers its least and most)."""
    request = state.request
    if request is not None and words and words[0] == request.player.name:
        words = words[1:]
    options: list[str] = []
    if not words:
        options += COMMANDS
    elif words[0] in COMMANDS:
        if words[0] == "history" and len(words) == 1:
            options.append("all")
        elif words[0] == "auto" and len(words) == 1:
            options += ["on", "off"]
    for line, found in _line_words(state):
        if len(line) <= len(words) or not all(_fits(t, w, found) for t, w in zip(line, words)):
            continue
        nxt = line[len(words)]
        if nxt == PLACEHOLDER and found is not None:
            options += [str(found.least), str(found.most)]
        else:
            options.append(nxt)
    low = current.lower()
    return [o for o in dict.fromkeys(options) if o.lower().startswith(low)]


def _fits(token: str, word: str, found: ActionRange | None) -> bool:
    if token == PLACEHOLDER and found is not None:
        return word.isascii() and word.isdigit()
    return token == word


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


def verbs_now(state: GameState) -> list[str]:
    """The verbs of the legal actions now, in their order, each once ("roll", "lend")."""
    out: list[str] = []
    for found in state.legal_actions():
        kind = found.kind if isinstance(found, ActionRange) else type(found)
        verb = getattr(kind, "verb", kind.__name__.lower())
        if verb not in out:
            out.append(verb)
    return out


def either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


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
        facts = shown_of(game, p)  # what the plugins show of their state (SHOWN)
        if facts:
            lines.append("    " + "; ".join(fact["words"] for fact in facts))
    for pot in game.pots.values():
        lines.append(f"{pot.title}: {money(pot.cash)}")
    lines += [f"{text} card: {'not held' if holder is None else holder.name}"
              for text, holder in game.kept_cards()]
    lines.append(f"The Bank: {money(game.bank.cash)}; Give or Take cards in the pile: "
                 f"{len(game.deck)}")
    return "\n".join(lines)


def turn_of(game: Game) -> int:
    """The number of the turn under way (0 before the first)."""
    for event in reversed(game.log):
        if event.kind == "turn":
            return int(event.data["number"])
    return 0


def describe_wait(state: GameState, request: Request) -> str:
    """The line shown before a person's prompt: the turn, what the game waits for, the
    cash, and the verbs of what is legal now (the installed rules' own)."""
    game = state.game
    p = request.player
    whose = "" if game.current is None or game.current is p else f" ({game.current}'s turn)"
    verbs = verbs_now(state)
    may = f" and may {either(verbs)} now" if verbs else ""
    return (f"Turn {turn_of(game)}{whose}: the game waits for {request.describe()}. "
            f"{p} has {money(p.cash)}{may}.")


def help_text(state: GameState | None) -> str:
    lines = ["Answer with a line of the script language; your name may be left out."]
    if state is not None and state.request is not None:
        lines.append(f"What {state.request.player} may answer now (also `?`):")
        lines += ["  " + line for line in answer_lines(state)]
    lines += [
        "Commands:",
        "  ?             what may be answered now (amounts as ranges)",
        "  board         the board, its owners, houses and MEN",
        "  status        every player's cash, worth and spaces",
        "  history [N]   the game so far (the last N lines, or all)",
        "  save FILE     write the game as a script that `easymoney play FILE` replays",
        "  undo          take back your last decision (and the bots' moves after it)",
        "  auto on|off   pass your windows (roll, end the turn) without being asked",
        "  act           with auto on: stop at your next window to act in it",
        "  quit          leave (as do Ctrl-D and Ctrl-C)",
        "Tab completes whole lines: verbs, space names, player names and amounts.",
    ]
    return "\n".join(lines)
