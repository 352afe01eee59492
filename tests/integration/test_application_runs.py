"""An application serves one run at a time: a second start while it serves is refused, and the first run
serves on untouched. Two runs at once shared the engine's pool across two event loops (Litestar's test
client starts each run on an event loop of its own) and replaced each other's clients in the state: a
request of one run that had to wait for a connection while a task of the other waited too failed with
500 "<Queue ...> is bound to a different event loop"."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.factories import Tenant


async def test_a_second_start_while_serving_is_refused_and_the_first_run_serves_on(
    app: Litestar, tenant: Tenant
) -> None:
    ratings = f"/api/v1/projects/{tenant.project_id}/ratings"
    async with AsyncTestClient(app=app) as first:
        with pytest.raises(BaseException) as refused:
            async with AsyncTestClient(app=app):
                pass
        assert "serving already" in str(refused.getrepr())
        assert (await first.get(ratings, headers=tenant.headers)).status_code == 200
    async with AsyncTestClient(app=app) as again:  # stopped, it may serve again
        assert (await again.get(ratings, headers=tenant.headers)).status_code == 200
