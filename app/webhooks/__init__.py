"""Outbound webhooks: endpoints, the events they receive, signed delivery through the outbox (their API is
`app/api/webhooks.py`)."""
