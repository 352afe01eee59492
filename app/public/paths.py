"""The public endpoints' paths under /api/v1, declared once: the route decorators and the preflight use
these, and the router's options exempt them from compression."""

from __future__ import annotations

HELPFUL_RATING = "/rating/submit"
TYPED_RATING = "/ratings"
FEEDBACK = "/feedback/submit"
CONTACT = "/contact/submit"
ACTIVE_SURVEYS = "/surveys/active"
SURVEY_DEFINITION = "/surveys/{survey_id:str}/definition"
SURVEY_RESPONSE = "/surveys/{survey_id:str}/responses/submit"
CONVERSATIONS = "/conversations"
CONVERSATION = "/conversations/{conversation_id:str}"
CONVERSATION_MESSAGES = "/conversations/{conversation_id:str}/messages"

PUBLIC_PATHS = (HELPFUL_RATING, TYPED_RATING, FEEDBACK, CONTACT, SURVEY_RESPONSE, CONVERSATION_MESSAGES)
"""The paths that take a POST from a browser, which preflights it (the survey reads are simple GETs)."""
