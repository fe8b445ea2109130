"""Run the bot as N processes on disjoint shards, and restart any that dies.

    python -m bot.launcher --processes 2            # SHARD_COUNT from the environment, or N

Shard k goes to process k % N (SHARD_IDS), every process gets the same SHARD_COUNT, so each
server's events reach exactly one process, which owns that server's tables. A process that
exits (crash, kill -9, out of memory) is started again with the same shards after a short
pause that grows while it keeps dying (REST_REQUESTS_PER_SECOND is split between the
processes: Discord's global limit is the bot's, whatever the number of processes); its tables are picked up from the database as after
any restart. SIGTERM/SIGINT stop every process and then the launcher.

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


def assign(shard_count: int, processes: int) -> list[list[int]]:
    """Shard ids for each process: shard k runs in process k % processes."""
    if not 1 <= processes <= shard_count:
        raise ValueError(f"--processes must be between 1 and SHARD_COUNT ({shard_count})")
    return [list(range(p, shard_count, processes)) for p in range(processes)]


class Launcher:
    def __init__(self, processes: int, shard_count: int, command: list[str]) -> None:
        self.plan = assign(shard_count, processes)
        self.shard_count = shard_count
        self.command = command
        self.children: dict[int, asyncio.subprocess.Process] = {}
        self.restarts = 0
        self._stopping = asyncio.Event()

    def env(self, index: int) -> dict[str, str]:
        """Process `index`'s environment: its shards, and its share of the request budget.
        Discord's global limit is per bot token, not per process, so N processes each
        spacing themselves to 45/s would together send N × 45: each gets 1/N of it."""
        budget = int(os.environ.get("REST_REQUESTS_PER_SECOND") or DEFAULT_BUDGET)
        share = max(1, budget // len(self.plan)) if budget else 0
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
    if args.processes > 1:
        from bot.settings import SettingsError, load_settings

        try:
            database_url = load_settings().database_url
        except SettingsError as exc:
            print(exc, file=sys.stderr)
            raise SystemExit(2) from None
        if not database_url:
            print(SQLITE_ALONE, file=sys.stderr)
            raise SystemExit(2)
    shard_count = args.shards or int(os.environ.get("SHARD_COUNT") or args.processes)
    try:
        launcher = Launcher(args.processes, shard_count, [sys.executable, "-m", "bot"])
    except ValueError as exc:
        parser.error(str(exc))
    asyncio.run(launcher.run())


if __name__ == "__main__":
    main()
