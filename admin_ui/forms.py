"""What console forms post, and how a service's InvalidRequest becomes a message beside its field."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from litestar.enums import RequestEncodingType
from litestar.params import Body

from app.errors import InvalidRequest

T = TypeVar("T")

Form = Annotated[T, Body(media_type=RequestEncodingType.URL_ENCODED)]
"""A form body: `data: Form[LoginForm]`."""


def field_error(exc: InvalidRequest) -> dict[str, str]:
    """{field: rule}, the shape templates read errors in."""
    prefix = f"{exc.field}: "
    rule = exc.details[len(prefix) :] if exc.details.startswith(prefix) else exc.details
    return {exc.field: rule[:1].upper() + rule[1:]}


def form_values(data: Any, *hidden: str) -> dict[str, Any]:
    """The submitted values to show again in a re-rendered form (never a password)."""
    values = dict(vars(data))
    for name in ("password", *hidden):
        values.pop(name, None)
    return values
