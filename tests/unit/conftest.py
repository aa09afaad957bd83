from __future__ import annotations

import pytest

from tests.store.pgserver import PgServer, shared_server


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> PgServer:
    """The session's throwaway PostgreSQL server (the one the store tests use)."""
    return shared_server(request.config)
