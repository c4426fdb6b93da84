"""Sphinx configuration for the cpython-security-backports documentation.

The build needs no network: there is no intersphinx, and links to CPython's
issues and documentation are plain URLs made by ``sphinx.ext.extlinks``.
The packages are imported from the installed distribution (tox installs the
wheel into the docs environment).
"""

import os
import sys

import ctypes_safe
import urllib_parse_backport

# Local extensions: fixes_table renders the registry of fixes (coverage page);
# generated runs commands at build time for sample outputs, and renders the
# per-interpreter table (docs/_data/interpreters.json).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

project = "cpython-security-backports"
author = "The cpython-security-backports maintainers"
copyright = "2026, " + author
version = release = urllib_parse_backport.__version__
assert ctypes_safe.__version__ == release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.extlinks",
    "myst_parser",  # only to include CHANGELOG.md and SECURITY.md from the root
    "fixes_table",  # docs/_ext: the registry's FIXES as a table
    "generated",  # docs/_ext: command outputs and the per-interpreter table
]

# Markdown is only ever included from rst pages, never a page of its own.
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext", "_data", "_static"]
nitpicky = True

extlinks = {
    "bpo": ("https://bugs.python.org/issue%s", "bpo-%s"),
    "gh": ("https://github.com/python/cpython/issues/%s", "gh-%s"),
    "ghpr": ("https://github.com/python/cpython/pull/%s", "GH-%s"),
    "cveid": ("https://www.cve.org/CVERecord?id=CVE-%s", "CVE-%s"),
    "pydoc": ("https://docs.python.org/3/library/%s", "%s"),
}

autodoc_member_order = "bysource"
autodoc_typehints = "signature"

html_theme = "furo"
# Tables wrap their cells and console boxes their lines: nothing an operator
# needs scrolls sideways at 1280 px (tools/screenshots.py checks it).
html_static_path = ["_static"]
html_css_files = ["wrap.css"]
html_title = "cpython-security-backports " + release
