"""Request and response bodies of a project's integrations (Stripe, Mintlify, and the issue trackers
GitHub, Linear and Jira Cloud). Credentials go in, never out (a tracker webhook's secret only in the
answer to saving it)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from app.db.models import (
    MintlifyIntegration,
    PolarIntegration,
    StripeIntegration,
    TrackerIntegration,
    TrackerKind,
)
from app.db.models.field_rules import literal_of
from app.timestamps import iso_z

TrackerName = literal_of(TrackerKind)
"""An issue tracker, as paths and bodies name it."""

SigningSecret = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^whsec_[A-Za-z0-9+/=_-]+$",
        max_length=255,
        description="The endpoint's signing secret from Stripe's dashboard: whsec_ followed by its key.",
    ),
]
PolarWebhookSecret = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[\x21-\x7e]+$",
        min_length=8,
        max_length=255,
        description="The secret Polar shows for the webhook endpoint, exactly as shown.",
    ),
]
BillingApiKey = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[\x21-\x7e]+$",
        min_length=8,
        max_length=500,
        description="A restricted key that may update subscriptions, for thank-you discounts (Stripe: a "
        "restricted key with Subscriptions write; Polar: an organization access token with "
        "subscriptions:write). Saving without it keeps the saved key.",
    ),
]
MintlifyProjectId = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Za-z0-9_-]+$",
        max_length=200,
        description="The Mintlify project id from the API keys page of Mintlify's dashboard.",
    ),
]
MintlifyApiKey = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[!-~]+$",
        max_length=500,
        description="A Mintlify admin API key (it begins with mint_): printable ASCII, sent as a header.",
    ),
]

GithubRepository = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$",
        max_length=140,
        description='The repository issues are filed in, as "owner/name".',
    ),
]
GithubToken = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[!-~]+$",
        min_length=1,
        max_length=500,
        description="A GitHub token that may read the repository and write its issues (a fine-grained "
        "token with Issues: read and write): printable ASCII, sent as a header.",
    ),
]

LinearTeamId = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Za-z0-9-]+$",
        max_length=100,
        description="The Linear team's id (a UUID, as the API's `teams` query lists it).",
    ),
]
LinearApiKey = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[!-~]+$",
        min_length=1,
        max_length=500,
        description="A Linear personal API key (it begins with lin_api_): printable ASCII, sent as a header.",
    ),
]

JiraSiteUrl = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?/?$",
        max_length=200,
        description="The Jira Cloud site, as https://your-site.atlassian.net (https and a public address "
        "in production).",
    ),
]
JiraProjectKey = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Z][A-Z0-9_]{1,9}$",
        description='The key of the Jira project issues are filed in: "ENG".',
    ),
]
JiraEmail = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[^@\s]+@[^@\s]+$",
        max_length=320,
        description="The email address of the Atlassian account the API token belongs to.",
    ),
]
JiraApiToken = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[!-~]+$",
        min_length=1,
        max_length=500,
        description="An Atlassian API token of that account (id.atlassian.com, Security, API tokens), "
        "sent with the email as basic authentication.",
    ),
]


class StripeIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    signing_secret: SigningSecret
    api_key: BillingApiKey | None = None


class PolarIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    webhook_secret: PolarWebhookSecret
    api_key: BillingApiKey | None = None


class BillingIntegrationOut(msgspec.Struct):
    """Stripe's or Polar's integration; `api_key_saved`: thank-you discounts can be applied."""

    enabled: bool
    webhook_url: str
    created_at: str
    api_key_saved: bool

    @classmethod
    def of(cls, integration: StripeIntegration | PolarIntegration, webhook_url: str) -> BillingIntegrationOut:
        return cls(
            enabled=True,
            webhook_url=webhook_url,
            created_at=iso_z(integration.created_at),
            api_key_saved=integration.sealed_api_key is not None,
        )


class MintlifyIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    project_id: MintlifyProjectId
    api_key: MintlifyApiKey


class MintlifyIntegrationOut(msgspec.Struct):
    """`last_synced_at` is the last successful import; `last_error` what went wrong since, in words."""

    enabled: bool
    project_id: str
    last_synced_at: str | None
    last_error: str | None
    imported: int

    @classmethod
    def of(cls, integration: MintlifyIntegration) -> MintlifyIntegrationOut:
        synced = integration.last_synced_at
        return cls(
            enabled=True,
            project_id=integration.mintlify_project_id,
            last_synced_at=None if synced is None else iso_z(synced),
            last_error=integration.last_error,
            imported=integration.imported,
        )


class MintlifySyncOut(msgspec.Struct):
    imported: int


class StripeReceipt(msgspec.Struct):
    """Stripe's and Polar's receivers' answer. `stored`: whether this delivery created a feedback item
    (a repeat or another event does not)."""

    received: bool
    stored: bool


class GithubIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    repository: GithubRepository
    token: GithubToken


class LinearIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    team_id: LinearTeamId
    api_key: LinearApiKey


class JiraIntegrationBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    site_url: JiraSiteUrl
    project_key: JiraProjectKey
    email: JiraEmail
    api_token: JiraApiToken


class TrackerIntegrationOut(msgspec.Struct, omit_defaults=True):
    """An issue tracker's integration: its settings as saved (GitHub: `repository`; Linear: `team_id`;
    Jira: `site_url`, `project_key`, `email`), never its credential. `webhook_secret` only in the answer
    to saving: paste it with `webhook_url` into the tracker's webhook settings."""

    enabled: bool
    webhook_url: str
    created_at: str
    repository: str | None = None
    team_id: str | None = None
    site_url: str | None = None
    project_key: str | None = None
    email: str | None = None
    webhook_secret: str | None = None

    @classmethod
    def of(
        cls, integration: TrackerIntegration, webhook_url: str, webhook_secret: str | None = None
    ) -> TrackerIntegrationOut:
        return msgspec.convert(
            {
                **integration.settings,
                "enabled": True,
                "webhook_url": webhook_url,
                "created_at": iso_z(integration.created_at),
                "webhook_secret": webhook_secret,
            },
            cls,
        )


class TrackerReceipt(msgspec.Struct):
    """An issue tracker's webhook delivery's answer. `changed`: whether it moved a feedback item (a
    repeat, another event or an issue Hearken did not file does not)."""

    received: bool
    changed: bool


class IssueBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/feedback/{feedback_id}/issues."""

    tracker: TrackerName | msgspec.UnsetType = msgspec.UNSET
    """The tracker to file the item in. Required: missing is refused (400) once the item is found, so
    another project's item id is 404 whatever the body."""


class IssueOut(msgspec.Struct):
    """The issue filed; the item's `linked_issues` lists it from now on."""

    tracker: str
    url: str
    key: str
