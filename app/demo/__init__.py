"""The demo page: all four widgets working against this server, for a first look after `make run`."""
