"""Issue 30: learning agents that learn: episodes that end (part 1), an observation that
says what is asked (part 2), rewards a learner can use (part 3), a compact action space
(part 4) and the ecosystem's conventions (part 5)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")

import easymoney.agents as agents  # noqa: E402
from agent_helpers import classic_env, classic_single  # noqa: E402
from easymoney.engine.actions import WINDOW_KINDS  # noqa: E402
from easymoney.errors import EasyMoneyError, UsageError  # noqa: E402


def play_policy(env, seed: int, pick: int) -> int:
    """Every seat takes its `pick`-th legal slot (0 first, -1 last) until every seat is
    done; the steps taken (the test fails if the episode does not end)."""
    env.reset(seed=seed)
    taken = 0
    for _ in env.agent_iter(10 * env.table.max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[pick]))
        taken += 1
    assert env.agents == [], f"seed {seed}: the episode did not end"
    return taken


@pytest.mark.parametrize("pick", [0, -1])
def test_issue30_deterministic_policies_end_every_episode(pick):
    env = classic_env("standard", 2, seed=0, state_info=False)
    for seed in range(3):
        play_policy(env, seed, pick)
        table = env.table
        # ended by the game or its turn limit, never by the step limit (the last resort)
        assert table.state.is_over or table.state.game.turns_played >= table.max_turns


@pytest.mark.parametrize("lone", ["ask", "skip"])
def test_issue30_max_steps_truncates_in_steps(lone):
    env = classic_env("standard", 2, seed=0, max_steps=40, state_info=False, lone_windows=lone)
    taken = play_policy(env, 0, 0)
    # every step of the game counts, the lone windows the table took too (issue 37)
    assert env.table.state.steps - env.table._first_step == 40
    assert taken == 40 if lone == "ask" else taken < 40
    assert env.table.state.outcome is None
    env.reset(seed=0)
    assert not env.truncations["Ann"]  # a new episode counts its steps from 0


def reset_owning(env, spaces, seed: int = 0) -> None:
    """`env.reset(seed)` with Ann owning `spaces` (board indices) from the start: her first
    window offers them, and is asked (a lone window would be taken at the reset)."""
    table = env.table
    made = table._new

    def owning(number: int):
        state = made(number)
        game = state.game
        for k in spaces:
            game.change_owner(game.spaces[k], game.players[0])
        state._legal = None
        return state

    table._new = owning
    try:
        env.reset(seed=seed)
    finally:
        del table._new


def window_owner_actions(env) -> list[str]:
    """The names of the slots the window's owner may take now."""
    return [env.catalogue.name(int(s)).split()[0] for s in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]


@pytest.mark.parametrize("lone", ["ask", "skip"])
def test_issue30_a_window_closes_after_its_bounded_actions(lone):
    """With `window_actions=2`, after two mortgages only the roll is left in the window:
    asked (`lone_windows="ask"`), or taken by the environment (issue 37)."""
    env = classic_env("standard", 2, seed=0, window_actions=2, state_info=False,
                      lone_windows=lone)
    reset_owning(env, [1, 2, 3])  # Ann owns three spaces: three mortgages could be taken
    state = env.table.state
    cat = env.catalogue
    for _ in range(2):
        assert state.request.kind in WINDOW_KINDS and env.agent_selection == "Ann"
        names = window_owner_actions(env)
        assert "Mortgage" in names and "Roll" in names
        slot = next(int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                    if cat.name(int(s)).startswith("Mortgage"))
        env.step(slot)
    if lone == "ask":
        assert window_owner_actions(env) == ["Roll"]
        env.step(int(np.flatnonzero(env.observe("Ann")["action_mask"])[0]))  # the roll
    assert state.history[2].startswith("Ann rolls ")  # the roll, in the record either way
    assert env.table._window_actions == 0  # the window closed: the next one counts anew


