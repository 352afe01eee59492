"""Integrations: a project's Stripe webhook (the URL to paste into Stripe), its Mintlify import
("Sync now", the last sync and its error in words) and its GitHub repository and Linear team for issues (the
webhook URL, and its secret once, when saved). Credentials are written here and never shown again.

The same services and body rules as the REST API, so the console cannot store what the API would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import Form
from admin_ui.rendering import render
from app.config import Settings
from app.db.models import Project
from app.db.secret_box import secret_box
from app.dependencies import provide
from app.errors import InvalidRequest, UpstreamError, missing_field, msgspec_violation
from app.integrations.github_integrations import GithubIntegrations
from app.integrations.github_integrations import webhook_url as github_webhook_url
from app.integrations.linear_integrations import LinearIntegrations
from app.integrations.linear_integrations import webhook_url as linear_webhook_url
from app.integrations.mintlify_api import MintlifyError
from app.integrations.mintlify_integrations import MintlifyIntegrations, import_mintlify_feedback
from app.integrations.stripe_integrations import StripeIntegrations, webhook_url
from app.schemas.integrations import (
    GithubIntegrationBody,
    LinearIntegrationBody,
    MintlifyIntegrationBody,
    StripeIntegrationBody,
)


@dataclass
class StripeForm:
    signing_secret: str = ""


@dataclass
class GithubForm:
    repository: str = ""
    token: str = ""


@dataclass
class LinearForm:
    team_id: str = ""
    linear_api_key: str = ""


@dataclass
class MintlifyForm:
    mintlify_project_id: str = ""
    api_key: str = ""


def body_errors(values: dict[str, str], body: type[msgspec.Struct], labels: dict[str, str]) -> dict[str, str]:
    """The API body's rules applied to a form: {form field: message in words}."""
    try:
        msgspec.convert(values, body)
    except msgspec.ValidationError as exc:
        rule, field = msgspec_violation(exc)
        form_field = next((name for name, key in labels.items() if key == field), next(iter(labels)))
        missing = missing_field(rule) is not None
        return {form_field: "Required" if missing or not values.get(field) else "Not in the expected form"}
    return {}


def github_of(request: HTMXRequest, stripe: StripeIntegrations) -> GithubIntegrations:
    """The project's GitHub integration, in the same session and scope as the page's other integrations."""
    settings: Settings = request.app.state.settings
    return GithubIntegrations(
        stripe.session, stripe.scope, stripe.project, secret_box(settings.secret_key), settings
    )


def linear_of(request: HTMXRequest, stripe: StripeIntegrations) -> LinearIntegrations:
    """The project's Linear integration, in the same session and scope as the page's other integrations."""
    settings: Settings = request.app.state.settings
    return LinearIntegrations(
        stripe.session, stripe.scope, stripe.project, secret_box(settings.secret_key), settings
    )


def interval_in_words(seconds: int) -> str:
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return f"every {unit}" if count == 1 else f"every {count} {unit}s"
    return f"every {seconds} seconds"


