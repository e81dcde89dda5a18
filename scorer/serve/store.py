"""Where the tables' evenings are kept: SQLite (the standard library's ``sqlite3``), WAL mode.

One file, by default ``tables.sqlite3`` in the user's data folder (:func:`default_path`,
platformdirs), holds every table: its ruleset (a built-in id, or an uploaded file kept as
text and compiled by the workers, never by this process), who sits where, the stake, and
every booked line in order. A server restart loses nothing; several server processes may
share the file (WAL: readers never wait for the writer).

**Versions.** Each table has a version number, raised by every change. A change names the
version it was made against; if another phone changed the table first, the change is
refused (:class:`Conflict`) and nothing is lost: the caller shows the new sheet and the
edit again. **Migrations.** ``PRAGMA user_version`` is the schema's version; opening a file
applies the :data:`MIGRATIONS` it has not had, in order, each in one transaction.

>>> import tempfile, os
>>> st = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3"))
>>> tid = st.create_table({"rules": "mcr", "seating": {"E": "Ann", "S": "Bo"}})
>>> v = st.append(tid, 1, {"kind": "hand", "line": "11m --rules mcr"})
>>> v, st.append(tid, 1, {"kind": "hand", "line": "22m --rules mcr"})
Traceback (most recent call last):
scorer.serve.store.Conflict: the table changed (version 2, not 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

MAX_UPLOADS = 64  # uploaded ruleset files kept (the least recently used one not in use goes)
MAX_TABLES = 10_000
MAX_ENTRIES = 2_000  # lines one table may book (an evening is a few dozen)
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read aloud across a table

# Each entry brings the schema from version i to i + 1 (PRAGMA user_version).
MIGRATIONS: tuple[str, ...] = (
    # 1: uploads kept as text, tables, their booked lines
    """
    CREATE TABLE uploads (hash TEXT PRIMARY KEY, name TEXT NOT NULL, text TEXT NOT NULL,
                          used REAL NOT NULL);
    CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, version INTEGER NOT NULL,
                         settings TEXT NOT NULL);
    CREATE TABLE entries (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL,
                          data TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
                          PRIMARY KEY (table_id, n));
    """,
    # 2: when each line was booked or last changed (the sheet shows it)
    """
    ALTER TABLE entries ADD COLUMN changed REAL NOT NULL DEFAULT 0;
    CREATE INDEX uploads_used ON uploads (used);
    """,
)


class Conflict(Exception):
    """The table changed since the version a change was made against; ``version`` is now."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"the table changed (version {version}, not {version - 1})"
                         if version else "the table changed")


