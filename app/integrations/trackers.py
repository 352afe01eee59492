"""Every issue tracker Hearken files in, by the name paths and bodies use. A tracker is added here, with
its module (API client, signature check, state mapping), its name in `TrackerKind` and its body in
`app/schemas/integrations.py`; routes, the receiver, the console and the stored rows follow."""

from __future__ import annotations

from app.errors import NotFound
from app.integrations.github_tracker import GITHUB
from app.integrations.jira_tracker import JIRA
from app.integrations.linear_tracker import LINEAR
from app.integrations.tracker import Tracker

TRACKERS: dict[str, Tracker] = {tracker.kind.value: tracker for tracker in (GITHUB, LINEAR, JIRA)}


def tracker_named(name: str) -> Tracker:
    """The tracker, or 404 for a name that is none (a console URL typed by hand)."""
    tracker = TRACKERS.get(name)
    if tracker is None:
        raise NotFound("no such issue tracker")
    return tracker
