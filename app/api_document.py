"""The OpenAPI document served at /schema: its configuration, readable operation ids, and the rules that hold
for every route and so are written into the document once here rather than on each route.

Rules applied to the generated document (each one is enforced by the server for every route):
- an operation without a security requirement needs none: it says `security: []`;
- every path parameter named `..._id` is a UUID (ids and project keys are UUIDs; anything else is 400);
- a parameter is absent or has a value, never null;
- every route can answer 503, and one that reads a body 413 and 415, each with the error body;
- request bodies refuse unknown fields (their structs forbid them); bodies and parameters refuse NUL;
- schemas the generator cannot derive from one struct are given explicitly (`EXPLICIT_SCHEMAS`), and a
  body whose struct the path chooses is one of them (`CHOSEN_BODIES`: an issue tracker's settings);
- each request body carries its example (`REQUEST_EXAMPLES`);
- an export answers a CSV or NDJSON file (`EXPORT_ANSWER`);
- links from what creates a row to what reads, changes and deletes it, and from an archiving DELETE to
  the reads that still answer (`LINKS`, `ARCHIVE_LINKS`).
"""

from __future__ import annotations

import re
from copy import deepcopy
from dataclasses import dataclass, fields
from typing import Any

import msgspec
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, OpenAPI, SecurityScheme
from litestar.types import Method

from app.exports.attachments import IMAGE_EXTENSIONS
from app.exports.response import MEDIA_TYPES
from app.integrations.trackers import TRACKERS
from app.schemas.examples import REQUEST_EXAMPLES
from app.schemas.feedback_requests import PublicFeedbackBody
from app.schemas.privacy import ERASURE_BODY_RULE
from app.schemas.rating_requests import RATING_OBJECT_SCHEMA
from app.services.image_cleaning import MAX_FILES

API_KEY = "ApiKey"
IMAGE_TYPES = tuple(IMAGE_EXTENSIONS)

VERBS = frozenset(
    {
        "list", "get", "create", "update", "patch", "delete", "archive", "remove", "enable", "disable",
        "submit", "send", "retry", "receive", "sync", "export", "erase", "import", "invite", "revoke",
        "accept", "confirm", "request", "reset", "verify", "check", "download", "set", "add", "restore",
    }
)  # fmt: skip
"""Handler names that start with one of these already say what they do; others get the method's verb."""
METHOD_VERBS = {"GET": "get", "POST": "create", "PUT": "set", "PATCH": "update", "DELETE": "delete"}
NO_NUL = r"^[^\u0000]*$"
ERROR_BODY = "#/components/schemas/ErrorBody"
EXPORT_ANSWER = {
    "description": "The file, streamed: CSV with a header row (format=csv) or a JSON object a line (ndjson).",
    "content": {
        media_type.split(";")[0]: {"schema": {"type": "string"}} for media_type in MEDIA_TYPES.values()
    },
}
"""What an export operation (export...) answers: a streamed file whose type follows `format`."""
IMAGE_ANSWER = {
    "description": "The image, as stored: PNG, JPEG or WebP.",
    "content": {
        content_type: {"schema": {"type": "string", "format": "binary"}} for content_type in IMAGE_TYPES
    },
}
BINARY_ANSWERS: dict[str, dict[str, Any]] = {"getAttachment": IMAGE_ANSWER}
"""Operations that answer a file rather than JSON."""
FORM_BODIES: dict[str, tuple[type[msgspec.Struct], str, int]] = {
    "submitFeedback": (PublicFeedbackBody, "attachments", MAX_FILES)
}
"""Operations whose body is a JSON object, or `multipart/form-data` with the same fields (each as text:
objects as JSON) and up to a number of image files in parts of one name. Their handlers read both
encodings themselves, so the body is written here, from the struct both are checked by."""
CHOSEN_BODIES: dict[str, tuple[type[msgspec.Struct], ...]] = {
    "enableTracker": tuple(tracker.body for tracker in TRACKERS.values())
}
"""Operations whose handler decodes the body with the struct a path parameter chooses: one of them."""
EXPLICIT_SCHEMAS: dict[str, dict[str, Any]] = {"RatingObject": RATING_OBJECT_SCHEMA}
"""Component schemas whose rules span fields (the rating value's type depends on `type`)."""
SCHEMA_RULES: dict[str, dict[str, Any]] = {
    "ErasureBody": ERASURE_BODY_RULE,
    # Decoded with a default so that the message it answers is looked up first (another project's id
    # is 404 whatever the body); the message itself is still required, and blank is refused.
    "ContactReplyBody": {"required": ["message"]},
    "ConversationMessageBody": {"required": ["message"]},
    "IssueBody": {"required": ["tracker"]},
}
"""Rules across fields added to a generated component schema."""
LINKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "createFeedback": (
        "feedback_id", ("getFeedback", "patchFeedback", "archiveFeedback", "getFeedbackHistory")
    ),
    "createHelpful": ("rating_id", ("getRating", "archiveRating")),
    "createTyped": ("rating_id", ("getRating", "archiveRating")),
    "getRating": ("rating_id", ("archiveRating",)),
    "createWebhook": (
        "webhook_id", ("getWebhook", "patchWebhook", "deleteWebhook", "sendTest", "listDeliveries")
    ),
    "sendTest": ("delivery_id", ("listAttempts", "retryDelivery")),
}  # fmt: skip
"""Operations whose answer's `id` is the named path parameter of the others (the rest of their path
parameters are the request's own)."""
ARCHIVE_LINKS: dict[str, tuple[str, ...]] = {
    "archiveFeedback": ("getFeedback", "getFeedbackHistory", "getSimilarFeedback", "patchFeedback"),
    "archiveMessage": ("getMessage", "patchMessage"),
    "archiveRating": ("getRating",),
}
"""DELETEs that archive, and the operations that still reach the archived item."""
ARCHIVED = (
    "The item stays readable, marked `archived: true` (feedback: PATCH `archived: false` restores it); after"
    " a DELETE with `purge=true` it is gone and this answers 404."
)


