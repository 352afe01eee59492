"""The project's Alerts tab: its alerts, newest first, each with its evidence (before and after, a small
chart with a text alternative, up to three example messages linked to their items), "Acknowledge" and
"Resolve", "Check now", and the project's rules (admins change them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.charts import Chart, bar_chart
from admin_ui.forms import Form, field_error
from admin_ui.listing import choice
from admin_ui.rendering import go_to, render
from app.alerts.service import STATUSES, Alerts
from app.db.models import Alert, Project
from app.dependencies import provide
from app.errors import InvalidRequest
from app.schemas.alerts import AlertRules
from tenants.permissions import needs
from tenants.scope import Access


def evidence_chart(alert: Alert) -> Chart:
    unit = alert.evidence.get("unit", "count")
    points = [
        (str(label), float(value), int(count)) for label, value, count in alert.evidence.get("series", [])
    ]
    if unit == "share":
        return bar_chart(
            "Helpful share",
            [(label, value * 100, n) for label, value, n in points],
            low=0,
            high=100,
            unit=" %",
        )
    high = max([value for _, value, _ in points] + [1.0])
    return bar_chart("Mean answer" if unit == "mean" else "Items", points, low=0, high=high)


def before_after(alert: Alert) -> tuple[str, str]:
    unit = alert.evidence.get("unit")
    if unit == "share" or alert.kind == "negative_spike":
        return f"{round(alert.before * 100)} %", f"{round(alert.after * 100)} %"
    if unit == "mean":
        return f"{alert.before:.2f}", f"{alert.after:.2f}"
    return f"{alert.before:g} a day", f"{alert.after:g} in 24 h"


@dataclass
class StatusForm:
    status: str = ""


@dataclass
class RulesForm:
    """The rules form: a checkbox and two numbers per kind (an unchecked box is not sent)."""

    rating_drop_enabled: str = ""
    rating_drop_p_value: str = ""
    rating_drop_min_answers: str = ""
    theme_surge_enabled: str = ""
    theme_surge_p_value: str = ""
    theme_surge_min_items: str = ""
    negative_spike_enabled: str = ""
    negative_spike_p_value: str = ""
    negative_spike_min_items: str = ""


def rules_of_form(form: RulesForm) -> AlertRules:
    """The rules the form says, or InvalidRequest naming the field that is wrong."""
    rules: dict[str, dict[str, object]] = {}
    for kind, minimum in (
        ("rating_drop", "min_answers"),
        ("theme_surge", "min_items"),
        ("negative_spike", "min_items"),
    ):
        rule: dict[str, object] = {"enabled": bool(getattr(form, f"{kind}_enabled", ""))}
        for name, parse in (("p_value", float), (minimum, int)):
            field = f"{kind}_{name}"
            try:
                rule[name] = parse(getattr(form, field, ""))
            except ValueError:
                raise InvalidRequest(field, "must be a number") from None
        rules[kind] = rule
    try:
        return msgspec.convert(rules, AlertRules)
    except msgspec.ValidationError as exc:  # "Expected `float` <= 0.2 - at `$.rating_drop.p_value`"
        field = str(exc).rsplit("$.", 1)[-1].strip("`").replace(".", "_")
        rule = (
            str(exc)
            .split(" - at ")[0]
            .replace("Expected `float`", "must be")
            .replace("Expected `int`", "must be")
        )
        raise InvalidRequest(field, rule) from None


class AlertsController(Controller):
    path = "/projects/{project_id:str}/alerts"
    include_in_schema = False
    dependencies = {"alerts": provide(Alerts)}

    @get("/")
    async def alerts_page(self, request: HTMXRequest, project: Project, alerts: Alerts) -> Any:
        return await _page(
            request, project, alerts, notice="Rules saved." if request.query_params.get("saved") else ""
        )

    @post("/rules")
    async def save_rules(
        self, request: HTMXRequest, project: Project, alerts: Alerts, data: Form[RulesForm]
    ) -> Any:
        try:
            await alerts.set_rules(rules_of_form(data))
        except InvalidRequest as exc:
            return await _page(request, project, alerts, errors=field_error(exc), status_code=400)
        return go_to(request, f"/projects/{project.id}/alerts?saved=1")

    @post("/check", opt=needs(Access.WRITE))
    async def check_now(self, request: HTMXRequest, project: Project, alerts: Alerts) -> Any:
        await alerts.check()
        return go_to(request, f"/projects/{project.id}/alerts")

    @post("/{alert_id:str}/status", opt=needs(Access.WRITE))
    async def change_status(
        self,
        request: HTMXRequest,
        project: Project,
        alerts: Alerts,
        alert_id: str,
        data: Form[StatusForm],
    ) -> Any:
        wanted = choice(data.status, ["acknowledged", "resolved"], "status") or "acknowledged"
        await alerts.change(alert_id, wanted)
        return go_to(request, f"/projects/{project.id}/alerts")


async def _page(
    request: HTMXRequest,
    project: Project,
    alerts: Alerts,
    *,
    notice: str = "",
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Any:
    status = choice(request.query_params.get("status"), list(STATUSES), "status")
    return render(
        request,
        "alerts.html",
        status_code=status_code,
        project=project,
        alerts=[(a, evidence_chart(a), before_after(a)) for a in await alerts.list(status)],
        status=status,
        statuses=STATUSES,
        rules=await alerts.rules(),
        notice=notice,
        errors=errors or {},
    )
