"""What every test folder shares: ``tests/helpers`` on ``sys.path``.

The tests are grouped per package (``test_PACKAGE/``, each with the
fixtures and helpers of its own package in its folder; the checks of every
package at the top); the modules they share (fresh interpreters, the
stdlib's state, the one place that reaches private modules) live in
``tests/helpers``.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers"))

if os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB") == "1":
    # py3X-unfixed reverts bpo-42967 only (urllib.parse and cgi): the folders of the
    # packages on the shared engine, none of which touches them, run in py3X itself.
    # Nor do ctypes_safe's fixes, nor the checks of the source tree itself (its
    # design, docs and CI files), which read no stdlib module's behaviour.
    from internals import ENGINE_PACKAGES
    collect_ignore = ["test_" + package for package in ENGINE_PACKAGES + ["ctypes_safe"]] + [
        "test_design.py", "test_dependencies.py", "test_docs_coverage.py", "test_docs_facts.py",
        "test_ci_matrix.py"]
    if os.environ.get("BACKPORT_TEST_UNFIXED_SCOPE") == "fixes":
        # py36-, py37- and py39-unfixed: the whole-product checks (the switch, the check,
        # the umbrella API, VEX) see urllib.parse only through urllib_parse_backport's
        # state, which is the same on every unfixed 3.x stdlib, and run in py38-unfixed.
        # These run what depends on the version: the tests of the bpo-42967 fixes, the
        # parsers' acceptance tests, and the trials of patch() on urllib.parse.
        KEPT = ("test_urllib_parse_backport", "test_acceptance_injection.py",
                "test_acceptance_parsers.py", "test_patch_trials.py")
        collect_ignore += sorted(
            name for name in os.listdir(os.path.dirname(os.path.abspath(__file__)))
            if name.startswith("test_") and name not in KEPT and name not in collect_ignore)
        # Nor, of that folder, what reads no parser of the stdlib: the audit (it reads
        # source files; the overlay's copies are tried in py38-unfixed) and protect()'s
        # rule, bounds and costs (it rewrites and refuses bytes before any parser runs).
        # What the frameworks behind protect() read is in the HTTP tests, kept.
        FOLDER = "test_urllib_parse_backport"
        collect_ignore += sorted(
            os.path.join(FOLDER, name) for name in os.listdir(os.path.join(
                os.path.dirname(os.path.abspath(__file__)), FOLDER))
            if name.startswith(("test_audit", "test_protect_rules", "test_protect_bounds",
                                "test_protect_cost", "test_protect_codings",
                                "test_protect_charset", "test_design_rooms")))
