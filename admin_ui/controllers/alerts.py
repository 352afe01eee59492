"""The project's Alerts tab: its alerts, newest first, each with its evidence (before and after, a small
chart with a text alternative, up to three example messages linked to their items), "Acknowledge" and
"Resolve", and "Check now"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest

from admin_ui.charts import Chart, bar_chart
from admin_ui.forms import Form
from admin_ui.listing import choice
from admin_ui.rendering import go_to, render
from app.alerts.service import STATUSES, Alerts
from app.db.models import Alert, Project
from app.dependencies import provide_alerts
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


class AlertsController(Controller):
    path = "/projects/{project_id:str}/alerts"
    include_in_schema = False
    dependencies = {"alerts": Provide(provide_alerts)}

    @get("/")
    async def alerts_page(self, request: HTMXRequest, project: Project, alerts: Alerts) -> Any:
        status = choice(request.query_params.get("status"), list(STATUSES), "status")
        shown = await alerts.list(status)
        return render(
            request,
            "alerts.html",
            project=project,
            alerts=[(a, evidence_chart(a), before_after(a)) for a in shown],
            status=status,
            statuses=STATUSES,
            rules=await alerts.rules(),
        )

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
