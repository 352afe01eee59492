"""/scim/v2/Groups: the organization's roles as three fixed groups, `owner`, `admin` and `member`, whose
members are the members with that role. A provider assigns roles by putting users in groups; the groups
themselves cannot be created, renamed or deleted."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, delete, get, patch, post, put
from litestar.params import Parameter

from app.config import Settings
from app.errors import Conflict, NotFound
from app.scim.errors import ScimError
from app.scim.filters import parse_filter
from app.scim.patch_operations import Operation, patch_operations
from app.scim.responses import list_response, page_bounds, scim_response
from tenants.scim_directory import ROLE_GROUPS, ScimDirectory

GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group"
GROUP_FILTERS = {"displayName": "displayName", "id": "id"}
_MEMBER_PATH = "members[value eq "


def _group_name(group_id: str) -> str:
    if group_id not in ROLE_GROUPS:
        raise NotFound("no such group: the groups are owner, admin and member")
    return group_id


async def group_resource(
    directory: ScimDirectory, role: str, base_url: str, *, with_members: bool = True
) -> dict[str, Any]:
    resource: dict[str, Any] = {
        "schemas": [GROUP_SCHEMA],
        "id": role,
        "displayName": role,
        "meta": {"resourceType": "Group", "location": f"{base_url}/scim/v2/Groups/{role}"},
    }
    if with_members:
        resource["members"] = [
            {
                "value": str(user.id),
                "display": user.attributes.user_name,
                "$ref": f"{base_url}/scim/v2/Users/{user.id}",
            }
            for user in await directory.group_members(role)
        ]
    return resource


def _member_ids(value: Any, field: str) -> list[UUID]:
    items = value if isinstance(value, list) else [value]
    ids = []
    for item in items:
        raw = item.get("value") if isinstance(item, dict) else None
        try:
            ids.append(UUID(str(raw)))
        except ValueError:
            raise ScimError("invalidValue", f"{field}: each member needs the value of a user's id") from None
    return ids


def _check_name(value: Any, role: str) -> None:
    if value != role:
        raise ScimError("mutability", f"displayName: the group {role} cannot be renamed")


async def _apply(directory: ScimDirectory, role: str, operation: Operation) -> None:
    path = (operation.path or "").strip()
    lowered = path.lower()
    if not path:
        for key, value in operation.value.items():
            await _apply(directory, role, Operation(operation.op, key, value))
    elif lowered == "displayname":
        _check_name(operation.value, role)
    elif lowered == "members":
        if operation.op == "replace":
            await directory.set_group(role, _member_ids(operation.value, "members"))
        elif operation.op == "add":
            for user_id in _member_ids(operation.value, "members"):
                await directory.join_group(role, user_id)
        elif operation.value is None:
            await directory.set_group(role, [])
        else:
            for user_id in _member_ids(operation.value, "members"):
                await directory.leave_group(role, user_id)
    elif lowered.startswith(_MEMBER_PATH) and path.endswith('"]') and operation.op == "remove":
        try:
            user_id = UUID(path[len(_MEMBER_PATH) + 1 : -2])
        except ValueError:
            raise ScimError("invalidPath", 'path: members[value eq "<user id>"] names a user\'s id') from None
        await directory.leave_group(role, user_id)
    else:
        raise ScimError("invalidPath", f"path: {path!r:.80} is not an attribute of a Group here")


class GroupController(Controller):
    path = "/Groups"

    @get("/")
    async def list_groups(
        self,
        request: Request[Any, Any, Any],
        directory: ScimDirectory,
        filter_text: Annotated[str | None, Parameter(query="filter")] = None,
        start_index: Annotated[int | None, Parameter(query="startIndex", ge=-(2**31), le=2**31)] = None,
        count: Annotated[int | None, Parameter(query="count", ge=-(2**31), le=2**31)] = None,
        excluded: Annotated[str | None, Parameter(query="excludedAttributes", max_length=200)] = None,
    ) -> Response[Any]:
        """The three role groups; `filter` is `displayName eq "..."` or `id eq "..."`."""
        comparison = parse_filter(filter_text, GROUP_FILTERS)
        names = [name for name in ROLE_GROUPS if comparison is None or comparison.value == name]
        start, limit = page_bounds(start_index, count)
        shown = names[start - 1 : start - 1 + limit]
        base: str = _settings(request).base_url
        with_members = "members" not in (excluded or "").lower()
        resources = [await group_resource(directory, name, base, with_members=with_members) for name in shown]
        return list_response(resources, len(names), start)

    @get("/{group_id:str}")
    async def get_group(
        self,
        request: Request[Any, Any, Any],
        directory: ScimDirectory,
        group_id: str,
        excluded: Annotated[str | None, Parameter(query="excludedAttributes", max_length=200)] = None,
    ) -> Response[Any]:
        role = _group_name(group_id)
        with_members = "members" not in (excluded or "").lower()
        return scim_response(
            await group_resource(directory, role, _settings(request).base_url, with_members=with_members)
        )

    @post("/")
    async def create_group(self, data: dict[str, Any]) -> Response[Any]:
        """Groups are the roles and exist already: link the provider's groups to them by name."""
        name = data.get("displayName")
        if name in ROLE_GROUPS:
            raise Conflict(f"displayName: the group {name} exists; its id is {name}")
        raise ScimError("invalidValue", "displayName: the groups are the roles owner, admin and member")

    @put("/{group_id:str}")
    async def replace_group(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, group_id: str, data: dict[str, Any]
    ) -> Response[Any]:
        """The group's members become exactly those named; the others become members (role member)."""
        role = _group_name(group_id)
        if "displayName" in data:
            _check_name(data["displayName"], role)
        await directory.set_group(role, _member_ids(data.get("members") or [], "members"))
        return scim_response(await group_resource(directory, role, _settings(request).base_url))

    @patch("/{group_id:str}")
    async def patch_group(
        self, request: Request[Any, Any, Any], directory: ScimDirectory, group_id: str, data: dict[str, Any]
    ) -> Response[Any]:
        role = _group_name(group_id)
        for operation in patch_operations(data):
            await _apply(directory, role, operation)
        return scim_response(await group_resource(directory, role, _settings(request).base_url))

    @delete("/{group_id:str}", status_code=204)
    async def delete_group(self, group_id: str) -> None:
        _group_name(group_id)
        raise ScimError("mutability", "the role groups owner, admin and member cannot be deleted")


def _settings(request: Request[Any, Any, Any]) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]
