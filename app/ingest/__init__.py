"""Ratings and public submissions coming in: the hot path, in one place.

Code outside this package imports only from here. The public endpoints use Ingest (entry.py); the API
stores ratings with add_ratings; every writer builds its rows from rating_rows.py. The survey intake
(app/surveys/intake.py) batches responses the same way: GatedBatches (Ingest.gated_batches), GroupCommit,
the writers' own connections (SqliteWriter, AutocommitWriter) and, on SQLite, DriverStatement.
"""

from app.ingest.client_addresses import client_address, client_network
from app.ingest.coalescer import Coalescer
from app.ingest.driver_statements import DriverStatement
from app.ingest.entry import Ingest, build_ingest
from app.ingest.gate import Visit
from app.ingest.gated_batches import GatedBatches
from app.ingest.gc_settings import serving_gc
from app.ingest.group_commit import GroupCommit
from app.ingest.origins import normalize_origin, normalize_origins, origin_allowed, request_origin
from app.ingest.postgres_writer import AutocommitWriter
from app.ingest.project_directory import ProjectEntry
from app.ingest.rating_counters import counted_reason
from app.ingest.rating_input import DEFAULT_MAX_STARS, RatingInput, helpful_input, typed_input
from app.ingest.rating_rows import NewRating
from app.ingest.rating_writer import add_ratings, archive_rating, delete_ratings
from app.ingest.scope_headers import first_header
from app.ingest.spam import MIN_HUMAN_MS, spam_reason
from app.ingest.sqlite_batches import counter_upsert
from app.ingest.sqlite_writer import SqliteWriter
from app.ingest.verified_users import Submitter, submitter, user_verdict, verified_user

__all__ = [
    "DEFAULT_MAX_STARS",
    "MIN_HUMAN_MS",
    "AutocommitWriter",
    "Coalescer",
    "DriverStatement",
    "GatedBatches",
    "GroupCommit",
    "Ingest",
    "NewRating",
    "ProjectEntry",
    "RatingInput",
    "SqliteWriter",
    "Submitter",
    "Visit",
    "add_ratings",
    "archive_rating",
    "build_ingest",
    "client_address",
    "client_network",
    "counted_reason",
    "counter_upsert",
    "delete_ratings",
    "first_header",
    "helpful_input",
    "normalize_origin",
    "normalize_origins",
    "origin_allowed",
    "request_origin",
    "serving_gc",
    "spam_reason",
    "submitter",
    "typed_input",
    "user_verdict",
    "verified_user",
]
