"""The bare loop: the `standard` game in plain Python, the reference issue 37's figure divides by.

    python bench/bare_loop.py [--games N] [--max-turns T]

A benchmark reference, not a second engine: no pluggy, no hooks, no action objects, no
listing of legal actions; plain lists and ints (`cash[p] -= rent`) in one file, the way a
person writes a quick simulator. `bench/instructions.py --bare` counts its instructions a
player-turn, and `--ratio` divides the engine's count by it.

It plays the rules of `variants/standard.yaml` (docs/rulebook.md, R1-R30) for 4 players
with the `cautious` bot's policy (core/bots.py) written out as plain conditions:

- the board, the deck and the amounts are copied into the tables below (the test
  tests/test_bench_bare.py checks them against the variant); positions 41 and 42 are the
  two cells of the Red Traffic Light;
- a turn (R4, R6): two dice, doubles draw a Give or Take card first and then move the MAN
  back the total unless the card advanced it (R12); the Bonus Corner (R7), the traffic
  fine (R8), streets bought or auctioned (R9-R11), rent with houses and mortgages (R18,
  R19 `one_house`), Give or Take spaces (R14), legends and the Hospital pot (R15, R15a),
  the deck with its reshuffles and the Special Exemption card (R16, R21, R21a), four sides
  (R13), the house supply (R3), building and redeeming in the window after the landing
  (R17, R20), mortgaging to pay a debt, bankruptcy at the first one (R23-R27), the Bank
  paying what it has and breaking (R2, R27), amounts in whole $10 (R30);
- the cautious bot: keeps $2,000; buys a street when it keeps that much after; bids
  toward the space's value with one house (R28) or its cash above $2,000, in steps of a
  quarter of that; after the landing redeems the first mortgaged space it can pay twice
  over, else builds a house on its cheapest street; to pay a debt mortgages its least
  valuable space first, and goes bankrupt when nothing is left.

It draws from `random.Random(seed)` in the engine's order (the deck shuffled at setup,
`int(random() * 6) + 1` for each die), so game i with seed i is the engine's game i with 4
cautious bots, turn for turn, as far as the rules above go. Left out, because neither
`standard` nor the cautious bot ever uses them: sales between players and offers (R22,
R22a; the bot never sells), the sale of the Special Exemption card (R16), a chain of Give
or Take cards (R14: no card of the deck advances to a Give or Take space), any-moment
actions, players after a bankruptcy (the game ends at the first), the event log, scoring
and the winner (R28, R29: a benchmark needs how a game ends, not who wins).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

# --- the board (variants/standard.yaml) -------------------------------------------------------
STREET, UTILITY, COMMERCIAL, LEGEND, DRAW, HOSPITAL, OTHER = range(7)
N = 48              # spaces; 41 and 42 are the Red Traffic Light's two cells
START_CASH = 20000
BANK_TOTAL = 300000
HOUSES = 16         # a player's supply (R3)
LIMIT = 5           # houses on a street (R17)
BONUS = 2500        # the Bonus Corner, space 0 (R7)
LIGHT, LIGHT2, LIGHT_FINE = 41, 42, 100  # R8
RESERVE = 2000      # the cautious bot's cash reserve
FIRST_BID, INCREMENT = 100, 10  # R11

# index: (kind, price, mortgage, rent (a street: the rents for 1..5 houses), side)
STREETS = {
    1: (600, 300, (60, 240, 660, 1320, 2100)), 3: (800, 400, (80, 320, 880, 1760, 2800)),
    5: (1100, 550, (110, 440, 1210, 2420, 3850)), 7: (700, 350, (70, 280, 770, 1540, 2450)),
    9: (1400, 700, (140, 560, 1540, 3080, 4900)), 11: (900, 450, (90, 360, 990, 1980, 3150)),
    13: (1000, 500, (100, 400, 1100, 2200, 3500)), 15: (1600, 800, (160, 640, 1760, 3520, 5600)),
    17: (750, 380, (80, 300, 830, 1650, 2630)), 19: (1200, 600, (120, 480, 1320, 2640, 4200)),
    21: (1800, 900, (180, 720, 1980, 3960, 6300)), 25: (850, 430, (90, 340, 940, 1870, 2980)),
    27: (1300, 650, (130, 520, 1430, 2860, 4550)), 29: (1100, 550, (110, 440, 1210, 2420, 3850)),
    31: (1700, 850, (170, 680, 1870, 3740, 5950)), 33: (2000, 1000, (200, 800, 2200, 4400, 7000)),
    35: (950, 480, (100, 380, 1050, 2090, 3330)), 37: (1500, 750, (150, 600, 1650, 3300, 5250)),
    39: (1900, 950, (190, 760, 2090, 4180, 6650)), 43: (1250, 630, (130, 500, 1380, 2750, 4380)),
    45: (650, 330, (70, 260, 720, 1430, 2280)), 47: (1050, 530, (110, 420, 1160, 2310, 3680)),
}
UTILITIES = {4: 250, 14: 300, 28: None, 32: 300, 40: 400}  # None: $50 times the dice (R18)
PHONE_PER_DICE = 50
COMMERCIALS = {8: (500, 1500), 18: (600, 1800), 22: (300, 1000), 30: (700, 2000), 44: (550, 1600)}
MILK_ROUTE, MILK_SCORE = 22, 1100  # scored at $1,100 whatever its rent (R28)
BANK, POT = -1, -2  # payees other than a player: the Bank, the Hospital pot
# index: (amount, + received / - paid, payee, waived by the exemption card (a tax or a fine))
LEGENDS = {2: (250, BANK, False), 6: (-1000, BANK, True), 10: (-500, POT, False),
           16: (300, BANK, False), 20: (-200, BANK, True), 26: (-1000, POT, False),
           34: (-500, BANK, True), 36: (500, BANK, False), 38: (-400, BANK, False),
           46: (200, BANK, False)}
DRAWS = (12, 23)
HOSPITAL_AT = 24


def side(i: int) -> int:
    """R13: spaces 1-11, 13-23, 25-35, 37-47 are sides 1 to 4 (streets only count)."""
    return i // 12 + 1


KIND = [OTHER] * N
for _i in STREETS:
    KIND[_i] = STREET
for _i in UTILITIES:
    KIND[_i] = UTILITY
for _i in COMMERCIALS:
    KIND[_i] = COMMERCIAL
for _i in LEGENDS:
    KIND[_i] = LEGEND
for _i in DRAWS:
    KIND[_i] = DRAW
KIND[HOSPITAL_AT] = HOSPITAL
PRICE = [STREETS[i][0] if i in STREETS else 0 for i in range(N)]
MORTGAGE = [STREETS[i][1] if i in STREETS else COMMERCIALS[i][1] if i in COMMERCIALS else 0
            for i in range(N)]
RENTS = [STREETS[i][2] if i in STREETS else () for i in range(N)]
SIDE = [side(i) if i in STREETS else 0 for i in range(N)]


def value(i: int, houses: int) -> int:
    """R28: what space i is worth with `houses` on it (the bot's auction ceiling and the
    order it mortgages in)."""
    if KIND[i] == STREET:
        return PRICE[i] * houses
    if i == MILK_ROUTE:
        return MILK_SCORE
    if KIND[i] == COMMERCIAL:
        return 3 * COMMERCIALS[i][0]
    rent = UTILITIES[i]
    return 3 * (PHONE_PER_DICE * 7 if rent is None else rent)


# --- the Give or Take deck (24 cards, in the variant's order before the shuffle) --------------
ADVANCE, EXEMPTION, PAY, PER_HOUSE, BIRTHDAY, TAKE = range(6)
# (kind, amount or target space, payee of a payment, waived by the exemption card)
CARDS = [(ADVANCE, 30, BANK, False)] * 2 + [(ADVANCE, 18, BANK, False)] * 2 + [
    (ADVANCE, 0, BANK, False), (EXEMPTION, 0, BANK, False), (PAY, 300, POT, False),
    (PER_HOUSE, 100, BANK, True), (PAY, 150, BANK, True), (BIRTHDAY, 200, BANK, False),
    *((TAKE, a, BANK, False) for a in (100, 200, 250, 300, 500, 750, 1000)),
    *((PAY, a, BANK, False) for a in (100, 200, 250, 300, 500, 750, 1000)),
]


class GameOver(Exception):
    """The game ended in the middle of a turn: "bankruptcy" or "bank" (R27)."""


def play(seed: int, max_turns: int = 1000, players: int = 4) -> tuple[int, str]:
    """One game of cautious bots; (player-turns played, how it ended: "bankruptcy", "bank"
    or "turns")."""
    rng = random.Random(seed)
    r = rng.random
    deck = list(CARDS)
    rng.shuffle(deck)
    discard: list[tuple] = []
    cash = [START_CASH] * players
    bank = BANK_TOTAL - START_CASH * players
    pot = 0
    pos = [0] * players
    houses_left = [HOUSES] * players
    spaces: list[list[int]] = [[] for _ in range(players)]  # what each owns, in board order
    owner = [-1] * N
    houses = [0] * N
    mortgaged = [False] * N
    holder = -1  # who holds the Special Exemption card

    def credit(to: int, amount: int) -> None:
        nonlocal bank, pot
        if to >= 0:
            cash[to] += amount
        elif to == BANK:
            bank += amount
        else:
            pot += amount

    def from_bank(p: int, amount: int) -> None:
        """The Bank pays; short of cash it pays what it has and is broken (R27)."""
        nonlocal bank
        if amount > bank:
            cash[p] += bank
            bank = 0
            raise GameOver("bank")
        bank -= amount
        cash[p] += amount

    def pay(p: int, amount: int, to: int) -> None:
        """A debt (R23): short of cash, mortgage the least valuable space first (R25), and
        with nothing left go bankrupt: the creditor takes the cash, the game ends (R26, R27)."""
        if cash[p] < amount:
            for i in sorted((i for i in spaces[p] if not mortgaged[i] and MORTGAGE[i]),
                            key=lambda i: (value(i, houses[i]), i)):
                mortgaged[i] = True
                from_bank(p, MORTGAGE[i])
                if cash[p] >= amount:
                    break
            else:
                credit(to, cash[p])
                cash[p] = 0
                raise GameOver("bankruptcy")
        cash[p] -= amount
        credit(to, amount)

    def charge(p: int, amount: int, to: int, waivable: bool) -> None:
        """A printed charge; taxes and traffic fines are waived for the card's holder (R16)."""
        if not (waivable and holder == p):
            pay(p, amount, to)

    def four_sides(p: int) -> bool:
        return len({SIDE[i] for i in spaces[p] if SIDE[i]}) == 4

    def may_acquire(p: int, i: int) -> bool:
        """R3 (a house to mark it) and R13 (one street a side until all four)."""
        if houses_left[p] < 1:
            return False
        return not SIDE[i] or four_sides(p) or all(SIDE[j] != SIDE[i] for j in spaces[p])

    def acquire(p: int, i: int) -> None:
        owner[i] = p
        houses[i] = 1
        houses_left[p] -= 1
        spaces[p].append(i)
        spaces[p].sort()

    def auction(i: int, starter: int) -> None:
        """R11: rising bids from the lander on in turn order; one who passes is out."""
        worth = value(i, 1)
        bidders = [(starter + k) % players for k in range(players)]
        high, leader, least, k = 0, -1, FIRST_BID, 0
        while bidders and not (len(bidders) == 1 and bidders[0] == leader):
            k %= len(bidders)
            b = bidders[k]
            bid = 0
            if houses_left[b] > 0:
                ceiling = min(worth, cash[b] - RESERVE)
                if least <= ceiling and may_acquire(b, i):
                    bid = max(least, min(ceiling, high + ceiling // 4 // 10 * 10))
            if bid:
                high, leader, least = bid, b, bid + INCREMENT
                k += 1
            else:
                del bidders[k]
        if leader >= 0:
            pay(leader, high, BANK)
            acquire(leader, i)

    def land(p: int, total: int) -> None:
        nonlocal pot
        i = pos[p]
        kind = KIND[i]
        if kind <= COMMERCIAL:  # a street, a utility or a commercial building
            o = owner[i]
            if o < 0:
                if kind == STREET and cash[p] - PRICE[i] >= RESERVE and may_acquire(p, i):
                    pay(p, PRICE[i], BANK)  # R9
                    acquire(p, i)
                else:
                    auction(i, p)  # R9 declined, R10
            elif o != p:  # R18
                if kind == STREET:
                    rent = RENTS[i][0 if mortgaged[i] else houses[i] - 1]
                elif kind == COMMERCIAL:
                    rent = COMMERCIALS[i][0]
                else:
                    rent = UTILITIES[i] or PHONE_PER_DICE * total
                pay(p, rent, o)
        elif kind == LEGEND:  # R15
            amount, to, waivable = LEGENDS[i]
            if amount > 0:
                from_bank(p, amount)
            else:
                charge(p, -amount, to, waivable)
        elif kind == DRAW:  # R14
            draw(p, total)
        elif kind == HOSPITAL and pot:  # R15a
            cash[p] += pot
            pot = 0

    def move(p: int, steps: int, total: int) -> None:
        """R6: forward (or back, after doubles), the light's fine and the bonus on the way."""
        start = pos[p]
        end = pos[p] = (start + steps) % N
        if steps > 0:
            if start != LIGHT and start != LIGHT2 and end != LIGHT and end != LIGHT2 \
                    and (LIGHT - start - 1) % N < steps:
                charge(p, LIGHT_FINE, BANK, True)  # R8
            if (-start - 1) % N < steps:
                from_bank(p, BONUS)  # R7
        land(p, total)

    def draw(p: int, total: int) -> bool | None:
        """R21: the top card, followed; True when it moved the MAN (an advance card), None
        when no card is left to draw."""
        nonlocal deck, discard, holder
        if not deck:
            if not discard:
                return None
            deck, discard = discard, []
            rng.shuffle(deck)
        card = deck.pop()
        kind, amount, to, waivable = card
        if kind == ADVANCE:  # R21a
            move(p, (amount - pos[p]) % N, total)
        elif kind == EXEMPTION:  # R16: kept, never back in the deck
            holder = p
            return False
        elif kind == PAY:
            charge(p, amount, to, waivable)
        elif kind == PER_HOUSE:
            charge(p, amount * sum(houses[i] for i in spaces[p]), to, waivable)
        elif kind == BIRTHDAY:
            for o in range(players):
                if o != p:
                    pay(o, amount, p)
        else:
            from_bank(p, amount)
        discard.append(card)
        return kind == ADVANCE

    def window(p: int) -> None:
        """R5, R17, R20: the cautious bot redeems, else builds, while it has the cash."""
        while True:
            spare = cash[p] - RESERVE
            for i in spaces[p]:
                if mortgaged[i] and spare >= 2 * MORTGAGE[i]:
                    pay(p, (MORTGAGE[i] * 110 + 500) // 1000 * 10, BANK)  # M + 10%, R30
                    mortgaged[i] = False
                    break
            else:
                if houses_left[p] < 1:
                    return
                best = -1
                for i in spaces[p]:
                    if KIND[i] == STREET and not mortgaged[i] and houses[i] < LIMIT \
                            and (best < 0 or PRICE[i] < PRICE[best]):
                        best = i
                if best < 0 or PRICE[best] > spare or not four_sides(p):
                    return
                pay(p, PRICE[best], BANK)
                houses[best] += 1
                houses_left[p] -= 1

    turns = 0
    p = 0
    try:
        while turns < max_turns:
            d1, d2 = int(r() * 6) + 1, int(r() * 6) + 1
            total = d1 + d2
            if d1 != d2:
                move(p, total, total)
            else:  # R12: doubles draw a card first, then move back unless it advanced the MAN
                moved = draw(p, total)
                if moved is None:
                    move(p, total, total)
                elif not moved:
                    move(p, -total, total)
            window(p)
            turns += 1
            p = (p + 1) % players
    except GameOver as over:
        return turns, str(over)
    return turns, "turns"


def play_games(seeds: range, max_turns: int = 1000) -> tuple[int, dict[str, int]]:
    """The player-turns of the games of `seeds`, and how many ended each way."""
    turns, endings = 0, {"bankruptcy": 0, "bank": 0, "turns": 0}
    for seed in seeds:
        t, how = play(seed, max_turns)
        turns += t
        endings[how] += 1
    return turns, endings


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300, help="games, seeds 0 to N-1 (default 300)")
    p.add_argument("--max-turns", type=int, default=1000, help="player-turns a game at most")
    args = p.parse_args(argv)
    start = time.perf_counter()
    turns, endings = play_games(range(args.games), args.max_turns)
    seconds = time.perf_counter() - start
    shares = ", ".join(f"{how} {n / args.games:.0%}" for how, n in endings.items())
    print(f"bare loop, standard, 4 x cautious, {args.games} games: {turns:,} player-turns, "
          f"{turns / args.games:,.1f} a game; ended by {shares}; "
          f"{turns / seconds:,.0f} player-turns/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
