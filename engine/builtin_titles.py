"""Imports every shipped title so that it registers itself."""
