"""The SCIM filters Hearken answers: one `eq` comparison of an attribute with a string, which is what
identity providers send to find a user or a group before creating it (`userName eq "a@example.com"`,
`externalId eq "..."`, `displayName eq "admin"`). Anything else (other operators, `and`/`or`, `not`,
value paths, other attributes) is refused with 400 `invalidFilter` rather than half understood."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from app.scim.errors import ScimError

FILTER_MAX_LENGTH = 512
_EQ = re.compile(r'^\s*([A-Za-z][\w.:-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*$', re.IGNORECASE)


@dataclass(frozen=True)
class Comparison:
    attribute: str
    """The supported attribute it names, as the caller's vocabulary spells it."""
    value: str


def parse_filter(text: str | None, attributes: dict[str, str]) -> Comparison | None:
    """`attributes` maps each supported SCIM attribute to the name the service knows it by; SCIM names
    are compared without regard to case."""
    if text is None or not text.strip():
        return None
    if len(text) > FILTER_MAX_LENGTH:
        raise ScimError("invalidFilter", f"filter: at most {FILTER_MAX_LENGTH} characters")
    match = _EQ.match(text)
    if match is None:
        raise ScimError(
            "invalidFilter", 'filter: only one comparison of the form attribute eq "value" is supported'
        )
    name = match.group(1).lower().removeprefix("urn:ietf:params:scim:schemas:core:2.0:user:")
    known = {key.lower(): value for key, value in attributes.items()}
    if name not in known:
        supported = ", ".join(attributes)
        raise ScimError(
            "invalidFilter", f"filter: {match.group(1)!r:.60} cannot be filtered on; supported: {supported}"
        )
    try:
        value = json.loads(match.group(2))
    except ValueError:
        raise ScimError("invalidFilter", "filter: the value is not a valid quoted string") from None
    return Comparison(known[name], value)
