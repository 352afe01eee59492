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
from app.scim.responses import list_response, page_bounds, scim_response
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
    ) -> Response[Any]:
        """Users, oldest first; `filter` is one `eq` comparison of userName, externalId, id or emails."""
        comparison = parse_filter(filter_text, USER_FILTERS)
        start, limit = page_bounds(start_index, count)
        query = UserQuery(
            attribute=None if comparison is None else comparison.attribute,
            value="" if comparison is None else comparison.value,
            offset=start - 1,
            limit=limit,
        )
        users, total = await directory.list(query)
        base = _base_url(request)
        return list_response([user_resource(user, base) for user in users], total, start)

    @get("/{user_id:str}")
    async def get_user(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, user_id: str
    ) -> Response[Any]:
        user = await directory.get(_user_id(user_id))
        return scim_response(user_resource(user, _base_url(request)))

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
