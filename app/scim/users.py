"""/scim/v2/Users: the organization's members (and the users its provider turned off), provisioned by
its identity provider."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, delete, get, patch, post, put
from litestar.params import Parameter

from app.config import Settings
from app.errors import NotFound
from app.scim.filters import parse_filter
from app.scim.patch_operations import patch_operations
from app.scim.responses import list_response, page_bounds, projected, scim_response
from app.scim.search import Search, search_request
from app.scim.user_resources import patched_user, user_attributes, user_resource
from tenants.scim_directory import ScimDirectory, UserQuery

USER_FILTERS = {
    "userName": "userName",
    "externalId": "externalId",
    "id": "id",
    "emails.value": "email",
    "emails": "email",
}


def _base_url(request: Request[Any, Any, Any]) -> str:
    settings: Settings = request.app.state.settings
    return settings.base_url


def _user_id(user_id: str) -> UUID:
    try:
        return UUID(user_id)
    except ValueError:
        raise NotFound("no such user in this organization") from None


async def _search(request: Request[Any, Any, Any], directory: ScimDirectory, search: Search) -> Response[Any]:
    comparison = parse_filter(search.filter, USER_FILTERS)
    start, limit = page_bounds(search.start_index, search.count)
    query = UserQuery(
        attribute=None if comparison is None else comparison.attribute,
        value="" if comparison is None else comparison.value,
        offset=start - 1,
        limit=limit,
    )
    users, total = await directory.list(query)
    base = _base_url(request)
    resources = [projected(user_resource(user, base), search.attributes, search.excluded) for user in users]
    return list_response(resources, total, start)


@post("/.search", status_code=200)
async def search_everything(
    request: Request[Any, Any, Any], directory: ScimDirectory, data: dict[str, Any]
) -> Response[Any]:
    """A search at the root: the users (the groups are the three roles, listed at /Groups)."""
    return await _search(request, directory, search_request(data))


class UserController(Controller):
    path = "/Users"

    @get("/")
    async def list_users(
        self,
        request: Request[Any, Any, Any],
        directory: ScimDirectory,
        filter_text: Annotated[str | None, Parameter(query="filter")] = None,
        start_index: Annotated[int | None, Parameter(query="startIndex", ge=-(2**31), le=2**31)] = None,
        count: Annotated[int | None, Parameter(query="count", ge=-(2**31), le=2**31)] = None,
        attributes: Annotated[str | None, Parameter(max_length=1000)] = None,
        excluded: Annotated[str | None, Parameter(query="excludedAttributes", max_length=1000)] = None,
    ) -> Response[Any]:
        """Users, oldest first; `filter` is one `eq` comparison of userName, externalId, id or emails."""
        search = Search(filter_text, start_index, count, attributes, excluded)
        return await _search(request, directory, search)

    @post("/.search", status_code=200)
    async def search_users(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, data: dict[str, Any]
    ) -> Response[Any]:
        """The list, asked for with a SearchRequest body instead of query parameters."""
        return await _search(request, directory, search_request(data))

    @get("/{user_id:str}")
    async def get_user(
        self,
        request: Request[Any, Any, Any],
        directory: ScimDirectory,
        user_id: str,
        attributes: Annotated[str | None, Parameter(max_length=1000)] = None,
        excluded: Annotated[str | None, Parameter(query="excludedAttributes", max_length=1000)] = None,
    ) -> Response[Any]:
        user = await directory.get(_user_id(user_id))
        return scim_response(projected(user_resource(user, _base_url(request)), attributes, excluded))

    @post("/")
    async def create_user(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, data: dict[str, Any]
    ) -> Response[Any]:
        """A new member (a new account at a proven domain when the address has none)."""
        user = await directory.create(user_attributes(data))
        resource = user_resource(user, _base_url(request))
        return scim_response(resource, 201, location=resource["meta"]["location"])

    @put("/{user_id:str}")
    async def replace_user(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, user_id: str, data: dict[str, Any]
    ) -> Response[Any]:
        user = await directory.update(_user_id(user_id), user_attributes(data))
        return scim_response(user_resource(user, _base_url(request)))

    @patch("/{user_id:str}")
    async def patch_user(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, user_id: str, data: dict[str, Any]
    ) -> Response[Any]:
        """`active: false` (or "False") ends the membership, its sessions and its connected apps at once."""
        operations = patch_operations(data)
        base = _base_url(request)
        current = await directory.get(_user_id(user_id))
        user = await directory.update(current.id, patched_user(user_resource(current, base), operations))
        return scim_response(user_resource(user, base))

    @delete("/{user_id:str}", status_code=204)
    async def delete_user(self, directory: ScimDirectory, user_id: str) -> None:
        """The user leaves the organization; their account stays."""
        await directory.delete(_user_id(user_id))
