"""create_app(): plugins, routers, exception handlers; served_app(), the one a `hearken` command serves."""

from __future__ import annotations

import functools

from advanced_alchemy.extensions.litestar import SQLAlchemyInitPlugin, SQLAlchemySerializationPlugin
from litestar import Litestar
from litestar.plugins.htmx import HTMXConfig, HTMXPlugin

from admin_ui.rendering import TEMPLATE_CONFIG
from admin_ui.router import console_routes
from admin_ui.session_commands import sessions_group
from admin_ui.sessions import console_stores
from app.api import api_router
from app.api_document import openapi_config
from app.background import background_work
from app.cli import HearkenCLIPlugin
from app.compression import COMPRESSION
from app.config import Settings, get_settings
from app.db.config import RoutedSessions, build_db_config
from app.demo.page import DEMO_ROUTES
from app.errors import EXCEPTION_HANDLERS
from app.ingest import serving_gc
from app.mcp import mcp_routes, mcp_server
from app.operations.json_logs import configure_logging
from app.periodic import periodic_jobs
from app.probes import operations_router
from app.public import public_router
from app.public.conversations import conversation_budget
from app.public.polar_receiver import polar_receiver_router
from app.public.stripe_receiver import stripe_receiver_router
from app.public.tracker_receiver import tracker_receiver_router
from app.request_checks import allow_every_method, check_request_body
from app.scim import scim_budget, scim_router
from app.serving import serving
from app.state import build_state, serving_state
from app.static_assets import widgets_router

MAX_BODY_BYTES = 64 * 1024


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or get_settings()
    db_config = build_db_config(settings)
    configure_logging(settings.log_level)
    state = build_state(settings, db_config)
    app = Litestar(
        route_handlers=[
            operations_router,
            api_router,
            public_router,
            stripe_receiver_router,
            polar_receiver_router,
            tracker_receiver_router,
            scim_router,
            *console_routes(settings),
            *mcp_routes(settings, state.session_maker),
            widgets_router(),
            *([] if settings.is_production else DEMO_ROUTES),
        ],
        plugins=[
            # What advanced-alchemy's SQLAlchemyPlugin adds, with the request's session provider replaced.
            SQLAlchemyInitPlugin(config=db_config),
            SQLAlchemySerializationPlugin(),
            RoutedSessions(db_config),
            HearkenCLIPlugin(sessions_group),
            HTMXPlugin(HTMXConfig(set_request_class_globally=False)),
        ],
        template_config=TEMPLATE_CONFIG,
        stores=console_stores(settings),
        exception_handlers=EXCEPTION_HANDLERS,
        compression_config=COMPRESSION,
        before_request=check_request_body,
        before_send=[allow_every_method],
        request_max_body_size=MAX_BODY_BYTES,
        state=state,
        lifespan=[
            serving_state,  # first: the others use what it makes
            background_work,
            mcp_server,
            scim_budget,
            conversation_budget,
            *periodic_jobs(settings),
            serving_gc,  # last: what the others build at startup is frozen too, not young garbage
        ],
        openapi_config=openapi_config() if settings.serves_openapi else None,
        logging_config=None,  # JSON lines from the root logger (configure_logging)
        debug=False,
    )
    app.asgi_handler = serving(app.asgi_handler)
    return app


def served_app() -> Litestar:
    """The application of a `hearken` command, built once: the command line builds it to find its commands
    and run the plugins' server hooks, and `hearken run`'s uvicorn asks for it again, by this name, after
    configuring logging its own way (Hearken's JSON lines are set again here). A second build was a third
    of a CPU second of every server's start. With `--wc N` each worker process builds its own."""
    app = _built_once()
    configure_logging(app.state.settings.log_level)
    return app


@functools.cache
def _built_once() -> Litestar:
    return create_app()
