"""Insights: feedback messages as vectors (embedded after their commit by an outbox job), and what
they make possible: similar items, search by meaning and themes. The model runs in this process on the
CPU unless the operator names an embeddings service; docs/insights.md says how it was chosen."""
