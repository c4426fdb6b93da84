"""Facts in README.md and docs/ held equal to the registry and to the measured table.

Each list of packages or variables, each count and each per-interpreter
"lacks N" the pages write by hand is compared here with its source:
``_cpython_security._registry`` (FIXES, PACKAGES, BY_PACKAGE), the installed
distribution, and ``docs/_data/interpreters.json`` (tools/interpreter_table.py).
Start-up cost figures live on docs/performance.rst alone. Every one of these
failed on the pages of issue 56: "installs four import packages" (11 then),
a switches table without 6 of the 11 variables, "3.13.0 lacks one" (14),
cost ratios on operations.rst that performance.rst did not have, a
quickstart list without 7 of the packages, a README silent on the fixes
that change behaviour.
"""

import io
import json
import os
import re

import pytest

from internals import BY_PACKAGE, PACKAGES, shared_registry, shared_startup

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
DOCS = os.path.join(ROOT, "docs")

pytestmark = pytest.mark.skipif(not os.path.isdir(DOCS), reason="no docs/ here")

NUMBERS = dict((word, index) for index, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split()))

#: Every import package the wheel installs: the fix packages, the umbrella in code
#: and the shared private one.
IMPORT_PACKAGES = set(PACKAGES) | set(["cpython_security", "_cpython_security"])

#: Every variable a start-up switch reads.
VARIABLES = set([shared_startup.UMBRELLA.variable, shared_startup.SKIP_VARIABLE]
                + [BY_PACKAGE[package].variable for package in PACKAGES])


def read(*path):
    with io.open(os.path.join(ROOT, *path), encoding="utf-8") as handle:
        return handle.read()


def pages():
    """``{name: text}`` of README.md and every docs/*.rst."""
    found = {"README.md": read("README.md")}
    for name in sorted(os.listdir(DOCS)):
        if name.endswith(".rst"):
            found[name] = read("docs", name)
    return found


def paragraph(text, start):
    """The paragraph of *text* that begins with *start* (up to a blank line)."""
    index = text.index(start)
    end = text.find("\n\n", index)
    return text[index:end if end >= 0 else len(text)]


def number(word):
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def test_installation_names_every_import_package_and_counts_them():
    text = paragraph(read("docs", "installation.rst"), "It has no dependencies and installs")
    count = re.search(r"installs (\w+) import packages", text)
    named = set(re.findall(r":mod:`(\w+)`|``(_\w+)``", text))
    named = set(first or second for first, second in named)
    assert named == IMPORT_PACKAGES
    assert number(count.group(1)) == len(IMPORT_PACKAGES)


def test_the_switches_table_has_every_variable():
    text = read("docs", "operations.rst")
    table = text[text.index("The switches\n"):text.index("How the variable takes effect")]
    first_cells = re.findall(r"^   \* - (.*(?:\n       .*)*)", table, re.M)
    listed = set(re.findall(r"``([A-Z_]+)``", "\n".join(first_cells)))
    assert listed == VARIABLES


def _lacks():
    with io.open(os.path.join(DOCS, "_data", "interpreters.json"), encoding="utf-8") as handle:
        data = json.load(handle)
    return dict((entry["name"].split()[1], sum(1 for cve in data["cves"] if entry["lacks"][cve]))
                for entry in data["interpreters"] if entry["name"].startswith("CPython"))


def test_every_lacks_n_statement_is_the_measured_count():
    measured = _lacks()
    said = []
    for name, text in pages().items():
        # "3.13.0 lacks 14": a count; "... and 3.13.2 lacks one at least": a bound, about
        # releases the table may not measure.
        for version, word, bound in re.findall(r"\b(\d+\.\d+\.\d+) lacks (\w+)( at least)?",
                                               re.sub(r"\s+", " ", text)):
            if version in measured and (word.isdigit() or word.lower() in NUMBERS):
                said.append((name, version, number(word), bool(bound), measured[version]))
    assert said, "no page says how many fixes a measured interpreter lacks"
    assert [entry for entry in said
            if (entry[2] > entry[4] if entry[3] else entry[2] != entry[4])] == []


def test_start_up_cost_figures_are_on_the_performance_page_alone():
    figures = re.compile(u"\\d+\\.\\d+\u00d7")
    found = dict((name, figures.findall(text)) for name, text in pages().items()
                 if name != "performance.rst")
    assert dict((name, cells) for name, cells in found.items() if cells) == {}


def test_quickstart_names_every_package_the_switch_applies():
    text = paragraph(read("docs", "quickstart.rst"),
                     "``CPYTHON_SECURITY_PATCH=1`` applies every fix")
    assert set(re.findall(r":mod:`(\w+)`", text)) == set(PACKAGES)


def test_readme_names_every_package_and_every_fix():
    text = read("README.md")
    assert [package for package in PACKAGES if "`%s`" % package not in text] == []
    assert [fix.cve for fix in shared_registry.FIXES if fix.cve not in text] == []


def test_readme_lists_how_to_keep_off_each_fix_that_changes_behaviour():
    text = read("README.md")
    section = text[text.index("## Fixes that change behaviour"):]
    section = section[:section.index("\n## ", 1)]
    kept_off = re.findall(r"`CPYTHON_SECURITY_SKIP=([\w,-]+)`", section)
    wanted = [",".join(shared_registry.keep_off(fix)) for fix in shared_registry.FIXES
              if fix.behaviour]
    assert kept_off == [value for index, value in enumerate(wanted)
                        if value not in wanted[:index]]


def test_the_coverage_page_renders_the_fixes_that_change_behaviour():
    # The directive renders every row whose behaviour is set (docs/_ext/fixes_table.py).
    assert re.search(r"^\.\. behaviour-changes::$", read("docs", "coverage.rst"), re.M)
    assert [fix.cve for fix in shared_registry.FIXES if fix.behaviour]
