"""Fixtures shared by several test modules."""

import pytest

from urllib_parse_backport import read_environment


@pytest.fixture(scope="module")
def upstream_default_separator():
    """Parse with the upstream default ('&'), whatever PYTHON_URLLIB_QS_SEPARATOR says."""
    read_environment({})
    yield
    read_environment()
