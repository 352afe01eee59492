"""The public endpoints' paths under /api/v1, declared once: the route decorators and the preflight use
these, and the router's options exempt them from compression."""

from __future__ import annotations

HELPFUL_RATING = "/rating/submit"
TYPED_RATING = "/ratings"
FEEDBACK = "/feedback/submit"
CONTACT = "/contact/submit"

PUBLIC_PATHS = (HELPFUL_RATING, TYPED_RATING, FEEDBACK, CONTACT)
