"""The limits on what a variant may ask for (sizes, numbers, names): a hostile file is an error, not a slow game."""

from __future__ import annotations

from typing import Any

from ..errors import is_control
from .origins import Origins, walk
from .yamlload import Path

# Limits on what a variant may ask for: a typo or a hostile file is an error, not a slow game.
MAX_MONEY = 1_000_000_000   # any amount of money (x-money), the Bank's total included
MAX_NUMBER = 1_000_000_000  # any other whole number
MAX_SPACES = 1_000          # board spaces
MAX_CARDS = 1_000           # cards in the deck, copies (`count`) included
MAX_NAME = 100              # characters of a space's name, a card's text, the variant's name


def check_limits(doc: dict[str, Any], origins: Origins, money: set[Path]) -> None:
    """Every number within MAX_MONEY or MAX_NUMBER, the board and the deck within their sizes."""

    for path, value in walk(doc):
        if isinstance(value, int) and not isinstance(value, bool):
            bound, what = ((MAX_MONEY, "the limit on amounts of money") if path in money
                           else (MAX_NUMBER, "the limit on numbers"))
            if value > bound:
                raise origins.error(path, f"too large: found {value}; expected at most "
                                          f"{bound:,} ({what})")
            if value < -bound:
                raise origins.error(path, f"too small: found {value}; expected at least "
                                          f"{-bound:,} ({what})")
    check_sizes(doc, origins, counted=True)
    names: list[tuple[Path, Any]] = [(("name",), doc.get("name"))]
    names += [(("board", "spaces", i, "name"), s["name"]) for i, s in enumerate(doc["board"]["spaces"])]
    names += [(("deck", i, "text"), c["text"]) for i, c in enumerate(doc["deck"])]
    for path, name in names:  # every event names them: a long one makes every line long
        if isinstance(name, str) and len(name) > MAX_NAME:
            raise origins.error(path, f"too long: found '{name[:37]}...' ({len(name)} "
                                      f"characters); expected at most {MAX_NAME} characters "
                                      f"(the limit on names)")
        if isinstance(name, str):
            _check_name(name, path, origins, quoted=path != ("name",))
    texts: list[tuple[Path, Any]] = [(("description",), doc.get("description"))]
    texts += [(("sources", i), s) for i, s in enumerate(doc.get("sources") or ())]
    for path, text in texts:
        if isinstance(text, str):
            _check_controls(text, path, origins, allowed="\n\t")


def _check_controls(text: str, path: Path, origins: Origins, allowed: str = "") -> None:
    """No character that acts on a terminal or breaks a line: `"\\e[2J"`, `"\\0"`, U+0085."""
    bad = next((ch for ch in text if is_control(ch) and ch not in allowed), None)
    if bad is not None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise origins.error(path, f"control character: found U+{ord(bad):04X} in {shown!r}; "
                                  f"expected printable text (it is shown on the terminal)")


def _check_name(name: str, path: Path, origins: Origins, quoted: bool) -> None:
    """A name a game script can write: printable, not blank, no spaces around it, and for a
    space or a card (written between double quotes in a script) no double quote."""
    _check_controls(name, path, origins)
    if not name.strip():
        raise origins.error(path, f"blank: found {name!r}; expected a name with a visible "
                                  f"character")
    if name != name.strip():
        raise origins.error(path, f"spaces around the name: found {name!r}; expected "
                                  f"{name.strip()!r} (names are matched exactly)")
    if quoted and '"' in name:
        raise origins.error(path, f"double quote in a name: found {name!r}; expected a name "
                                  f"without '\"' (a game script writes it between double "
                                  f"quotes)")


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

