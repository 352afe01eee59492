"""Organizations, users, memberships, access tokens and the organization scope of every request."""
