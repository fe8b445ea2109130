"""Saves per second of the repository's group commit, SQLite and PostgreSQL side by side.

No bot, no Discord: `Storage.save_table` as the table service calls it for every move, from
C tables saving at once, each as soon as its previous save returned (a table saves one move
after another, never two at a time). Saves that arrive while a batch is being written go
out together in the next statement and commit, so the number of commits per second is what
the database's disk allows, and saves per second grows with C. Per backend and C
(``--concurrency 1,10,100,500``), for ``--seconds`` each: saves/s, commits/s (statements),
saves per commit, and the p50/p99 time one save waits (a move's ✅ waits for it).

SQLite runs as deployed (WAL, synchronous=FULL); PostgreSQL with synchronous_commit=on, on
a database created for the run and dropped afterwards (``--pg-url``). Both on this machine:
on a real deployment PostgreSQL is on its own machine, where each commit also pays a
network round trip.

    python -m bench.storage
    python -m bench.storage --concurrency 1,50,500 --seconds 10 --backends postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import machine, percentile, print_table, write_json
from bench.harness import fresh_postgres


async def run_one(store, concurrency: int, seconds: float) -> dict[str, Any]:
    from dataclasses import replace

    tables = []
    for i in range(concurrency):
        row = await store.create_table(guild_id=1, channel_id=10_000 + i + concurrency * 100_000,
                                       game="taboo", host_id=1,
                                       seats=[{"user_id": 1, "name": "A"}] * 4, options={})
        tables.append(row)
    statements = 0
    real = store._update_rows

    async def counting(batch, rows, stamp):
        nonlocal statements
        statements += 1
        return await real(batch, rows, stamp)

    store._update_rows = counting
    waits: list[float] = []
    state = '{"deck": ' + str(list(range(60))) + ', "hands": [[1, 2, 3], [4, 5, 6]]}'
    deadline = time.monotonic() + seconds

    async def table_loop(row) -> int:
        saves = 0
        while time.monotonic() < deadline:
            draft = replace(row, state=state, version=row.version + 1, meta={"n": saves})
            start = time.perf_counter()
            await store.save_table(draft, expected_version=row.version)
            waits.append(time.perf_counter() - start)
            row = draft
            saves += 1
        return saves

    t0 = time.monotonic()
    saves = sum(await asyncio.gather(*(table_loop(r) for r in tables)))
    elapsed = time.monotonic() - t0
    store._update_rows = real
    return {"concurrency": concurrency, "seconds": elapsed, "saves": saves,
            "saves_per_s": saves / elapsed, "commits_per_s": statements / elapsed,
            "saves_per_commit": saves / statements if statements else 0.0,
            "wait_p50_ms": percentile(waits, 50) * 1e3, "wait_p99_ms": percentile(waits, 99) * 1e3}


async def amain(args) -> int:
    from bot.storage import Storage

    print(f"# bench.storage — {machine()}")
    levels = [int(x) for x in args.concurrency.split(",") if x.strip()]
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as tmp:
        for level in levels:  # the backends side by side at each level
            for backend in args.backends.split(","):
                async with contextlib.AsyncExitStack() as stack:
                    if backend == "sqlite":
                        target: str | Path = Path(tmp) / f"saves-{level}.db"
                    else:
                        target = await stack.enter_async_context(fresh_postgres(args.pg_url))
                    store = await Storage.open(target)
                    try:
                        result = await run_one(store, level, args.seconds)
                        result["backend"] = backend
                        result["durability"] = await store.synchronous()
                    finally:
                        await store.close()
                results.append(result)
                print(f"  {backend} ({result['durability']}), {level} tables saving: "
                      f"{result['saves_per_s']:.0f} saves/s in {result['commits_per_s']:.0f} "
                      f"commits/s, save p50 {result['wait_p50_ms']:.1f} ms p99 "
                      f"{result['wait_p99_ms']:.1f} ms", flush=True)
    print("\n## Group commit: saves per second\n")
    print_table(["tables saving at once", "database", "durability", "saves", "saves/s",
                 "commits/s", "saves per commit", "save p50 ms", "save p99 ms"],
                [[r["concurrency"], r["backend"], r["durability"], r["saves"],
                  r["saves_per_s"], r["commits_per_s"], r["saves_per_commit"],
                  r["wait_p50_ms"], r["wait_p99_ms"]] for r in results], digits=1)
    print("\nEach table saves its next version as soon as its previous save returned; a "
          "commit is one UPDATE of every save queued meanwhile (bot/storage.py save_table).")
    write_json(args.json, {"machine": machine(), "args": vars(args), "results": results})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.storage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", default="1,10,100,500",
                        help="tables saving at once, a comma list (1,10,100,500)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per run (5)")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--pg-url", default=os.environ.get(
                        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
                        help="PostgreSQL server: a database is created there for each run "
                        "and dropped afterwards")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return asyncio.run(amain(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
