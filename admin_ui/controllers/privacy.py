"""Privacy, for admins: erase one person's data across the organization. "Erase" first shows how many
items would go and asks to confirm; only the confirmation deletes, through the API's erasure service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.forms import Form
from admin_ui.rendering import render
from app.dependencies import provide
from app.errors import InvalidRequest, msgspec_violation
from app.schemas.privacy import ErasureBody
from app.services.erasure import Erasure, Person
from tenants.permissions import needs
from tenants.scope import Access

ADMIN = needs(Access.ADMIN)


@dataclass
class ErasureForm:
    submitted_by: str = ""
    email: str = ""
    step: str = "preview"


def person_of(form: ErasureForm) -> Person:
    """The same rules as the API's body: a 400 names the field."""
    given = {"submitted_by": form.submitted_by.strip() or None, "email": form.email.strip() or None}
    try:
        body = msgspec.convert(given, ErasureBody)
    except msgspec.ValidationError as exc:
        rule, field = msgspec_violation(exc)
        raise InvalidRequest(field or "submitted_by", rule) from None
    return Person(submitted_by=body.submitted_by, email=body.email)


class PrivacyController(Controller):
    path = "/privacy"
    include_in_schema = False
    dependencies = {"erasure": provide(Erasure)}

    @get("/", opt=ADMIN)
    async def page(self, request: HTMXRequest) -> Any:
        return render(request, "privacy.html", values={}, errors={})

    @post("/", opt=ADMIN)
    async def erase(self, request: HTMXRequest, erasure: Erasure, data: Form[ErasureForm]) -> Any:
        values = {"submitted_by": data.submitted_by, "email": data.email}
        try:
            person = person_of(data)
        except InvalidRequest as exc:
            return render(
                request, "privacy.html", status_code=400, values=values, errors={exc.field: exc.details}
            )
        if data.step != "confirm":
            return render(
                request, "privacy.html", values=values, errors={}, preview=await erasure.preview(person)
            )
        return render(request, "privacy.html", values={}, errors={}, erased=await erasure.erase(person))
