"""Benchmark scripts (not tests): each prints figures for the README's "Benchmarks" section.

Run from the repository root, e.g. ``python -m bench.engines --help``:

- ``bench.engines``  random legal play per engine: games/s, actions/s, dump/load and clone cost
- ``bench.ai``       AI decision time (median, p95) and win rate against random players
- ``bench.load``     the real bot against the fake Discord with N concurrent tables
- ``bench.restart``  time from a new bot process start to N stored tables answering again
- ``bench.fingerprint`` a hash of each engine's seeded games, to prove a speed-up changed nothing
- ``bench.move_log``  what recording every move (for replays) costs the database per save

Every script iterates over whatever is registered (``engines.ENGINES``, and the bot's
``bot.tables.uis`` for the bot benchmarks), so a game that lands later is measured too.
The helpers below are shared by the scripts.
"""

from __future__ import annotations

import gc
import glob
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- statistics
def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of `values`; nan for an empty sequence."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def median(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else math.nan


# --------------------------------------------------------------------------- process
def rss_bytes() -> int:
    """Current resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def load_average() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def cpu_pressure() -> str:
    """Linux PSI: share of the last 10 s / 60 s in which some task waited for a CPU."""
    try:
        with open("/proc/pressure/cpu") as fh:
            some = fh.readline().split()
        values = dict(item.split("=") for item in some[1:3])
        return f"{float(values['avg10']):.0f}%/{float(values['avg60']):.0f}%"
    except (OSError, ValueError, KeyError, IndexError):
        return "?"


def listen_overflows() -> int:
    """Linux TcpExt ListenOverflows: connection attempts dropped because a listening socket's
    accept queue was full. Each costs its client a 1 s SYN retransmission, which shows up
    as a latency of about a second (machine-wide; -1 where unknown)."""
    try:
        with open("/proc/net/netstat") as fh:
            lines = fh.read().splitlines()
        for names, values in zip(lines[::2], lines[1::2], strict=False):
            if names.startswith("TcpExt:"):
                return int(dict(zip(names.split(), values.split(), strict=True))
                           ["ListenOverflows"])
    except (OSError, ValueError, KeyError):
        pass
    return -1


def schedstat(pid: int | str = "self") -> tuple[float, float]:
    """(seconds on a CPU, seconds runnable but waiting for a CPU) summed over the threads of
    a process (Linux schedstat). The second figure is what a busy machine costs us."""
    run = wait = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as fh:
                fields = fh.read().split()
            run += int(fields[0])
            wait += int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return run / 1e9, wait / 1e9


def wait_for_quiet(max_seconds: float, threshold: float = 15.0) -> None:
    """Wait (up to `max_seconds`) until CPU pressure over the last 10 s is below `threshold`%,
    so that figures are not taken while other work hogs the machine."""
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        try:
            with open("/proc/pressure/cpu") as fh:
                avg10 = float(fh.readline().split()[1].split("=")[1])
        except (OSError, ValueError, IndexError):
            return
        if avg10 < threshold:
            return
        time.sleep(2)


def machine() -> str:
    """Interpreter, CPUs and the load average (1/5/15 min) when the script started: figures
    taken on a busy machine are slower, and CPU-time columns are the steadier ones."""
    return (f"{platform.python_implementation()} {platform.python_version()}, "
            f"{os.cpu_count()} CPU(s), {platform.machine()}, {platform.system()}, "
            f"load average {load_average()}, CPU pressure (10 s/60 s) {cpu_pressure()}")


class Stopwatch:
    """``with Stopwatch() as sw: ...`` then ``sw.seconds``."""

    def __enter__(self) -> Stopwatch:
        self.start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start


# --------------------------------------------------------------------------- output
def fmt(value: Any, digits: int = 1) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        if math.isinf(value):
            return "> 3 s"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *,
                digits: int = 1, file=None) -> None:
    """A Markdown table (pastes straight into the README)."""
    file = file or sys.stdout
    cells = [[fmt(v, digits) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |",
          file=file)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|", file=file)
    for row in cells:
        print("| " + " | ".join(c.rjust(w) if i else c.ljust(w)
                                for i, (c, w) in enumerate(zip(row, widths, strict=True)))
              + " |", file=file)
    file.flush()


def write_json(path: str | None, payload: Any) -> None:
    if not path:
        return
    Path(path).write_text(json.dumps(payload, indent=2, default=str) + "\n")
    print(f"(results written to {path})")


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


# --------------------------------------------------------------------------- engines
def pick_engines(names: str | None) -> dict[str, Any]:
    """The registered engines, optionally filtered by a comma list of names."""
    from engines import ENGINES

    if not names:
        return dict(ENGINES)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown engine(s) {unknown}; registered: {sorted(ENGINES)}")
    return {n: ENGINES[n] for n in wanted}


def player_counts(engine: Any, spec: str) -> list[int]:
    """`typical` (4, clamped to the engine's seat limits), `min`, `max`, `all`
    (min, typical and max), or a number (clamped)."""
    lo, hi = engine.min_players, engine.max_players
    typical = min(max(4, lo), hi)
    if spec == "typical":
        return [typical]
    if spec == "min":
        return [lo]
    if spec == "max":
        return [hi]
    if spec == "all":
        return sorted({lo, typical, hi})
    try:
        return [min(max(int(spec), lo), hi)]
    except ValueError:
        raise SystemExit(f"--players: expected typical, min, max, all or a number, got {spec!r}"
                         ) from None


def clone_function(engine: Any, state: Any):
    """`state.clone()` if the state class has one, else a dump/load round trip."""
    if callable(getattr(state, "clone", None)):
        return "clone()", lambda s: s.clone()
    return "load(dump)", lambda s: engine.load(engine.dump(s))


# --------------------------------------------------------------------------- GC pauses
class GcWatch:
    """Garbage-collection pauses of this process, as (generation, seconds), from `start()`
    until `stop()`: used in the bot's process (bench.botproc) and in the fake's (bench.load)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._began = 0.0

    def start(self) -> GcWatch:
        gc.callbacks.append(self._note)
        return self

    def stop(self) -> None:
        if self._note in gc.callbacks:
            gc.callbacks.remove(self._note)

    def _note(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((info.get("generation", -1), time.perf_counter() - self._began))


def gc_summary(pauses: Iterable[Sequence[float]]) -> dict[str, float]:
    """Collections, total and longest pause (ms) and full collections of (generation,
    seconds) pairs."""
    pauses = list(pauses)
    return {"collections": len(pauses), "total_ms": sum(p for _, p in pauses) * 1e3,
            "max_ms": max((p for _, p in pauses), default=0.0) * 1e3,
            "gen2": sum(1 for g, _ in pauses if g == 2)}
