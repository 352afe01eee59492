"""The HTMX admin console: server-rendered pages over the same services and organization scope as the API."""
