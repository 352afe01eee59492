"""SCIM User resources: a directory user written as SCIM JSON, a provider's JSON read back into the
attributes Hearken keeps, and PATCH operations applied to the JSON before it is read back (so a patched
user is held to exactly the rules of a created one).

Attributes Hearken does not keep (title, phone numbers, addresses, the enterprise extension, ...) are
accepted and not stored: providers send their default mappings whatever the application keeps, and
refusing them would stop provisioning altogether. A PATCH path that names anything else is 400
`invalidPath`."""

from __future__ import annotations

import copy
import re
from typing import Any

from app.scim.errors import ScimError
from app.scim.patch_operations import Operation, scim_boolean
from app.timestamps import iso_z
from tenants.scim_directory import DirectoryUser, UserAttributes

USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
ENTERPRISE_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
TEXT_MAX_LENGTH = 200
NAME_PARTS = ("givenName", "familyName", "formatted")
KEPT = {"username": "userName", "externalid": "externalId", "displayname": "displayName", "active": "active"}
NOT_KEPT = frozenset(
    {
        "title",
        "nickname",
        "profileurl",
        "usertype",
        "preferredlanguage",
        "locale",
        "timezone",
        "phonenumbers",
        "addresses",
        "ims",
        "photos",
        "roles",
        "entitlements",
        "x509certificates",
        "password",
    }
)
_EMAIL_VALUE = re.compile(r'^emails\[(?:type eq "([\w-]+)"|primary eq true)\]\.value$', re.IGNORECASE)


def user_resource(user: DirectoryUser, base_url: str) -> dict[str, Any]:
    found = user.attributes
    resource: dict[str, Any] = {
        "schemas": [USER_SCHEMA],
        "id": str(user.id),
        "userName": found.user_name,
        "active": found.active,
        "emails": [{"value": found.email, "type": "work", "primary": True}],
        "meta": {
            "resourceType": "User",
            "created": iso_z(user.created_at),
            "lastModified": iso_z(user.updated_at),
            "location": f"{base_url}/scim/v2/Users/{user.id}",
        },
    }
    if found.external_id is not None:
        resource["externalId"] = found.external_id
    name = {
        key: value
        for key, value in (("givenName", found.given_name), ("familyName", found.family_name))
        if value is not None
    }
    if name:
        resource["name"] = name
    if found.display_name is not None:
        resource["displayName"] = found.display_name
    if user.role is not None:
        resource["groups"] = [
            {"value": user.role, "display": user.role, "$ref": f"{base_url}/scim/v2/Groups/{user.role}"}
        ]
    return resource


def user_attributes(body: Any) -> UserAttributes:
    """What a POST or PUT body (or a patched resource) says of a user."""
    if not isinstance(body, dict):
        raise ScimError("invalidSyntax", "body: a User object is required")
    fields = {key.lower(): value for key, value in body.items()}
    user_name = _text(fields.get("username"), "userName")
    if user_name is None:
        raise ScimError("invalidValue", "userName: is required")
    name = fields.get("name")
    if name is not None and not isinstance(name, dict):
        raise ScimError("invalidValue", "name: must be an object")
    name = {key.lower(): value for key, value in (name or {}).items()}
    active = fields.get("active")
    return UserAttributes(
        user_name=user_name,
        email=_email(fields.get("emails")) or user_name,
        external_id=_text(fields.get("externalid"), "externalId"),
        given_name=_text(name.get("givenname"), "name.givenName"),
        family_name=_text(name.get("familyname"), "name.familyName"),
        display_name=_text(fields.get("displayname"), "displayName"),
        active=True if active is None else scim_boolean(active, "active"),
    )


def patched_user(resource: dict[str, Any], operations: list[Operation]) -> UserAttributes:
    patched = copy.deepcopy(resource)
    patched.pop("groups", None)
    for operation in operations:
        if operation.path is None:
            for key, value in operation.value.items():
                _apply(patched, operation.op, key, value)
        else:
            _apply(patched, operation.op, operation.path, operation.value)
    return user_attributes(patched)


def _apply(resource: dict[str, Any], op: str, path: str, value: Any) -> None:
    path = path.removeprefix(USER_SCHEMA + ":")
    lowered = path.lower()
    removing = op == "remove"
    if lowered == "active" and removing:
        return  # a user is active or not; turning one off is `active: false`
    if lowered in KEPT:
        resource[KEPT[lowered]] = None if removing else value
    elif lowered == "name":
        if not removing and not isinstance(value, dict):
            raise ScimError("invalidValue", "name: must be an object")
        resource["name"] = None if removing else {**(resource.get("name") or {}), **value}
    elif lowered.startswith("name.") and lowered[5:] in {part.lower() for part in NAME_PARTS}:
        part = next(part for part in NAME_PARTS if part.lower() == lowered[5:])
        resource["name"] = {**(resource.get("name") or {}), part: None if removing else value}
    elif lowered == "emails":
        if removing:
            raise ScimError("mutability", "emails: the account's address cannot be removed")
        resource["emails"] = value if isinstance(value, list) else [value]
    elif (email := _EMAIL_VALUE.match(path)) is not None:
        if removing:
            raise ScimError("mutability", "emails: the account's address cannot be removed")
        if email.group(1) in (None, "work") or not resource.get("emails"):
            resource["emails"] = [{"value": value, "type": "work", "primary": True}]
    elif (
        lowered.startswith(ENTERPRISE_SCHEMA.lower()) or lowered.split("[", 1)[0].split(".", 1)[0] in NOT_KEPT
    ):
        return
    else:
        raise ScimError("invalidPath", f"path: {path!r:.80} is not an attribute of a User here")


def _text(value: Any, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ScimError("invalidValue", f"{field}: must be a string")
    value = value.strip()
    if len(value) > TEXT_MAX_LENGTH:
        raise ScimError("invalidValue", f"{field}: at most {TEXT_MAX_LENGTH} characters")
    return value or None


def _email(emails: Any) -> str | None:
    """The primary address of `emails`, else its first."""
    if emails is None:
        return None
    if not isinstance(emails, list) or not all(isinstance(item, dict) for item in emails):
        raise ScimError("invalidValue", "emails: must be a list of objects with a value")
    chosen = next((item for item in emails if item.get("primary") is True), emails[0] if emails else None)
    return None if chosen is None else _text(chosen.get("value"), "emails.value")
