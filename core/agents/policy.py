"""A trained agent as a strategy: `policy:FILE` (issue 40 part 4).

A policy file is a NumPy `.npz` (read with `allow_pickle=False`) of an MLP's weights
`W0, b0, W1, b1, ...` (each `W` of shape in x out), optionally the observation
normaliser's `obs_mean` and `obs_var`, and `header`, a JSON text of what it was trained
on: {"format": "easymoney-policy", "version": 1, "variant", "players", "actions",
"amount_steps", "max_turns", "raise_in_windows", "window_actions", "catalogue" (a digest
of the slots' names), "observation" (the vector's size), "activation" ("tanh" or
"relu"), "clip" (of the normalised observation), "lone_windows" (how the environment
treated a window with one move that closes it: "skip" or "ask"; told, not checked: the
strategy is asked every decision, and such a window has one legal slot)}. Its forward
pass is numpy alone: no training library is needed to play it. The file is read when
the strategy is made (before any game); the variant, seat count and action space are
checked against the game at its first decision. Any mismatch is one EasyMoneyError line
naming the file.
"""

from __future__ import annotations

from collections.abc import Callable
import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.actions import WINDOW_KINDS, Action, ActionRange
from ..bots import Strategy
from ..engine.legal import legal_actions
from ..errors import UsageError
from .catalogue import Catalogue
from .observe import Layout
from .table import _from_the_bank, _keeps_window_open, _template

PREFIX = "policy:"
FORMAT, VERSION = "easymoney-policy", 1
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}
HEADER_KEYS = ("variant", "players", "actions", "amount_steps", "max_turns",
               "raise_in_windows", "window_actions", "catalogue", "observation", "activation")


class PolicyError(UsageError):
    """A policy file that cannot be played: nothing was played."""


def catalogue_digest(catalogue: Catalogue) -> str:
    """A short digest of the slots' names, in order: the action space a policy chose from."""
    return hashlib.sha256("\n".join(catalogue.names).encode()).hexdigest()[:16]


