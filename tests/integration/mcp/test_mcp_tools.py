"""The MCP server driven by the official `mcp` client over streamable HTTP, against a real server: the tools
a token sees, every tool's answer against the REST API's, tenancy, read tokens, revocation, paging and
errors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar import Litestar
from mcp import Client
from mcp.shared.exceptions import MCPError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.db.transactions import unit_of_work
from app.main import create_app
from app.services.contact_messages import ContactMessages
from app.services.projects import Projects
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.mcp.conftest import with_changes
from tests.mcp_clients import bearer, mcp_client, served

READ_TOOLS = {
    "list_projects",
    "get_project",
    "list_feedback",
    "get_feedback",
    "list_ratings",
    "rating_stats",
    "rating_versions",
    "worst_pages",
    "list_contact_messages",
    "list_themes",
    "similar_feedback",
    "list_surveys",
    "survey_results",
    "list_alerts",
    "list_ideas",
}
WRITE_TOOLS = {"create_feedback", "update_feedback", "create_survey", "set_survey_status", "update_idea"}


@pytest.fixture
async def base_url(app: Litestar) -> AsyncIterator[str]:
    async with served(app) as url:
        yield url


@pytest.fixture
async def rest(base_url: str, tenant: Tenant) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"{base_url}/api/v1", headers=tenant.headers) as client:
        yield client


async def call(client: Client, name: str, arguments: dict[str, Any]) -> Any:
    """A tool's structured answer; fails the test when the call is a tool error."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    assert result.content and result.content[0].text  # the short text beside the structure
    return result.structured_content


