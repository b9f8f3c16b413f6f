"""Issue 29, part 2: a two-way trade is judged for both sides by R13 and R3 with no code of
its own. The swap test plugin (tests/plugins/swap_plugin, written from docs/plugins.md
alone) declares only which spaces change hands and to whom (`hands_over`)."""

from __future__ import annotations

from easymoney import Action, new_game
from easymoney.engine.legal import is_listed
from easymoney.plugins import houses
from rules.conftest import play, refused

SWAP = "with swap\n"


def test_r13_a_swap_is_judged_for_both_sides() -> None:
    # Bob would own Highland Avenue and Grove Street on side 2 with no street on 3 and 4
    refused(SWAP + """
        setup Ann owns "Grove Street"
        setup Bob owns "Dover Street"
        setup Bob owns "Highland Avenue"
        Ann swaps "Grove Street" for "Dover Street" with Bob and 0
    """, "R13", "four_sides", "Bob owns Highland Avenue on side 2 and has no street on sides 3, 4")


def test_r13_the_actors_side_of_a_swap_is_judged_too() -> None:
    message = refused(SWAP + """
        setup Ann owns "Grove Street"
        setup Ann owns "Beacon Street"
        setup Bob owns "Dover Street"
        Ann swaps "Grove Street" for "Dover Street" with Bob and 0
    """, "R13", "four_sides", "Ann owns Beacon Street on side 1 and has no street on sides 3, 4")
    assert "Bob owns" not in message  # Bob's side, Grove Street, is his first on side 2


def test_r13_both_sides_refused_say_both() -> None:
    refused(SWAP + """
        setup Ann owns "Grove Street"
        setup Ann owns "Beacon Street"
        setup Bob owns "Dover Street"
        setup Bob owns "Highland Avenue"
        Ann swaps "Grove Street" for "Dover Street" with Bob and 0
    """, "R13", "four_sides", "Ann owns Beacon Street on side 1",
        "Bob owns Highland Avenue on side 2")


def test_r3_a_swap_needs_a_house_from_the_receivers_supply() -> None:
    # Bob's 16 houses are all on the board; a utility is outside R13
    refused(SWAP + """
        setup Ann owns "Airdale Bus Line"
        setup Bob owns "Dover Street"
        setup Bob owns "Grove Street" 5 houses
        setup Bob owns "Lincoln Street" 5 houses
        setup Bob owns "Riverside Drive" 5 houses
        Ann swaps "Airdale Bus Line" for "Dover Street" with Bob and 0
    """, "R3", "houses", "Bob has no house left in their supply and taking over Airdale Bus "
                         "Line needs 1")


def test_r3_one_receiver_of_two_spaces_needs_a_house_for_each() -> None:
    from easymoney_test_swap import Swap
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["swap"])
    game = state.game
    ann, bob = game.players
    dover, grove = game.spaces[7], game.spaces[13]
    game.acquire(bob, dover)
    game.acquire(bob, grove)
    ann.houses_left = 1
    # a trade handing both to Ann, by the same traits, as R3 judges it
    both = type("Both", (Swap,), {"__slots__": (), "hands_over": (("gives", "player"),
                                                                   ("gets", "player"))})
    (refusal,) = houses.em_refusals(game, both(ann, dover, grove, bob, 0)) or []
    assert refusal.reason == ("Ann has only 1 house left in their supply and taking over Dover "
                              "Street and taking over Grove Street needs 2")


def test_r22a_an_allowed_swap_plays_with_its_cash() -> None:
    play(SWAP + """
        setup Ann owns "Dover Street"
        setup Bob owns "Grove Street"
        Ann swaps "Dover Street" for "Grove Street" with Bob and 200
        expect "Dover Street" owner Bob
        expect "Grove Street" owner Ann
        expect Ann cash 19800
        expect Bob cash 20200
        expect Ann houses left 15
        expect Bob houses left 15
    """)


def test_r13_r3_the_listing_offers_only_the_swaps_the_rules_allow() -> None:
    from easymoney_test_swap import Swap
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["swap"])
    game = state.game
    ann, bob = game.players
    for owner, index in ((ann, 3), (ann, 13), (ann, 4), (bob, 7), (bob, 15), (bob, 25)):
        game.acquire(owner, game.spaces[index])  # sides 1, 2, utility / 1, 2, 3
    listed = state.legal_actions()
    judged: dict[bool, list[str]] = {True: [], False: []}
    for gives in game.spaces:
        for gets in game.spaces:
            for cash in (0, 200):
                swap: Action = Swap(ann, gives, gets, bob, cash)
                allowed = not game.refusals(swap)
                assert is_listed(listed, swap) == allowed, str(swap)
                judged[allowed].append(str(swap))
    # R13 refuses Beacon Street for Dover Street to both (side 1) and keeps other swaps
    assert 'Ann swaps "Beacon Street" for "Dover Street" with Bob and 0' in judged[False]
    assert 'Ann swaps "Airdale Bus Line" for "Lincoln Street" with Bob and 200' in judged[True]
    assert 'Ann swaps "Airdale Bus Line" for "Dover Street" with Bob and 0' in judged[False]
