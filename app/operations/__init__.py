"""Running the service: health and readiness probes, Prometheus metrics, JSON logs and request ids."""
