"""SCIM's error shape (RFC 7644, section 3.12) for everything under /scim/v2, in place of the API's
`{"error", "details"}`: identity providers and SCIM clients read `status`, `scimType` and `detail` and
refuse other members. `detail` names the field, as the API's `details` do."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.types import ExceptionHandlersMap

from app.errors import CLASSIFIED, ApiError, Conflict, InvalidRequest, classify

ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error"
SCIM_MEDIA_TYPE = "application/scim+json"


class ScimError(ApiError):
    """A refusal with SCIM's own `scimType` keyword (invalidFilter, invalidPath, mutability, ...)."""

    def __init__(self, scim_type: str, details: str, *, status_code: int = 400) -> None:
        super().__init__(details)
        self.scim_type = scim_type
        self.status_code = status_code


def scim_type_of(exc: Exception) -> str | None:
    if isinstance(exc, ScimError):
        return exc.scim_type
    if isinstance(exc, Conflict):
        return "uniqueness"
    if isinstance(exc, InvalidRequest):
        return "invalidValue"
    return None


def scim_error_body(status: int, details: str, scim_type: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"schemas": [ERROR_SCHEMA], "status": str(status), "detail": details}
    if scim_type is not None:
        body["scimType"] = scim_type
    return body


def _answer(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    answer = classify(exc, request)
    return Response(
        scim_error_body(answer.status, answer.details, scim_type_of(exc)),
        status_code=answer.status,
        media_type=SCIM_MEDIA_TYPE,
        headers=dict(answer.headers),
    )


SCIM_EXCEPTION_HANDLERS: ExceptionHandlersMap = dict.fromkeys(CLASSIFIED, _answer)
