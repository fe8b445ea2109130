"""Hard AI decisions in a worker process, so a search never stalls the bot's event loop.

Why a process and not `asyncio.to_thread`: a hard decision is up to ~300 ms of pure Python.
In a thread it holds the GIL in 5 ms slices, so the loop (heartbeats, interactions that must
be answered within 3 s) waits behind it; `bench.ai_loop` measures the difference.

One small pool (`ai_workers` processes, default 1: the machine has 2 cores and the loop keeps
the other), started on the first hard decision and reused. The worker gets the state as the
engine's own `dump` text (the persistence contract, so nothing but plain text crosses) and
the decision's rng, and runs exactly `engine.ai_action` — the move is the one the bot would
compute in-process. Every decision has a timeout; on a timeout or a dead worker the pool is
thrown away (its processes killed, a fresh one starts on the next hard decision) and the
seat plays the normal AI's move, computed in a thread (it takes about a millisecond). The
bot never waits on a broken worker longer than the timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def decide(game: str, dumped: str, seat: int, rng: random.Random) -> Any:
    """Run in the worker: the AI's move at the table's level, as `engine.ai_action`."""
    from engines import ENGINES

    engine = ENGINES[game]
    return engine.ai_action(engine.load(dumped), seat, rng)


def _warm() -> None:
    """Worker initializer: import the engines once, not on the first decision."""
    import engines  # noqa: F401


def normal_move(engine: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """The fallback: the normal AI's move (what the table plays when the worker fails)."""
    from engines.ai_levels import choose_at_level

    return choose_at_level(engine, state, seat, rng, "normal")


class AiWorker:
    """A lazily started process pool for hard AI decisions, with a timeout and a fallback."""

    def __init__(self, *, workers: int = 1, timeout: float = 10.0,
                 target: Callable[..., Any] = decide) -> None:
        self.workers = workers
        self.timeout = timeout
        self.target = target  # tests swap in a worker that hangs or dies
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.decisions = 0  # answered by the worker
        self.fallbacks = 0  # answered by the normal AI because the worker failed

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: forking a process that runs an event loop and threads can
            # copy a held lock into the child
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm)
        return self._pool

    async def choose(self, engine: Any, state: Any, seat: int, rng: random.Random) -> Any:
        """The hard move from the worker, or the normal move if the worker fails in time."""
        spare = random.Random()
        spare.setstate(rng.getstate())  # the fallback draws from the same stream
        loop = asyncio.get_running_loop()
        try:
            dumped = engine.dump(state)
            future = loop.run_in_executor(self._executor(), self.target, engine.name, dumped,
                                          seat, rng)
            action = await asyncio.wait_for(future, self.timeout)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # timeout, a dead worker, an error in the search
            self.fallbacks += 1
            log.warning("hard AI worker failed (%s: %s); the seat plays the normal move",
                        type(exc).__name__, exc)
            self._discard()
            return await asyncio.to_thread(normal_move, engine, state, seat, spare)
        self.decisions += 1
        return action

    def _discard(self) -> None:
        """Kill the pool's processes (a hung search never finishes on its own)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            try:
                process.kill()
            except Exception:  # already gone
                pass
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the pool (at bot shutdown); a decision still running is abandoned."""
        self._discard()
