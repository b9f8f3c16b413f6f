"""Games kept: every table and its decisions in one SQLite file, written at each step.

A table is its start (variant, seats, seed, switches) and its decisions in order: replaying
them (tables.load) makes the same game again, dice and all, so a server started again on
the same file serves every table as it was and every link still works. A credential is
kept only as its SHA-256: the file alone acts for no seat.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    params TEXT NOT NULL,      -- what the table was opened with (JSON, checked)
    seats TEXT NOT NULL,       -- [{name, strategy, key, bot_from}] (JSON)
    creator TEXT NOT NULL,     -- SHA-256 of the creator's credential
    pace REAL NOT NULL,        -- seconds between two bot decisions
    created REAL NOT NULL,
    changes INTEGER NOT NULL,  -- seats taken or given to a bot: part of the table's version
    over TEXT                  -- why the game ended; NULL while it is played
);
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL,
    k INTEGER NOT NULL,        -- 0, 1, ...: the step it was taken at
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, k)
);
"""


@dataclass
class KeptTable:
    """A table as the file has it."""

    id: str
    params: dict[str, Any]
    seats: list[dict[str, Any]]
    creator: str
    pace: float
    created: float
    changes: int
    over: str | None


class Kept:
    """The SQLite file of a server's tables (`path` ":memory:": none, for tests and embedders).

    One connection, used from the tables' threads in turn (a lock): each write is one
    transaction, committed before the change is shown to any browser."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        self.lock = threading.Lock()
        self.db: sqlite3.Connection | None = None
        # the file is made with the first table: a server nobody opens a table at leaves none
        if path == ":memory:" or os.path.exists(path):
            self._open()
            return
        # said now, not at the first table: the nearest folder that is there must be writable
        folder = os.path.dirname(os.path.abspath(path))
        while not os.path.exists(folder):
            folder = os.path.dirname(folder)
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise UsageError(f"--db {path}: {folder} is not a folder this server may write "
                             "to: name another file")

    def _open(self) -> sqlite3.Connection:
        if self.db is not None:
            return self.db
        path = self.path
        if path != ":memory:":
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            except OSError as exc:
                raise UsageError(f"--db {path}: cannot make its folder: {exc.strerror or exc}") from None
        try:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            # WAL: a step is one small append, and readers never wait for it
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"--db {path}: not a tables file easymoney can use ({exc}): "
                             "name another file") from None
        self.db = db
        return db

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        with self.lock:
            db = self._open()
            db.execute("BEGIN")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def add(self, t: KeptTable) -> None:
        self._write(("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (t.id, json.dumps(t.params), json.dumps(t.seats), t.creator, t.pace,
                      t.created, t.changes, t.over)))

    def seats(self, table_id: str, seats: list[dict[str, Any]], changes: int) -> None:
        self._write(("UPDATE tables SET seats = ?, changes = ? WHERE id = ?",
                     (json.dumps(seats), changes, table_id)))

    def step(self, table_id: str, k: int, line: str, over: str | None) -> None:
        """Decision number `k` (from 0), and the game's end if it ended with it."""
        self._write(("INSERT INTO decisions VALUES (?, ?, ?)", (table_id, k, line)),
                    ("UPDATE tables SET over = ? WHERE id = ?", (over, table_id)))

    def tables(self) -> list[KeptTable]:
        with self.lock:
            if self.db is None:
                return []
            rows = self.db.execute("SELECT id, params, seats, creator, pace, created, changes, "
                                   "over FROM tables ORDER BY created").fetchall()
        return [KeptTable(r[0], json.loads(r[1]), json.loads(r[2]), r[3], r[4], r[5], r[6], r[7])
                for r in rows]

    def decisions(self, table_id: str) -> list[str]:
        with self.lock:
            if self.db is None:
                return []
            rows = self.db.execute("SELECT line FROM decisions WHERE table_id = ? ORDER BY k",
                                   (table_id,)).fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        with self.lock:
            if self.db is not None:
                self.db.close()
                self.db = None
