"""A new stepping game from a variant, players and a seed; script lines read as actions.

`new_game("standard", ["Ann", "Bob"], seed=3)` is the `GameState` a program, the prompt
or a page steps through; its `apply` takes an `Action` or a line of the script language
(`"Ann bids 300"`), read against what the game waits for.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action, ActionRange, Refusal, Request, clip
from ..engine.game import Game, Player, ruleset_for
from ..engine.model import Space
from ..engine.stepping import NEVER_ASKED, SNAPSHOT_EVERY, GameState
from ..errors import RefusedAction, ScriptError, ScriptSyntaxError, UsageError, did_you_mean
from . import ast as S
from .parser import language_for, number_problem, parse
from .record import header_lines
from .runner import NameLookups


_VARIANTS: dict[tuple[Any, ...], Any] = {}  # built-in variants loaded, by name and switches


def new_game(variant: str = "standard", players: Sequence[str] = ("Ann", "Bob"), seed: int = 0,
             *, enable: Sequence[str] = (), disable: Sequence[str] = (),
             options: Sequence[str] = (), choose_dice: bool = False,
             keep_log: bool = True, snapshot_every: int = SNAPSHOT_EVERY,
             confine: Any = None, state_type: type[GameState] = GameState) -> GameState:
    """A game at its first decision. `variant` is a built-in name or a YAML file's path;
    `players` are names in turn order, and one written `NAME:STRATEGY` keeps its strategy
    in the script's `players` line (a replay lets it decide past the script's lines; the
    state itself asks nobody); `enable`, `disable` and `options` are what `--with`,
    `--without` and `--option` take; `snapshot_every`: steps between the copies that undo
    and clone start from; `confine` (a loading.Confinement) keeps the variant's files under
    a folder, as the web page does; `state_type`: a subclass of `GameState` to step it
    (the OpenSpiel game's, whose card draws wait for chance)."""
    from ..engine.registry import discover
    from ..loading.loader import load_variant
    seed = game_seed(seed)
    names = [p.partition(":")[0] if isinstance(p, str) else p for p in players]
    registry = discover()
    key = (variant, tuple(enable), tuple(disable), tuple(options), id(registry))
    # a built-in variant is data that never changes; a file may (and is not looked for in
    # this folder when the game is confined)
    cacheable = confine is None and not os.path.exists(variant) or \
        confine is not None and confine.top is None and "/" not in variant \
        and not variant.endswith((".yaml", ".yml"))
    v = _VARIANTS.get(key) if cacheable else None
    if v is None:
        v = load_variant(variant, registry=registry, enable=[registry.resolve(r) for r in enable],
                         disable=[registry.resolve(r) for r in disable], options=list(options),
                         confine=confine)
        if cacheable:
            _VARIANTS[key] = v
    if not v.min_players <= len(names) <= v.max_players:
        raise UsageError(f"{v.name} is for {v.min_players} to {v.max_players} players; "
                         f"{len(names)} given")
    rules = ruleset_for(v, registry)
    # its header and history must replay: what a script's `players` line refuses is refused
    problem = language_for(registry, rules.enabled).players_problem(names)
    if problem is not None:
        raise UsageError(f"players: {problem}")
    is_path = variant.endswith((".yaml", ".yml")) or "/" in variant
    if confine is not None and confine.top is not None:  # named as the person named it
        variant, is_path = confine.display or variant, True
    header = header_lines(variant, is_path=is_path, enable=enable, disable=disable,
                          options=options, players=list(players), seed=seed)
    if choose_dice:
        header.insert(2, "# the dice were chosen by the players (--choose-dice)")
    game = Game(v, [(n, None) for n in names], NEVER_ASKED, seed=seed, ruleset=rules,
                keep_log=keep_log)
    return state_type(game, choose_dice=choose_dice, header=header, read_line=read_line,
                      snapshot_every=snapshot_every)


def game_seed(seed: object) -> int:
    """`seed` as a game's seed: a whole number that a script's `seed` line can write (a
    numpy integer is one), else one UsageError in the parser's words; nothing changes."""
    what = "a whole number as the seed"
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
        kind = "" if seed is None else f" (a {type(seed).__name__})"
        raise UsageError(f"seed: expected {what}, found {clip(repr(seed))}{kind}")
    number = int(seed)
    problem = number_problem(str(number), what)
    if problem is not None:
        raise UsageError(f"seed: {problem}")
    return number


class _LineContext(NameLookups):
    """What a statement asks of the script that runs it (see ScriptContext), for one line."""

    def __init__(self, game: Game, text: str) -> None:
        self.game = game
        self.text = text

    def error(self, stmt: Any, message: str) -> ScriptError:
        col = getattr(stmt, "column", 0) or None
        return ScriptError(message, file="<line>", line=1, col=col, source_line=self.text)


def read_line(state: GameState, text: str) -> Action:
    """The action a line of the script language gives in answer to what `state` waits for,
    or the legal action that prints as the line: an answer the language has no statement
    for (`Bob accepts`, `Bob rejects`, to an offer: a script states the agreed deal instead).
    The prompt reads a person's lines here too: what one takes, the other takes.

    A line that is not one action, or does not answer the request, raises (ScriptSyntaxError,
    ScriptError, RefusedAction); nothing changes.
    """
    request = state.request
    game = state.game
    if request is None:
        raise RefusedAction("the game is over: no line can be applied",
                            (Refusal("-", "-", "the game is over"),))
    text = text.strip()
    typed = " ".join(text.split())
    for found in state.legal_actions():
        if type(found) is not ActionRange and str(found) == typed:
            return found  # type: ignore[return-value]
    # the language of the rules in play: a plugin's line parses where its rule is on
    script = parse(text + "\n", "<line>", registry=game.ruleset.registry,
                   rules=game.ruleset.enabled)
    stmts = [*script.header, *script.body]
    if len(stmts) != 1 or not isinstance(stmts[0], S.ACTION_TYPES) \
            or isinstance(stmts[0], (S.Draw, S.Autoplay)):
        raise ScriptError("a line of one action is expected here (cards are drawn by the "
                          "game)", file="<line>", line=1, col=1, source_line=text)
    stmt = stmts[0]
    context = _LineContext(game, text)
    context.player(getattr(stmt, "player"), stmt)  # an unknown player first, whatever the line
    action: Action | None = stmt.answer(context, request)  # type: ignore[union-attr]
    if action is None:
        raise RefusedAction(f"{text}: the game waits for {request.describe()}",
                            (Refusal("-", "-", f"the game waits for {request.describe()}"),))
    return action


__all__ = ["new_game", "game_seed", "read_line", "ScriptSyntaxError"]