def operation_id(handler: HTTPRouteHandler, method: Method, _path: list[Any]) -> str:
    """camelCase from the handler's name (`list_feedback` -> `listFeedback`, `helpful_stats` ->
    `getHelpfulStats`): stable across path changes, and what a generated client names its functions."""
    words = handler.handler_name.strip("_").split("_")
    if len(handler.http_methods) > 1 or words[0] not in VERBS:
        name = str(getattr(method, "value", method)).upper()
        words.insert(0, METHOD_VERBS.get(name, name.lower()))
    return words[0].lower() + "".join(word.capitalize() for word in words[1:])


def finish(document: dict[str, Any]) -> dict[str, Any]:
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name in EXPLICIT_SCHEMAS.keys() & schemas.keys():
        schemas[name] = deepcopy(EXPLICIT_SCHEMAS[name])
    for name in SCHEMA_RULES.keys() & schemas.keys():
        schemas[name].update(deepcopy(SCHEMA_RULES[name]))
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            operation.setdefault("security", [])
            if operation["operationId"] in FORM_BODIES:
                operation["requestBody"] = _form_body(*FORM_BODIES[operation["operationId"]], schemas)
            if operation["operationId"] in CHOSEN_BODIES:
                operation["requestBody"] = _chosen_body(CHOSEN_BODIES[operation["operationId"]], schemas)
            if operation["operationId"] in BINARY_ANSWERS:
                operation["responses"]["200"].update(deepcopy(BINARY_ANSWERS[operation["operationId"]]))
            _every_error_answer(operation)
            if operation["operationId"].startswith("export"):
                operation["responses"]["200"].update(EXPORT_ANSWER)
            for parameter in operation.get("parameters", []):
                parameter["schema"] = _never_null(parameter["schema"])
                _refuse_extras(parameter["schema"], schemas, set())
                if parameter["in"] == "path" and parameter["name"].endswith("_id"):
                    parameter["schema"] = {**parameter["schema"], "format": "uuid"}
            for content in operation.get("requestBody", {}).get("content", {}).values():
                schema = content.get("schema", {})
                _refuse_extras(schema, schemas, set())
                name = schema.get("$ref", "").rsplit("/", 1)[-1]
                if name in REQUEST_EXAMPLES:
                    content["example"] = deepcopy(REQUEST_EXAMPLES[name])
    _link(document)
    _tidy_numbers(document)
    return document


