"""Filing a feedback item in the project's issue tracker: the issue carries the item's words and details
and a link back, and the item keeps the issue's link (`linked_issues`)."""

from __future__ import annotations

import msgspec
from litestar import Controller, post

from app.db.ids import parse_uuid
from app.dependencies import provide
from app.errors import InvalidRequest, error_responses
from app.integrations.tracker_integrations import TrackerIntegrations
from app.integrations.trackers import TRACKERS
from app.schemas.integrations import IssueBody, IssueOut
from app.services.feedback_items import FeedbackItems


class IssueController(Controller):
    path = "/projects/{project_id:str}/feedback/{feedback_id:str}/issues"
    tags = ["Feedback"]
    dependencies = {
        "feedback_items": provide(FeedbackItems),
        "trackers": provide(TrackerIntegrations),
    }

    @post(
        "/",
        summary="File a feedback item as an issue in the project's GitHub repository, Linear team or Jira "
        "project",
        responses=error_responses(400, 401, 403, 404, 409, 413, 415, 502),
    )
    async def create_issue(
        self,
        feedback_id: str,
        data: IssueBody,
        feedback_items: FeedbackItems,
        trackers: TrackerIntegrations,
    ) -> IssueOut:
        """409 while the project has no integration for the tracker, or when the item already has an
        issue there; 502 when the tracker refuses (the item is not linked then)."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        if data.tracker is msgspec.UNSET:
            raise InvalidRequest("tracker", "is required")
        filed = await trackers.file_issue(TRACKERS[data.tracker], item)
        return IssueOut(tracker=data.tracker, url=filed.url, key=filed.key)
