"""Hearken: visitor feedback and ratings collection."""
