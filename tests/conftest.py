"""Shared fixtures: keep this small; feature-specific helpers live in their own test modules."""

from __future__ import annotations

import pytest

from tests import titles_for_tests
from tests.backends import make_store, postgres_url, store_url

__all__ = ["make_store", "postgres_url", "store_url"]  # fixtures for every test module


@pytest.fixture(autouse=True, scope="session")
def _tally_title() -> None:
    titles_for_tests.register()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "railchat.db"
