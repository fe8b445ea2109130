"""Where tests find PostgreSQL: TEST_DATABASE_URL (default: the local server, user postgres,
database test). Without a server the tests that need one are skipped with the reason, except
when CI is set: there a missing server is a failure, so CI can never pass by skipping."""

from __future__ import annotations

import os

import pytest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL",
                                   "postgresql://postgres@127.0.0.1:5432/test")


async def require_postgres() -> str:
    """The test server's URL, after checking it answers (skip, or fail under CI)."""
    import asyncpg

    try:
        conn = await asyncpg.connect(TEST_DATABASE_URL, timeout=5)
    except Exception as exc:  # any failure: no server here
        reason = (f"no PostgreSQL at TEST_DATABASE_URL={TEST_DATABASE_URL} "
                  f"({type(exc).__name__}: {exc})")
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests")
        pytest.skip(reason)
    await conn.close()
    return TEST_DATABASE_URL
