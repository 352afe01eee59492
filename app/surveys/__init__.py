"""Surveys: their definitions, templates, responses, counters, results and links (docs/surveys.md).

The package holds modules of two layers (pyproject.toml): what storage, erasure and retention need sits
below the feedback services; the services of one project's surveys sit above them."""