def test_issue30_a_mortgage_is_not_redeemed_in_the_turn_it_was_taken():
    """A mortgage and its redemption in one turn move nothing but the Bank's interest: the
    mask leaves the redemption of a space mortgaged in this turn out, in both its windows
    (the rules still allow it), and the next turn offers it again."""
    env = classic_env("standard", 2, seed=0, state_info=False)
    streets = [s.index for s in env.table.state.game.spaces if s.kind == "street"][:2]
    reset_owning(env, streets)
    state = env.table.state
    game = state.game
    ann = game.players[0]
    streets = [game.spaces[k] for k in streets]
    game.set_mortgaged(streets[1], True)  # mortgaged before this window: redeemable in it
    state._legal = None
    cat = env.catalogue

    def offered(prefix: str) -> list[str]:
        return [cat.name(int(s)) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                if cat.name(int(s)).startswith(prefix)]

    first, second = (f"space={s.index}" for s in streets)
    assert offered("Redeem") == [f"Redeem {second}"]
    env.step(next(int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                  if cat.name(int(s)) == f"Mortgage {first}"))
    assert offered("Redeem") == [f"Redeem {second}"]  # not the one just mortgaged
    assert f'Ann redeems "{streets[0].name}"' in map(str, state.legal_actions())  # the rules allow it: the mask leaves it out
    env.step(next(int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                  if cat.name(int(s)) == f"Redeem {second}"))
    assert offered("Mortgage") == []  # nor is what was redeemed mortgaged again
    env.step(next(int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                  if cat.name(int(s)) == "Roll"))
    while env.agent_selection == "Ann" and state.request.kind not in WINDOW_KINDS:
        env.step(int(np.flatnonzero(env.observe("Ann")["action_mask"])[-1]))  # decline, pass
    if state.request.kind in WINDOW_KINDS and state.request.player is ann:  # after the throw
        assert offered("Redeem") == [] and offered("Mortgage") == []
    turn = state.game.turns_played
    while not (state.game.turns_played > turn and state.request.player is ann
               and state.request.kind in WINDOW_KINDS):  # to Ann's next window
        mask = env.observe(env.agent_selection)["action_mask"]
        names = [cat.name(int(s)) for s in np.flatnonzero(mask)]
        wanted = next((n for n in ("Roll", "EndTurn", "Decline space=asked", "Pass space=asked")
                       if n in names), names[0])  # no trade, no sale: the streets stay Ann's
        env.step(int(np.flatnonzero(mask)[names.index(wanted)]))
    assert f"Redeem {first}" in offered("Redeem")  # a new turn: offered again


def test_issue30_raise_in_windows_false_leaves_mortgages_to_debts():
    """`raise_in_windows=False`: a window offers no mortgage (money from the Bank), though
    sales to players stay; a request to raise money owed (R25) still offers mortgages.
    The default offers them in windows as the rules do."""
    env = classic_env("standard", 2, seed=0, raise_in_windows=False, state_info=False)
    default = classic_env("standard", 2, seed=0, state_info=False)
    for e in (env, default):
        reset_owning(e, [1, 2, 3])
    assert env.table.state.request.kind in WINDOW_KINDS
    names = window_owner_actions(env)
    assert "Mortgage" not in names and "Sell" in names and "Roll" in names
    assert "Mortgage" in window_owner_actions(default)
    # the rules still allow the mortgage: only the mask leaves it out
    assert any(str(a).startswith("Ann mortgages") for a in env.table.state.legal_actions())
    rng = np.random.default_rng(0)
    raised = 0
    env.reset(seed=3)
    for _ in decisions(env, rng, 20000):
        request = env.table.state.request
        names = [env.catalogue.name(int(s)).split()[0] for s in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]
        assert request.kind not in WINDOW_KINDS or "Mortgage" not in names
        raised += request.kind == "raise" and "Mortgage" in names
    assert raised  # debts were raised by mortgages in the game


def test_issue30_a_rejected_offer_is_not_offered_again_without_the_offers_rule():
    """Without R22a (`offers` off) the environment leaves a rejected deal out of the mask
    for the rest of the window, at every price."""
    env = classic_env("standard", 2, seed=0, disable=["offers"], state_info=False)
    assert env.table.drop_rejected
    reset_owning(env, [1])
    cat = env.catalogue
    sells = [int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
             if cat.name(int(s)).startswith("Sell space=1 ")]
    assert sells
    env.step(sells[-1])
    assert env.agent_selection == "Bob"
    reject = next(int(s) for s in np.flatnonzero(env.observe("Bob")["action_mask"])
                  if cat.name(int(s)) == "Reject")
    env.step(reject)
    assert env.agent_selection == "Ann"
    left = {cat.name(int(s)) for s in np.flatnonzero(env.observe("Ann")["action_mask"])}
    assert not any(n.startswith("Sell space=1 ") for n in left)
    assert classic_env("standard", 2, seed=0).table.drop_rejected is False  # R22a does it


@pytest.mark.parametrize("option, value", [("max_steps", 0), ("max_steps", "many"),
                                            ("window_actions", -1), ("max_turns", 1.5),
                                            ("window_actions", True),
                                            ("raise_in_windows", "no")])
def test_issue30_an_out_of_range_option_is_one_error(option, value):
    for make in (agents.env, agents.single):
        with pytest.raises(UsageError, match=option) as caught:
            make("standard", seed=0, **{option: value})
        assert "\n" not in str(caught.value) and isinstance(caught.value, EasyMoneyError)


