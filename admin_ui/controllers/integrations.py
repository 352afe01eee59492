"""Integrations: a project's Stripe and Polar webhooks (the URL to paste into each, and the optional API
key that thank-you discounts use), its Mintlify import
("Sync now", the last sync and its error in words) and its issue trackers, one section for each of GitHub,
Linear and Jira (the webhook URL, and its secret once, when saved). Credentials are written here and
never shown again.

The same services and body rules as the REST API, so the console cannot store what the API would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import Form
from admin_ui.rendering import render
from app.config import Settings
from app.db.models import Project
from app.dependencies import build, provide
from app.errors import InvalidRequest, UpstreamError, missing_field, msgspec_violation
from app.integrations import polar_integrations, tracker_integrations
from app.integrations.mintlify_api import MintlifyError
from app.integrations.mintlify_integrations import MintlifyIntegrations, import_mintlify_feedback
from app.integrations.polar_integrations import PolarIntegrations
from app.integrations.stripe_integrations import StripeIntegrations, webhook_url
from app.integrations.tracker_integrations import TrackerIntegrations
from app.integrations.trackers import TRACKERS, tracker_named
from app.schemas.integrations import MintlifyIntegrationBody, PolarIntegrationBody, StripeIntegrationBody


@dataclass
class StripeForm:
    signing_secret: str = ""
    stripe_api_key: str = ""


@dataclass
class PolarForm:
    polar_webhook_secret: str = ""
    polar_api_key: str = ""


def polar_of(stripe: StripeIntegrations) -> PolarIntegrations:
    """The project's Polar integration, in the same session, scope and secret box as its Stripe one."""
    return build(PolarIntegrations, stripe.session, stripe.scope, stripe.project, stripe.settings)


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


def interval_in_words(seconds: int) -> str:
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return f"every {unit}" if count == 1 else f"every {count} {unit}s"
    return f"every {seconds} seconds"


@dataclass
class IntegrationsPage:
    """The integrations page and the services it shows, so that a handler shows it again (saved, or with
    the refusal beside its field) in one call."""

    request: HTMXRequest
    project: Project
    stripe: StripeIntegrations
    mintlify: MintlifyIntegrations
    trackers: TrackerIntegrations

    async def show(self, *, status_code: int = 200, **context: Any) -> Any:
        request, stripe, trackers = self.request, self.stripe, self.trackers
        settings: Settings = request.app.state.settings
        stripe_integration = await stripe.find()
        polar_integration = await polar_of(stripe).find()
        saved_trackers = await trackers.all()
        return render(
            request,
            "integrations.html",
            fragment="partials/_integrations.html",
            status_code=status_code,
            project=self.project,
            stripe_url=None
            if stripe_integration is None
            else webhook_url(settings.base_url, stripe_integration),
            stripe_integration=stripe_integration,
            polar_integration=polar_integration,
            polar_url=None
            if polar_integration is None
            else polar_integrations.webhook_url(settings.base_url, polar_integration),
            mintlify_integration=await self.mintlify.find(),
            trackers=[
                (
                    tracker,
                    saved_trackers.get(name),
                    None
                    if name not in saved_trackers
                    else tracker_integrations.webhook_url(settings.base_url, saved_trackers[name]),
                )
                for name, tracker in TRACKERS.items()
            ],
            tracker_values=context.pop("tracker_values", {}),
            sync_every=interval_in_words(settings.mintlify_sync_seconds),
            errors=context.pop("errors", {}),
            **context,
        )


