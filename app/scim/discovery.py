"""What the SCIM service offers (RFC 7643, sections 5 to 7): ServiceProviderConfig, ResourceTypes and
Schemas. Identity providers and compliance testers read these to know which features to use."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get

from app.config import Settings
from app.errors import NotFound
from app.scim.groups import GROUP_SCHEMA
from app.scim.responses import MAX_COUNT, list_response, scim_response
from app.scim.user_resources import USER_SCHEMA

CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema"


def _base(request: Request[Any, Any, Any]) -> str:
    settings: Settings = request.app.state.settings
    return f"{settings.base_url}/scim/v2"


def _attribute(
    name: str,
    kind: str = "string",
    *,
    required: bool = False,
    mutability: str = "readWrite",
    uniqueness: str = "none",
    multi: bool = False,
    sub: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    attribute: dict[str, Any] = {
        "name": name,
        "type": kind,
        "multiValued": multi,
        "description": name,
        "required": required,
        "caseExact": False,
        "mutability": mutability,
        "returned": "default",
        "uniqueness": uniqueness,
    }
    if sub is not None:
        attribute["subAttributes"] = sub
    return attribute


USER_ATTRIBUTES = [
    _attribute("userName", required=True, uniqueness="server"),
    _attribute("externalId"),
    _attribute("name", "complex", sub=[_attribute("givenName"), _attribute("familyName")]),
    _attribute("displayName"),
    _attribute("active", "boolean"),
    _attribute(
        "emails",
        "complex",
        multi=True,
        sub=[_attribute("value"), _attribute("type"), _attribute("primary", "boolean")],
    ),
    _attribute(
        "groups",
        "complex",
        multi=True,
        mutability="readOnly",
        sub=[_attribute("value", mutability="readOnly"), _attribute("display", mutability="readOnly")],
    ),
]
GROUP_ATTRIBUTES = [
    _attribute("displayName", required=True, mutability="immutable", uniqueness="server"),
    _attribute(
        "members",
        "complex",
        multi=True,
        sub=[_attribute("value", mutability="immutable"), _attribute("display", mutability="readOnly")],
    ),
]
SCHEMAS = {
    USER_SCHEMA: ("User", "A member of the organization", USER_ATTRIBUTES),
    GROUP_SCHEMA: ("Group", "A role: owner, admin or member", GROUP_ATTRIBUTES),
}
RESOURCE_TYPES = {"User": ("/Users", USER_SCHEMA), "Group": ("/Groups", GROUP_SCHEMA)}


def _schema(schema_id: str, base: str) -> dict[str, Any]:
    name, description, attributes = SCHEMAS[schema_id]
    return {
        "schemas": [SCHEMA_SCHEMA],
        "id": schema_id,
        "name": name,
        "description": description,
        "attributes": attributes,
        "meta": {"resourceType": "Schema", "location": f"{base}/Schemas/{schema_id}"},
    }


def _resource_type(name: str, base: str) -> dict[str, Any]:
    endpoint, schema = RESOURCE_TYPES[name]
    return {
        "schemas": [RESOURCE_TYPE_SCHEMA],
        "id": name,
        "name": name,
        "endpoint": endpoint,
        "schema": schema,
        "schemaExtensions": [],
        "meta": {"resourceType": "ResourceType", "location": f"{base}/ResourceTypes/{name}"},
    }


@get("/ServiceProviderConfig")
async def service_provider_config(request: Request[Any, Any, Any]) -> Response[Any]:
    return scim_response(
        {
            "schemas": [CONFIG_SCHEMA],
            "patch": {"supported": True},
            "bulk": {"supported": False, "maxOperations": 0, "maxPayloadSize": 0},
            "filter": {"supported": True, "maxResults": MAX_COUNT},
            "changePassword": {"supported": False},
            "sort": {"supported": False},
            "etag": {"supported": False},
            "authenticationSchemes": [
                {
                    "type": "oauthbearertoken",
                    "name": "SCIM token",
                    "description": "The organization's scim_ token, from the console's Single sign-on page",
                    "primary": True,
                }
            ],
            "meta": {
                "resourceType": "ServiceProviderConfig",
                "location": f"{_base(request)}/ServiceProviderConfig",
            },
        }
    )


@get("/Schemas")
async def list_schemas(request: Request[Any, Any, Any]) -> Response[Any]:
    base = _base(request)
    return list_response([_schema(schema_id, base) for schema_id in SCHEMAS], len(SCHEMAS), 1)


@get("/Schemas/{schema_id:str}")
async def get_schema(request: Request[Any, Any, Any], schema_id: str) -> Response[Any]:
    if schema_id not in SCHEMAS:
        raise NotFound("no such schema")
    return scim_response(_schema(schema_id, _base(request)))


@get("/ResourceTypes")
async def list_resource_types(request: Request[Any, Any, Any]) -> Response[Any]:
    base = _base(request)
    return list_response([_resource_type(name, base) for name in RESOURCE_TYPES], len(RESOURCE_TYPES), 1)


@get("/ResourceTypes/{name:str}")
async def get_resource_type(request: Request[Any, Any, Any], name: str) -> Response[Any]:
    if name not in RESOURCE_TYPES:
        raise NotFound("no such resource type")
    return scim_response(_resource_type(name, _base(request)))