def decisions(env, rng, limit: int):
    """Each live decision's observation (the dead seats' closing steps taken); after the
    caller's look, a random masked step."""
    for _ in env.agent_iter(limit):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield obs
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def step_until(env, kind: str, rng, limit: int = 20000):
    """Random masked steps until the game asks a request of `kind`; its observation."""
    if not env._started:
        env.reset(seed=env.table.next_seed)
    for obs in decisions(env, rng, limit):
        if env.table.state.request.kind == kind:
            return obs["observation"]
    raise AssertionError(f"no {kind} request")


def test_issue30_the_observation_is_named_and_bounded():
    env = classic_env("standard", 2, seed=0)
    space = env.observation_space("Ann")["observation"]
    names = env.observation_names()
    assert len(names) == space.shape[0] == len(set(names))
    assert np.all(space.low == 0) and np.all(space.high == 1)
    layout = env.table.layout
    assert names[layout.index("seat[Bob].cash")] == "seat[Bob].cash"
    assert {"seat", "owner", "space", "amount", "offerer", "offer", "request"} <= set(layout.parts)
    with pytest.raises(UsageError, match="no observation feature 'nosuch'"):
        layout.index("nosuch")
    env.reset(seed=0)
    rng = np.random.default_rng(2)
    for _ in range(300):
        obs, _, term, trunc, _ = env.last()
        assert space.contains(obs["observation"])
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_issue30_the_observation_says_what_an_offer_asks():
    """An agree request shows the offered space, price, offerer and deal type."""
    env = classic_env("standard", 2, seed=0)
    layout = env.table.layout
    vector = step_until(env, "agree", np.random.default_rng(0))
    request = env.table.state.request
    offer = request.offer
    assert vector[layout.index(f"space[{offer.space.index}]")] == 1
    assert vector[layout.parts["space"]].sum() == 1
    assert round(float(vector[layout.index("amount.price")]) * layout.money) == offer.price
    assert vector[layout.index(f"offerer[{offer.player.name}]")] == 1
    assert vector[layout.index(f"offer[{type(offer).__name__}]")] == 1
    assert vector[layout.index("request[agree]")] == 1
    info = env.last()[4]  # the readable state keeps the offer's terms in words and numbers
    assert info["state"]["request"]["offer"]["price"] == offer.price


def test_issue30_the_observation_says_what_an_auction_and_a_debt_ask():
    env = classic_env("standard", 2, seed=1)
    layout = env.table.layout
    rng = np.random.default_rng(1)
    vector = step_until(env, "bid", rng)
    request = env.table.state.request
    assert vector[layout.index(f"space[{request.space.index}]")] == 1
    assert round(float(vector[layout.index("amount.least")]) * layout.money) == request.least
    vector = step_until(env, "raise", rng)
    request = env.table.state.request
    assert round(float(vector[layout.index("amount.debt")]) * layout.money) == request.amount
    creditor = request.creditor
    seat = getattr(creditor, "name", None)
    which = f"creditor[{seat}]" if seat in layout.seats else "creditor[Bank]"
    assert vector[layout.index(which)] == 1


