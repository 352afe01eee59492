"""Single sign-on, for admins: the organization's OpenID Connect provider, the email domains it signs in
and "Require SSO". Saving fetches the provider's discovery document first, so a mistyped issuer is
shown beside its field instead of failing at somebody's sign-in. Each domain shows the DNS TXT record
that proves it; "Verify" looks the record up, and only then does the domain send anybody to the provider."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.controllers.auth import too_many
from admin_ui.controllers.saml_service import service_provider
from admin_ui.forms import Form, field_error, form_values
from admin_ui.rendering import go_to, render
from app.config import RateLimit, Settings
from app.db.models.sso_connection import OPENID_CONNECT, SAML
from app.dependencies import provide
from app.errors import InvalidRequest
from app.integrations.dns_records import DnsFailure, txt_records
from app.integrations.openid_connect import OpenIdClient, SsoFailure
from app.integrations.saml_metadata import fetched_metadata
from app.integrations.saml_service_provider import SamlFailure, identity_provider_entity_id
from app.request_checks.call_budget import CallBudget
from tenants.permissions import needs
from tenants.scim_tokens import ScimTokens
from tenants.scope import Access
from tenants.single_sign_on import (
    SamlSettings,
    SsoConnections,
    SsoSettings,
    check_domain,
    check_issuer,
    parse_domains,
)

ADMIN = needs(Access.ADMIN)
VERIFY_LIMIT = RateLimit(10, 3600)
"""Domain checks ("Verify") per organization per hour."""
VERIFY_STORE = "domain_checks"
CALLBACK_PATH = "/login/sso/callback"


@dataclass
class SsoForm:
    protocol: str = OPENID_CONNECT
    issuer: str = ""
    client_id: str = ""
    client_secret: str = ""
    saml_metadata: str = ""
    saml_metadata_url: str = ""
    domains: str = ""
    require_sso: str = ""


@dataclass
class VerifyForm:
    domain: str = ""


def verify_budget(request: HTMXRequest) -> CallBudget:
    """The organizations' budgets of "Verify": each one makes this server ask the DNS for a name an admin
    chose, which no organization may drive without end. Shared through Redis when there is one."""
    budget: CallBudget | None = request.app.state.get(VERIFY_STORE)
    if budget is None:
        settings: Settings = request.app.state.settings
        budget = request.app.state[VERIFY_STORE] = CallBudget(
            VERIFY_LIMIT,
            request.app.state.redis,
            f"{settings.redis_prefix}domain-checks:",
            request.app.stores.get(VERIFY_STORE),
        )
    return budget


def redirect_uri(settings: Settings) -> str:
    """What the provider must know as this server's redirect URI."""
    return settings.base_url + CALLBACK_PATH


