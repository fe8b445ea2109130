"""bench.load's pictures on/off runs: the option's parsing and the picture worker's CPU,
which the bot process's own CPU time does not include."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from bench.harness import child_pids, process_cpu_seconds
from bench.load import picture_modes


def test_pictures_option_gives_the_runs_in_order():
    assert picture_modes(argparse.Namespace(pictures="on")) == [True]
    assert picture_modes(argparse.Namespace(pictures="on,off")) == [True, False]
    assert picture_modes(argparse.Namespace(pictures=" off ")) == [False]
    with pytest.raises(SystemExit):
        picture_modes(argparse.Namespace(pictures="maybe"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_child_process_and_its_cpu_are_found():
    child = subprocess.Popen([sys.executable, "-c",
                              "import sys, time\nt = time.process_time()\n"
                              "while time.process_time() - t < 0.05: pass\n"
                              "print('done', flush=True)\nsys.stdin.read()"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "done\n"
        assert child.pid in child_pids(os.getpid())
        assert process_cpu_seconds(child.pid) > 0
    finally:
        child.stdin.close()
        child.wait(timeout=10)
    assert child.pid not in child_pids(os.getpid())
    assert process_cpu_seconds(child.pid) == 0.0
