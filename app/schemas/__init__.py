"""Response and request bodies of the REST API (msgspec Structs), one resource per file."""
