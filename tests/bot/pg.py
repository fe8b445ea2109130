"""Where tests find PostgreSQL (see tests/databases.py)."""

from tests.databases import TEST_DATABASE_URL, require_postgres

__all__ = ["TEST_DATABASE_URL", "require_postgres"]
