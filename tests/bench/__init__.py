"""`make bench`: measured figures for ingest, statistics, lists and memory (issue 6)."""
