"""bench/bare_loop.py, the bare loop of issue 37's figure: its tables are `standard`'s, it is
deterministic, and it plays the engine's games with 4 cautious bots (no valgrind here)."""

from __future__ import annotations

import re
import subprocess
import sys

from bench_modules import BENCH, load

from easymoney.bots import BotDecider
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant
from easymoney.strategies import make_strategy

bare = load("bare_loop")


def test_the_bare_loops_tables_are_the_standard_variants():
    v = load_variant("standard")
    assert len(v.spaces) == bare.N
    assert (v.starting_cash, v.smallest_bill, v.houses_per_player, v.houses_per_street) == \
        (bare.START_CASH, 10, bare.HOUSES, bare.LIMIT)
    kinds = {"street": bare.STREET, "utility": bare.UTILITY, "commercial": bare.COMMERCIAL,
             "legend": bare.LEGEND, "draw": bare.DRAW, "hospital": bare.HOSPITAL}
    for s in v.spaces:
        i, d = s.index, s.data
        assert bare.KIND[i] == kinds.get(s.kind, bare.OTHER), s
        if s.kind == "street":
            assert bare.STREETS[i] == (d["price"], d["mortgage"], tuple(d["rent"]))
            assert bare.SIDE[i] == s.side
        elif s.kind == "utility":
            assert bare.UTILITIES[i] == d.get("rent")
            assert d.get("rent_per_dice", bare.PHONE_PER_DICE) == bare.PHONE_PER_DICE
        elif s.kind == "commercial":
            assert bare.COMMERCIALS[i] == (d["rent"], d["mortgage"])
            assert d.get("score", bare.MILK_SCORE if i == bare.MILK_ROUTE else None) == \
                (bare.MILK_SCORE if i == bare.MILK_ROUTE else None)
        elif s.kind == "legend":
            to = bare.POT if d.get("to") == "hospital" else bare.BANK
            amount = d["receive"] if "receive" in d else -d["pay"]
            assert bare.LEGENDS[i] == (amount, to, bool(d.get("tax") or d.get("traffic_fine")))
        elif s.kind == "bonus":
            assert (i, d["amount"]) == (0, bare.BONUS)
        elif s.kind == "traffic_light":
            assert i in (bare.LIGHT, bare.LIGHT2) and d["fine"] == bare.LIGHT_FINE
    kinds = {"advance": bare.ADVANCE, "exemption": bare.EXEMPTION, "pay": bare.PAY,
             "pay_per_house": bare.PER_HOUSE, "collect_from_each": bare.BIRTHDAY,
             "take": bare.TAKE}
    assert len(v.cards) == len(bare.CARDS)
    for card, (kind, amount, to, waivable) in zip(v.cards, bare.CARDS):
        assert kinds[card.kind] == kind, card
        if card.kind == "advance":
            assert v.spaces[amount].name == card.to
        elif card.kind != "exemption":
            assert card.amount == amount
        assert bool(card.get("tax") or card.get("traffic_fine")) == waivable
        assert to == (bare.POT if card.get("to") == "hospital" else bare.BANK)


def test_the_bare_loop_ends_and_plays_the_same_games_again():
    first = [bare.play(seed) for seed in range(2)]
    assert first == [bare.play(seed) for seed in range(2)]
    assert all(how in ("bankruptcy", "bank", "turns") and turns > 0 for turns, how in first)
    assert bare.play(0, max_turns=30) == (30, "turns")


def test_the_bare_loop_plays_the_engines_games_with_cautious_bots():
    variant = load_variant("standard")
    names = ["P1", "P2", "P3", "P4"]
    for seed in range(3):
        game = Game(variant, [(n, "cautious") for n in names],
                    BotDecider({n: make_strategy("cautious") for n in names}), seed=seed,
                    keep_log=False)
        game.setup()
        game.play(max_turns=1000)
        ending = game.outcome.reason if game.outcome is not None else "turns"
        assert bare.play(seed) == (game.turns_played, ending), seed


def test_the_bare_loop_and_its_count_run_from_the_command_line():
    done = subprocess.run([sys.executable, str(BENCH / "bare_loop.py"), "--games", "2",
                           "--max-turns", "40"], capture_output=True, text=True, timeout=120,
                          check=True)
    assert re.search(r"^bare loop, standard, 4 x cautious, 2 games: 80 player-turns, 40\.0 a "
                     r"game; ended by bankruptcy 0%, bank 0%, turns 100%; [\d,]+ player-turns/s$",
                     done.stdout, re.M), done.stdout
    played = subprocess.run([sys.executable, str(BENCH / "instructions.py"), "--play-bare", "2"],
                            capture_output=True, text=True, timeout=120, check=True)
    assert played.stdout.split()[-1] == str(sum(bare.play(s)[0] for s in range(2)))
