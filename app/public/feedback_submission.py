"""The public feedback submit's two encodings: the JSON body every widget sends, and `multipart/form-data`
with the same fields and up to three images, each a part named `attachments`.

The route declares no body type of its own (Litestar reads one encoding per route), so both readings are
here, held to the same rules as every JSON body: sent as JSON (or text/plain), at most 64 KiB, no NUL, no
deep nesting, read strictly. A form stands for the JSON body with the same fields: a text field is that
field's string, any other (`elapsed_ms`, `metadata`) is written as in a JSON body and read under the same
rules (`json_field`); the body they make is then read exactly as a JSON body is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request
from litestar.datastructures import UploadFile

from app.errors import InvalidRequest, PayloadTooLarge, UnsupportedMediaType, msgspec_violation
from app.request_checks.bodies import is_json_media_type
from app.request_checks.json_fields import json_field
from app.request_checks.nesting import refuse_deep_nesting
from app.request_checks.nul_characters import refuse_nul_characters
from app.request_checks.strict_body import STRICT_READING, refuse_lax_values, strict_body
from app.schemas.feedback_requests import PublicFeedbackBody
from app.services.image_cleaning import MAX_FILE_BYTES, MAX_FILES

JSON_MAX_BYTES = 64 * 1024
FORM_MAX_BYTES = MAX_FILES * MAX_FILE_BYTES + JSON_MAX_BYTES
"""The largest multipart body: three images at the limit and the fields."""
ATTACHMENTS = "attachments"
_TEXT = (
    msgspec.inspect.StrType,
    msgspec.inspect.UUIDType,
    msgspec.inspect.LiteralType,
    msgspec.inspect.NoneType,
)


def _takes_text(kind: msgspec.inspect.Type) -> bool:
    kind = kind.type if isinstance(kind, msgspec.inspect.Metadata) else kind
    if isinstance(kind, msgspec.inspect.UnionType):
        return all(_takes_text(member) for member in kind.types)
    return isinstance(kind, _TEXT)


_FIELDS = {
    field.encode_name: _takes_text(field.type)
    for field in msgspec.inspect.type_info(PublicFeedbackBody).fields  # type: ignore[attr-defined]
}
"""Each field of the body, and whether a form sends it as plain text (else as JSON)."""


@dataclass(frozen=True, slots=True)
class FeedbackSubmission:
    body: PublicFeedbackBody
    files: list[bytes]
    """The attached files as sent, not yet looked at."""


async def feedback_submission(request: Request[Any, Any, Any]) -> FeedbackSubmission:
    content_type = request.headers.get("content-type")
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if media_type == "multipart/form-data":
        return await _form(request)
    if content_type is not None and not (is_json_media_type(content_type) or media_type == "text/plain"):
        raise UnsupportedMediaType(
            f"Content-Type: must be application/json or multipart/form-data, got {content_type!r:.60}"
        )
    body = await request.body()
    if len(body) > JSON_MAX_BYTES:
        raise PayloadTooLarge("request body is larger than 64 KiB")
    return FeedbackSubmission(await _json_body(request, body), [])


async def _json_body(request: Request[Any, Any, Any], body: bytes) -> PublicFeedbackBody:
    refuse_deep_nesting(body)
    refuse_nul_characters(body)
    try:
        strict = refuse_lax_values(body, PublicFeedbackBody)
    except msgspec.DecodeError:
        strict = None
    if strict is not None:
        request.scope[STRICT_READING] = strict  # type: ignore[literal-required]
        return strict[1]  # type: ignore[no-any-return]
    try:
        lax = msgspec.json.decode(body or b"null", type=PublicFeedbackBody)
    except msgspec.ValidationError as exc:
        raise _invalid(exc) from None
    except msgspec.DecodeError:
        raise InvalidRequest("body", "must be a JSON object") from None
    return await strict_body(request, lax)


async def _form(request: Request[Any, Any, Any]) -> FeedbackSubmission:
    form = await request.form()
    fields: dict[str, Any] = {}
    files: list[bytes] = []
    for name, value in form.multi_items():
        if name == ATTACHMENTS:
            if not isinstance(value, UploadFile):
                raise InvalidRequest(ATTACHMENTS, "each must be a file part (PNG, JPEG or WebP)")
            files.append(await _read(value))
            if len(files) > MAX_FILES:
                raise InvalidRequest(ATTACHMENTS, f"at most {MAX_FILES} files")
            continue
        takes_text = _FIELDS.get(name)
        if takes_text is None:
            raise InvalidRequest(name or "body", "is not a field of this form")
        if isinstance(value, UploadFile):
            raise InvalidRequest(name, "must be a text field, not a file")
        if name in fields:
            raise InvalidRequest(name, "must be sent once")
        fields[name] = value if takes_text else json_field(name, value)
    return FeedbackSubmission(await _json_body(request, msgspec.json.encode(fields)), files)


async def _read(upload: UploadFile) -> bytes:
    data = await upload.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise PayloadTooLarge(
            f"{ATTACHMENTS}: each file must be at most {MAX_FILE_BYTES // (1024 * 1024)} MB"
        )
    return data


def _invalid(exc: msgspec.ValidationError) -> InvalidRequest:
    rule, field = msgspec_violation(exc)
    return InvalidRequest((field or "").replace("[", ".").replace("]", "") or "body", rule)