class SsoSettingsController(Controller):
    path = "/settings/sso"
    include_in_schema = False
    dependencies = {"connections": provide(SsoConnections)}

    @get("/", opt=ADMIN)
    async def page(self, request: HTMXRequest, connections: SsoConnections, saved: str | None = None) -> Any:
        connection = await connections.get()
        values = await self._saved_values(connections)
        return await self._page(
            request, connections, values, {}, connection is not None, notice=NOTICES.get(saved or "", "")
        )

    @post("/", opt=ADMIN)
    async def save(self, request: HTMXRequest, connections: SsoConnections, data: Form[SsoForm]) -> Any:
        configured = await connections.get() is not None
        try:
            if data.protocol == SAML:
                await connections.save_saml(await self._saml_settings(request, data))
                return go_to(request, "/settings/sso?saved=saved")
            wanted = SsoSettings(
                issuer=check_issuer(data.issuer),
                client_id=data.client_id,
                client_secret=data.client_secret or None,
                domains=parse_domains(data.domains),
                require_sso=data.require_sso == "true",
            )
            client: OpenIdClient = request.app.state.openid_client
            try:
                await client.metadata(wanted.issuer)
            except SsoFailure as exc:
                raise InvalidRequest("issuer", f"cannot be used: {exc}") from None
            await connections.save(wanted)
        except InvalidRequest as exc:
            values = form_values(data, "client_secret")
            return await self._page(
                request, connections, values, field_error(exc), configured, status_code=400
            )
        return go_to(request, "/settings/sso?saved=saved")

    @staticmethod
    async def _saml_settings(request: HTMXRequest, data: SsoForm) -> SamlSettings:
        """The identity provider's metadata, pasted or fetched from its URL, checked before it is kept."""
        settings: Settings = request.app.state.settings
        url = data.saml_metadata_url.strip() or None
        metadata = data.saml_metadata.strip()
        field = "saml_metadata_url" if url else "saml_metadata"
        if url is None and not metadata:
            raise InvalidRequest(
                "saml_metadata", "paste the identity provider's metadata XML or give its URL"
            )
        try:
            if url is not None:
                metadata = await fetched_metadata(url, settings)
            entity_id = identity_provider_entity_id(metadata)
        except SamlFailure as exc:
            raise InvalidRequest(field, f"cannot be used: {exc}") from None
        return SamlSettings(
            entity_id=entity_id,
            metadata=metadata,
            metadata_url=url,
            domains=parse_domains(data.domains),
            require_sso=data.require_sso == "true",
        )

    @post("/domains/verify", opt=ADMIN)
    async def verify(self, request: HTMXRequest, connections: SsoConnections, data: Form[VerifyForm]) -> Any:
        """Looks the domain's TXT records up now, through HEARKEN_DNS_RESOLVER or the system's resolvers."""
        settings: Settings = request.app.state.settings
        try:
            domain = check_domain(data.domain)
            if wait := await verify_budget(request).spend(str(connections.scope.org_id)):
                return await self._too_many_checks(request, connections, domain, wait)
            try:
                records = await txt_records(domain, settings.dns_resolver)
            except DnsFailure as exc:
                raise InvalidRequest("domain", f"{domain} cannot be checked now: {exc}") from None
            await connections.prove(domain, records)
        except InvalidRequest as exc:
            connection = await connections.get()
            values = await self._saved_values(connections)
            [rule] = field_error(exc).values()
            errors = {"verify": rule, "verify_domain": data.domain.strip().lower()}
            return await self._page(
                request, connections, values, errors, connection is not None, status_code=400
            )
        return go_to(request, "/settings/sso?saved=verified")

    async def _too_many_checks(
        self, request: HTMXRequest, connections: SsoConnections, domain: str, wait: int
    ) -> Any:
        values = await self._saved_values(connections)
        errors = {"verify": too_many(wait, "domain checks in this organization"), "verify_domain": domain}
        page = await self._page(
            request, connections, values, errors, await connections.get() is not None, status_code=429
        )
        page.headers["Retry-After"] = str(wait)
        return page

    @post("/remove", opt=ADMIN)
    async def remove(self, request: HTMXRequest, connections: SsoConnections) -> Any:
        await connections.remove()
        return go_to(request, "/settings/sso?saved=removed")

    @staticmethod
    async def _saved_values(connections: SsoConnections) -> dict[str, Any]:
        connection = await connections.get()
        if connection is None:
            return {}
        if connection.protocol == SAML:
            return {
                "protocol": SAML,
                "saml_entity_id": connection.issuer,
                "saml_metadata_url": connection.saml_metadata_url or "",
                "saml_metadata": "" if connection.saml_metadata_url else connection.saml_metadata,
                "domains": ", ".join(await connections.domains()),
                "require_sso": "true" if connection.require_sso else "",
            }
        return {
            "protocol": OPENID_CONNECT,
            "issuer": connection.issuer,
            "client_id": connection.client_id,
            "domains": ", ".join(await connections.domains()),
            "require_sso": "true" if connection.require_sso else "",
        }

    @staticmethod
    async def _page(
        request: HTMXRequest,
        connections: SsoConnections,
        values: dict[str, Any],
        errors: dict[str, str],
        configured: bool,
        *,
        notice: str = "",
        status_code: int = 200,
        **shown: Any,
    ) -> Any:
        return render(
            request,
            "sso_settings.html",
            status_code=status_code,
            values=values,
            errors=errors,
            configured=configured,
            notice=notice,
            redirect_uri=redirect_uri(request.app.state.settings),
            sp=service_provider(request.app.state.settings, connections.scope.org_id),
            claims=await connections.claims(),
            scim_tokens=await ScimTokens(connections.session, connections.scope).active(),
            scim_url=request.app.state.settings.base_url + "/scim/v2",
            **shown,
        )


NOTICES = {
    "saved": "Single sign-on saved. A new domain signs nobody in until its DNS record is verified.",
    "verified": "Domain verified: its addresses now sign in through your provider.",
    "removed": "Single sign-on is off: members sign in with their passwords.",
    "scim_revoked": "SCIM token revoked: your provider's next request with it is refused.",
}
