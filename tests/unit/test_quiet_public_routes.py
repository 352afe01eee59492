"""The survey widget's calls come from visitors' page views, like the widgets' submissions: their
access lines are DEBUG (an INFO line per page view of every customer's site drowned the log in the
survey bench: some 15,000 lines a run) and survey submissions are counted as public submissions."""

from __future__ import annotations

import pytest

from app.operations.metrics import SUBMISSION_ENDPOINTS
from app.serving import _series


@pytest.mark.parametrize(
    ("method", "route"),
    [
        ("GET", "/api/v1/surveys/active"),
        ("GET", "/api/v1/surveys/{survey_id}/definition"),
        ("POST", "/api/v1/surveys/{survey_id}/responses/submit"),
        ("POST", "/api/v1/rating/submit"),
    ],
)
def test_the_widgets_public_calls_log_no_info_line(method: str, route: str) -> None:
    _, loud = _series(method, route, 200)
    assert loud is False


def test_a_team_call_logs_its_info_line() -> None:
    _, loud = _series("GET", "/api/v1/projects/{project_id}/surveys", 200)
    assert loud is True


def test_survey_responses_are_counted_as_public_submissions() -> None:
    assert SUBMISSION_ENDPOINTS["/api/v1/surveys/{survey_id}/responses/submit"] == "survey_response"
