"""The demo page: every widget working against this server, for a first look after `make run`."""