class IntegrationsController(Controller):
    path = "/projects/{project_id:str}/integrations"
    include_in_schema = False
    dependencies = {"stripe": provide(StripeIntegrations), "mintlify": provide(MintlifyIntegrations)}

    async def _page(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        *,
        status_code: int = 200,
        **context: Any,
    ) -> Any:
        settings: Settings = request.app.state.settings
        stripe_integration = await stripe.find()
        github = await github_of(request, stripe).find()
        linear = await linear_of(request, stripe).find()
        return render(
            request,
            "integrations.html",
            fragment="partials/_integrations.html",
            status_code=status_code,
            project=project,
            stripe_url=None
            if stripe_integration is None
            else webhook_url(settings.base_url, stripe_integration),
            mintlify_integration=await mintlify.find(),
            github_integration=github,
            github_url=None if github is None else github_webhook_url(settings.base_url, github),
            linear_integration=linear,
            linear_url=None if linear is None else linear_webhook_url(settings.base_url, linear),
            sync_every=interval_in_words(settings.mintlify_sync_seconds),
            errors=context.pop("errors", {}),
            **context,
        )

    @get("/")
    async def integrations_page(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
    ) -> Any:
        return await self._page(request, project, stripe, mintlify)

    @post("/stripe")
    async def save_stripe(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        data: Form[StripeForm],
    ) -> Any:
        secret = data.signing_secret.strip()
        errors = body_errors(
            {"signing_secret": secret}, StripeIntegrationBody, {"signing_secret": "signing_secret"}
        )
        if errors:
            errors["signing_secret"] = "Paste the signing secret from Stripe: it begins with whsec_"
            return await self._page(request, project, stripe, mintlify, status_code=400, errors=errors)
        await stripe.enable(secret)
        return await self._page(request, project, stripe, mintlify, saved="Stripe is connected.")

    @post("/stripe/remove")
    async def remove_stripe(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
    ) -> Any:
        await stripe.remove()
        return await self._page(request, project, stripe, mintlify, saved="Stripe is removed.")

    @post("/mintlify")
    async def save_mintlify(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        data: Form[MintlifyForm],
    ) -> Any:
        values = {"project_id": data.mintlify_project_id.strip(), "api_key": data.api_key.strip()}
        labels = {"mintlify_project_id": "project_id", "api_key": "api_key"}
        errors = body_errors(values, MintlifyIntegrationBody, labels)
        if errors:
            return await self._page(
                request,
                project,
                stripe,
                mintlify,
                status_code=400,
                errors=errors,
                mintlify_project_id=data.mintlify_project_id,
            )
        await mintlify.enable(values["project_id"], values["api_key"])
        return await self._page(request, project, stripe, mintlify, saved="Mintlify is connected.")

    @post("/mintlify/sync")
    async def sync_mintlify(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        db_session: AsyncSession,
    ) -> Any:
        integration = await mintlify.get()
        settings: Settings = request.app.state.settings
        try:
            imported = await import_mintlify_feedback(
                request.app.state.session_maker, settings, integration.id
            )
        except MintlifyError:
            await db_session.refresh(integration)
            return await self._page(request, project, stripe, mintlify, sync_failed=True)
        await db_session.refresh(integration)
        synced = f"Imported {imported} new feedback item{'s' if imported != 1 else ''}."
        return await self._page(request, project, stripe, mintlify, synced=synced)

    @post("/mintlify/remove")
    async def remove_mintlify(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
    ) -> Any:
        await mintlify.remove()
        return await self._page(request, project, stripe, mintlify, saved="Mintlify is removed.")

    @post("/github")
    async def save_github(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        data: Form[GithubForm],
    ) -> Any:
        """Checked with GitHub before it is stored; the webhook's secret is shown on this answer only."""
        values = {"repository": data.repository.strip(), "token": data.token.strip()}
        labels = {"repository": "repository", "token": "token"}
        errors = body_errors(values, GithubIntegrationBody, labels)
        if not errors:
            try:
                _, secret = await github_of(request, stripe).enable(values["repository"], values["token"])
            except InvalidRequest as exc:
                errors = {exc.field: exc.details.removeprefix(f"{exc.field}: ")}
            except UpstreamError as exc:
                errors = {"token": exc.details}
            else:
                return await self._page(
                    request, project, stripe, mintlify, saved="GitHub is connected.", github_secret=secret
                )
        return await self._page(
            request,
            project,
            stripe,
            mintlify,
            status_code=400,
            errors=errors,
            github_repository=data.repository,
        )

    @post("/github/remove")
    async def remove_github(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
    ) -> Any:
        await github_of(request, stripe).remove()
        return await self._page(request, project, stripe, mintlify, saved="GitHub is removed.")

    @post("/linear")
    async def save_linear(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
        data: Form[LinearForm],
    ) -> Any:
        """Checked with Linear before it is stored; the webhook's secret is shown on this answer only."""
        values = {"team_id": data.team_id.strip(), "api_key": data.linear_api_key.strip()}
        labels = {"team_id": "team_id", "linear_api_key": "api_key"}
        errors = body_errors(values, LinearIntegrationBody, labels)
        if not errors:
            try:
                _, secret = await linear_of(request, stripe).enable(values["team_id"], values["api_key"])
            except InvalidRequest as exc:
                field = "linear_api_key" if exc.field == "api_key" else exc.field
                errors = {field: exc.details.removeprefix(f"{exc.field}: ")}
            except UpstreamError as exc:
                errors = {"linear_api_key": exc.details}
            else:
                return await self._page(
                    request, project, stripe, mintlify, saved="Linear is connected.", linear_secret=secret
                )
        return await self._page(
            request, project, stripe, mintlify, status_code=400, errors=errors, linear_team_id=data.team_id
        )

    @post("/linear/remove")
    async def remove_linear(
        self,
        request: HTMXRequest,
        project: Project,
        stripe: StripeIntegrations,
        mintlify: MintlifyIntegrations,
    ) -> Any:
        await linear_of(request, stripe).remove()
        return await self._page(request, project, stripe, mintlify, saved="Linear is removed.")
