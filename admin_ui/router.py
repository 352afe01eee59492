"""The console's routes and everything scoped to them: server-side sessions, CSRF on every form and htmx
request, sign-in, the role guard, HTML error pages and security headers. The API is untouched by these."""

from __future__ import annotations

from pathlib import Path

from litestar import Router
from litestar.di import Provide
from litestar.middleware import DefineMiddleware
from litestar.plugins.htmx import HTMXRequest
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from admin_ui.console_errors import CONSOLE_EXCEPTION_HANDLERS
from admin_ui.console_user import ConsoleAuthentication
from admin_ui.controllers.account import AccountController
from admin_ui.controllers.alerts import AlertsController
from admin_ui.controllers.audit_log import audit_log_page
from admin_ui.controllers.auth import AuthController
from admin_ui.controllers.churn import ChurnController
from admin_ui.controllers.connect import ConnectController
from admin_ui.controllers.contact import ContactController
from admin_ui.controllers.conversations import ConversationConsoleController
from admin_ui.controllers.exports import ExportsController
from admin_ui.controllers.feedback import FeedbackController
from admin_ui.controllers.guides import GuideController
from admin_ui.controllers.hosted_survey import hosted_survey_router
from admin_ui.controllers.install import InstallController
from admin_ui.controllers.integrations import IntegrationsController
from admin_ui.controllers.members import MembersController
from admin_ui.controllers.notifications import NotificationsController, mail_links_router
from admin_ui.controllers.origins import OriginsController
from admin_ui.controllers.password_reset import PasswordResetController
from admin_ui.controllers.privacy import PrivacyController
from admin_ui.controllers.projects import ProjectsController
from admin_ui.controllers.ratings import RatingsController
from admin_ui.controllers.saml_service import SamlServiceController
from admin_ui.controllers.scim_tokens import ScimTokenController
from admin_ui.controllers.second_step import SecondStepController
from admin_ui.controllers.sign_in_policy import SignInPolicyController
from admin_ui.controllers.spam import SpamController
from admin_ui.controllers.sso_login import SsoLoginController
from admin_ui.controllers.sso_settings import SsoSettingsController
from admin_ui.controllers.surveys import SurveysController
from admin_ui.controllers.themes import ThemesController
from admin_ui.controllers.tokens import TokensController
from admin_ui.controllers.two_factor import TwoFactorController
from admin_ui.controllers.webhooks import WebhooksController
from admin_ui.csrf import SessionCSRFConfig, SessionCSRFMiddleware
from admin_ui.dependencies import provide_console_project, provide_console_user
from admin_ui.security_headers import add_security_headers
from admin_ui.sessions import SESSION_COOKIE, cookie_name, derived_secret, secure_cookies, session_config
from admin_ui.two_factor_gate import SecondFactorRequired, second_factor_gate, to_setup
from app.config import Settings
from app.dependencies import provide
from app.services.projects import Projects
from tenants.permissions import access_guard, changes_need
from tenants.scope import Access, provide_org_scope

STATIC = Path(__file__).resolve().parent.parent / "static"
CSRF_COOKIE = "hearken_csrf"
CSRF_HEADER = "x-csrftoken"


def csrf_config(settings: Settings) -> SessionCSRFConfig:
    return SessionCSRFConfig(
        secret=derived_secret(settings, "csrf"),
        cookie_name=cookie_name(settings, CSRF_COOKIE),
        header_name=CSRF_HEADER,
        session_cookie=cookie_name(settings, SESSION_COOKIE),
        secure=secure_cookies(settings),
    )


def console_router(settings: Settings) -> Router:
    return Router(
        path="/",
        route_handlers=[
            AuthController,
            SecondStepController,
            ConnectController,
            PasswordResetController,
            SsoLoginController,
            SsoSettingsController,
            ScimTokenController,
            AccountController,
            TwoFactorController,
            ProjectsController,
            OriginsController,
            InstallController,
            GuideController,
            IntegrationsController,
            FeedbackController,
            ThemesController,
            AlertsController,
            RatingsController,
            SurveysController,
            ChurnController,
            SpamController,
            ContactController,
            ConversationConsoleController,
            ExportsController,
            MembersController,
            SignInPolicyController,
            NotificationsController,
            TokensController,
            WebhooksController,
            audit_log_page,
            PrivacyController,
        ],
        middleware=[
            session_config(settings).middleware,
            DefineMiddleware(SessionCSRFMiddleware, config=csrf_config(settings)),
            DefineMiddleware(ConsoleAuthentication),
        ],
        guards=[access_guard, second_factor_gate],
        opt=changes_need(Access.ADMIN),
        dependencies={
            "me": Provide(provide_console_user),
            "org_scope": Provide(provide_org_scope),
            "projects": provide(Projects),
            "project": Provide(provide_console_project),
        },
        exception_handlers={**CONSOLE_EXCEPTION_HANDLERS, SecondFactorRequired: to_setup},
        after_request=add_security_headers,
        request_class=HTMXRequest,
        include_in_schema=False,
    )


# Console assets only; the widgets' /static/widgets router is registered separately (lead reconciles).
def console_static_routers() -> list[ControllerRouterHandler]:
    return [
        create_static_files_router(
            path="/static/console", directories=[STATIC / "console"], include_in_schema=False
        ),
        create_static_files_router(
            path="/static/vendor", directories=[STATIC / "vendor"], include_in_schema=False
        ),
    ]


def saml_router() -> Router:
    """The SAML service provider's metadata and assertion consumer service: posted to from the identity
    provider's site, so outside the console's session, CSRF and sign-in checks."""
    return Router(
        path="/",
        route_handlers=[SamlServiceController],
        exception_handlers=CONSOLE_EXCEPTION_HANDLERS,
        after_request=add_security_headers,
        request_class=HTMXRequest,
        include_in_schema=False,
    )


def console_routes(settings: Settings) -> list[ControllerRouterHandler]:
    return [
        console_router(settings),
        saml_router(),
        mail_links_router(),
        hosted_survey_router(),
        *console_static_routers(),
    ]
