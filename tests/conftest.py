"""Fixtures shared by several test modules."""

import pytest

from urllib_parse_backport import _policy


@pytest.fixture(scope="module")
def upstream_default_separator():
    """Parse with the upstream default ('&'), whatever PYTHON_URLLIB_QS_SEPARATOR says."""
    saved = _policy.apply_default
    _policy.apply_default = None
    yield
    _policy.apply_default = saved
