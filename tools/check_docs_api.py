"""Fail if a public name of any package is missing from the built API docs.

Usage: ``python tools/check_docs_api.py HTML_DIR`` (run by ``tox -e docs``
after ``sphinx-build -b html``). Imports each package of the registry
(``_cpython_security._registry.PACKAGES``) as installed, reads
each ``__all__``, and requires, for every name, an API entry
(``<dt ... id="package.name">``, what autodoc and the ``py`` domain write for
a documented object) somewhere in the HTML. A name that
drops out of the docs, e.g. because its directive was removed or it lost its
docstring, then fails the build.
"""

from __future__ import print_function

import importlib
import io
import os
import re
import sys

from _cpython_security._registry import PACKAGES  # the installed registry's

# An object description: <dt class="sig sig-object py" id="pkg.name">.
ENTRY = re.compile(r'<dt\b[^>]*\bclass="[^"]*\bsig-object\b[^"]*"[^>]*\bid="([^"]+)"')


def documented_ids(html_dir):
    """Return the set of ids of object descriptions in every HTML file."""
    found = set()
    for root, _, files in os.walk(html_dir):
        for name in files:
            if name.endswith(".html"):
                with io.open(os.path.join(root, name), encoding="utf-8") as handle:
                    found.update(ENTRY.findall(handle.read()))
    return found


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: python tools/check_docs_api.py HTML_DIR", file=sys.stderr)
        return 2
    ids = documented_ids(argv[1])
    missing = []
    checked = 0
    for package in PACKAGES + ("cpython_security",):  # and the umbrella in code
        module = importlib.import_module(package)
        public = getattr(module, "__all__", None)
        if not public:
            missing.append("%s has no __all__" % package)
            continue
        for name in public:
            checked += 1
            if "%s.%s" % (package, name) not in ids:
                missing.append("%s.%s" % (package, name))
    if missing:
        print("check_docs_api: not documented in %s:" % argv[1], file=sys.stderr)
        for item in missing:
            print("  " + item, file=sys.stderr)
        return 1
    print("check_docs_api: all %d public names of %s are documented"
          % (checked, ", ".join(PACKAGES + ("cpython_security",))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
