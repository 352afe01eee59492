"""Storage: models, engine configuration and migrations."""
