"""The store fixtures (``db_url`` runs a test on SQLite and on PostgreSQL)."""

from tests.store.conftest import backend, clock, db_path, db_url, pg_server, store

__all__ = ["backend", "clock", "db_path", "db_url", "pg_server", "store"]
