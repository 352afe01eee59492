"""The OpenAPI document is usable as integrators use it: readable unique operation ids, one tag, a summary
and a description on every operation, the API key required exactly where the server requires it, ids
typed as UUIDs, bodies that say they refuse unknown fields and carry an example, every error answer with
its body, and `Allow` on OPTIONS and 405 listing the documented methods.

Everything here walks `app.routes` or the document, so a route added later is held to the same rules.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.main import create_app
from tenants.api_key_auth import ApiKeyAuthentication
from tests import databases
from tests.factories import Tenant

CAMEL_CASE = re.compile(r"^[a-z]+([A-Z][a-z0-9]*)*$")
METHODS = ("get", "put", "post", "patch", "delete")
ANY_ID = "0190b2b4-0000-7000-8000-000000000000"


@pytest.fixture(scope="module")
def document_app(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Litestar:
    url = databases.sqlite_copy(sqlite_template, tmp_path_factory.mktemp("document"))
    return create_app(Settings(embeddings="off", database_url=url, secret_key="document-tests"))


@pytest.fixture(scope="module")
def document(document_app: Litestar) -> dict[str, Any]:
    return document_app.openapi_schema.to_schema()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_operation_ids_are_unique_and_camel_case(document: dict[str, Any]) -> None:
    ids = [operation["operationId"] for _, _, operation in operations(document)]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert [i for i in ids if not CAMEL_CASE.match(i)] == []
    assert {"listFeedback", "createFeedback", "getHelpfulStats", "listProjects"} <= set(ids)


def test_every_operation_has_one_tag_a_summary_and_a_description(document: dict[str, Any]) -> None:
    lacking = [
        (method, path)
        for path, method, operation in operations(document)
        if len(operation.get("tags", [])) != 1
        or not operation.get("description")
        # Litestar's stand-in for a missing summary is the handler's name run together
        or " " not in operation.get("summary", "")
    ]
    assert lacking == []


def test_the_api_key_is_required_exactly_where_the_server_requires_it(
    document_app: Litestar, document: dict[str, Any]
) -> None:
    assert document["components"]["securitySchemes"]["ApiKey"]["name"] == "X-API-Key"
    checked = 0
    for route in document_app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            if not handler.resolve_include_in_schema():
                continue
            authenticated = ApiKeyAuthentication in [
                getattr(m, "middleware", m) for m in handler.resolve_middleware()
            ]
            for method in handler.http_methods:
                operation = document["paths"][route.path_format][method.lower()]
                expected = [{"ApiKey": []}] if authenticated else []
                assert operation["security"] == expected, (method, route.path)
                checked += 1
    assert checked == len(operations(document))


def test_ids_in_paths_are_uuids(document: dict[str, Any]) -> None:
    """Every path parameter is an id, or a word of a vocabulary (an issue tracker) listed as an enum."""
    for path, method, operation in operations(document):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                schema = parameter["schema"]
                assert schema.get("format") == "uuid" or schema.get("enum"), (method, path, parameter["name"])


def test_request_bodies_refuse_unknown_fields_and_carry_an_example(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for path, method, operation in operations(document):
        for media_type, content in operation.get("requestBody", {}).get("content", {}).items():
            assert "example" in content, (method, path, media_type)
            choices = content["schema"].get("oneOf", [content["schema"]])  # a body the path chooses
            bodies = [schemas[choice["$ref"].rsplit("/", 1)[-1]] for choice in choices]
            assert all(body["additionalProperties"] is False for body in bodies), (method, path)
            assert any(set(content["example"]) <= set(body["properties"]) for body in bodies), (method, path)


def test_every_error_answer_documents_its_error_body(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for path, method, operation in operations(document):
        always = {"503"} | ({"413", "415"} if "requestBody" in operation else set())
        assert always <= set(operation["responses"]), (method, path)
        for status, response in operation["responses"].items():
            if int(status) < 400:
                continue
            ref = response["content"]["application/json"]["schema"]["$ref"]
            body = schemas[ref.rsplit("/", 1)[-1]]
            assert {"error", "details"} <= set(body["required"]), (method, path, status)


def test_links_fill_every_path_parameter_of_their_target_from_what_their_source_has(
    document: dict[str, Any],
) -> None:
    """A link names an operation and gives each of its path parameters a value: the source's answer id,
    or a path parameter the source was called with (a renamed parameter cannot leave a link dangling)."""
    by_id = {operation["operationId"]: (path, operation) for path, _, operation in operations(document)}
    linked = 0
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            for link in response.get("links", {}).values():
                target_path, _ = by_id[link["operationId"]]
                assert set(link["parameters"]) == set(re.findall(r"{(\w+)}", target_path)), (method, path)
                for value in link["parameters"].values():
                    source = value.removeprefix("$request.path.")
                    assert value == "$response.body#/id" or f"{{{source}}}" in path, (method, path, value)
                    assert value != "$response.body#/id" or status.startswith("2"), (method, path, status)
                linked += 1
    assert linked >= 20


async def test_allow_on_options_and_405_lists_the_documented_methods(
    document_app: Litestar, document: dict[str, Any]
) -> None:
    async with AsyncTestClient(app=document_app) as client:
        for path, item in document["paths"].items():
            url = re.sub(r"\{[^}]+\}", ANY_ID, path)
            documented = {method.upper() for method in item if method in METHODS} | {"OPTIONS"}
            options = await client.options(url)
            assert set(options.headers["allow"].split(", ")) == documented, (path, options.status_code)
            missing = next(m for m in ("PUT", "PATCH", "DELETE", "POST", "GET") if m not in documented)
            refused = await client.request(missing, url)
            assert refused.status_code == 405, (missing, path)
            assert set(refused.headers["allow"].split(", ")) == documented, (missing, path)


async def test_query_parameters_are_read_as_strictly_as_documented(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    feedback = f"/api/v1/projects/{tenant.project_id}/feedback"
    for query, field in (
        ("type=null", "type"),
        ("type=Bug&type=Bug", "type"),
        ("archived=true&archived=false", "archived"),
    ):
        refused = await client.get(f"{feedback}?{query}", headers=tenant.headers)
        assert refused.status_code == 400 and refused.json()["details"].startswith(field), query
    ratings = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ratings?value=null", headers=tenant.headers
    )
    assert ratings.status_code == 400
    assert (await client.get(f"{feedback}?search=null", headers=tenant.headers)).status_code == 200


NOT_REST = {
    "/mcp",
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
    "/register",
    "/authorize",
    "/token",
    "/revoke",
}
"""Mounted applications that speak another protocol (MCP's JSON-RPC, OAuth's forms and redirects) and are
described by their own standards' metadata, not by this document: see docs/mcp.md."""


def test_mounted_protocols_are_left_out_of_the_document_on_purpose(
    document_app: Litestar, document: dict[str, Any]
) -> None:
    mounts = {route.path for route in document_app.routes if not isinstance(route, HTTPRoute)}
    assert mounts == NOT_REST
    assert [path for path in document["paths"] if any(path.startswith(m) for m in NOT_REST)] == []
