"""The test databases' own rule (issue #20): a machine without PostgreSQL skips its runs with
the reason, but CI (the CI variable set, as .ci/run does) must run both databases — a missing
server, or TEST_BACKENDS leaving one out, fails there instead of passing by skipping."""

from __future__ import annotations

import pytest

import tests.databases as databases


async def _outcome(coro) -> type[BaseException]:
    try:
        await coro
    except (pytest.skip.Exception, pytest.fail.Exception) as exc:
        return type(exc)
    raise AssertionError("neither skipped nor failed")


async def _open(dialect: str, folder) -> None:
    async with databases.database_for(dialect, folder):
        pass


@pytest.mark.parametrize("ci", ["", "1"])
async def test_no_server_skips_except_under_ci(monkeypatch, ci):
    monkeypatch.setattr(databases, "_unreachable", "no PostgreSQL at TEST_DATABASE_URL=x")
    monkeypatch.setenv("CI", ci)
    expected = pytest.fail.Exception if ci else pytest.skip.Exception
    assert await _outcome(databases.require_postgres()) is expected


@pytest.mark.parametrize("ci", ["", "1"])
async def test_a_backend_left_out_skips_except_under_ci(monkeypatch, tmp_path, ci):
    monkeypatch.setattr(databases, "BACKENDS", ["sqlite"])
    monkeypatch.setenv("CI", ci)
    expected = pytest.fail.Exception if ci else pytest.skip.Exception
    assert await _outcome(_open("postgresql", tmp_path)) is expected
