"""Games kept: every table and its decisions in one SQLite file, written at each step.

A table is its start (variant, seats, seed, switches) and its decisions in order: replaying
them (tables.load) makes the same game again, dice and all, so a server started again on
the same file serves every table as it was and every link still works. A credential is
kept only as its SHA-256: the file alone acts for no seat.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

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


log = logging.getLogger("easymoney.web")

# the file's mark (`PRAGMA application_id`, "EMtb"): a file without it is another program's,
# unless it is one an earlier easymoney made (its two tables exactly, and nothing else)
APPLICATION_ID = 0x454D7462
COLUMNS = {"tables": ["id", "params", "seats", "creator", "pace", "created", "changes", "over"],
           "decisions": ["table_id", "k", "line"]}


class NotWritten(Exception):
    """A write to the file failed (a full disk): nothing of it was kept; answered 503."""


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

    def __init__(self, path: str = ":memory:", holder: str = "") -> None:
        """`holder`: who holds the file, as a second server on it is told (`pid 12, http://...`)."""
        self.path = path
        self.lock = threading.Lock()
        self.db: sqlite3.Connection | None = None
        self.damaged: list[str] = []  # ids of the rows tables() could not read
        self.held: int | None = None  # the descriptor of FILE.lock, flocked while we serve
        if path == ":memory:":
            self._open()
            return
        if not os.path.exists(path):
            # said now, not at the first table: the nearest folder there must be writable
            folder = os.path.dirname(os.path.abspath(path))
            while not os.path.exists(folder):
                folder = os.path.dirname(folder)
            if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
                raise UsageError(f"--db {path}: {folder} is not a folder this server may "
                                 "write to: name another file")
        self._hold(holder)
        # the file is made with the first table: a server nobody opens a table at leaves none
        if os.path.exists(path):
            try:
                self._open()
            except BaseException:
                self.close()
                raise

    def _hold(self, holder: str) -> None:
        """Hold FILE.lock (an advisory flock) while this server serves the file: a second
        server on it would append decisions the first does not know of (a UNIQUE error, a
        500, two lobbies that differ), so it is refused in one line naming the first. The
        kernel drops a flock with its process, so a killed server's lock blocks nobody.
        Not the file itself: closing any descriptor of it would drop SQLite's own locks."""
        if fcntl is None:  # Windows: two servers on one file are the user's care
            return
        lock = self.path + ".lock"
        try:
            os.makedirs(os.path.dirname(os.path.abspath(lock)), exist_ok=True)
            while True:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    who = os.read(fd, 200).decode("utf-8", "replace").strip()
                    os.close(fd)
                    raise UsageError(f"--db {self.path}: in use by another easymoney server "
                                     f"({who or 'its lock ' + lock}): stop it, or name another "
                                     "--db file") from None
                try:
                    if os.fstat(fd).st_ino == os.stat(lock).st_ino:
                        break
                except FileNotFoundError:
                    pass
                os.close(fd)  # removed by a server that stopped meanwhile: lock the new one
            os.ftruncate(fd, 0)
            os.write(fd, (holder or f"pid {os.getpid()}").encode())
        except OSError as exc:
            raise UsageError(f"--db {self.path}: cannot make its lock {lock}: "
                             f"{exc.strerror or exc}") from None
        self.held = fd

    def _open(self) -> sqlite3.Connection:
        if self.db is not None:
            return self.db
        path = self.path
        if path != ":memory:":
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            except OSError as exc:
                raise UsageError(f"--db {path}: cannot make its folder: {exc.strerror or exc}") from None
        db = None
        try:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            foreign = self._foreign(db)  # read before anything is written to the file
            if foreign:
                db.close()
                raise UsageError(f"--db {path}: another program's SQLite file (it holds "
                                 f"{foreign}), not a tables file of easymoney: name another file")
            # WAL: a step is one small append, and readers never wait for it
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            raise UsageError(f"--db {path}: not a tables file easymoney can use ({exc}): "
                             "name another file") from None
        self.db = db
        return db

    @staticmethod
    def _foreign(db: sqlite3.Connection) -> str | None:
        """What of the file says it is not ours (None: ours, or empty)."""
        if db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
            return None
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")]
        if not names:
            return None
        if sorted(names) == sorted(COLUMNS) and all(
                [r[1] for r in db.execute(f"PRAGMA table_info({name})")] == columns
                for name, columns in COLUMNS.items()):
            return None  # made by an easymoney before the file had its mark
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        return f"{shown}; no mark of easymoney's"

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """One transaction, all or nothing; NotWritten if it fails (a full disk): what the
        file held before is kept as it was."""
        with self.lock:
            made = self.db is not None or os.path.exists(self.path)
            try:
                db = self._open()
            except UsageError as exc:
                if made:  # the file was there, and is not one this server can use
                    raise
                raise NotWritten(exc.message) from None
            try:
                db.execute("BEGIN")
                for sql, args in statements:
                    db.execute(sql, args)
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:  # SQLite may have rolled back itself (SQLITE_FULL)
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                if isinstance(exc, (sqlite3.Error, OSError)):
                    log.warning("--db %s: a write failed (%s); nothing of it was kept", self.path,
                                exc)
                    raise NotWritten(f"the server could not write its tables file ({exc})") \
                        from None
                raise

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
        """The tables the file keeps; a row that is not what this server writes is left in
        the file, and its id in `damaged` (see `warning`)."""
        with self.lock:
            if self.db is None:
                return []
            rows = self.db.execute("SELECT id, params, seats, creator, pace, created, changes, "
                                   "over FROM tables ORDER BY created").fetchall()
        kept, self.damaged = [], []
        for r in rows:
            table = _table(r)
            if table is None:
                self.damaged.append(str(r[0])[:40])
            else:
                kept.append(table)
        return kept

    def warning(self) -> str | None:
        """One line naming the rows `tables()` could not read, if any."""
        if not self.damaged:
            return None
        ids = ", ".join(self.damaged[:10]) + (", ..." if len(self.damaged) > 10 else "")
        return (f"warning: --db {self.path}: {len(self.damaged)} table(s) damaged, not served "
                f"(left in the file as they are): {ids}")

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
            if self.held is not None:  # removed while held: the next server makes its own
                with contextlib.suppress(OSError):
                    os.unlink(self.path + ".lock")
                os.close(self.held)
                self.held = None


def _table(row: tuple[Any, ...]) -> KeptTable | None:
    """A row of `tables` as this server wrote it, or None (not JSON, or not its shape)."""
    try:
        params, seats = json.loads(row[1]), json.loads(row[2])
    except (TypeError, ValueError, RecursionError):
        return None
    fields: dict[str, type | tuple[type, ...]] = {
        "name": str, "strategy": (str, type(None)), "key": (str, type(None)),
              "bot_from": (int, type(None))}
    texts = lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)  # noqa: E731
    if not (isinstance(row[0], str) and isinstance(params, dict)
            and isinstance(params.get("variant"), str) and isinstance(params.get("players"), str)
            and type(params.get("seed")) is int
            and all(texts(params.get(k)) for k in ("enable", "disable", "options"))
            and isinstance(seats, list) and seats
            and all(isinstance(s, dict) and all(isinstance(s.get(k), t) for k, t in fields.items())
                    for s in seats)
            and isinstance(row[3], str) and isinstance(row[4], (int, float))
            and isinstance(row[5], (int, float)) and isinstance(row[6], int)
            and isinstance(row[7], (str, type(None)))):
        return None
    return KeptTable(row[0], params, seats, row[3], row[4], row[5], row[6], row[7])
