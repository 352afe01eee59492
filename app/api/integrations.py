"""A project's integrations: Stripe cancellation feedback and Mintlify page feedback. Credentials are
accepted, stored encrypted and never returned."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post, put
from litestar.di import Provide

from app.dependencies import provide_mintlify, provide_stripe, request_settings
from app.errors import UpstreamError, error_responses
from app.imports.mintlify_api import MintlifyError
from app.imports.mintlify_integrations import MintlifyIntegrations, import_mintlify_feedback
from app.imports.stripe_integrations import StripeIntegrations, webhook_url
from app.schemas.integrations import (
    MintlifyIntegrationBody,
    MintlifyIntegrationOut,
    MintlifySyncOut,
    StripeIntegrationBody,
    StripeIntegrationOut,
)


class StripeIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/stripe"
    tags = ["Integrations"]
    dependencies = {"stripe": Provide(provide_stripe)}

    @put(
        "/",
        summary="Enable Stripe cancellation feedback with the endpoint's signing secret",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def enable_stripe(
        self, request: Request[Any, Any, Any], data: StripeIntegrationBody, stripe: StripeIntegrations
    ) -> StripeIntegrationOut:
        """Stores the secret encrypted; enabling again keeps the webhook URL to give Stripe."""
        integration = await stripe.enable(data.signing_secret)
        return StripeIntegrationOut.of(
            integration, webhook_url(request_settings(request).base_url, integration)
        )

    @get(
        "/",
        summary="The Stripe integration, without its secret",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_stripe(
        self, request: Request[Any, Any, Any], stripe: StripeIntegrations
    ) -> StripeIntegrationOut:
        """Not found while the project has no Stripe integration."""
        integration = await stripe.get()
        return StripeIntegrationOut.of(
            integration, webhook_url(request_settings(request).base_url, integration)
        )

    @delete(
        "/",
        summary="Remove the Stripe integration (its URL then answers 404)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_stripe(self, stripe: StripeIntegrations) -> None:
        """Its webhook URL then answers 404; imported items stay."""
        await stripe.remove()


class MintlifyIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/mintlify"
    tags = ["Integrations"]
    dependencies = {"mintlify": Provide(provide_mintlify)}

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
        """Imports new page feedback now; 502 when Mintlify refuses or cannot be reached."""
        integration = await mintlify.get()
        try:
            imported = await import_mintlify_feedback(
                request.app.state.session_maker, request_settings(request), integration.id
            )
        except MintlifyError as error:
            raise UpstreamError(error.words) from None
        return MintlifySyncOut(imported=imported)
