"""A project's integrations: Stripe cancellation feedback, Mintlify page feedback, GitHub and Linear issues.
Credentials are accepted, stored encrypted and never returned (a tracker webhook's secret is shown once,
in the answer to saving it)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post, put
from litestar.di import Provide

from app.dependencies import provide, provide_github, provide_linear, request_settings
from app.errors import UpstreamError, error_responses
from app.integrations.github_integrations import GithubIntegrations
from app.integrations.github_integrations import webhook_url as github_webhook_url
from app.integrations.linear_integrations import LinearIntegrations
from app.integrations.linear_integrations import webhook_url as linear_webhook_url
from app.integrations.mintlify_api import MintlifyError
from app.integrations.mintlify_integrations import (
    SYNC_SECONDS,
    MintlifyIntegrations,
    import_mintlify_feedback,
)
from app.integrations.stripe_integrations import StripeIntegrations, webhook_url
from app.schemas.integrations import (
    GithubIntegrationBody,
    GithubIntegrationOut,
    LinearIntegrationBody,
    LinearIntegrationOut,
    MintlifyIntegrationBody,
    MintlifyIntegrationOut,
    MintlifySyncOut,
    StripeIntegrationBody,
    StripeIntegrationOut,
)


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


class GithubIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/github"
    tags = ["Integrations"]
    dependencies = {"github": Provide(provide_github)}

    @put(
        "/",
        summary="File feedback as GitHub issues: a repository and a token, checked with GitHub on save",
        responses=error_responses(400, 401, 403, 404, 413, 415, 502),
    )
    async def enable_github(
        self, request: Request[Any, Any, Any], data: GithubIntegrationBody, github: GithubIntegrations
    ) -> GithubIntegrationOut:
        """400 naming `token` or `repository` when GitHub refuses them; the token is stored encrypted.
        The answer alone carries the webhook's secret, for the repository's webhook settings."""
        integration, secret = await github.enable(data.repository, data.token)
        url = github_webhook_url(request_settings(request).base_url, integration)
        return GithubIntegrationOut.of(integration, url, secret)

    @get(
        "/",
        summary="The GitHub integration, without its token or webhook secret",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_github(
        self, request: Request[Any, Any, Any], github: GithubIntegrations
    ) -> GithubIntegrationOut:
        """Not found while the project has no GitHub integration."""
        integration = await github.get()
        return GithubIntegrationOut.of(
            integration, github_webhook_url(request_settings(request).base_url, integration)
        )

    @delete(
        "/",
        summary="Remove the GitHub integration (its webhook URL then answers 404; filed issues stay linked)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_github(self, github: GithubIntegrations) -> None:
        """Issues already filed stay on their items."""
        await github.remove()


class LinearIntegrationController(Controller):
    path = "/projects/{project_id:str}/integrations/linear"
    tags = ["Integrations"]
    dependencies = {"linear": Provide(provide_linear)}

    @put(
        "/",
        summary="File feedback as Linear issues: a team id and an API key, checked with Linear on save",
        responses=error_responses(400, 401, 403, 404, 413, 415, 502),
    )
    async def enable_linear(
        self, request: Request[Any, Any, Any], data: LinearIntegrationBody, linear: LinearIntegrations
    ) -> LinearIntegrationOut:
        """400 naming `api_key` or `team_id` when Linear refuses them; the key is stored encrypted.
        The answer alone carries the webhook's secret."""
        integration, secret = await linear.enable(data.team_id, data.api_key)
        url = linear_webhook_url(request_settings(request).base_url, integration)
        return LinearIntegrationOut.of(integration, url, secret)

    @get(
        "/",
        summary="The Linear integration, without its key or webhook secret",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_linear(
        self, request: Request[Any, Any, Any], linear: LinearIntegrations
    ) -> LinearIntegrationOut:
        """Not found while the project has no Linear integration."""
        integration = await linear.get()
        return LinearIntegrationOut.of(
            integration, linear_webhook_url(request_settings(request).base_url, integration)
        )

    @delete(
        "/",
        summary="Remove the Linear integration (its webhook URL then answers 404; filed issues stay linked)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def remove_linear(self, linear: LinearIntegrations) -> None:
        """Issues already filed stay on their items."""
        await linear.remove()
