"""The output files of simulate, compare and sweep: per-game rows streamed, summaries at the end."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import UsageError
from ..outputs import Input, StreamedFile, check_target, write_atomically
from .arms import Batch
from .games import GameRow, arm_folder


def derived_path(csv_path: str, suffix: str) -> str:
    """`out/games.csv`, `summary` -> `out/games-summary.csv`: the tables that go beside --csv-out."""
    root, ext = os.path.splitext(csv_path)
    return f"{root}-{suffix}{ext or '.csv'}"


def summary_csv_path(csv_path: str) -> str:
    return derived_path(csv_path, "summary")


def check_outputs(targets: Sequence[tuple[str | None, str]], inputs: Sequence[Input] = ()) -> None:
    """Check every (path, what) before any game is played; a None path is not asked for.
    None may be one of `inputs` (the variants' files)."""
    seen: dict[str, str] = {}
    for path, what in targets:
        if path is None:
            continue
        check_target(path, what, inputs)
        key = os.path.abspath(path)
        if key in seen:
            raise UsageError(f"{what} {path}: the same file as {seen[key]}")
        seen[key] = what


def row_json(row: GameRow, batch: Batch, columns: Mapping[str, Any] | None = None) -> dict[str, Any]:
    names = batch.names
    head = dict(columns or {})
    return head | {"game": row.game, "seed": row.seed, "turns": row.turns, "end": row.end,
                   "winners": [names[i] for i in row.winners], "bank": row.bank,
                   "seats": [{"seat": names[i], "strategy": batch.seats[i], "worth": row.worths[i]}
                             for i in range(batch.players)]}


def csv_header(batch: Batch, extra: Sequence[str] = ()) -> list[str]:
    cols = [*extra, "game", "seed", "turns", "end", "winners", "bank"]
    for name in batch.names:
        cols += [f"{name}_strategy", f"{name}_worth"]
    return cols


def row_csv(row: GameRow, batch: Batch, extra: Sequence[Any] = ()) -> list[Any]:
    cells: list[Any] = [*extra, row.game, row.seed, row.turns, row.end,
                        " ".join(batch.names[i] for i in row.winners), row.bank]
    for i in range(batch.players):
        cells += [batch.seats[i], row.worths[i]]
    return cells


class RowFiles:
    """The --json-out and --csv-out files: rows streamed as they come, the summaries at the end.

    `arm_columns[k]` are the columns that say which arm (or sweep cell) row k's arm is; empty
    for a single arm. Every path must have been checked with check_outputs first.
    """

    def __init__(self, batch: Batch, json_path: str | None, csv_path: str | None,
                 arm_columns: Sequence[Mapping[str, Any]] = ({},)) -> None:
        self.batch = batch
        self.arm_columns = list(arm_columns)
        self.extra = list(self.arm_columns[0]) if self.arm_columns else []
        self.json: StreamedFile | None = None
        self.csv: StreamedFile | None = None
        self.csv_path = csv_path
        self.count = 0
        try:
            if json_path:
                self.json = StreamedFile(json_path)
                self.json.file.write('{"games": [')
            if csv_path:
                self.csv = StreamedFile(csv_path)
                self.writer = csv.writer(self.csv.file, lineterminator="\n")
                self.writer.writerow(csv_header(batch, self.extra))
        except BaseException:
            self.abort()
            raise

    @property
    def wanted(self) -> bool:
        return self.json is not None or self.csv is not None

    def add(self, rows: list[GameRow]) -> None:
        for row in rows:
            columns = self.arm_columns[row.arm]
            if self.json is not None:
                self.json.file.write(("\n  " if self.count == 0 else ",\n  ")
                                     + json.dumps(row_json(row, self.batch, columns)))
            if self.csv is not None:
                self.writer.writerow(row_csv(row, self.batch, list(columns.values())))
            self.count += 1

    def finish(self, summary: Mapping[str, Any], tables: Mapping[str, str]) -> None:
        """Commit the files; `tables` maps a suffix (`summary`) to the CSV text beside --csv-out."""
        try:
            if self.json is not None:
                self.json.file.write("\n],\n\"summary\": " + json.dumps(summary, indent=2) + "}\n")
                self.json.commit()
            if self.csv is not None:
                assert self.csv_path is not None
                for suffix, text in tables.items():
                    write_atomically(derived_path(self.csv_path, suffix), text)
                self.csv.commit()
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        for f in (self.json, self.csv):
            if f is not None:
                f.abort()


def _flatten(value: Any, key: str, out: list[tuple[str, Any]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{key}.{k}" if key else str(k), out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, v in enumerate(value):
            id_key = next((k for k in ("seat", "strategy", "index", "arm") if k in v), None)
            label = v[id_key] if id_key else i
            _flatten({k: x for k, x in v.items() if k != id_key}, f"{key}.{label}", out)
    elif isinstance(value, list):
        out.append((key, " ".join(map(str, value))))
    else:
        out.append((key, "" if value is None else value))


def summary_csv(summary: Mapping[str, Any]) -> str:
    """A summary as a two-column CSV (key, value); keys are dotted paths of the JSON summary."""
    flat: list[tuple[str, Any]] = []
    doc = dict(summary)
    if isinstance(doc.get("turns"), dict):
        doc["turns"] = {k: v for k, v in doc["turns"].items() if k != "histogram"}
    _flatten(doc, "", flat)
    return table_csv(["key", "value"], [list(kv) for kv in flat])


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if c is None else c for c in row] for row in rows)
    return buf.getvalue()


def prepare_record_dir(path: str, arms: int = 1) -> str:
    """The --record-dir folder, created when missing (its parent must exist).

    With several arms, a subfolder arm-K for each.
    """
    if not path:
        raise UsageError("--record-dir: the folder name is empty")
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--record-dir {path}: is not a folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"--record-dir {path}: the folder {parent} does not exist")
    folders = [path] + ([os.path.join(path, arm_folder(k)) for k in range(arms)] if arms > 1 else [])
    for folder in folders:
        if os.path.isdir(folder):
            continue
        try:
            os.mkdir(folder)
        except OSError as exc:
            raise UsageError(f"--record-dir {folder}: {exc.strerror}") from None
    return path
