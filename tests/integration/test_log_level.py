"""HEARKEN_LOG_LEVEL: `debug` writes the access lines of public submissions (DEBUG otherwise unseen), a
level that is no level stops the start with a line naming the variable."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests import databases
from tests.cluster import HEARKEN, ROOT
from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up

RATING = "/api/v1/rating/submit"


def _env(sqlite_template: Path, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARKEN_")}
    env.update(
        HEARKEN_DATABASE_URL=databases.sqlite_copy(sqlite_template, tmp_path),
        HEARKEN_SECRET_KEY="test-secret-key-for-the-suite",
        HEARKEN_EMBEDDINGS="off",
        **extra,
    )
    return env


def _log_of_a_submission(env: dict[str, str], tmp_path: Path) -> list[dict[str, object]]:
    """Serve one public submission and read back every log line of the server."""
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [HEARKEN, "run", "--port", str(port)], cwd=ROOT, env=env, stdout=output, stderr=output
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(
                server,
                lambda: local_http.get(f"{base}/healthz", timeout=1).status_code == 200,
                on_exit=log.read_text,
            )
            answer = local_http.post(
                f"{base}{RATING}", json={"project_key": "pk_unknown", "value": True, "path": "/docs"}
            )
            assert answer.status_code < 500  # refused or not, the submission gets its access line
        finally:
            stop(server)
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def _submission_access(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [line for line in lines if line.get("logger") == "hearken.access" and line.get("route") == RATING]


def test_debug_writes_the_access_lines_of_public_submissions(sqlite_template: Path, tmp_path: Path) -> None:
    lines = _log_of_a_submission(_env(sqlite_template, tmp_path, HEARKEN_LOG_LEVEL="DEBUG"), tmp_path)
    assert [(line["level"], line["method"]) for line in _submission_access(lines)] == [("debug", "POST")]
    assert not [line for line in lines if line["logger"] == "aiosqlite"]  # a line per query would drown them


def test_by_default_public_submissions_write_no_access_line(sqlite_template: Path, tmp_path: Path) -> None:
    assert _submission_access(_log_of_a_submission(_env(sqlite_template, tmp_path), tmp_path)) == []


def test_a_level_that_is_no_level_stops_the_start_naming_the_variable(
    sqlite_template: Path, tmp_path: Path
) -> None:
    env = _env(sqlite_template, tmp_path, HEARKEN_LOG_LEVEL="loud")
    done = subprocess.run(
        [HEARKEN, "run", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        == "hearken: HEARKEN_LOG_LEVEL must be one of debug, info, warning, error, got 'loud'"
    )
