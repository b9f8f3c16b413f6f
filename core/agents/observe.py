"""What an agent sees: the game as a vector of numbers (its layout fixed per environment)
and as a plain dict of the same facts."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np


from ..engine.actions import _REQUEST_WORDS, Request
from ..engine.game import Game, Player
from ..view import deal_terms, read_shown, request_view, shown_declarations, state_view

# request kinds of no rule in play (a plugin of another variant) are counted here
OTHER_KIND = "other"


def _floats(values: Any) -> bytes:
    """Whole numbers as float32 bytes: through bytes when all are 0 to 255 (one C call)."""
    try:
        small = bytes(values)
    except (ValueError, TypeError):  # a count over 255 (a plugin's): exact all the same
        return struct.pack(f"={len(values)}f", *values)
    return np.frombuffer(small, np.uint8).astype(np.float32).tobytes()


_FLOAT = struct.Struct("=f")
_FLOAT32 = np.dtype(np.float32)  # a dtype, not the type: numpy converts none at each call
_ONE = _FLOAT.pack(1.0)


class Layout:
    """The order of the observation vector (docs/agents.md), every feature scaled into
    [0, 1] by a bound known when the game starts (`names` names each; `parts` gives each
    part's slice). For n seats, S spaces, C kept cards, P pots, D deal types and K
    request kinds, with M the money in the game at its start (the seats', the Bank's and
    the pots' cash):

        seats      n x 5   position / (S - 1), cash / M, houses left / the starting
                           supply, bankrupt (0/1), spaces owned / S
        me         n       one-hot: the seat observing
        asked      n       one-hot: the seat the game asks now (zeros once over)
        turn       n       one-hot: whose turn it is
        owners     S x n   one-hot owner of each space (zeros: the Bank's)
        houses     S       houses on each space / the most a street holds
        mortgaged  S       1 where mortgaged
        cards      C x n   one-hot holder of each kept card (zeros: nobody)
        pots       P       cash in each pot present at the start, in name order, / M
        bank       1       the Bank's cash / M
        deck       1       cards left in the deck / the deck at the start
        turns      1       turns played / max_turns
        shown      n x F   each seat's value of each of the F facts the plugins in play show
                           of their state that are numbers (`SHOWN`, by plugin and name:
                           `shown[Ann].tally.owed`), dollars / M, a count / its `most`; 0
                           where a fact shows nothing
        the request asked now, each part zeros where it carries no such fact:
        space      S       one-hot: the space at stake (bought, auctioned) or offered
        amounts    4       high bid, least bid, debt, offered price, each / M
        high_bidder n      one-hot
        creditor   n + 1   one-hot: the seat owed; the last, the Bank or a pot
        offerer    n       one-hot: the seat whose offer is asked about
        offer      D       one-hot: the offer's type (the deal types in play, by name)
        request    K + 1   one-hot kind of what is asked (the last: a kind of no rule in play)

    Values beyond a bound (a seat holding more than M after the Bank printed money) are
    cut to 1: the Box is [0, 1] everywhere.
    """

    def __init__(self, game: Game, max_turns: int = 1000) -> None:
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
        self.deals = sorted({t.__name__ for t in game.ruleset.handled
                             if getattr(t, "counterparty", None)})
        self.deal_index = {name: k for k, name in enumerate(self.deals)}
        n, s = len(self.seats), self.spaces
        self.money = max(1, sum(p.cash for p in game.players) + game.bank.cash
                         + sum(pot.cash for pot in game.pots.values()))
        # the plugins' facts shown as numbers (issue 39): (plugin id, fact), in rule order
        self.shown_facts = [(pid, fact) for pid, fact in shown_declarations(game) if not fact.text]
        names, scales = self._named(game, max_turns)
        self.names: list[str] = names
        self.size = len(names)
        self.parts: dict[str, slice] = {}
        for k, name in enumerate(names):
            part = name.split("[")[0].split(".")[0]
            known = self.parts.get(part)
            self.parts[part] = slice(k if known is None else known.start, k + 1)
        self._scale = np.array(scales, np.float32)
        # the factors vector() scales by as it writes the numbers (cheaper than a numpy op
        # on the whole vector): money, position, houses left, spaces, a street's houses,
        # the deck, the turns
        money_at = names.index(f"seat[{self.seats[0]}].cash")
        self._per_money = scales[money_at]
        self._per_position, self._per_supply, self._per_space = (
            scales[money_at - 1], scales[money_at + 1], scales[money_at + 3])
        self._per_house = scales[names.index("houses[0]")] if s else 1.0
        self._per_card, self._per_turn = scales[names.index("deck")], scales[names.index("turns")]
        self._request_at = self.parts["space"].start  # where the request's facts begin
        self._fact_scales = [1.0 / (self.money if fact.money else fact.most)
                             for _, fact in self.shown_facts]
        # of the game `_of`: (its board_version, the owners, houses and mortgaged part of the
        # vector as float32 bytes), and each part (name -> the game's list as it was, its
        # bytes). The board changes far less often than an agent steps, and always bumps
        # the version; a change is usually one space's owner, houses or mortgage
        self._of: Game | None = None
        self._board: tuple[int, bytes] | None = None
        self._parts: dict[str, tuple[list[Any], bytes]] = {}
        # the whole vector as float32 bytes in one C call (a tenth of what numpy takes to
        # convert the numbers one by one): the seats' numbers, the one-hots of who is
        # observing, asked and playing (`_ones`), the board part, the numbers after it, and
        # the request's part, the three as bytes
        cut = 8 * n
        after = self._request_at - cut - s * n - 2 * s
        self._whole = struct.Struct(f"={5 * n}f{4 * 3 * n}s{4 * (s * n + 2 * s)}s{after}f"
                                    f"{4 * (self.size - self._request_at)}s")
        self._ones_struct = struct.Struct(f"={3 * n}f")
        # (me, the asked seat, the seat whose turn it is; -1: none) -> their one-hots' bytes
        self._ones: dict[tuple[int, int, int], bytes] = {}
        # the request's part as float32 bytes with only its kind's one set, per kind and for
        # a kind of no rule in play, and all zeros when nothing is asked: most requests (a
        # window's) carry nothing more, and the rest start from these
        kinds_at = self.size - len(self.kinds) - 1 - self._request_at
        self._unasked = bytes(4 * (self.size - self._request_at))
        self._asked = {kind: self._one_at(self._unasked, kinds_at + k)
                       for k, kind in enumerate(self.kinds)}
        self._asked_other = self._one_at(self._unasked, kinds_at + len(self.kinds))
        # where, in bytes from the request's part's start, its amounts, high bidder,
        # creditor, offerer and offer type begin
        self._request_offsets = tuple(4 * at for at in (s, s + 4, s + 4 + n, s + 4 + 2 * n + 1,
                                                         s + 4 + 3 * n + 1))

    def _named(self, game: Game, max_turns: int) -> tuple[list[str], list[float]]:
        """Each feature's name and the factor that scales it into [0, 1]."""
        seats, s, money = self.seats, self.spaces, float(self.money)
        houses = max([1] + [p.houses_left for p in game.players])
        names: list[str] = []
        scales: list[float] = []

        def add(name: str, bound: float = 1.0) -> None:
            names.append(name)
            scales.append(1.0 / max(bound, 1.0))

        for seat in seats:
            for what, bound in (("position", s - 1), ("cash", money), ("houses_left", houses),
                                ("bankrupt", 1), ("spaces", s)):
                add(f"seat[{seat}].{what}", bound)
        for part in ("me", "asked", "turn"):
            for seat in seats:
                add(f"{part}[{seat}]")
        for space in range(s):
            for seat in seats:
                add(f"owner[{space}].{seat}")
        for space in range(s):
            add(f"houses[{space}]", game.variant.houses_per_street)
        for space in range(s):
            add(f"mortgaged[{space}]")
        for card in self.cards:
            for seat in seats:
                add(f"card[{card}].{seat}")
        for pot in self.pots:
            add(f"pot[{pot}]", money)
        add("bank", money)
        add("deck", len(game.deck) + len(game.discard))
        add("turns", max_turns)
        for seat in seats:
            for pid, fact in self.shown_facts:
                add(f"shown[{seat}].{pid}.{fact.name}", money if fact.money else fact.most)
        for space in range(s):
            add(f"space[{space}]")
        for amount in ("high_bid", "least", "debt", "price"):
            add(f"amount.{amount}", money)
        for part in ("high_bidder", "creditor", "offerer"):
            for seat in seats:
                add(f"{part}[{seat}]")
            if part == "creditor":
                add("creditor[Bank]")
        for deal in self.deals:
            add(f"offer[{deal}]")
        for kind in self.kinds:
            add(f"request[{kind}]")
        add(f"request[{OTHER_KIND}]")
        return names, scales

    def index(self, name: str) -> int:
        """The position of the feature `name` (`"seat[Ann].cash"`, `"request[bid]"`)."""
        try:
            return self.names.index(name)
        except ValueError:
            from ..errors import UsageError
            raise UsageError(f"no observation feature {name!r}; the parts are "
                             f"{', '.join(self.parts)} (Layout.names lists every one)") from None

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
                shown = (_floats(counts) if name == "mortgaged" else  # houses, scaled
                         (np.array(counts, np.float32) * np.float32(self._per_house)).tobytes())
                known_counts = parts[name] = (list(counts), shown)
            part += known_counts[1]
        self._board = (game.board_version, part)
        return part

    def _shown(self, game: Game) -> list[float]:
        """Each seat's numeric SHOWN facts, scaled into [0, 1] (None: 0)."""
        out: list[float] = []
        scales = self._fact_scales
        for p in game.players:
            for (pid, fact), scale in zip(self.shown_facts, scales):
                value = read_shown(game, pid, fact, p)
                scaled = 0.0 if value is None else float(value) * scale
                out.append(0.0 if scaled < 0.0 else 1.0 if scaled > 1.0 else scaled)
        return out

    @staticmethod
    def _one_at(part: bytes, at: int) -> bytes:
        """`part` (float32 bytes) with a 1 at number `at`."""
        return part[:4 * at] + _ONE + part[4 * at + 4:]

    def vector(self, game: Game, me: int, request: Request | None) -> np.ndarray:
        """The observation of seat `me`."""
        players = game.players
        n = len(players)
        head: list[float] = []
        per_money, per_position = self._per_money, self._per_position
        per_supply, per_space = self._per_supply, self._per_space
        for p in players:
            cash = p.cash * per_money
            head += (p.position * per_position, cash if cash < 1.0 else 1.0,
                     p.houses_left * per_supply, p.bankrupt, len(p.spaces) * per_space)
        current = game.current
        who = (me, -1 if request is None else request.player.index,
               -1 if current is None else current.index)
        ones = self._ones.get(who)
        if ones is None:
            ones = self._ones_of(who, n)
        # what comes after the board: cards, pots, bank, deck, turns, then the request's part
        tail: list[float] = [0] * (len(self.cards) * n)
        if tail:
            index = self.card_index
            for p in players:
                for c in p.held:
                    held = index.get(c.text)
                    if held is not None:
                        tail[held * n + p.index] = 1
        pots = game.pots
        for name in self.pots:
            pot = pots[name].cash * per_money if name in pots else 0
            tail.append(1.0 if pot > 1.0 else pot)  # min(pot, 1.0), without its call
        bank = game.bank.cash * per_money
        deck = len(game.deck) * self._per_card
        turns = game.turns_played * self._per_turn
        tail += (1.0 if bank > 1.0 else bank, 1.0 if deck > 1.0 else deck,
                 1.0 if turns > 1.0 else turns)
        if self.shown_facts:
            tail += self._shown(game)
        # a bytearray: the agent's array is writable
        return np.frombuffer(bytearray(self._whole.pack(
            *head, ones, self._board_part(game), *tail, self._request(request))), _FLOAT32)

    def _ones_of(self, who: tuple[int, int, int], n: int) -> bytes:
        """The one-hots of the seat observing, the seat asked and the seat whose turn it
        is (-1: none) as float32 bytes, kept (a few of them serve a whole game)."""
        ones = [0] * (3 * n)
        me, asked, current = who
        ones[me] = 1
        if asked >= 0:
            ones[n + asked] = 1
        if current >= 0:
            ones[2 * n + current] = 1
        found = self._ones[who] = self._ones_struct.pack(*ones)
        return found

    def _request(self, request: Request | None) -> bytes | bytearray:
        """The request's part as float32 bytes: its space, amounts (scaled), parties, offer
        and kind."""
        if request is None:
            return self._unasked
        kind_only = self._asked.get(request.kind)
        if kind_only is None:
            kind_only = self._asked_other
        space = request.space
        offer = request.offer
        if (space is None and offer is None and request.high_bidder is None
                and request.creditor is None
                and not (request.high_bid or request.least or request.amount)):
            return kind_only  # its kind alone (the amounts' zeros are zero bytes)
        amounts, bidder_at, creditor_at, offerer_at, offer_at = self._request_offsets
        part = bytearray(kind_only)
        put = _FLOAT.pack_into
        per_money = self._per_money
        if offer is not None:
            party, price = deal_terms(offer)
            if price:  # a zero's bytes are there
                scaled = price * per_money
                put(part, amounts + 12, 1.0 if scaled > 1.0 else scaled)
            put(part, offerer_at + 4 * offer.player.index, 1.0)
            deal = self.deal_index.get(type(offer).__name__)
            if deal is not None:
                put(part, offer_at + 4 * deal, 1.0)
            acquires = type(offer).acquires
            if space is None and acquires is not None:
                space = getattr(offer, acquires, None)
        if space is not None:
            put(part, 4 * space.index, 1.0)
        if request.high_bid or request.least or request.amount:
            for k, amount in enumerate((request.high_bid, request.least, request.amount)):
                put(part, amounts + 4 * k, min(amount * per_money, 1.0))
        if request.high_bidder is not None:
            put(part, bidder_at + 4 * request.high_bidder.index, 1.0)
        creditor = request.creditor
        if creditor is not None:
            put(part, creditor_at + 4 * (creditor.index if isinstance(creditor, Player)
                                         else len(self.seats)), 1.0)
        return part

    def facts(self, game: Game, me: int, request: Request | None) -> dict[str, Any]:
        """The same facts as plain values, by name: the engine's one view of the state and
        of what is asked (easymoney.view), and `asked`, the request's kind, player
        and words as before it (kept for the agents that read it)."""
        asked = request_view(request)
        return {**state_view(game), "me": self.seats[me], "request": asked,
                "asked": None if asked is None else {"kind": asked["kind"],
                                                     "player": asked["player"],
                                                     "words": asked["words"]}}
