"""theme_surge: a theme's items of the last 24 hours against what its 28 days before predict for a day
(a Poisson test); a theme without items before counts as a rate of one item in those 28 days, so a new
theme that reaches the rule's minimum within a day surges too. Themes are read through the insights
service, as the API and the console read them."""

from __future__ import annotations

from datetime import datetime, timedelta

from app.alerts.finding import SETTLED_P, Finding
from app.alerts.significance import poisson_at_least
from app.schemas.alerts import ItemsRule
from app.services.insights import Insights

DAY = timedelta(days=1)
BASELINE_DAYS = 28


async def theme_surges(insights: Insights, now: datetime, rule: ItemsRule) -> list[Finding]:
    recent = await insights.themes(now - DAY, now)
    if not recent.themes:
        return []
    earlier = await insights.themes(now - DAY * (BASELINE_DAYS + 1), now - DAY)
    baseline = {summary.theme.id: summary.count for summary in earlier.themes}
    findings = []
    for summary in recent.themes:
        before = baseline.get(summary.theme.id, 0)
        per_day = max(before, 1) / BASELINE_DAYS
        p = poisson_at_least(summary.count, per_day)
        if p >= SETTLED_P:
            continue
        label = summary.theme.label
        findings.append(
            Finding(
                kind="theme_surge",
                subject={"theme_id": str(summary.theme.id), "label": label},
                title=f"“{label}”: {summary.count} items in 24 hours, against {per_day:.1f} a day before",
                before=round(before / BASELINE_DAYS, 3),
                after=float(summary.count),
                p_value=p,
                firing=p < rule.p_value and summary.count >= rule.min_items,
                series=[
                    (f"{BASELINE_DAYS}-day mean", before / BASELINE_DAYS, before),
                    ("Last 24 h", float(summary.count), summary.count),
                ],
                unit="count",
                example_ids=[str(i) for i in summary.sample_ids],
            )
        )
    return findings
