"""A project's integrations: Stripe and Polar cancellation feedback, Mintlify page feedback, and issues in
GitHub, Linear or Jira Cloud (one set of routes for every tracker).
Credentials are accepted, stored encrypted and never returned (a tracker webhook's secret is shown once,
in the answer to saving it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Controller, Request, delete, get, post, put

from app.dependencies import provide, request_settings
from app.errors import UpstreamError, error_responses
from app.integrations import polar_integrations, stripe_integrations
from app.integrations.cancellations import Billing
from app.integrations.mintlify_api import MintlifyError
from app.integrations.mintlify_integrations import (
    SYNC_SECONDS,
    MintlifyIntegrations,
    import_mintlify_feedback,
)
from app.integrations.polar_integrations import PolarIntegrations
from app.integrations.stripe_integrations import StripeIntegrations
from app.integrations.tracker_integrations import TrackerIntegrations, webhook_url
from app.integrations.trackers import TRACKERS
from app.schemas.integrations import (
    BillingIntegrationOut,
    MintlifyIntegrationBody,
    MintlifyIntegrationOut,
    MintlifySyncOut,
    PolarIntegrationBody,
    StripeIntegrationBody,
    TrackerIntegrationOut,
    TrackerName,
)


def billing_out(
    request: Request[Any, Any, Any], integration: Billing, url_of: Callable[[str, Billing], str]
) -> BillingIntegrationOut:
    """A billing integration (Stripe, Polar) as answered: with the webhook URL to give the platform."""
    return BillingIntegrationOut.of(integration, url_of(request_settings(request).base_url, integration))


class StripeIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/stripe"
    tags = ["Integrations"]
    dependencies = {"stripe": provide(StripeIntegrations)}

    @put(
        "/",
        summary="Enable Stripe cancellation feedback with the endpoint's signing secret",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def enable_stripe(
        self, request: Request[Any, Any, Any], data: StripeIntegrationBody, stripe: StripeIntegrations
    ) -> BillingIntegrationOut:
        """Stores the secret encrypted; enabling again keeps the webhook URL to give Stripe."""
        integration = await stripe.enable(data.signing_secret, data.api_key)
        return billing_out(request, integration, stripe_integrations.webhook_url)

    @get(
        "/",
        summary="The Stripe integration, without its secret",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_stripe(
        self, request: Request[Any, Any, Any], stripe: StripeIntegrations
    ) -> BillingIntegrationOut:
        """Not found while the project has no Stripe integration."""
        integration = await stripe.get()
        return billing_out(request, integration, stripe_integrations.webhook_url)

    @delete(
        "/",
        summary="Remove the Stripe integration (its URL then answers 404)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_stripe(self, stripe: StripeIntegrations) -> None:
        """Its webhook URL then answers 404; imported items stay."""
        await stripe.remove()


class PolarIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/polar"
    tags = ["Integrations"]
    dependencies = {"polar": provide(PolarIntegrations)}

    @put(
        "/",
        summary="Enable Polar cancellation feedback with the secret Polar shows for the endpoint",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def enable_polar(
        self, request: Request[Any, Any, Any], data: PolarIntegrationBody, polar: PolarIntegrations
    ) -> BillingIntegrationOut:
        """Stores the secret (and the optional API key) encrypted; enabling again keeps the webhook URL to
        give Polar."""
        integration = await polar.enable(data.webhook_secret, data.api_key)
        return billing_out(request, integration, polar_integrations.webhook_url)

    @get(
        "/",
        summary="The Polar integration, without its secrets",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_polar(
        self, request: Request[Any, Any, Any], polar: PolarIntegrations
    ) -> BillingIntegrationOut:
        """Not found while the project has no Polar integration."""
        integration = await polar.get()
        return billing_out(request, integration, polar_integrations.webhook_url)

    @delete(
        "/",
        summary="Remove the Polar integration (its URL then answers 404)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_polar(self, polar: PolarIntegrations) -> None:
        """Its webhook URL then answers 404; imported items stay."""
        await polar.remove()


class MintlifyIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/mintlify"
    tags = ["Integrations"]
    dependencies = {"mintlify": provide(MintlifyIntegrations)}

    @put(
        "/",
        summary="Enable the import of Mintlify page feedback with a project id and an admin API key",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def enable_mintlify(
        self, data: MintlifyIntegrationBody, mintlify: MintlifyIntegrations
    ) -> MintlifyIntegrationOut:
        """Stores the key encrypted; it is never returned."""
        return MintlifyIntegrationOut.of(await mintlify.enable(data.project_id, data.api_key))

    @get(
        "/",
        summary="The Mintlify integration and its last import, without the key",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_mintlify(self, mintlify: MintlifyIntegrations) -> MintlifyIntegrationOut:
        """Not found while the project has no Mintlify integration."""
        return MintlifyIntegrationOut.of(await mintlify.get())

    @delete(
        "/",
        summary="Remove the Mintlify integration (imported items stay)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_mintlify(self, mintlify: MintlifyIntegrations) -> None:
        """Stops the periodic import; imported items stay."""
        await mintlify.remove()

    @post(
        "/sync",
        status_code=200,
        summary="Import new Mintlify feedback now",
        responses=error_responses(400, 401, 403, 404, 502),
    )
    async def sync_mintlify(
        self, request: Request[Any, Any, Any], mintlify: MintlifyIntegrations
    ) -> MintlifySyncOut:
        """Imports new page feedback now, for a few seconds at most (a larger backlog goes on in the
        background at once); 502 when Mintlify refuses or cannot be reached."""
        integration = await mintlify.get()
        try:
            imported = await import_mintlify_feedback(
                request.app.state.session_maker, request_settings(request), integration.id, SYNC_SECONDS
            )
        except MintlifyError as error:
            raise UpstreamError(error.words) from None
        return MintlifySyncOut(imported=imported)


class TrackerIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/{tracker:str}"
    tags = ["Integrations"]
    dependencies = {"trackers": provide(TrackerIntegrations)}

    @put(
        "/",
        summary="File feedback as issues in GitHub, Linear or Jira Cloud: the tracker's settings and "
        "credential, checked with the tracker on save",
        responses=error_responses(400, 401, 403, 404, 413, 415, 502),
    )
    async def enable_tracker(
        self,
        request: Request[Any, Any, Any],
        tracker: TrackerName,
        data: dict[str, Any],
        trackers: TrackerIntegrations,
    ) -> TrackerIntegrationOut:
        """The body is the tracker's own (GitHub: `repository`, `token`; Linear: `team_id`, `api_key`;
        Jira: `site_url`, `project_key`, `email`, `api_token`); 400 naming the field the tracker refuses.
        The credential is stored encrypted; the answer alone carries the webhook's secret."""
        integration, secret = await trackers.enable(TRACKERS[tracker], data)
        url = webhook_url(request_settings(request).base_url, integration)
        return TrackerIntegrationOut.of(integration, url, secret)

    @get(
        "/",
        summary="The tracker's integration, without its credential or webhook secret",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_tracker(
        self, request: Request[Any, Any, Any], tracker: TrackerName, trackers: TrackerIntegrations
    ) -> TrackerIntegrationOut:
        """Not found while the project has no integration with this tracker."""
        integration = await trackers.get(TRACKERS[tracker])
        return TrackerIntegrationOut.of(
            integration, webhook_url(request_settings(request).base_url, integration)
        )

    @delete(
        "/",
        summary="Remove the tracker's integration (its webhook URL then answers 404; filed issues stay "
        "linked)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_tracker(self, tracker: TrackerName, trackers: TrackerIntegrations) -> None:
        """Issues already filed stay on their items."""
        await trackers.remove(TRACKERS[tracker])
