"""A client generated from the served document by openapi-python-client (into a temporary folder, never
committed) works against a running server: it lists projects, creates and patches feedback, submits and
reads ratings and statistics, and every answer, errors included, parses into the model the document
names for it, with no field the document does not list.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import UUID

import pytest

from tests.browser.harness import LiveServer
from tests.local_http import local_http

ORIGIN = "https://site.example"


@pytest.fixture(scope="module")
def served(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("generated-client")
    server = LiveServer(f"sqlite+aiosqlite:///{folder / 'hearken.db'}", folder)
    (folder / "hearken.db").write_bytes(sqlite_template.read_bytes())
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def hearken_client(served: LiveServer) -> Iterator[ModuleType]:
    folder = served.folder
    (folder / "openapi.json").write_bytes(local_http.get(f"{served.base_url}/schema/openapi.json").content)
    (folder / "generator.yml").write_text("post_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [
            *(str(generator), "generate", "--path", str(folder / "openapi.json")),
            *("--config", str(folder / "generator.yml"), "--meta", "none"),
            *("--output-path", str(folder / "hearken_client")),
        ],
        check=True,
        capture_output=True,
        cwd=folder,
    )
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("hearken_client")
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.startswith("hearken_client")]:
            del sys.modules[name]


def parsed(response: Any, status: int, model: str) -> Any:
    """The answer's body as the document's model for it, holding only fields the document lists."""
    assert response.status_code == status, response.content
    body = response.parsed
    assert type(body).__name__ == model, (type(body).__name__, response.content)
    assert body.additional_properties == {}, body.additional_properties
    return body


def test_a_generated_client_reads_and_writes_through_the_api(
    served: LiveServer, hearken_client: ModuleType
) -> None:
    api = importlib.import_module("hearken_client.api")
    models = importlib.import_module("hearken_client.models")
    projects, feedback, ratings, stats, public = (
        importlib.import_module(f"hearken_client.api.{tag}.{operation}")
        for tag, operation in (
            ("projects", "list_projects"),
            ("feedback", "create_feedback"),
            ("ratings", "create_typed"),
            ("rating_statistics", "get_typed_stats"),
            ("public_collection", "submit_typed_rating"),
        )
    )
    assert api is not None
    tenant = served.tenant(origins=(ORIGIN,))
    client = hearken_client.AuthenticatedClient(
        base_url=served.base_url, token=tenant.token, prefix="", auth_header_name="X-API-Key"
    )
    project_id = UUID(tenant.project_id)

    listed = parsed(projects.sync_detailed(client=client), 200, "ProjectList")
    assert [p.id for p in listed.projects] == [tenant.project_id]

    created = parsed(
        feedback.sync_detailed(
            project_id,
            client=client,
            body=models.FeedbackCreateBody(
                message="The export button does nothing.",
                type_=models.FeedbackCreateBodyType.BUG,
                path="/app/reports",
            ),
        ),
        201,
        "FeedbackOut",
    )
    patch_feedback = importlib.import_module("hearken_client.api.feedback.patch_feedback")
    changed = parsed(
        patch_feedback.sync_detailed(
            project_id,
            UUID(created.id),
            client=client,
            body=models.FeedbackPatchBody(status=models.FeedbackPatchBodyStatusType0.RESOLVED),
        ),
        200,
        "FeedbackOut",
    )
    assert changed.status.value == "Resolved"
    list_feedback = importlib.import_module("hearken_client.api.feedback.list_feedback")
    page = parsed(list_feedback.sync_detailed(project_id, client=client), 200, "FeedbackList")
    assert [item.id for item in page.feedback] == [created.id]
    history = importlib.import_module("hearken_client.api.feedback.get_feedback_history")
    parsed(history.sync_detailed(project_id, UUID(created.id), client=client), 200, "FeedbackHistory")
    get_feedback = importlib.import_module("hearken_client.api.feedback.get_feedback")
    missing = parsed(get_feedback.sync_detailed(project_id, UUID(int=1), client=client), 404, "ErrorBody")
    assert missing.error == "not_found"

    star = parsed(
        ratings.sync_detailed(
            project_id,
            client=client,
            body=models.TypedRatingBody(
                rating=models.StarRating(type_=models.StarRatingType.STAR, value=4, max_stars=5)
            ),
        ),
        201,
        "TypedRatingOut",
    )
    create_helpful = importlib.import_module("hearken_client.api.ratings.create_helpful")
    parsed(
        create_helpful.sync_detailed(
            project_id, client=client, body=models.HelpfulRatingBody(value=False, path="/docs")
        ),
        200,
        "RatingOut",
    )
    visitor = hearken_client.Client(base_url=served.base_url, headers={"Origin": ORIGIN})
    parsed(
        public.sync_detailed(
            client=visitor,
            body=models.PublicTypedRatingBody(
                project_key=UUID(tenant.project_key),
                rating=models.NpsRating(type_=models.NpsRatingType.NPS, value=9),
            ),
        ),
        201,
        "TypedRatingReceipt",
    )
    get_rating = importlib.import_module("hearken_client.api.ratings.get_rating")
    parsed(get_rating.sync_detailed(project_id, UUID(star.id), client=client), 200, "TypedRatingOut")
    list_typed = importlib.import_module("hearken_client.api.ratings.list_typed")
    parsed(list_typed.sync_detailed(project_id, client=client), 200, "TypedRatingList")

    helpful_stats = importlib.import_module("hearken_client.api.rating_statistics.get_helpful_stats")
    counted = parsed(helpful_stats.sync_detailed(project_id, client=client), 200, "HelpfulStats")
    assert (counted.total, counted.not_helpful) == (1, 1)
    for kind, model in (("star", "StarStats"), ("nps", "NpsStats"), ("helpful", "HelpfulStats")):
        parsed(stats.sync_detailed(project_id, client=client, type_=models.RatingType(kind)), 200, model)
    series = importlib.import_module("hearken_client.api.rating_statistics.get_series")
    parsed(series.sync_detailed(project_id, client=client, type_=models.RatingType.STAR), 200, "StarSeries")
    versions = importlib.import_module("hearken_client.api.rating_statistics.get_versions")
    parsed(versions.sync_detailed(project_id, client=client), 200, "HelpfulVersions")