def _form_body(
    struct: type[msgspec.Struct], files: str, max_files: int, schemas: dict[str, Any]
) -> dict[str, Any]:
    (ref,), components = msgspec.json.schema_components([struct], ref_template="#/components/schemas/{name}")
    for name, schema in components.items():
        schemas.setdefault(name, schema)
    body = components[struct.__name__]
    form_fields = {
        name: {"type": "string", "description": "The JSON object as text."}
        if _is_object(field)
        else _text_field(field)
        for name, field in body["properties"].items()
    }
    form_fields[files] = {
        "type": "array",
        "maxItems": max_files,
        "items": {"type": "string", "format": "binary"},
        "description": f"Up to {max_files} images (PNG, JPEG or WebP, 5 MB each), each a part of this name.",
    }
    form_name = struct.__name__.removesuffix("Body") + "Form"
    schemas[form_name] = {"type": "object", "properties": form_fields, "required": body.get("required", [])}
    example = {
        name: msgspec.json.encode(value).decode() if isinstance(value, dict) else value
        for name, value in REQUEST_EXAMPLES.get(struct.__name__, {}).items()
    }
    return {
        "required": True,
        "content": {
            "application/json": {"schema": ref},
            "multipart/form-data": {
                "schema": {"$ref": f"#/components/schemas/{form_name}"},
                "example": example,
                "encoding": {files: {"contentType": ", ".join(IMAGE_TYPES)}},
            },
        },
    }


def _chosen_body(structs: tuple[type[msgspec.Struct], ...], schemas: dict[str, Any]) -> dict[str, Any]:
    refs, components = msgspec.json.schema_components(structs, ref_template="#/components/schemas/{name}")
    for name, schema in components.items():
        schemas.setdefault(name, schema)
        if name in REQUEST_EXAMPLES:  # each choice shows its own; the body's example is the first's
            schemas[name]["examples"] = [deepcopy(REQUEST_EXAMPLES[name])]
    first = structs[0].__name__
    return {
        "required": True,
        "content": {
            "application/json": {
                "schema": {"oneOf": list(refs)},
                "example": deepcopy(REQUEST_EXAMPLES.get(first, {})),
            }
        },
    }


def _text_field(schema: dict[str, Any]) -> dict[str, Any]:
    """A form field is sent or left out, never null."""
    choices = [choice for choice in schema.get("anyOf", [schema]) if choice != {"type": "null"}]
    field = {key: value for key, value in schema.items() if key not in ("anyOf", "default")}
    return {**choices[0], **field} if len(choices) == 1 else {**field, "anyOf": choices}


def _is_object(schema: dict[str, Any]) -> bool:
    choices = schema.get("anyOf", [schema])
    return any(choice.get("type") == "object" for choice in choices)


