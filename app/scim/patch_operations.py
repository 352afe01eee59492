"""A SCIM PATCH body (RFC 7644, section 3.5.2) read into its operations. Providers differ in spelling:
Microsoft Entra ID writes `"op": "Replace"` and booleans as the strings "True"/"False", Okta sends
`replace` without a path and the changed attributes as the value; both are read here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.scim.errors import ScimError

PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
MAX_OPERATIONS = 1000
OPS = frozenset({"add", "remove", "replace"})


@dataclass(frozen=True)
class Operation:
    op: str
    """add, remove or replace, in lower case."""
    path: str | None
    value: Any


def patch_operations(body: Any) -> list[Operation]:
    if not isinstance(body, dict):
        raise ScimError("invalidSyntax", "body: a PatchOp object is required")
    schemas = body.get("schemas")
    if schemas is not None and (not isinstance(schemas, list) or PATCH_SCHEMA not in schemas):
        raise ScimError("invalidSyntax", f"schemas: must hold {PATCH_SCHEMA}")
    raw = body.get("Operations", body.get("operations"))
    if not isinstance(raw, list) or not raw:
        raise ScimError("invalidSyntax", "Operations: a non-empty list of operations is required")
    if len(raw) > MAX_OPERATIONS:
        raise ScimError("invalidSyntax", f"Operations: at most {MAX_OPERATIONS}")
    return [_operation(index, item) for index, item in enumerate(raw)]


def _operation(index: int, item: Any) -> Operation:
    where = f"Operations[{index}]"
    if not isinstance(item, dict):
        raise ScimError("invalidSyntax", f"{where}: must be an object")
    op = item.get("op")
    if not isinstance(op, str) or op.lower() not in OPS:
        raise ScimError("invalidSyntax", f"{where}.op: must be add, remove or replace")
    path = item.get("path")
    if path is not None and (not isinstance(path, str) or not path.strip()):
        raise ScimError("invalidPath", f"{where}.path: must be a non-empty string")
    if op.lower() != "remove" and "value" not in item:
        raise ScimError("invalidValue", f"{where}.value: is required for {op.lower()}")
    if path is None and op.lower() != "remove" and not isinstance(item.get("value"), dict):
        raise ScimError("noTarget", f"{where}: without a path the value must be an object of attributes")
    if path is None and op.lower() == "remove":
        raise ScimError("noTarget", f"{where}.path: remove needs a path")
    return Operation(op.lower(), None if path is None else path.strip(), item.get("value"))


def scim_boolean(value: Any, field: str) -> bool:
    """A boolean, or the strings "true"/"false" in any case (Microsoft Entra ID sends "False")."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ScimError("invalidValue", f"{field}: must be true or false")
