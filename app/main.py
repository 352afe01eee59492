"""create_app(): plugins, routers, exception handlers; nothing else."""

from __future__ import annotations

from advanced_alchemy.extensions.litestar import SQLAlchemyPlugin
from litestar import Litestar
from litestar.plugins.htmx import HTMXConfig, HTMXPlugin

from admin_ui.rendering import TEMPLATE_CONFIG
from admin_ui.router import console_routes
from admin_ui.session_purge import session_purge
from admin_ui.sessions import console_stores
from app.api import api_router
from app.api_document import openapi_config
from app.background import background_work
from app.cli import HearkenCLIPlugin
from app.compression import COMPRESSION
from app.config import Settings, get_settings
from app.db.config import build_db_config
from app.demo.page import DEMO_ROUTES
from app.errors import EXCEPTION_HANDLERS
from app.imports.mintlify_schedule import periodic_imports
from app.ingest import serving_gc
from app.notifications.digest import daily_digests
from app.operations.json_logs import configure_logging
from app.operations.probes import operations_router
from app.operations.serving import serving
from app.public import public_router
from app.public.stripe_receiver import stripe_receiver_router
from app.request_checks import allow_every_method, check_request_body
from app.retention_schedule import periodic_retention
from app.state import build_state, close_state
from app.static_assets import widgets_router

MAX_BODY_BYTES = 64 * 1024


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or get_settings()
    db_config = build_db_config(settings)
    configure_logging()
    app = Litestar(
        route_handlers=[
            operations_router,
            api_router,
            public_router,
            stripe_receiver_router,
            *console_routes(settings),
            widgets_router(),
            *([] if settings.is_production else DEMO_ROUTES),
        ],
        plugins=[
            SQLAlchemyPlugin(config=db_config),
            HearkenCLIPlugin(),
            HTMXPlugin(HTMXConfig(set_request_class_globally=False)),
        ],
        template_config=TEMPLATE_CONFIG,
        stores=console_stores(settings),
        exception_handlers=EXCEPTION_HANDLERS,
        compression_config=COMPRESSION,
        before_request=check_request_body,
        before_send=[allow_every_method],
        request_max_body_size=MAX_BODY_BYTES,
        state=build_state(settings, db_config),
        on_shutdown=[close_state],
        lifespan=[
            serving_gc,
            session_purge,
            background_work,
            *((periodic_imports, periodic_retention, daily_digests) if settings.periodic_jobs else ()),
        ],
        openapi_config=openapi_config() if settings.serves_openapi else None,
        logging_config=None,  # JSON lines from the root logger (configure_logging)
        debug=False,
    )
    app.asgi_handler = serving(app.asgi_handler)
    return app
