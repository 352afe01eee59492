"""A change to a row deleted meanwhile (SQLAlchemy's StaleDataError) is "not found" on every way in: the
API and the console by their exception handlers, an assistant's tool call by its error body. The race
itself is run against a server in tests/integration/test_deleted_meanwhile.py."""

from __future__ import annotations

from sqlalchemy.orm.exc import StaleDataError

from admin_ui.console_errors import CONSOLE_EXCEPTION_HANDLERS
from app.errors import DELETED_MEANWHILE, EXCEPTION_HANDLERS
from app.mcp.tool_errors import tool_error_body


def test_every_way_in_answers_not_found() -> None:
    assert StaleDataError in EXCEPTION_HANDLERS and StaleDataError in CONSOLE_EXCEPTION_HANDLERS
    response = EXCEPTION_HANDLERS[StaleDataError](None, StaleDataError("0 were matched"))  # type: ignore[arg-type,index]
    assert response.status_code == 404
    assert response.content == {"error": "not_found", "details": DELETED_MEANWHILE.details}
    assert tool_error_body(StaleDataError("0 were matched")) == ("not_found", DELETED_MEANWHILE.details)
