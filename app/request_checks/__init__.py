"""What every request is held to before (and as) Litestar answers it: JSON bodies sent as JSON and read
strictly, no NUL characters, no deep nesting, unambiguous query parameters, and an `Allow` header that
lists every method of a path. The handlers keep declaring their types; these checks make the server
exactly as strict as the OpenAPI document says. What the before-request hook cannot see is held to the same
checks here too: the ASGI apps mounted beside the routes (`mounted_apps.py`) and JSON written inside a form
field (`json_fields.py`)."""

from app.request_checks.allowed_methods import allow_every_method
from app.request_checks.bodies import TEXT_PLAIN_JSON, check_request_body
from app.request_checks.strict_body import strict_body

__all__ = ["TEXT_PLAIN_JSON", "allow_every_method", "check_request_body", "strict_body"]
