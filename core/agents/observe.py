"""What an agent sees: the game as a vector of numbers (its layout fixed per environment)
and as a plain dict of the same facts."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..engine.actions import _REQUEST_WORDS, Request
from ..engine.game import Game
from ..engine.view import request_view, state_view

# request kinds of no rule in play (a plugin of another variant) are counted here
OTHER_KIND = "other"


def _floats(values: Any) -> bytes:
    """Whole numbers as float32 bytes: through bytes when all are 0 to 255 (one C call)."""
    try:
        small = bytes(values)
    except (ValueError, TypeError):  # a count over 255 (a plugin's): exact all the same
        return struct.pack(f"={len(values)}f", *values)
    return np.frombuffer(small, np.uint8).astype(np.float32).tobytes()


class Layout:
    """The order of the observation vector (docs/agents.md): for n seats, S spaces, C kept
    cards, P pots and K request kinds,

        seats      n x 5   position, cash, houses left, bankrupt (0/1), spaces owned
        me         n       one-hot: the seat observing
        asked      n       one-hot: the seat the game asks now (zeros once over)
        turn       n       one-hot: whose turn it is
        owners     S x n   one-hot owner of each space (zeros: the Bank's)
        houses     S       houses on each space
        mortgaged  S       1 where mortgaged
        cards      C x n   one-hot holder of each kept card (zeros: nobody)
        pots       P       cash in each pot present at the start, in name order
        bank       1       the Bank's cash
        deck       1       cards left in the deck
        turns      1       turns played
        request    K + 1   one-hot kind of what is asked (the last: a kind of no rule in play)
    """

    def __init__(self, game: Game) -> None:
        self.seats = [p.name for p in game.players]
        self.spaces = len(game.spaces)
        kinds = game.ruleset.kept_kinds
        self.cards = sorted({c.text for c in game.variant.cards if c.kind in kinds})
        self.card_index = {text: k for k, text in enumerate(self.cards)}
        self.pots = sorted(game.pots)
        modules = {t.__module__ for t in game.ruleset.handled} | {"easymoney.engine.deals"}
        self.kinds = sorted(k for k, words in _REQUEST_WORDS.items()
                            if getattr(words, "__module__", None) in modules)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        n, s = len(self.seats), self.spaces
        self.size = 5 * n + 3 * n + s * n + 2 * s + len(self.cards) * n + len(self.pots) + 3 \
            + len(self.kinds) + 1
        # of the game `_of`: (its board_version, the owners, houses and mortgaged part of the
        # vector as float32 bytes), and each part (name -> the game's list as it was, its
        # bytes). The board changes far less often than an agent steps, and always bumps
        # the version; a change is usually one space's owner, houses or mortgage
        self._of: Game | None = None
        self._board: tuple[int, bytes] | None = None
        self._parts: dict[str, tuple[list[Any], bytes]] = {}
        # the numbers before and after the board part, written as float32 bytes in one C
        # call each: a tenth of what numpy takes to convert them one by one
        cut = 8 * n
        self._before = struct.Struct(f"={cut}f")
        self._after = struct.Struct(f"={self.size - cut - s * n - 2 * s}f")

    def _board_part(self, game: Game) -> bytes:
        if self._of is not game:
            self._of, self._board, self._parts = game, None, {}
        known = self._board
        if known is not None and known[0] == game.board_version:
            return known[1]
        parts = self._parts  # each made again only when its list has changed
        owner = parts.get("owner")
        if owner is None or owner[0] != game.owner:
            n = len(game.players)
            owned = bytearray(self.spaces * n)
            for p in game.players:  # what each owns (kept by the game): fewer than the spaces
                seat = p.index
                for space in p.spaces:
                    owned[space.index * n + seat] = 1
            owner = parts["owner"] = (list(game.owner), _floats(owned))
        part = owner[1]
        for name in ("houses", "mortgaged"):
            counts = getattr(game, name)
            known_counts = parts.get(name)
            if known_counts is None or known_counts[0] != counts:
                known_counts = parts[name] = (list(counts), _floats(counts))
            part += known_counts[1]
        self._board = (game.board_version, part)
        return part

    def vector(self, game: Game, me: int, request: Request | None) -> np.ndarray:
        """The observation of seat `me`."""
        players = game.players
        n = len(players)
        head: list[float] = []
        for p in players:
            head += (p.position, p.cash, p.houses_left, p.bankrupt, len(p.spaces))
        ones = [0] * (3 * n)
        ones[me] = 1
        if request is not None:
            ones[n + request.player.index] = 1
        if game.current is not None:
            ones[2 * n + game.current.index] = 1
        head += ones
        # what comes after the board: cards, pots, bank, deck, turns, request
        tail = [0] * (len(self.cards) * n)
        if tail:
            index = self.card_index
            for p in players:
                for c in p.held:
                    held = index.get(c.text)
                    if held is not None:
                        tail[held * n + p.index] = 1
        pots = game.pots
        tail += [pots[name].cash if name in pots else 0 for name in self.pots]
        tail += (game.bank.cash, len(game.deck), game.turns_played)
        kinds = [0] * (len(self.kinds) + 1)
        if request is not None:
            kinds[self.kind_index.get(request.kind, len(self.kinds))] = 1
        tail += kinds
        out = bytearray(self._before.pack(*head))  # a bytearray: the agent's array is writable
        out += self._board_part(game)
        out += self._after.pack(*tail)
        return np.frombuffer(out, np.float32)

    def facts(self, game: Game, me: int, request: Request | None) -> dict[str, Any]:
        """The same facts as plain values, by name: the engine's one view of the state and
        of what is asked (easymoney.engine.view), and `asked`, the request's kind, player
        and words as before it (kept for the agents that read it)."""
        asked = request_view(request)
        return {**state_view(game), "me": self.seats[me], "request": asked,
                "asked": None if asked is None else {"kind": asked["kind"],
                                                     "player": asked["player"],
                                                     "words": asked["words"]}}
