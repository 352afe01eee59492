"""Exports of a project's feedback, ratings, contact messages and survey responses as CSV or NDJSON,
streamed from the database in constant memory. The API and the console both answer with `export_response`."""

from app.exports.kinds import CHURN, CONTACT_MESSAGES, FEEDBACK, RATINGS, SURVEY_RESPONSES, ExportKind
from app.exports.response import ExportFormat, export_response

__all__ = [
    "CHURN",
    "CONTACT_MESSAGES",
    "FEEDBACK",
    "RATINGS",
    "SURVEY_RESPONSES",
    "ExportFormat",
    "ExportKind",
    "export_response",
]