class IntegrationsController(Controller):
    path = "/projects/{project_id:str}/integrations"
    include_in_schema = False
    dependencies = {
        "stripe": provide(StripeIntegrations),
        "mintlify": provide(MintlifyIntegrations),
        "trackers": provide(TrackerIntegrations),
        "page": Provide(IntegrationsPage, sync_to_thread=False),
    }

    @get("/")
    async def integrations_page(self, page: IntegrationsPage) -> Any:
        return await page.show()

    @post("/stripe")
    async def save_stripe(
        self,
        stripe: StripeIntegrations,
        page: IntegrationsPage,
        data: Form[StripeForm],
    ) -> Any:
        secret, api_key = data.signing_secret.strip(), data.stripe_api_key.strip() or None
        values = {"signing_secret": secret} | ({"api_key": api_key} if api_key else {})
        errors = body_errors(
            values, StripeIntegrationBody, {"signing_secret": "signing_secret", "stripe_api_key": "api_key"}
        )
        if errors.get("signing_secret"):
            errors["signing_secret"] = "Paste the signing secret from Stripe: it begins with whsec_"
        if errors:
            return await page.show(status_code=400, errors=errors)
        await stripe.enable(secret, api_key)
        return await page.show(saved="Stripe is connected.")

    @post("/stripe/remove")
    async def remove_stripe(self, stripe: StripeIntegrations, page: IntegrationsPage) -> Any:
        await stripe.remove()
        return await page.show(saved="Stripe is removed.")

    @post("/polar")
    async def save_polar(
        self,
        stripe: StripeIntegrations,
        page: IntegrationsPage,
        data: Form[PolarForm],
    ) -> Any:
        secret, api_key = data.polar_webhook_secret.strip(), data.polar_api_key.strip() or None
        values = {"webhook_secret": secret} | ({"api_key": api_key} if api_key else {})
        labels = {"polar_webhook_secret": "webhook_secret", "polar_api_key": "api_key"}
        errors = body_errors(values, PolarIntegrationBody, labels)
        if errors:
            return await page.show(status_code=400, errors=errors)
        await polar_of(stripe).enable(secret, api_key)
        return await page.show(saved="Polar is connected.")

    @post("/polar/remove")
    async def remove_polar(self, stripe: StripeIntegrations, page: IntegrationsPage) -> Any:
        await polar_of(stripe).remove()
        return await page.show(saved="Polar is removed.")

    @post("/mintlify")
    async def save_mintlify(
        self,
        mintlify: MintlifyIntegrations,
        page: IntegrationsPage,
        data: Form[MintlifyForm],
    ) -> Any:
        values = {"project_id": data.mintlify_project_id.strip(), "api_key": data.api_key.strip()}
        labels = {"mintlify_project_id": "project_id", "api_key": "api_key"}
        errors = body_errors(values, MintlifyIntegrationBody, labels)
        if errors:
            return await page.show(
                status_code=400,
                errors=errors,
                mintlify_project_id=data.mintlify_project_id,
            )
        await mintlify.enable(values["project_id"], values["api_key"])
        return await page.show(saved="Mintlify is connected.")

    @post("/mintlify/sync")
    async def sync_mintlify(
        self,
        request: HTMXRequest,
        mintlify: MintlifyIntegrations,
        page: IntegrationsPage,
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
            return await page.show(sync_failed=True)
        await db_session.refresh(integration)
        synced = f"Imported {imported} new feedback item{'s' if imported != 1 else ''}."
        return await page.show(synced=synced)

    @post("/mintlify/remove")
    async def remove_mintlify(self, mintlify: MintlifyIntegrations, page: IntegrationsPage) -> Any:
        await mintlify.remove()
        return await page.show(saved="Mintlify is removed.")

    @post("/{tracker:str}")
    async def save_tracker(
        self,
        trackers: TrackerIntegrations,
        page: IntegrationsPage,
        tracker: str,
        data: Form[dict[str, str]],
    ) -> Any:
        """Checked with the tracker before it is stored; the webhook's secret is shown on this answer only."""
        chosen = tracker_named(tracker)
        labels = {field.name: field.body_field for field in chosen.form}
        values = {body_field: str(data.get(name, "")).strip() for name, body_field in labels.items()}
        errors = body_errors(values, chosen.body, labels)
        if not errors:
            try:
                _, secret = await trackers.enable(chosen, values)
            except InvalidRequest as exc:
                field = next((name for name, key in labels.items() if key == exc.field), chosen.form[-1].name)
                errors = {field: exc.details.removeprefix(f"{exc.field}: ")}
            except UpstreamError as exc:
                errors = {chosen.form[-1].name: exc.details}
            else:
                return await page.show(
                    saved=f"{chosen.label} is connected.",
                    tracker_secret=(chosen.kind.value, secret),
                )
        shown = {name: data.get(name, "") for name, key in labels.items() if key != chosen.credential}
        return await page.show(
            status_code=400,
            errors=errors,
            tracker_values={chosen.kind.value: shown},
        )

    @post("/{tracker:str}/remove")
    async def remove_tracker(
        self,
        trackers: TrackerIntegrations,
        page: IntegrationsPage,
        tracker: str,
    ) -> Any:
        chosen = tracker_named(tracker)
        await trackers.remove(chosen)
        return await page.show(saved=f"{chosen.label} is removed.")
