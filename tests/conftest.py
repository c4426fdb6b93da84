"""What every test folder shares: ``tests/helpers`` on ``sys.path``, and fixtures.

The tests are grouped per package (``test_PACKAGE/``, each with the
fixtures of its own package in its ``conftest.py``; the checks of every
package at the top); the modules they share (fresh interpreters, the
stdlib's state, real WSGI apps, the one place that reaches private modules)
live in ``tests/helpers``.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers"))

if os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB") == "1":
    # py3X-unfixed reverts bpo-42967 only (urllib.parse and cgi): the folders of the
    # packages on the shared engine, none of which touches them, run in py3X itself.
    from internals import ENGINE_PACKAGES
    collect_ignore = ["test_" + package for package in ENGINE_PACKAGES]


@pytest.fixture
def no_label_blind_parser():
    """No label-blind parser loaded (Bottle <= 0.12.18 is the one protect() knows):
    a body under a label neither urlencoded nor multipart is nobody's form."""
    from label_blind import without_label_blind_parser
    with without_label_blind_parser():
        yield


@pytest.fixture
def label_blind_parser():
    """A label-blind parser loaded: a ``bottle`` module whose ``_parse_qsl`` splits
    on ``&`` and ``;`` as Bottle 0.12.18's does (CVE-2020-28473)."""
    from label_blind import with_label_blind_parser
    with with_label_blind_parser() as module:
        yield module
