"""The public ideas portal: server-rendered pages at /p/{project_key} and the same as JSON under
/api/v1/portal/{project_key} (docs/ideas.md)."""
