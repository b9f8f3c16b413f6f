"""Issue 18, rules that compose: every payment says what it is, and a hook can read it.

A house rule that sends taxes and fines to a pot reads the payment's kind in `em_collect`
(docs/plugins.md, "The kind of a payment"), instead of marking the player in `em_exempt`
and catching the next `em_collect`.
"""

from __future__ import annotations

import re
import types
from pathlib import Path
from typing import Any

from easymoney import hookimpl
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game, RuleSet
from easymoney.engine.ledger import PAYMENT_KINDS
from easymoney.loading.loader import load_variant
from test_third_party import registry_with

DOCS = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
NAMES = ["Ann", "Bob", "Cat"]

# a payment's reason, as the built-in rules word it -> the kind it must carry
EXPECTED = [(r"rent for ", "rent"), (r"^buying .* \(R9\)", "purchase"),
            (r"winning bid", "bid"), (r"building on", "building"),
            (r"^mortgage on", "mortgage"), (r"^redeeming", "redemption"),
            (r"traffic fine|Speed Trap", "fine"), (r"Tax \(R15\)", "tax"),
            (r"Bonus Corner", "bonus")]


def _card_kind(variant: Any, reason: str) -> list[str]:
    """A card's payment: a tax or a fine when the card is marked so, else a card's."""
    for card in variant.cards:
        if reason == f'"{card.text}" (R21)':
            return ["tax" if card.get("tax") else "fine" if card.get("traffic_fine") else "card"]
    return []


def _games(registry: Any, rules: tuple[str, ...], seeds: range) -> list[Game]:
    variant = load_variant("standard", registry=registry)
    ruleset = RuleSet(registry, (*variant.rules, *rules))
    games = []
    for seed in seeds:
        game = Game(variant, NAMES, BotDecider({n: make_strategy("greedy") for n in NAMES}),
                    seed=seed, ruleset=ruleset)
        game.setup()
        game.play(max_turns=150)
        games.append(game)
    return games


def test_issue18_every_payment_of_the_built_in_rules_has_its_kind() -> None:
    seen: list[tuple[str, str]] = []

    @hookimpl(tryfirst=True)
    def em_collect(game: Any, reason: str, kind: str) -> None:
        seen.append((reason, kind))

    listener = types.ModuleType("kinds_seen")
    listener.__dict__.update(PLUGIN_ID="kinds_seen", em_collect=em_collect)
    variant = _games(registry_with(listener), ("kinds_seen",), range(4))[0].variant
    kinds = {kind for _, kind in seen}
    assert {"rent", "purchase", "tax", "card", "bonus"} <= kinds <= set(PAYMENT_KINDS) - {"other"}
    for reason, kind in seen:
        wanted = [k for pattern, k in EXPECTED if re.search(pattern, reason)] + _card_kind(
            variant, reason)
        assert wanted[:1] in ([kind], []), (reason, kind)


def test_issue18_the_docs_free_parking_rule_reads_the_kind() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### The kind of a payment"):]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert code is not None
    module = types.ModuleType("free_parking")
    exec(compile(code.group(1), "docs/plugins.md", "exec"), module.__dict__)
    module.__dict__.setdefault("PLUGIN_ID", "free_parking")
    for game in _games(registry_with(module), ("free_parking",), range(3)):
        pot = game.pots["free_parking"]
        assert pot.cash > 0, "taxes and fines were paid into the pot"
        assert sum(p.cash for p in game.players) + game.bank.cash + sum(
            p.cash for p in game.pots.values()) == game.variant.bank_total
