"""This server as each organization's SAML service provider: its metadata (served before any identity
provider is configured, so that an admin can register Hearken first) and its assertion consumer service,
where the identity provider's HTTP-POST binding brings the response.

The post comes from the identity provider's site, so the browser sends no console cookie with it. The
response is checked here in full (signature, audience, destination, recipient, expiry, that it answers a
request this server made for this organization) and its assertion recorded as used, in the database so
that no node accepts it again; then the browser is sent on to `/login/sso/saml`, a same-site navigation
that carries its session, with a sealed ticket, and the sign-in ends there once the session shows that
this very browser started it. These routes sit outside the console router: no session, CSRF token or
signed-in member is asked of them.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.rendering import render
from admin_ui.saml_request_ids import is_current_request_id
from app.config import Settings
from app.db.models.sso_connection import SAML
from app.db.secret_box import secret_box
from app.integrations.saml_service_provider import (
    MAX_RESPONSE_BYTES,
    SamlFailure,
    ServiceProvider,
    service_provider_metadata,
    verified_assertion,
)
from tenants.single_sign_on import connection_of, use_assertion

SAML_TICKETS = b"hearken saml sign-in tickets v1"
TICKET_SECONDS = 120
FINISH_PATH = "/login/sso/saml"
MAX_FORM_BYTES = MAX_RESPONSE_BYTES + 8 * 1024


@dataclass
class AcsForm:
    SAMLResponse: str = ""
    RelayState: str = ""


def service_provider(settings: Settings, org_id: UUID) -> ServiceProvider:
    base = f"{settings.base_url}/sso/saml/{org_id}"
    return ServiceProvider(entity_id=f"{base}/metadata", acs_url=f"{base}/acs")


def seal_ticket(settings: Settings, org_id: UUID, request_id: str, email: str) -> str:
    ticket = {
        "org_id": str(org_id),
        "request_id": request_id,
        "email": email,
        "until": time.time() + TICKET_SECONDS,
    }
    return secret_box(settings.secret_key, SAML_TICKETS).seal(json.dumps(ticket))


def open_ticket(settings: Settings, sealed: str) -> dict[str, Any] | None:
    """The ticket the assertion consumer service sealed, unless it is forged, garbled or stale."""
    plain = secret_box(settings.secret_key, SAML_TICKETS).open(sealed) if sealed.isascii() else None
    if plain is None:
        return None
    ticket: dict[str, Any] = json.loads(plain)
    return ticket if ticket["until"] >= time.time() else None


def refused(request: HTMXRequest, message: str, status_code: int = 400) -> Any:
    return render(request, "sso_refused.html", status_code=status_code, message=message, bare=True)


class SamlServiceController(Controller):
    path = "/sso/saml/{org_id:uuid}"
    include_in_schema = False

    @get("/metadata", media_type="application/samlmetadata+xml")
    async def metadata(self, request: HTMXRequest, org_id: UUID) -> Response[str]:
        """Served for any organization id: it names only this server's own addresses."""
        xml = service_provider_metadata(service_provider(request.app.state.settings, org_id))
        return Response(xml, media_type="application/samlmetadata+xml")

    @post("/acs", request_max_body_size=MAX_FORM_BYTES, status_code=303)
    async def acs(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        org_id: UUID,
        data: Annotated[AcsForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Any:
        settings: Settings = request.app.state.settings
        connection = await connection_of(db_session, org_id)
        if connection is None or connection.protocol != SAML or not connection.saml_metadata:
            return refused(request, "This organization does not sign in over SAML.", 404)
        if not data.SAMLResponse:
            return refused(request, "The identity provider sent no SAMLResponse.")
        try:
            request_id, assertion = await verified_assertion(
                service_provider(settings, org_id),
                connection.saml_metadata,
                data.SAMLResponse,
                lambda answered: is_current_request_id(settings, org_id, answered),
            )
        except SamlFailure as exc:
            return refused(request, f"Single sign-on failed: {exc}.")
        if not await use_assertion(db_session, org_id, assertion.assertion_id, assertion.expires_at):
            return refused(request, "Single sign-on failed: this assertion was used already.")
        ticket = seal_ticket(settings, org_id, request_id, assertion.email)
        return Redirect(f"{FINISH_PATH}?ticket={quote(ticket)}", status_code=303)
