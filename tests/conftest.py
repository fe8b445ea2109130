"""Fixtures shared by every test folder."""

from __future__ import annotations

import pytest

from tests.databases import database_for


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request, tmp_path):
    """A fresh database of each backend in turn (tests/databases.py): SQLite, then PostgreSQL."""
    async with database_for(request.param, tmp_path) as db:
        yield db
