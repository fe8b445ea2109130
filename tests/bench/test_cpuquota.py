"""bench.cpuquota against a stand-in cgroup tree: the files it writes and reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.cpuquota import CpuQuota, Usage, cgroup_version, quota_summary


def v1_tree(root: Path) -> Path:
    for name in ("cpu", "cpuacct"):
        (root / name).mkdir(parents=True)
    (root / "cpu" / "cpu.cfs_quota_us").write_text("-1")
    return root


def v2_tree(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids")
    return root


def test_the_version_is_read_from_the_mounted_tree(tmp_path: Path) -> None:
    assert cgroup_version(tmp_path) == 0
    assert cgroup_version(v1_tree(tmp_path / "a")) == 1
    assert cgroup_version(v2_tree(tmp_path / "b")) == 2
    with pytest.raises(RuntimeError, match="cgroups"):
        CpuQuota("x", 0.3, root=tmp_path)


def test_v1_quota_weight_and_account(tmp_path: Path) -> None:
    quota = CpuQuota("bot-0", 0.3, weight=10, root=v1_tree(tmp_path)).create()
    cpu, acct = tmp_path / "cpu" / "bot-0", tmp_path / "cpuacct" / "bot-0"
    assert (cpu / "cpu.cfs_quota_us").read_text() == "30000"
    assert (cpu / "cpu.cfs_period_us").read_text() == "100000"
    assert (cpu / "cpu.shares").read_text() == "10240"
    (cpu / "cpu.stat").write_text("nr_periods 50\nnr_throttled 20\nthrottled_time 9\n")
    (acct / "cpuacct.usage").write_text("1500000000")
    usage = quota.usage()
    assert (usage.cpu, usage.periods, usage.throttled) == (1.5, 50, 20)


def test_v2_quota_weight_and_account(tmp_path: Path) -> None:
    quota = CpuQuota("bot-0", 0.25, weight=10, root=v2_tree(tmp_path)).create()
    assert (tmp_path / "bot-0" / "cpu.max").read_text() == "25000 100000"
    assert (tmp_path / "bot-0" / "cpu.weight").read_text() == "1000"
    (tmp_path / "bot-0" / "cpu.stat").write_text(
        "usage_usec 2000000\nnr_periods 10\nnr_throttled 4\nthrottled_usec 7\n")
    usage = quota.usage()
    assert (usage.cpu, usage.periods, usage.throttled) == (2.0, 10, 4)
    free = CpuQuota("driver", None, weight=10, root=tmp_path).create()
    assert (tmp_path / "driver" / "cpu.max").read_text() == "max 100000"
    assert free.cpus is None


def test_a_phase_summary_is_a_share_of_the_quota_and_of_the_periods() -> None:
    summary = quota_summary(Usage(1.0, 100, 10, at=10.0), Usage(4.0, 200, 60, at=20.0), 0.3)
    assert summary["cpu_seconds"] == pytest.approx(3.0)
    assert summary["quota_used"] == pytest.approx(1.0)  # 3 s of CPU in 10 s at 0.3 CPU
    assert summary["throttled"] == pytest.approx(0.5)  # 50 of 100 periods
