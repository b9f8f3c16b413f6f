"""The limits on what a variant may ask for (sizes, numbers, names): a hostile file is an error, not a slow game."""

from __future__ import annotations

from typing import Any

from ..errors import EasyMoneyError, is_control
from .origins import Origins, walk
from .yamlload import Path

# Limits on what a variant may ask for: a typo or a hostile file is an error, not a slow game.
MAX_MONEY = 1_000_000_000   # any amount of money (x-money), the Bank's total included
MAX_NUMBER = 1_000_000_000  # any other whole number
MAX_SPACES = 1_000          # board spaces
MAX_CARDS = 1_000           # cards in the deck, copies (`count`) included
MAX_NAME = 100              # characters of a space's name, a card's text, the variant's name


def check_limits(doc: dict[str, Any], origins: Origins, money: set[Path],
                 errors: list[EasyMoneyError]) -> None:
    """Every number within MAX_MONEY or MAX_NUMBER, the board and the deck within their sizes,
    every name one a script can write: each mistake added to `errors` (a board or deck too
    large is raised at once)."""

    for path, value in walk(doc):
        if isinstance(value, int) and not isinstance(value, bool):
            bound, what = ((MAX_MONEY, "the limit on amounts of money") if path in money
                           else (MAX_NUMBER, "the limit on numbers"))
            if value > bound:
                errors.append(origins.error(path, f"too large: found {value}; expected at most "
                                                  f"{bound:,} ({what})"))
            if value < -bound:
                errors.append(origins.error(path, f"too small: found {value}; expected at "
                                                  f"least {-bound:,} ({what})"))
    check_sizes(doc, origins, counted=True)
    names: list[tuple[Path, Any]] = [(("name",), doc.get("name"))]
    names += [(("board", "spaces", i, "name"), s["name"]) for i, s in enumerate(doc["board"]["spaces"])]
    names += [(("deck", i, "text"), c["text"]) for i, c in enumerate(doc["deck"])]
    for path, name in names:  # every event names them: a long one makes every line long
        if isinstance(name, str) and len(name) > MAX_NAME:
            errors.append(origins.error(path, f"too long: found '{name[:37]}...' ({len(name)} "
                                              f"characters); expected at most {MAX_NAME} "
                                              f"characters (the limit on names)"))
        elif isinstance(name, str):
            errors += _name_errors(name, path, origins, quoted=path != ("name",))[:1]
    texts: list[tuple[Path, Any]] = [(("description",), doc.get("description"))]
    texts += [(("sources", i), s) for i, s in enumerate(doc.get("sources") or ())]
    for path, text in texts:
        if isinstance(text, str):
            errors += _control_errors(text, path, origins, allowed="\n\t")


def _control_errors(text: str, path: Path, origins: Origins, allowed: str = ""
                    ) -> list[EasyMoneyError]:
    """No character that acts on a terminal or breaks a line: `"\\e[2J"`, `"\\0"`, U+0085."""
    bad = next((ch for ch in text if is_control(ch) and ch not in allowed), None)
    if bad is None:
        return []
    shown = text if len(text) <= 40 else text[:37] + "..."
    return [origins.error(path, f"control character: found U+{ord(bad):04X} in {shown!r}; "
                                f"expected printable text (it is shown on the terminal)")]


def _name_errors(name: str, path: Path, origins: Origins, quoted: bool) -> list[EasyMoneyError]:
    """A name a game script can write: printable, not blank, no spaces around it, and for a
    space or a card (written between double quotes in a script) no double quote."""
    errors = _control_errors(name, path, origins)
    if not name.strip():
        errors.append(origins.error(path, f"blank: found {name!r}; expected a name with a "
                                          f"visible character"))
    elif name != name.strip():
        errors.append(origins.error(path, f"spaces around the name: found {name!r}; expected "
                                          f"{name.strip()!r} (names are matched exactly)"))
    if quoted and '"' in name:
        errors.append(origins.error(path, f"double quote in a name: found {name!r}; expected a "
                                          f"name without '\"' (a game script writes it between "
                                          f"double quotes)"))
    return errors


def check_sizes(doc: Any, origins: Origins, counted: bool = False) -> None:
    """The board within MAX_SPACES spaces, the deck within MAX_CARDS cards.

    Before the schema (`counted` false) only the entries are counted; after it, each
    space's `cells` and each card's `count` too.
    """
    board = doc.get("board") if isinstance(doc, dict) else None
    spaces = board.get("spaces") if isinstance(board, dict) else None
    deck = doc.get("deck") if isinstance(doc, dict) else None
    number = 0
    for i, space in enumerate(spaces if isinstance(spaces, list) else ()):
        number += space.get("cells", 1) if counted else 1
        if number > MAX_SPACES:
            raise origins.error(("board", "spaces", i), f"board too large: found more than "
                                                        f"{MAX_SPACES:,} spaces; expected at "
                                                        f"most {MAX_SPACES:,} (the limit on a board)")
    number = 0
    for i, card in enumerate(deck if isinstance(deck, list) else ()):
        number += card.get("count", 1) if counted else 1
        if number > MAX_CARDS:
            path = ("deck", i, "count") if counted and "count" in card else ("deck", i)
            raise origins.error(path, f"deck too large: found more than {MAX_CARDS:,} cards; "
                                      f"expected at most {MAX_CARDS:,} (the limit on a deck, "
                                      f"copies included)")