async def refused(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    assert "Traceback" not in result.content[0].text
    body: dict[str, Any] = result.structured_content
    return body


async def test_a_write_token_lists_every_tool_and_a_read_token_only_the_reads(
    base_url: str, tenant: Tenant
) -> None:
    async with mcp_client(base_url, {"X-API-Key": tenant.token}) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == READ_TOOLS | WRITE_TOOLS
    for name in READ_TOOLS:
        assert tools[name].annotations.read_only_hint is True
    for name in WRITE_TOOLS:
        assert tools[name].annotations.read_only_hint is False
    assert tools["update_feedback"].annotations.destructive_hint is True
    assert tools["create_feedback"].annotations.destructive_hint is False
    assert tools["list_feedback"].input_schema["properties"]["limit"]["maximum"] == 100
    assert tools["get_project"].input_schema["required"] == ["project_id"]

    async with mcp_client(base_url, bearer(tenant.read_token)) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == READ_TOOLS
        body = await refused(client, "create_feedback", {"project_id": tenant.project_id, "message": "x"})
    assert body == {
        "error": "forbidden",
        "details": "this token has read scope; POST, PATCH and DELETE need a write token",
    }


async def test_feedback_tools_answer_the_rest_bodies_and_leave_the_api_s_history(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant
) -> None:
    pid = tenant.project_id
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        created = await call(
            client,
            "create_feedback",
            {
                "project_id": pid,
                "message": "The search box ignores umlauts",
                "type": "Bug",
                "path": "/search",
            },
        )
        assert created["source"] == "Manual" and created["status"] == "New"
        fid = created["id"]
        updated = await call(
            client, "update_feedback", {"project_id": pid, "feedback_id": fid, "status": "Active"}
        )
        assert updated["status"] == "Active"
        listed = await call(client, "list_feedback", {"project_id": pid, "status": "Active", "limit": 5})
        one = await call(client, "get_feedback", {"project_id": pid, "feedback_id": fid})
        project = await call(client, "get_project", {"project_id": tenant.project_key})
        projects = await call(client, "list_projects", {})

    assert one == (await rest.get(f"/projects/{pid}/feedback/{fid}")).json()
    assert (
        listed
        == (await rest.get(f"/projects/{pid}/feedback", params={"status": "Active", "limit": 5})).json()
    )
    assert listed["pagination"]["total"] == 1
    assert project == (await rest.get(f"/projects/{pid}")).json()
    assert projects == (await rest.get("/projects")).json()
    history = (await rest.get(f"/projects/{pid}/feedback/{fid}/history")).json()["history"]
    assert [(c["field"], c["from"], c["to"]) for c in history] == [("status", "New", "Active")]
    assert history[0]["changed_by"].startswith("token oat_")


async def test_rating_and_message_tools_answer_the_rest_bodies(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    pid = tenant.project_id
    for value, path, version in [
        (False, "/install", "1.0"),
        (False, "/install", "1.1"),
        (True, "/faq", "1.1"),
    ]:
        response = await rest.post(
            f"/projects/{pid}/ratings", json={"value": value, "path": path, "version": version}
        )
        assert response.status_code == 200, response.text
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id)
        project = await Projects(session, scope).get(pid)
        await ContactMessages(session, scope, project).create(
            name="Ada", email="ada@example.com", message="Please call me back about pricing"
        )

    async with mcp_client(base_url, bearer(tenant.read_token)) as client:
        ratings = await call(client, "list_ratings", {"project_id": pid, "type": "helpful", "limit": 2})
        stats = await call(client, "rating_stats", {"project_id": pid, "since": "2020-01-01"})
        versions = await call(client, "rating_versions", {"project_id": pid})
        worst = await call(client, "worst_pages", {"project_id": pid})
        messages = await call(client, "list_contact_messages", {"project_id": pid, "search": "pricing"})

    expected = (
        await rest.get(f"/projects/{pid}/ratings/typed", params={"type": "helpful", "limit": 2})
    ).json()
    assert ratings == expected and ratings["pagination"]["total"] == 3 and len(ratings["ratings"]) == 2
    assert (
        stats
        == (await rest.get(f"/projects/{pid}/ratings/stats/typed", params={"since": "2020-01-01"})).json()
    )
    assert stats["type"] == "helpful"
    assert versions == (await rest.get(f"/projects/{pid}/ratings/stats/versions")).json()
    assert [v["version"] for v in versions["versions"]] == ["1.0", "1.1"]
    assert worst == {"pages": [{"path": "/install", "not_helpful": 2, "helpful": 0, "percentage": 0.0}]}
    assert (
        messages == (await rest.get(f"/projects/{pid}/contact-messages", params={"search": "pricing"})).json()
    )
    assert messages["contact_messages"][0]["name"] == "Ada"


async def test_survey_tools_answer_the_rest_bodies(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    pid = tenant.project_id
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        created = await call(client, "create_survey", {"project_id": pid, "template": "nps", "name": "Q4"})
        assert (created["name"], created["status"], created["languages"]) == (
            "Q4",
            "draft",
            ["en", "de", "sv"],
        )
        sid = created["id"]
        active = await call(
            client, "set_survey_status", {"project_id": pid, "survey_id": sid, "status": "active"}
        )
        assert active["status"] == "active"
        submitted = await rest.post(
            f"/surveys/{sid}/responses/submit",
            json={
                "project_key": tenant.project_key,
                "answers": [{"question_id": "score", "value": 10}],
                "language": "sv",
                "completed": True,
            },
        )
        assert submitted.status_code == 200, submitted.text
        listed = await call(client, "list_surveys", {"project_id": pid})
        assert listed == (await rest.get(f"/projects/{pid}/surveys")).json()
        results = await call(client, "survey_results", {"project_id": pid, "survey_id": sid})
        assert results == (await rest.get(f"/projects/{pid}/surveys/{sid}/results")).json()
        assert results["questions"][0]["nps"] == {
            "score": 100,
            "promoters": 1,
            "passives": 0,
            "detractors": 0,
        }
        bad = await refused(
            client, "set_survey_status", {"project_id": pid, "survey_id": sid, "status": "done"}
        )
        assert bad["error"] == "invalid_request" and bad["details"].startswith("status:")
        theirs = await refused(
            client, "create_survey", {"project_id": other_tenant.project_id, "template": "csat"}
        )
        assert theirs["error"] in {"not_found", "forbidden"}
    async with mcp_client(base_url, bearer(tenant.read_token)) as client:
        body = await refused(
            client, "set_survey_status", {"project_id": pid, "survey_id": sid, "status": "paused"}
        )
        assert body["error"] == "forbidden"


async def test_idea_tools_answer_the_rest_bodies(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant
) -> None:
    pid = tenant.project_id
    idea = (await rest.post(f"/projects/{pid}/ideas", json={"title": "Dark mode", "tags": ["ui"]})).json()
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        listed = await call(client, "list_ideas", {"project_id": pid, "tag": "ui"})
        assert listed == (await rest.get(f"/projects/{pid}/ideas", params={"tag": "ui"})).json()
        changed = await call(
            client,
            "update_idea",
            {"project_id": pid, "idea_id": idea["id"], "status": "planned", "response": "May"},
        )
        assert changed == (await rest.get(f"/projects/{pid}/ideas/{idea['id']}")).json()
        assert (changed["status"], changed["response"]) == ("planned", "May")
        bad = await refused(
            client, "update_idea", {"project_id": pid, "idea_id": idea["id"], "status": "shipped"}
        )
        assert bad["error"] == "invalid_request" and "status" in bad["details"]


async def test_another_organization_s_ids_are_unknown(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    theirs = (
        await rest.post(
            f"/projects/{other_tenant.project_id}/feedback",
            json={"message": "theirs"},
            headers=other_tenant.headers,
        )
    ).json()
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        projects = await call(client, "list_projects", {})
        assert [p["id"] for p in projects["projects"]] == [tenant.project_id]
        for name, arguments in [
            ("get_project", {"project_id": other_tenant.project_id}),
            ("list_feedback", {"project_id": other_tenant.project_key}),
            ("get_feedback", {"project_id": other_tenant.project_id, "feedback_id": theirs["id"]}),
            (
                "update_feedback",
                {"project_id": other_tenant.project_id, "feedback_id": theirs["id"], "status": "Closed"},
            ),
            ("worst_pages", {"project_id": other_tenant.project_id}),
        ]:
            assert (await refused(client, name, arguments))["error"] in {"not_found", "forbidden"}, name
        # their item under our own project is not found either
        body = await refused(
            client, "get_feedback", {"project_id": tenant.project_id, "feedback_id": theirs["id"]}
        )
        assert body["error"] == "not_found"
    unchanged = await rest.get(
        f"/projects/{other_tenant.project_id}/feedback/{theirs['id']}", headers=other_tenant.headers
    )
    assert unchanged.json()["status"] == "New"


BAD_ARGUMENTS = [
    ("list_feedback", {"limit": 101}, "invalid_request", "limit: Expected `int` <= 100"),
    ("list_feedback", {"colour": "red"}, "invalid_request", "colour: is not a known argument"),
    ("get_feedback", {}, "invalid_request", "feedback_id: is required"),
    ("get_feedback", {"feedback_id": "nope"}, "invalid_request", "feedback_id: must be a UUID, got 'nope'"),
    ("create_feedback", {"message": ""}, "invalid_request", "message: Expected `str` of length >= 1"),
    (
        "rating_stats",
        {"since": "2026-02-01", "until": "2026-01-01"},
        "invalid_request",
        "until: must not be earlier than since",
    ),
]


async def test_bad_arguments_are_tool_errors_in_the_api_s_words(base_url: str, tenant: Tenant) -> None:
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        for name, arguments, error, details in BAD_ARGUMENTS:
            body = await refused(client, name, {"project_id": tenant.project_id, **arguments})
            assert body == {"error": error, "details": details}, name
        assert (await refused(client, "no_such_tool", {}))["error"] == "not_found"


async def test_nul_characters_in_arguments_are_tool_errors_naming_the_field(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant
) -> None:
    """Review finding 9: tool arguments never passed the request checks (the MCP transport is an ASGI
    mount), so a NUL character was stored on SQLite and failed the call on PostgreSQL. It is a tool error
    naming the field, as the REST API's 400, and nothing is stored."""
    pid = tenant.project_id
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        for arguments, field in (
            ({"message": "The chart\x00 is cut off"}, "message"),
            ({"message": "The chart is cut off", "metadata": {"plan": "pro\x00"}}, "metadata.plan"),
            ({"message": "The chart is cut off", "metadata": {"pl\x00an": "pro"}}, "metadata.pl"),
        ):
            body = await refused(client, "create_feedback", {"project_id": pid, **arguments})
            assert body["error"] == "invalid_request", body
            assert body["details"].startswith(f"{field}"), body
            assert "must not contain NUL characters" in body["details"]
        body = await refused(client, "list_feedback", {"project_id": pid, "search": "cut\x00"})
        assert body["details"].startswith("search: must not contain NUL characters"), body
    assert (await rest.get(f"/projects/{pid}/feedback")).json()["feedback"] == []


async def test_a_revoked_token_is_refused_on_its_next_call(
    base_url: str, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    statuses: list[int] = []
    async with mcp_client(base_url, bearer(tenant.token), statuses) as client:
        await call(client, "list_projects", {})
        async with unit_of_work(session_maker) as session:
            tokens = AccessTokens(session, operator_scope(tenant.org_id))
            [record] = [t for t in await tokens.list() if t.label == "write"]
            await tokens.revoke(record.id)
        with pytest.raises(MCPError):
            await client.call_tool("list_projects", {})
    assert statuses[-1] == 401


async def test_no_token_or_a_bad_one_is_401_pointing_at_the_resource_metadata(base_url: str) -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    async with httpx.AsyncClient() as http:
        for headers in ({}, bearer("oat_" + "x" * 43), {"X-API-Key": "nonsense"}):
            response = await http.post(f"{base_url}/mcp", json=request, headers=headers)
            assert response.status_code == 401
            assert response.headers["www-authenticate"].startswith(
                f'Bearer resource_metadata="{base_url}/.well-known/oauth-protected-resource/mcp"'
            )
            assert response.json()["error"] == "unauthorized"


@pytest.fixture
def limited_app(settings: Settings) -> Litestar:
    return create_app(with_changes(settings, rate_limit_mcp=RateLimit(3, 60)))


async def test_tool_calls_are_rate_limited_per_token(limited_app: Litestar, tenant: Tenant) -> None:
    async with served(limited_app) as url:
        async with mcp_client(url, bearer(tenant.token)) as client:
            for _ in range(3):
                await call(client, "list_projects", {})
            body = await refused(client, "list_projects", {})
        async with mcp_client(url, bearer(tenant.read_token)) as client:
            await call(client, "list_projects", {})  # another token has its own budget
    assert body["error"] == "rate_limited" and 1 <= body["retry_after"] <= 60
