"""Sphinx configuration for the cpython-security-backports-2021 documentation."""

project = "cpython-security-backports-2021"
author = "The cpython-security-backports-2021 maintainers"
copyright = "2026, " + author

extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest"]

html_theme = "furo"
nitpicky = True
exclude_patterns = ["_build"]
