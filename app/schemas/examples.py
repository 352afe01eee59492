"""One example of each request body, shown in the OpenAPI document and sent by its tests as they are."""

from __future__ import annotations

from typing import Any

PROJECT_KEY = "0b9e7c3e-5f43-4a55-9a4e-2f6f1c1d8a10"
CONTEXT = {"path": "/docs/getting-started", "version": "2.4.0", "submitted_by": "user_1842"}

REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "FeedbackCreateBody": {
        "message": "The export button does nothing on Safari.",
        "type": "Bug",
        "path": "/app/reports",
        "metadata": {"browser": "Safari 18"},
    },
    "ProjectPatchBody": {
        "name": "Docs",
        "allowed_origins": ["https://docs.example.com"],
        "retention_days": 365,
    },
    "ErasureBody": {"email": "ada@example.com"},
    "FeedbackPatchBody": {"status": "Resolved", "resolution_note": "Fixed in 2.4.1."},
    "AlertPatchBody": {"status": "acknowledged"},
    "AlertRules": {
        "rating_drop": {"enabled": True, "p_value": 0.01, "min_answers": 30},
        "theme_surge": {"enabled": True, "p_value": 0.001, "min_items": 5},
        "negative_spike": {"enabled": False},
    },
    "ContactMessagePatchBody": {"spam": False},
    "ContactReplyBody": {"message": "Thanks, Ada: the invoice is attached to your account page now."},
    "ConversationMessageBody": {"message": "Fixed in 3.2: the export keeps every row now."},
    "HelpfulRatingBody": {"value": True, **CONTEXT},
    "TypedRatingBody": {"rating": {"type": "star", "value": 4, "max_stars": 5}, "context": CONTEXT},
    "WebhookCreateBody": {"url": "https://hooks.example.com/hearken", "events": ["feedback.created"]},
    "WebhookPatchBody": {"enabled": False},
    "StripeIntegrationBody": {
        "signing_secret": "whsec_5f0c1b2a9d8e7f6a5b4c3d2e1f0a9b8c",
        "api_key": "rk_live_51Hx2d9QeXample0RestrictedKey",
    },
    "PolarIntegrationBody": {
        "webhook_secret": "polar_whs_8Yq2m4V7c1Lr9TzWbN3kP6sD0fHjG5xA",
        "api_key": "polar_oat_3nF8qL2vX9cT7mB1kW4zR6yP0sD5hJ",
    },
    "RewardBody": {"coupon": "THANKS20"},
    "MintlifyIntegrationBody": {"project_id": "acme-docs", "api_key": "mint_3f9a0c7e1b5d"},
    "GithubIntegrationBody": {"repository": "acme/widgets", "token": "github_pat_11AAAAAA0example"},
    "LinearIntegrationBody": {
        "team_id": "9cfb482a-81e3-4154-b5b9-2c805e70a02d",
        "api_key": "lin_api_0example0key",
    },
    "IssueBody": {"tracker": "github"},
    "PublicHelpfulRatingBody": {
        "project_key": PROJECT_KEY,
        "value": False,
        **CONTEXT,
        "metadata": {"reason": "missing_information"},
    },
    "PublicTypedRatingBody": {
        "project_key": PROJECT_KEY,
        "rating": {"type": "nps", "value": 9},
        "context": CONTEXT,
    },
    "PublicFeedbackBody": {
        "project_key": PROJECT_KEY,
        "message": "A dark mode would be easier on the eyes.",
        "type": "Feature",
        **CONTEXT,
    },
    "PublicContactBody": {
        "project_key": PROJECT_KEY,
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "subject": "Pricing",
        "message": "Do you offer a plan for non-profits?",
        "path": "/pricing",
    },
    "SurveyCreateBody": {
        "name": "Docs satisfaction",
        "languages": ["en", "de"],
        "questions": [
            {
                "id": "helpful",
                "type": "rating",
                "scale": 5,
                "required": True,
                "text": {"en": "How helpful are our docs?", "de": "Wie hilfreich ist unsere Dokumentation?"},
                "next": [{"if": 5, "goto": "end"}],
            },
            {
                "id": "missing",
                "type": "open_text",
                "text": {"en": "What was missing?", "de": "Was hat gefehlt?"},
            },
        ],
        "trigger": {"pages": ["/docs/**"], "seconds_on_page": 30},
        "audience": {"sample_percent": 20},
    },
    "SurveyPatchBody": {"status": "active"},
    "PublicSurveyResponseBody": {
        "project_key": PROJECT_KEY,
        "answers": [{"question_id": "helpful", "value": 4}, {"question_id": "missing", "value": "Examples"}],
        "language": "en",
        "path": "/docs/getting-started",
        "completed": True,
    },
    "LifecycleEventBody": {
        "event": "trial_expired",
        "user": {"id": "user_1842", "email": "ada@example.com", "language": "de"},
    },
}
"""Keyed by the body's schema name in the document."""
