"""On an implementation without CPython's C repr (PyPy) only the tests of the
"not applicable" answer run: every other test here patches that repr."""

import sys
import os

import pytest

import ctypes_safe

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "helpers"))

from implementation import HAS_C_REPR  # noqa: E402

collect_ignore_glob = [] if HAS_C_REPR else ["test_ctypes_[!n]*.py"]


@pytest.fixture
def ctypes_unpatched():
    """ctypes_safe, unpatched before the test and after it, whatever it did."""
    ctypes_safe.unpatch()
    yield ctypes_safe
    ctypes_safe.unpatch()
