"""One console area per file."""
