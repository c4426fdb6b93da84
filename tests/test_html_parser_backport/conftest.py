"""Fixtures the test files of ``html_parser_backport`` share."""

import pytest

import html_parser_backport


@pytest.fixture(autouse=True)
def html_unpatched():
    """html_parser_backport, unpatched before the test and after it, whatever it did."""
    html_parser_backport.unpatch()
    yield html_parser_backport
    html_parser_backport.unpatch()


@pytest.fixture
def html_patched(html_unpatched):
    """Both fixes bound (forced where the stock parser has them already)."""
    html_unpatched.patch(force=True)
    yield html_unpatched
