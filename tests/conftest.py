"""Shared fixtures: keep this small; feature-specific helpers live in their own test modules."""

from __future__ import annotations

import pytest

from tests import titles_for_tests


@pytest.fixture(autouse=True, scope="session")
def _tally_title() -> None:
    titles_for_tests.register()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "railchat.db"
