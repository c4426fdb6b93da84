"""The docs' coverage page marks as carried exactly the CVEs of the registry.

``docs/coverage.rst`` has a hand-written table of every upstream fix, each
row's last cell starting with ``**carried**``, ``**planned**`` or
``**not carried**``. A CVE of ``_cpython_security._registry.FIXES`` (read at
run time) that the page does not mark carried fails, and so does a CVE the
page marks carried that the registry does not have. The page's own table of
the registry (``.. fixes-table::``) is rendered from ``FIXES`` and needs no
check.
"""

import io
import os
import re

import pytest

from _cpython_security._registry import FIXES

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs",
                    "coverage.rst")
ROW = re.compile(r"^   \* - ", re.M)
CELL = re.compile(r"^     - ", re.M)
CVE = re.compile(r"CVE-(\d{4}-\d+)|:cveid:`(\d{4}-\d+)`")
STATUS = re.compile(r"\*\*(carried|planned|not carried)\*\*")

pytestmark = pytest.mark.skipif(not os.path.isfile(PAGE), reason="no docs/coverage.rst here")


def _rows():
    """``(CVE ids of the first cell, status)`` of every row of the table."""
    with io.open(PAGE, encoding="utf-8") as handle:
        text = handle.read()
    rows = []
    for chunk in ROW.split(text)[1:]:
        cells = CELL.split(chunk)
        first, last = cells[0], cells[-1]
        status = STATUS.match(last.strip())
        cves = set("CVE-" + (a or b) for a, b in CVE.findall(first))
        rows.append((cves, status.group(1) if status else None, first.strip()))
    return rows


def _registry_cves():
    found = set()
    for fix in FIXES:
        found.update("CVE-" + number for number in re.findall(r"CVE-(\d{4}-\d+)", fix.cve))
    return found


def test_every_row_has_a_status():
    rows = _rows()
    assert len(rows) > len(FIXES)
    assert [first for _, status, first in rows[1:] if status is None] == []


def test_carried_rows_are_the_registry():
    carried = set()
    for cves, status, _ in _rows():
        if status == "carried":
            carried.update(cves)
    registry = _registry_cves()
    assert sorted(registry - carried) == [], "in FIXES, not marked carried on the page"
    assert sorted(carried - registry) == [], "marked carried on the page, not in FIXES"


def test_a_registry_cve_is_not_also_planned_or_not_carried():
    registry = _registry_cves()
    other = set()
    for cves, status, _ in _rows():
        if status != "carried":
            other.update(cves)
    assert sorted(registry & other) == []
