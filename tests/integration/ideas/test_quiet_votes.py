"""Votes, suggestions and comments come from the visitors of a portal, like the widgets' submissions:
their access lines are DEBUG, never an INFO line each."""

from __future__ import annotations

import logging

import pytest
from litestar.testing import AsyncTestClient

from tests.factories import Tenant
from tests.integration.ideas.conftest import open_board


async def test_votes_suggestions_and_comments_write_no_info_access_line(
    client: AsyncTestClient, tenant: Tenant, caplog: pytest.LogCaptureFixture
) -> None:
    board = await open_board(client, tenant)
    me = board.bearer("user_ada", "ada@example.org", "Ada")
    with caplog.at_level(logging.DEBUG, logger="hearken.access"):
        idea = await client.post(f"{board.api}/ideas", json={"title": "Dark mode"}, headers=me)
        assert idea.status_code == 201, idea.text
        url = f"{board.api}/ideas/{idea.json()['id']}"
        assert (await client.put(f"{url}/vote", headers=me)).status_code < 300
        assert (await client.delete(f"{url}/vote", headers=me)).status_code < 300
        assert (await client.post(f"{url}/comments", json={"body": "Yes!"}, headers=me)).status_code < 300
        page = f"{board.page}/ideas/{idea.json()['id']}"
        await client.post(f"{page}/vote", data={}, headers=me)
        await client.post(f"{page}/comments", data={"body": "Me too"}, headers=me)
        await client.post(f"{board.page}/suggest", data={"title": "Light mode"}, headers=me)
        await client.get(f"/api/v1/projects/{tenant.project_id}/ideas", headers=tenant.headers)
    lines = [(r.levelno, r.method, r.route) for r in caplog.records if r.name == "hearken.access"]  # type: ignore[attr-defined]
    portal = [line for line in lines if "{project_key}" in line[2] and line[1] != "GET"]  # not redirects
    assert len(portal) == 7 and {level for level, _, _ in portal} == {logging.DEBUG}, lines
    assert (logging.INFO, "GET", "/api/v1/projects/{project_id}/ideas") in lines