def random_episode(env, seed: int) -> dict[str, float]:
    """Each seat's sum of rewards over a random masked episode."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(50000):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return total


@pytest.mark.parametrize("shaping", ["worth", "equity"])
@pytest.mark.parametrize("max_turns", [4, 1000])
def test_issue30_worth_shaping_telescopes(max_turns, shaping):
    """R28 shaping with gamma 1: a seat's rewards sum to its terminal reward plus
    Phi(last) - Phi(first), Phi the worth (or equity) share (0 once terminated)."""
    plain = classic_env("standard", 2, seed=3, max_turns=max_turns, state_info=False)
    shaped = classic_env("standard", 2, seed=3, max_turns=max_turns, state_info=False,
                        shaping=shaping)
    terminal = random_episode(plain, 3)
    first = {a: 0.5 for a in shaped.possible_agents}  # equal worths at the start
    total = random_episode(shaped, 3)
    assert shaped.table.state.history == plain.table.state.history  # shaping moves nothing
    table = shaped.table
    for k, agent in enumerate(shaped.possible_agents):
        done = table.state.is_over or table.state.game.players[k].bankrupt
        last = table.potential(k, done)
        assert total[agent] == pytest.approx(terminal[agent] + last - first[agent])
    assert any(abs(v) > 0 for v in total.values())


def test_issue30_worth_shaping_telescopes_with_a_discount_in_the_single_seat_env():
    """sum_k gamma^k r_k = sum_k gamma^k R_k + gamma^K Phi(s_K) - Phi(s_0)."""
    gamma = 0.9
    envs = [classic_single("standard", seed=5, max_turns=30, shaping=shaping, gamma=gamma)
            for shaping in (None, "worth")]
    sums = []
    for env in envs:
        obs, _ = env.reset(seed=5)
        first = env.table.potential(env.me, False)
        rng = np.random.default_rng(5)
        total, k, done = 0.0, 0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            total += gamma ** k * reward
            k += 1
            done = term or trunc
        sums.append((total, k, term, first, env.table.potential(env.me, term)))
    (plain, k, term, _, _), (shaped, k2, _, first, last) = sums
    assert k == k2
    assert shaped == pytest.approx(plain + gamma ** k * last - first)


def test_issue30_equity_counts_a_mortgage_as_no_loss_and_a_redemption_as_its_interest():
    """`shaping="equity"`: R28 scores a mortgaged space at nothing, so the worth falls by
    the street's value less its mortgage value at a mortgage and rises by nearly as much at
    the redemption; the equity does not move on a mortgage and falls by the interest on a
    redemption."""
    env = classic_env("standard", 2, seed=0, state_info=False, shaping="equity")
    env.reset(seed=0)
    table = env.table
    game = table.state.game
    ann = game.players[0]
    street = next(s for s in game.spaces if s.kind == "street")
    ann.cash -= street.price
    game.change_owner(street, ann)
    game.houses[street.index] = 1  # bought with its first house (R9)
    before, worth = table.equity(ann), game.worth(ann)
    assert before == worth
    ann.cash += street.mortgage
    game.set_mortgaged(street, True)
    assert game.worth(ann) == worth - street.price + street.mortgage
    assert table.equity(ann) == before
    interest = street.mortgage // 10
    ann.cash -= street.mortgage + interest
    game.set_mortgaged(street, False)
    assert table.equity(ann) == before - interest == game.worth(ann)


def test_issue30_worth_share_rewards_the_share_at_the_end():
    env = classic_env("standard", 2, seed=2, max_turns=6, state_info=False, reward="worth_share")
    total = random_episode(env, 2)
    assert env.table.state.outcome is None  # truncated at 6 turns: each seat's share
    assert sum(total.values()) == pytest.approx(1.0)
    assert all(0 <= v <= 1 for v in total.values())
    for k, agent in enumerate(env.possible_agents):  # the share of each, as R28 counts it
        assert env.table.worth_share(k) == pytest.approx(total[agent])


@pytest.mark.parametrize("option, value", [("reward", "money"), ("shaping", "cash"),
                                            ("gamma", 0), ("gamma", 1.5), ("gamma", "high")])
def test_issue30_a_bad_reward_option_is_one_error(option, value):
    for make in (agents.env, agents.single):
        with pytest.raises(UsageError, match=option) as caught:
            make("standard", seed=0, **{option: value})
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("players, size", [(2, 645), (4, 943)])
def test_issue30_the_compact_action_space(players, size):
    """`actions="compact"`: a bid or a purchase is of the asked space (one slot), a sale's
    price a fraction of the space's value; every masked slot is legal, the default stays."""
    env = classic_env("standard", players, seed=0, actions="compact", state_info=False)
    cat = env.catalogue
    assert len(cat) == size and len(classic_env("standard", players).catalogue) == {2: 1215, 4: 1705}[players]
    assert "Bid space=asked amount=1value" in cat.names and "Buy space=asked" in cat.names
    rng = np.random.default_rng(0)
    seen: set[str] = set()
    env.reset(seed=0)
    for obs in decisions(env, rng, 1500):
        state = env.table.state
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        slots = env.table.slots()
        for slot in legal:
            action = cat.action(slots[int(slot)])
            assert state.is_legal(action), cat.name(int(slot))
            name = cat.name(int(slot))
            seen.add(name.split()[0])
            if name.startswith("Sell "):  # at a fraction of the space's R28 value
                from easymoney.plugins.sales import sale_value
                fraction = float(name.split("price=")[1].removesuffix("value"))
                value = sale_value(state.game, action.space)
                assert action.price <= value * fraction < action.price + 10 * max(1, value // 1000 + 1)
    assert {"Roll", "Buy", "Sell"} <= seen


def test_issue30_a_bad_action_space_is_one_error():
    with pytest.raises(UsageError, match="actions='tiny'"):
        classic_env("standard", actions="tiny")


def test_issue30_check_env_passes_on_single_by_default():
    import warnings

    from gymnasium.utils.env_checker import check_env
    env = classic_single("standard", seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)
    assert env.metadata["name"] == "easymoney_v1"
    # by default a masked-out slot earns the penalty; anything that is no slot is one error
    obs, _ = env.reset(seed=3)
    history = env.table.state.history
    for bad in (10**6, -1, "abc", 1.5, None):
        with pytest.raises(EasyMoneyError, match="which is no slot") as caught:
            env.step(bad)
        assert "\n" not in str(caught.value)
    assert env.table.state.history == history


def test_issue30_gymnasium_make_ids_for_the_shipped_variants():
    import gymnasium

    from easymoney.loading.sources import builtin_names
    ids = agents.register_gymnasium()
    assert "easymoney/Standard-v1" in ids and len(ids) == len(builtin_names())
    env = gymnasium.make("easymoney/NoFourSides-v1", opponents="greedy", seed=1)
    obs, _ = env.reset(seed=1)
    assert env.unwrapped.table.variant == "no-four-sides"
    assert obs["observation"].shape == env.observation_space["observation"].shape
    with pytest.raises(EasyMoneyError, match="unknown strategy 'nosuch'"):
        gymnasium.make("easymoney/Standard-v1", opponents="nosuch")
    with pytest.raises(EasyMoneyError, match="nosuch"):
        classic_single("nosuch")
    with pytest.raises(EasyMoneyError, match="nosuch"):
        classic_env("standard", enable=["nosuch"])


def test_issue30_player_n_agent_names():
    import warnings

    from pettingzoo.test import api_test
    env = classic_env("standard", 2, seed=1, agent_names="player_N", max_turns=40)
    assert env.possible_agents == ["player_0", "player_1"] and env.metadata["name"] == "easymoney_v1"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=100)
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    assert env.last()[4]["state"]["me"] == "Ann"  # the state speaks of the game's seats
    with pytest.raises(UsageError, match="agent_names='p'"):
        classic_env("standard", agent_names="p")


