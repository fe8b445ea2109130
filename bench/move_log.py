"""What recording every move costs the database: log bytes and time per save.

A running game's moves are appended to its row by the statement that saves each move (one
statement, nothing more on the move path). Appended for good, the row would grow with every
move and each save would rewrite it whole; the bot moves the lines out to `table_moves` in
chunks of about 4 KiB, off the move path (`Storage.spill_actions`). This script replays the
saves of one long game on a bare SQLite file in the bot's mode (WAL, synchronous=FULL) with
checkpoints off, so the log's size is every byte the saves wrote, for three variants side
by side: the state alone (before moves were recorded), appended for good, appended and
spilled.

    python -m bench.move_log --moves 1600 --state-bytes 1400

(1,600 moves and a 1.4 KB state are a 12-player Six Suit game played at random.)
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

LINE = '{"v":1,"seat":3,"act":{"Play":[12,4,2]},"by":"ai"}\n'  # a typical Six Suit line
SPILL_BYTES = 4096


def run(mode: str, folder: Path, moves: int, state_bytes: int) -> tuple[float, int]:
    """(ms per save, bytes of write-ahead log) for one variant."""
    path = folder / f"{mode}.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, state TEXT, version INT, "
               "actions TEXT NOT NULL DEFAULT '')")
    db.execute("CREATE TABLE m (table_id INT, seq INT, lines TEXT, PRIMARY KEY (table_id, seq))")
    db.execute("INSERT INTO t (id, state, version) VALUES (1, '', 0)")
    state = "x" * state_bytes
    pending = 0
    start = time.perf_counter()
    for version in range(moves):
        db.execute("UPDATE t SET state=?, version=?, actions=actions||? WHERE id=1 AND "
                   "version=?", (state, version + 1, "" if mode == "state" else LINE, version))
        pending += len(LINE)
        if mode == "spilled" and pending >= SPILL_BYTES:
            pending = 0
            db.execute("BEGIN")
            db.execute("INSERT INTO m SELECT g.id, (SELECT COUNT(*) FROM m WHERE "
                       "m.table_id = g.id), g.actions FROM t g WHERE g.id=1 AND g.actions<>''")
            db.execute("UPDATE t SET actions='' WHERE id=1")
            db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    wal = os.path.getsize(f"{path}-wal")
    db.close()
    return elapsed / moves * 1000, wal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.move_log", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=1600)
    parser.add_argument("--state-bytes", type=int, default=1400)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for mode in ("state", "appended", "spilled"):
            ms, wal = run(mode, Path(folder), args.moves, args.state_bytes)
            print(f"{mode:9} {ms:6.3f} ms/save  log {wal / 1e6:6.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