class NotFound(Exception):
    """No such table (or line of it, or kept upload): ``code`` and ``params`` say which
    (scorer/text/codes.py words them)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


class Full(NotFound):
    """The database holds as many tables (or the table as many lines) as it may."""


def default_path() -> str:
    """The database file in this user's data folder (created when first opened).

    >>> default_path().endswith("tables.sqlite3")
    True
    """
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("mjscore", appauthor=False), "tables.sqlite3")


def upload_hash(name: str, text: str) -> str:
    """The key an uploaded file is kept under: its name and text, hashed (24 hex digits).

    >>> key = upload_hash("a.yaml", "extends: mcr\\n")
    >>> len(key), key == upload_hash("b.yaml", "extends: mcr\\n")
    (24, False)
    """
    return hashlib.sha256(f"{name}\0{text}".encode()).hexdigest()[:24]


class Store:
    """The database: one connection per thread, opened on first use."""

    def __init__(self, path: str) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        self._local = threading.local()
        with self._db() as db:
            self.schema = migrate(db)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=5, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
        return conn

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE: one writer at a time, others wait)."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- uploads --------------------------------------------------------------------------
    def put_upload(self, name: str, text: str) -> str:
        """Keep an uploaded file's text; returns its key. The least recently used files
        beyond :data:`MAX_UPLOADS` that no table uses are dropped."""
        key = upload_hash(name, text)
        with self._db() as db:
            db.execute("INSERT INTO uploads VALUES (?, ?, ?, ?) ON CONFLICT(hash) DO UPDATE "
                       "SET used = excluded.used", (key, name, text, time.time()))
            used = {json.loads(s).get("upload") for (s,) in db.execute("SELECT settings FROM tables")}
            rows = db.execute("SELECT hash FROM uploads ORDER BY used DESC").fetchall()
            spare = [h for (h,) in rows[MAX_UPLOADS:] if h not in used]
            db.executemany("DELETE FROM uploads WHERE hash = ?", [(h,) for h in spare])
        return key

    def upload(self, key: str) -> tuple[str, str]:
        """The ``(name, text)`` of a kept upload; raises :class:`NotFound`."""
        row = self._conn().execute("SELECT name, text FROM uploads WHERE hash = ?",
                                   (key,)).fetchone()
        if row is None:
            raise NotFound("serve.no_upload")
        return str(row[0]), str(row[1])

    # -- tables ---------------------------------------------------------------------------
    def create_table(self, settings: dict[str, Any]) -> str:
        """A new table with ``settings`` (ruleset, seating, stake, …) at version 1; returns
        its id, six letters and digits that are easy to read aloud."""
        with self._db() as db:
            (count,) = db.execute("SELECT count(*) FROM tables").fetchone()
            if count >= MAX_TABLES:
                raise Full("serve.tables_full", limit=MAX_TABLES)
            while True:
                tid = "".join(secrets.choice(ID_ALPHABET) for _ in range(6))
                if db.execute("SELECT 1 FROM tables WHERE id = ?", (tid,)).fetchone() is None:
                    break
            db.execute("INSERT INTO tables VALUES (?, ?, 1, ?)",
                       (tid, time.time(), json.dumps(settings, ensure_ascii=False)))
        return tid

    def version(self, tid: str) -> int:
        """The table's version now; raises :class:`NotFound`."""
        row = self._conn().execute("SELECT version FROM tables WHERE id = ?", (tid,)).fetchone()
        if row is None:
            raise NotFound("serve.no_table")
        return int(row[0])

    def table(self, tid: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        """``(version, settings, entries)``: every line booked, in order, each with its
        ``n``, ``deleted`` and ``changed`` beside what was stored. One consistent read."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            row = conn.execute("SELECT version, settings FROM tables WHERE id = ?",
                               (tid,)).fetchone()
            if row is None:
                raise NotFound("serve.no_table")
            entries = [{**json.loads(d), "n": n, "deleted": bool(x), "changed": c}
                       for n, d, x, c in conn.execute(
                           "SELECT n, data, deleted, changed FROM entries WHERE table_id = ? "
                           "ORDER BY n", (tid,))]
        finally:
            conn.execute("COMMIT")
        return int(row[0]), json.loads(row[1]), entries

    def _bump(self, db: sqlite3.Connection, tid: str, version: int) -> int:
        row = db.execute("SELECT version FROM tables WHERE id = ?", (tid,)).fetchone()
        if row is None:
            raise NotFound("serve.no_table")
        if int(row[0]) != version:
            raise Conflict(int(row[0]))
        db.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (tid,))
        return version + 1

    def append(self, tid: str, version: int, data: dict[str, Any],
               settings: dict[str, Any] | None = None) -> int:
        """Book a line after the others (and set new ``settings``, e.g. the next seating),
        if the table is still at ``version``; returns the new version."""
        with self._db() as db:
            new = self._bump(db, tid, version)
            (n,) = db.execute("SELECT coalesce(max(n), 0) + 1 FROM entries WHERE table_id = ?",
                              (tid,)).fetchone()
            if n > MAX_ENTRIES:
                raise Full("serve.sheet_full", limit=MAX_ENTRIES)
            db.execute("INSERT INTO entries VALUES (?, ?, ?, 0, ?)",
                       (tid, n, json.dumps(data, ensure_ascii=False), time.time()))
            if settings is not None:
                db.execute("UPDATE tables SET settings = ? WHERE id = ?",
                           (json.dumps(settings, ensure_ascii=False), tid))
        return new

    def change(self, tid: str, version: int, n: int, data: dict[str, Any] | None = None,
               deleted: bool | None = None, settings: dict[str, Any] | None = None) -> int:
        """Replace line ``n``'s data and/or mark it deleted (an undo) or back; returns the
        new version. Raises :class:`NotFound` for a line the table does not have."""
        with self._db() as db:
            new = self._bump(db, tid, version)
            if db.execute("SELECT 1 FROM entries WHERE table_id = ? AND n = ?",
                          (tid, n)).fetchone() is None:
                raise NotFound("serve.no_line", n=n)
            if data is not None:
                db.execute("UPDATE entries SET data = ?, changed = ? WHERE table_id = ? AND n = ?",
                           (json.dumps(data, ensure_ascii=False), time.time(), tid, n))
            if deleted is not None:
                db.execute("UPDATE entries SET deleted = ?, changed = ? WHERE table_id = ? AND "
                           "n = ?", (int(deleted), time.time(), tid, n))
            if settings is not None:
                db.execute("UPDATE tables SET settings = ? WHERE id = ?",
                           (json.dumps(settings, ensure_ascii=False), tid))
        return new

    def set_settings(self, tid: str, version: int, settings: dict[str, Any]) -> int:
        """New settings (a seating set by hand, the stake); returns the new version."""
        with self._db() as db:
            new = self._bump(db, tid, version)
            db.execute("UPDATE tables SET settings = ? WHERE id = ?",
                       (json.dumps(settings, ensure_ascii=False), tid))
        return new


class NewerSchema(RuntimeError):
    """The tables database was written by a newer mjscore: its schema ``have``, where this
    one reads up to ``known`` (the command line says so: serve.db_newer)."""

    def __init__(self, have: int, known: int) -> None:
        super().__init__(f"the tables database is of a newer mjscore (schema {have}); this "
                         f"one reads up to {known}")
        self.have, self.known = have, known


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema up to date (inside the caller's transaction); returns its version.

    A file written by a newer mjscore (a higher version than we know) is refused rather
    than changed.
    """
    (have,) = db.execute("PRAGMA user_version").fetchone()
    if have > len(MIGRATIONS):
        raise NewerSchema(have, len(MIGRATIONS))
    for i in range(have, len(MIGRATIONS)):
        for stmt in MIGRATIONS[i].split(";"):
            if stmt.strip():
                db.execute(stmt)
        db.execute(f"PRAGMA user_version = {i + 1}")
    return len(MIGRATIONS)
