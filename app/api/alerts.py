"""Alerts of a project: the list, a check run now, acknowledging or resolving one, and the rules."""

from __future__ import annotations

from typing import Annotated, Literal

from litestar import Controller, get, patch, post, put
from litestar.params import Parameter

from app.alerts.service import Alerts
from app.dependencies import provide
from app.errors import error_responses
from app.schemas.alerts import AlertList, AlertOut, AlertPatchBody, AlertRules

StatusFilter = Annotated[
    Literal["open", "acknowledged", "resolved"] | None,
    Parameter(description="Only alerts in this status."),
]


class AlertController(Controller):
    path = "/projects/{project_id:str}"
    tags = ["Alerts"]
    dependencies = {"alerts": provide(Alerts)}

    @get(
        "/alerts", summary="The project's alerts, newest first", responses=error_responses(400, 401, 403, 404)
    )
    async def list_alerts(self, alerts: Alerts, status: StatusFilter = None) -> AlertList:
        """One alert per episode (a page's or version's ratings fell, a theme surged, negative answers
        spiked): updated while it lasts, resolved a day after its subject is back within its baseline."""
        return AlertList([AlertOut.of(alert) for alert in await alerts.list(status)])

    @post(
        "/alerts/check",
        status_code=200,
        summary="Run the project's alert checks now",
        responses=error_responses(400, 401, 403, 404),
    )
    async def check_alerts(self, alerts: Alerts) -> AlertList:
        """The checks the periodic loop runs every hour, now; answers the project's unresolved alerts."""
        return AlertList([AlertOut.of(alert) for alert in await alerts.check()])

    @patch(
        "/alerts/{alert_id:str}",
        summary="Acknowledge or resolve an alert",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_alert(self, alerts: Alerts, alert_id: str, data: AlertPatchBody) -> AlertOut:
        """`acknowledged`: seen, someone is on it (it keeps updating and resolves itself, without mail);
        `resolved`: closed by hand (the next episode opens a new alert)."""
        return AlertOut.of(await alerts.change(alert_id, data.status))

    @get("/alert-rules", summary="The project's alert rules", responses=error_responses(400, 401, 403, 404))
    async def get_alert_rules(self, alerts: Alerts) -> AlertRules:
        """Each kind on or off with its thresholds (the defaults until they are set)."""
        return await alerts.rules()

    @put(
        "/alert-rules",
        summary="Set the project's alert rules",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def set_alert_rules(self, alerts: Alerts, data: AlertRules) -> AlertRules:
        """Each kind on or off with its thresholds (p-value at most 0.2; minimum answers or items); a kind
        left out keeps its defaults."""
        return await alerts.set_rules(data)
