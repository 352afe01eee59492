"""Every organization service has the one shape `provide` and `build` construct:
`(session, scope[, project][, settings])`, so a service added later is built by the same factory, with
its scope, without a provider of its own."""

from __future__ import annotations

import inspect

import app.cli
import app.main  # noqa: F401  (with app.cli, imports every organization service)
from app.services.projects import ProjectScoped
from tenants.scope import OrgScoped

ABSTRACT_BASES = {"IntegrationRows"}
"""The base of the Stripe and Mintlify integrations: never built itself, its subclasses are."""


def _services(base: type[OrgScoped]) -> set[type[OrgScoped]]:
    found = set(base.__subclasses__())
    for service in list(found):
        found |= _services(service)
    return found


def test_every_service_is_built_from_session_scope_project_and_settings() -> None:
    services = _services(OrgScoped)
    assert len(services) > 20
    wrong = {}
    for service in services:
        if service.__name__ in ABSTRACT_BASES:
            continue
        wanted = ["session", "scope"] + (["project"] if issubclass(service, ProjectScoped) else [])
        given = list(inspect.signature(service).parameters)
        if given not in (wanted, [*wanted, "settings"]):
            wrong[service.__name__] = given
    assert wrong == {}