def test_issue30_render_rgb_array_is_the_board_drawing():
    pytest.importorskip("matplotlib")
    env = classic_env("standard", 2, seed=0, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 200 and len(np.unique(image.reshape(-1, 3), axis=0)) > 10
    single = classic_single("standard", seed=0, render_mode="rgb_array")
    single.reset(seed=0)
    assert single.render().shape == image.shape


def test_issue30_a_bad_seed_or_action_changes_nothing_in_either_form():
    env = classic_env("standard", 2, seed=0)
    env.reset(seed=0)
    before = env.table.state.history, env.table.next_seed
    for seed in ("abc", -1, 1.5):
        with pytest.raises(UsageError, match="seed") as caught:
            env.reset(seed=seed)
        assert "\n" not in str(caught.value)
    with pytest.raises(EasyMoneyError, match="no slot"):
        env.step(10**9)
    assert (env.table.state.history, env.table.next_seed) == before
    single = classic_single("standard", seed=0)
    single.reset(seed=0)
    history = single.table.state.history
    with pytest.raises(UsageError, match="seed"):
        single.reset(seed="abc")
    assert single.table.state.history == history


def test_issue30_the_ppo_example_trains_and_plays_a_game():
    """examples/agents/train_ppo.py with a tiny budget: it trains, and its agent plays an
    evaluation game to an end (the `train` extra; skipped without it)."""
    pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib) is not installed")
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "examples" / "agents" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo_example", path)
    ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ppo)
    model, norm, run = ppo.train("standard", cpu_minutes=0.01, seed=0)
    assert run["steps"] > 0 and run["cpu_seconds"] > 0
    result, how = ppo.play(model, norm, "standard", "Bob", "random", ppo.EVAL_SEED, turns=15)
    assert result in ("win", "tie", "loss") and how in ("turns", "bankruptcy", "bank")
    figures = ppo.evaluate(model, norm, "standard", "greedy", 2, turns=10)
    assert figures["games"] == 2 and 0 <= figures["low"] <= figures["rate"] <= figures["high"] <= 1
    assert sum(figures["endings"].values()) == 2


@pytest.mark.parametrize("variant", ["standard", "classic-1936"])
def test_issue37_the_kept_equities_are_those_computed_afresh_at_every_step(variant):
    """The equities are kept while the cash and the board stay as they are: at every step of
    random play they equal each player's equity computed afresh."""
    import random

    from easymoney.engine.legal import random_action
    env = agents.env(variant, 2, seed=4, state_info=False, shaping="equity")
    env.reset(seed=4)
    table, rng = env.table, random.Random(4)
    for _ in range(1500):
        if table.state.is_over:
            break
        game = table.state.game
        assert table._equities() == [table.equity(p) for p in game.players]
        table.apply(random_action(table.state.legal_actions(), rng))
