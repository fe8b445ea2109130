"""A CPU quota per bot process (Linux cgroups), to model bot processes on separate machines.

On one small machine the fake Discord, its simulated players and every bot process share
the same cores, so adding a bot process only shares them out differently; it cannot show
what a process on a machine of its own adds. Giving each bot process the same CPU quota
(e.g. 0.3 of a CPU: the kernel runs it at most 30 ms in every 100 ms period) makes each one a
small machine of its own, as long as the quotas plus what the fake needs fit in the cores.
The quota also holds everything the process starts (its picture worker), and the group's
CPU account counts them too, which `/proc/<pid>/stat` of the bot alone does not.

Both cgroup v2 (``cpu.max``, ``cpu.stat``) and v1 (``cpu.cfs_quota_us`` plus the separate
``cpuacct`` hierarchy) are supported; creating groups needs root (or a delegated subtree).
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PERIOD_US = 100_000
DEFAULT_WEIGHT = 100  # cgroup v2's cpu.weight of an ordinary group; v1's cpu.shares is 1024


def cgroup_version(root: Path = ROOT) -> int:
    """2 when the cpu controller is on the unified hierarchy, 1 for v1's cpu hierarchy,
    0 when neither is there."""
    with contextlib.suppress(OSError):
        if "cpu" in (root / "cgroup.controllers").read_text().split():
            return 2
    if (root / "cpu" / "cpu.cfs_quota_us").exists():
        return 1
    return 0


@dataclass
class Usage:
    """CPU account of a group at one moment (seconds)."""

    cpu: float  # CPU time used by every task of the group
    periods: int  # quota periods (100 ms) in which the group ran
    throttled: int  # of those, periods in which it spent its quota and was held back
    at: float  # time.monotonic()


class CpuQuota:
    """One cgroup with `cpus` CPUs of quota per 100 ms period (0.3 = 30 ms per period), or
    no quota (`cpus` None), and `weight` times an ordinary process's share of a busy CPU.

    The weight is what keeps the model honest on a shared machine: a quota caps a group
    but does not guarantee it, so a group competing with other people's work at the same
    priority could get less than its quota. At 10 times the weight it gets its quota
    unless ten others want the same core.

    `preexec` moves the process being started into the group before it runs anything,
    so its threads and children are in it from the start."""

    def __init__(self, name: str, cpus: float | None, weight: float = 1.0,
                 root: Path = ROOT) -> None:
        if cpus is not None and cpus <= 0:
            raise ValueError("a CPU quota must be positive")
        if weight <= 0:
            raise ValueError("a CPU weight must be positive")
        self.name, self.cpus, self.weight, self.root = name, cpus, weight, root
        self.version = cgroup_version(root)
        if self.version == 2:
            self.dirs = [root / name]
        elif self.version == 1:
            self.dirs = [root / "cpu" / name, root / "cpuacct" / name]
        else:
            raise RuntimeError(f"no cgroup cpu controller under {root}: a CPU quota per "
                               "process needs Linux cgroups (v1 or v2)")

    def create(self) -> CpuQuota:
        """Make the group and set its quota (PermissionError without root)."""
        for path in self.dirs:
            path.mkdir(exist_ok=True)
        quota = max(1000, round(self.cpus * PERIOD_US)) if self.cpus else None
        if self.version == 2:
            (self.dirs[0] / "cpu.max").write_text(f"{quota or 'max'} {PERIOD_US}")
            (self.dirs[0] / "cpu.weight").write_text(
                str(min(10_000, round(DEFAULT_WEIGHT * self.weight))))
        else:
            (self.dirs[0] / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.dirs[0] / "cpu.cfs_quota_us").write_text(str(quota or -1))
            (self.dirs[0] / "cpu.shares").write_text(str(round(1024 * self.weight)))
        return self

    def add(self, pid: int) -> None:
        for path in self.dirs:
            (path / "cgroup.procs").write_text(str(pid))

    def preexec(self) -> None:
        """For `subprocess`'s preexec_fn: runs in the child before exec."""
        self.add(os.getpid())

    def usage(self) -> Usage:
        at = time.monotonic()
        stat = {key: int(value) for key, value in (
            line.split() for line in (self.dirs[0] / "cpu.stat").read_text().splitlines())}
        cpu = (stat["usage_usec"] / 1e6 if self.version == 2
               else int((self.dirs[1] / "cpuacct.usage").read_text()) / 1e9)
        return Usage(cpu, stat.get("nr_periods", 0), stat.get("nr_throttled", 0), at)

    def leave(self, pid: int | None = None) -> None:
        """Move `pid` (this process by default) back to the root group."""
        top = [self.root] if self.version == 2 else [self.root / "cpu", self.root / "cpuacct"]
        for path in top:
            (path / "cgroup.procs").write_text(str(pid or os.getpid()))

    def remove(self, timeout: float = 10.0) -> None:
        """Remove the group once its processes have exited (they leave it as they exit)."""
        deadline = time.monotonic() + timeout
        for path in self.dirs:
            while True:
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)


def quota_summary(before: Usage, after: Usage, cpus: float) -> dict[str, float]:
    """Over a phase: CPU used (seconds), as a share of the quota, and the share of the
    group's quota periods in which it spent its quota (a process that wanted more CPU
    than its quota: throttled in most periods, ~100 % of its quota used)."""
    seconds = max(after.at - before.at, 1e-9)
    used = after.cpu - before.cpu
    periods = after.periods - before.periods
    return {"cpu_seconds": used, "quota_used": used / (seconds * cpus),
            "throttled": (after.throttled - before.throttled) / periods if periods else 0.0}
