"""Alerts: the periodic check that opens one alert per episode of something that got worse in a project
(a page's or version's ratings fell, a theme surged, negative answers spiked), updates it while the
evidence lasts and resolves it a day after the subject is back within its baseline. Reads only the
counters the project already keeps (docs/alerts.md)."""