def _link(document: dict[str, Any]) -> None:
    """OpenAPI links (`LINKS`, `ARCHIVE_LINKS`) on each operation's successful answer. A link passes the
    answer's id where `LINKS` says, and every other path parameter the two operations share as it was."""
    by_id = {
        operation["operationId"]: (path, operation)
        for path, item in document.get("paths", {}).items()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    links = [
        (source, target, {parameter: "$response.body#/id"}, "The row this answer is about, by its id.")
        for source, (parameter, targets) in LINKS.items()
        for target in targets
    ]
    links += [(source, target, {}, ARCHIVED) for source in ARCHIVE_LINKS for target in ARCHIVE_LINKS[source]]
    for source, target, passed, description in links:
        path, operation = by_id[source]
        parameters = {
            name: passed.get(name, f"$request.path.{name}")
            for name in re.findall(r"{(\w+)}", by_id[target][0])
            if name in passed or f"{{{name}}}" in path
        }
        answer = next(answer for status, answer in operation["responses"].items() if status.startswith("2"))
        answer.setdefault("links", {})[target] = {
            "operationId": target,
            "parameters": parameters,
            "description": description,
        }


def _every_error_answer(operation: dict[str, Any]) -> None:
    """Answers any route can give, whatever its handler declares: 503 when the database does not answer,
    and for a route that reads a body, 413 (over 64 KiB) and 415 (not JSON)."""
    statuses = {503: "unavailable"}
    if "requestBody" in operation:
        statuses |= {413: "payload_too_large", 415: "unsupported_media_type"}
    for status, code in statuses.items():
        operation["responses"].setdefault(
            str(status),
            {"description": code, "content": {"application/json": {"schema": {"$ref": ERROR_BODY}}}},
        )


def _never_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter is absent or has a value: `str | None` in a handler's signature means "optional",
    which `required: false` already says, never a null (which a query string cannot carry)."""
    schema = dict(schema)
    if isinstance(schema.get("type"), list):
        kinds = [kind for kind in schema["type"] if kind != "null"]
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    if "enum" in schema:
        schema["enum"] = [value for value in schema["enum"] if value is not None]
    if "oneOf" in schema:
        choices = [choice for choice in schema.pop("oneOf") if choice != {"type": "null"}]
        if len(choices) == 1:
            schema = {**choices[0], **schema}
        else:
            schema["oneOf"] = choices
    return schema


def _tidy_numbers(node: Any) -> None:
    """`int | float` is generated as oneOf integer, number; an integer matches both, which oneOf
    forbids, so the number alone says it."""
    if isinstance(node, dict):
        choices = node.get("oneOf")
        if isinstance(choices, list) and {"type": "number"} in choices and {"type": "integer"} in choices:
            choices.remove({"type": "integer"})
        for value in node.values():
            _tidy_numbers(value)
    elif isinstance(node, list):
        for value in node:
            _tidy_numbers(value)


def _refuse_extras(
    schema: dict[str, Any], schemas: dict[str, Any], seen: set[str], patterned: bool = False
) -> None:
    """Through a request body's schema: objects take only their properties, strings no NUL (unless a
    pattern of their own, here or on the `oneOf` around them, already says which characters)."""
    if ref := schema.get("$ref"):
        name = ref.rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            _refuse_extras(schemas[name], schemas, seen)
        return
    patterned = patterned or "pattern" in schema or "enum" in schema or "format" in schema
    if schema.get("type") == "string" and not patterned:
        schema["pattern"] = NO_NUL
    if "properties" in schema:
        schema.setdefault("additionalProperties", False)
    for key in ("properties", "patternProperties"):
        for child in schema.get(key, {}).values():
            _refuse_extras(child, schemas, seen)
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for child in schema.get(key, []):
            _refuse_extras(child, schemas, seen, patterned)
    for key in ("items", "additionalProperties", "propertyNames"):
        if isinstance(schema.get(key), dict):
            _refuse_extras(schema[key], schemas, seen)


class _FinishedOpenAPI(OpenAPI):
    def to_schema(self) -> dict[str, Any]:
        return finish(super().to_schema())


@dataclass
class _DocumentConfig(OpenAPIConfig):
    def to_openapi_schema(self) -> OpenAPI:
        generated = super().to_openapi_schema()
        return _FinishedOpenAPI(**{field.name: getattr(generated, field.name) for field in fields(generated)})


def openapi_config() -> OpenAPIConfig:
    return _DocumentConfig(
        title="Hearken",
        version="1.0.0",
        description="Visitor feedback and ratings: REST API and public collection endpoints.",
        path="/schema",
        operation_id_creator=operation_id,
        use_handler_docstrings=True,
        components=Components(
            security_schemes={
                API_KEY: SecurityScheme(
                    type="apiKey",
                    name="X-API-Key",
                    security_scheme_in="header",
                    description="Organization access token: oat_ followed by 43 URL-safe characters.",
                )
            }
        ),
    )