def save_policy(path: str | Path, layers: list[tuple[np.ndarray, np.ndarray]], env: Any, *,
                activation: str = "tanh", obs_mean: np.ndarray | None = None,
                obs_var: np.ndarray | None = None, clip: float = 10.0) -> None:
    """Write the MLP `layers` [(W, b), ...] trained on `env` (an env() or single(), or
    anything with its `.table`) as a policy file."""
    table = getattr(env, "table", None) or env.unwrapped.table
    if activation not in ACTIVATIONS:
        raise UsageError(f"activation {activation!r}: one of {', '.join(ACTIVATIONS)}")
    header = {"format": FORMAT, "version": VERSION, "variant": table.variant,
              "players": len(table.seats), "actions": table.actions,
              "amount_steps": table.catalogue.steps, "max_turns": table.max_turns,
              "raise_in_windows": table.raise_in_windows,
              "window_actions": table.window_actions, "lone_windows": table.lone_windows,
              "catalogue": catalogue_digest(table.catalogue),
              "observation": table.layout.size, "activation": activation, "clip": float(clip)}
    arrays: dict[str, np.ndarray] = {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
    for k, (w, b) in enumerate(layers):
        arrays[f"W{k}"], arrays[f"b{k}"] = np.asarray(w, np.float32), np.asarray(b, np.float32)
    if obs_mean is not None and obs_var is not None:
        arrays["obs_mean"], arrays["obs_var"] = (np.asarray(obs_mean, np.float32),
                                                 np.asarray(obs_var, np.float32))
    with open(path, "wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]


class Policy:
    """A policy file read and checked as a file: its header and its layers."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except FileNotFoundError:
            raise PolicyError(f"policy {path}: no such file") from None
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as exc:
            raise PolicyError(f"policy {path}: not a policy file, or truncated "
                              f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
                              ) from None
        try:
            header = json.loads(bytes(arrays.pop("header")).decode())
        except (KeyError, ValueError, UnicodeDecodeError):
            raise PolicyError(f"policy {path}: no readable header (not a policy file saved "
                              "by easymoney.agents.policy.save_policy)") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise PolicyError(f"policy {path}: not an {FORMAT} file")
        if header.get("version") != VERSION:
            raise PolicyError(f"policy {path}: format version {header.get('version')!r}, "
                              f"this easymoney reads {VERSION}")
        missing = [k for k in HEADER_KEYS if k not in header]
        if missing:
            raise PolicyError(f"policy {path}: its header lacks {', '.join(missing)}")
        if header["activation"] not in ACTIVATIONS:
            raise PolicyError(f"policy {path}: activation {header['activation']!r}, not one "
                              f"of {', '.join(ACTIVATIONS)}")
        self.header = header
        self.mean, self.var = arrays.pop("obs_mean", None), arrays.pop("obs_var", None)
        self.layers: list[tuple[np.ndarray, np.ndarray]] = []
        width = int(header["observation"])
        for k in range(len(arrays) // 2):
            w, b = arrays.get(f"W{k}"), arrays.get(f"b{k}")
            if w is None or b is None or w.ndim != 2 or b.shape != (w.shape[1],) \
                    or w.shape[0] != width:
                raise PolicyError(f"policy {path}: layer {k} does not fit (its weights "
                                  f"{None if w is None else w.shape}, biases "
                                  f"{None if b is None else b.shape}, input {width})")
            self.layers.append((w, b))
            width = w.shape[1]
        if not self.layers or len(arrays) != 2 * len(self.layers):
            raise PolicyError(f"policy {path}: its layers are not W0, b0, W1, b1, ...")
        self.slots = width
        self.activation = ACTIVATIONS[header["activation"]]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = observation.astype(np.float32)
        if self.mean is not None and self.var is not None:
            clip = float(self.header.get("clip", 10.0))
            x = np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -clip, clip)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                x = self.activation(x)
        return x


class PolicyStrategy(Strategy):
    """The trained agent at a seat: its most likely legal slot, the mask made as the
    environment it was trained on makes it (its catalogue, `raise_in_windows`, its window
    limit)."""

    def __init__(self, name: str, policy: Policy | None = None) -> None:
        """`name` is `policy:FILE`, the file read now; or, with `policy` given (a policy
        already read, which seats may share: `easymoney serve --agent`), any label."""
        super().__init__()
        self.name = name
        if policy is None:
            path = name[len(PREFIX):]
            if len(path) >= 2 and path[0] == path[-1] == '"':  # a script's `Bob:policy:"my agent.npz"`
                path = path[1:-1]
            policy = Policy(path)
        self.policy = policy
        self._of: Any = None  # the game its catalogue and layout were made for
        self._window: tuple[int, str, int] | None = None
        self._taken = 0

    def check_game(self, game: Any) -> None:
        """Raise PolicyError, one line naming the file and what differs, unless `game` is of
        the variant, seat count, action space and observation the policy was trained on
        (`simulate` and its kin ask before any game; a seat asks at its first decision)."""
        h, path = self.policy.header, self.policy.path
        variant = game.variant.name
        if Path(str(h["variant"])).stem != Path(str(variant)).stem and h["variant"] != variant:
            raise PolicyError(f"policy {path}: trained on variant {h['variant']!r}, this game "
                              f"is {variant!r}")
        if h["players"] != len(game.players):
            raise PolicyError(f"policy {path}: trained for {h['players']} seats, this game has "
                              f"{len(game.players)}")
        self.catalogue = Catalogue(game, int(h["amount_steps"]), compact=h["actions"] == "compact")
        if catalogue_digest(self.catalogue) != h["catalogue"] or self.catalogue.size != self.policy.slots:
            raise PolicyError(f"policy {path}: trained on another action space ({h['actions']}, "
                              f"{self.policy.slots} slots; this game's has {self.catalogue.size}: "
                              "other rules or plugins in play)")
        self.layout = Layout(game, int(h["max_turns"]))
        if self.layout.size != h["observation"]:
            raise PolicyError(f"policy {path}: trained on an observation of {h['observation']} "
                              f"numbers, this game's has {self.layout.size}")
        self._of = game

    def _offered(self, game: Any, request: Any) -> list[Action | ActionRange]:
        legal = legal_actions(game, request)
        if request.kind not in WINDOW_KINDS:
            return legal
        if not self.policy.header["raise_in_windows"]:
            legal = [a for a in legal if not _from_the_bank(type(_template(a)))]
        window = (game.turns_played, request.kind, request.player.index)
        if window != self._window:
            self._window, self._taken = window, 0
        if self._taken >= int(self.policy.header["window_actions"]):
            legal = [a for a in legal if not _keeps_window_open(a)] or legal
        return legal

    def decide(self, game: Any, request: Any) -> Action:
        if self._of is not game:
            self.check_game(game)
        legal = self._offered(game, request)
        places, marks = self.catalogue.places(legal, game, request)
        if not places:  # nothing of the catalogue is legal (a plugin's own question)
            found = legal[0]
            return found.at(found.least) if type(found) is ActionRange else found  # type: ignore[union-attr,return-value]
        logits = self.policy.logits(self.layout.vector(game, request.player.index, request))
        logits[np.frombuffer(bytes(marks), np.int8) == 0] = -np.inf
        slot = int(np.argmax(logits))
        entry = self.catalogue.entry(places, slot)
        assert entry is not None
        action = self.catalogue.action(entry)
        if request.kind in WINDOW_KINDS and _keeps_window_open(action):
            self._taken += 1
        return action
