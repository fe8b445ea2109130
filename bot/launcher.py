"""Run the bot as N processes on disjoint shards, and restart any that dies.

    python -m bot.launcher --processes 2            # SHARD_COUNT from the environment, or N
    SHARD_COUNT=8 SHARD_IDS=0,1,2,3 python -m bot.launcher --processes 2   # machine 1 of 2

The launcher runs the shards of SHARD_IDS (all of SHARD_COUNT when it is empty): the k-th of
them goes to process k % N, every process gets the same SHARD_COUNT, so each server's events
reach exactly one process, which owns that server's tables. On several machines each
machine's launcher gets its own part of the shards in SHARD_IDS. A process that exits
(crash, kill -9, out of memory) is started again with the same shards after a short pause
that grows while it keeps dying; its tables are picked up from the database as after any
restart. SIGTERM/SIGINT stop every process and then the launcher.

REST_REQUESTS_PER_SECOND is the whole bot's: Discord's global limit belongs to the bot's
token, whatever the number of processes and machines. Each process gets the share of it that
its shards are of SHARD_COUNT, so all processes on all machines together stay within it.

Several processes need one database they all reach (PostgreSQL, DATABASE_URL): on SQLite the
second process on the same file is refused (bot/ownership.py), so without DATABASE_URL the
launcher refuses --processes above 1 with one sentence (exit status 2).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time

log = logging.getLogger("cardtable.launcher")
BACKOFF_START, BACKOFF_MAX = 1.0, 60.0
DEFAULT_BUDGET = 45  # bot.settings' REST_REQUESTS_PER_SECOND default
STABLE_SECONDS = 60.0  # a process that ran this long before dying is restarted at once


def assign(shard_count: int, processes: int,
           shard_ids: list[int] | None = None) -> list[list[int]]:
    """Shard ids for each process: the k-th of `shard_ids` (default: every shard) runs in
    process k % processes."""
    ids = list(range(shard_count)) if shard_ids is None else sorted(shard_ids)
    if len(set(ids)) != len(ids) or not all(0 <= i < shard_count for i in ids):
        raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {shard_count - 1}")
    if not 1 <= processes <= len(ids):
        raise ValueError(f"--processes must be between 1 and the {len(ids)} shards this "
                         "launcher runs")
    return [ids[p::processes] for p in range(processes)]


class Launcher:
    def __init__(self, processes: int, shard_count: int, command: list[str],
                 shard_ids: list[int] | None = None) -> None:
        self.plan = assign(shard_count, processes, shard_ids)
        self.shard_count = shard_count
        self.command = command
        self.children: dict[int, asyncio.subprocess.Process] = {}
        self.restarts = 0
        self._stopping = asyncio.Event()

    def env(self, index: int) -> dict[str, str]:
        """Process `index`'s environment: its shards, and its share of the request budget.
        Discord's global limit is per bot token, not per process, so N processes each
        spacing themselves to 45/s would together send N × 45: each gets the part its
        shards are of all SHARD_COUNT shards (1/N when this launcher runs them all)."""
        budget = int(os.environ.get("REST_REQUESTS_PER_SECOND") or DEFAULT_BUDGET)
        share = (max(1, budget * len(self.plan[index]) // self.shard_count) if budget
                 else 0)
        return dict(os.environ, SHARD_COUNT=str(self.shard_count),
                    SHARD_IDS=",".join(map(str, self.plan[index])),
                    REST_REQUESTS_PER_SECOND=str(share))

    async def keep(self, index: int) -> None:
        """Run process `index` until the launcher stops, restarting it when it dies."""
        backoff = BACKOFF_START
        while not self._stopping.is_set():
            started = time.monotonic()
            child = await asyncio.create_subprocess_exec(*self.command, env=self.env(index))
            self.children[index] = child
            log.info("process %d (shards %s) started: pid %d", index, self.plan[index],
                     child.pid)
            code = await child.wait()
            if self._stopping.is_set():
                return
            self.restarts += 1
            if time.monotonic() - started > STABLE_SECONDS:
                backoff = BACKOFF_START
            log.warning("process %d (pid %d) exited with %s; restarting in %.0f s", index,
                        child.pid, code, backoff)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), backoff)
            backoff = min(BACKOFF_MAX, backoff * 2)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop)
        await asyncio.gather(*(self.keep(i) for i in range(len(self.plan))))

    def stop(self) -> None:
        self._stopping.set()
        for child in self.children.values():
            if child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()


SQLITE_ALONE = ("Several processes need a database they all share: set DATABASE_URL to a "
                "PostgreSQL database (on SQLite one process owns the file; run --processes 1, "
                "which may hold several shards).")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.launcher", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--shards", type=int, default=None,
                        help="shards in all (default: SHARD_COUNT, else --processes)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    from bot.settings import SettingsError, load_settings

    try:  # as the bot reads them: the environment, then .env
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None
    if args.processes > 1 and not settings.database_url:
        print(SQLITE_ALONE, file=sys.stderr)
        raise SystemExit(2)
    shard_count = args.shards or settings.shard_count or args.processes
    try:
        launcher = Launcher(args.processes, shard_count, [sys.executable, "-m", "bot"],
                            settings.shard_ids)
    except ValueError as exc:
        parser.error(str(exc))
    asyncio.run(launcher.run())


if __name__ == "__main__":
    main()
