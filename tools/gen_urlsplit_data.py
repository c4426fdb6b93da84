#!/usr/bin/env python3
"""Generate ``tests/data/urlsplit_reference.json``: how a fully fixed ``urlsplit`` splits.

Run it from the repository root::

    python3 tools/gen_urlsplit_data.py           # rewrite the file
    python3 tools/gen_urlsplit_data.py --check   # regenerate in memory, fail if it differs

The outcomes come from Debian 12's ``python3.11`` (3.11.2-6+deb12u6, found at
``/usr/bin/python3.11`` or ``$URLSPLIT_REFERENCE``), whose ``urllib.parse`` carries
CVE-2023-24329, CVE-2022-0391, CVE-2024-11168 and CVE-2025-0938; the worker
``tests/helpers/urlsplit_reference.py`` runs its real ``urlsplit``. The URLs are
``urlsplit_cases.FIXED_CASES`` plus ``urlsplit_cases.generated(COUNT, SEED)``,
byte-for-byte reproducible.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "helpers"))

import urlsplit_cases  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "urlsplit_reference.json")
WORKER = os.path.join(ROOT, "tests", "helpers", "urlsplit_reference.py")
COUNT, SEED = 600, 33


def reference():
    return os.environ.get("URLSPLIT_REFERENCE", "/usr/bin/python3.11")


def generate():
    """The file's text, computed by the reference interpreter."""
    urls = urlsplit_cases.FIXED_CASES + urlsplit_cases.generated(COUNT, SEED)
    python = reference()
    version = subprocess.check_output(
        [python, "-c", "import sys; print(sys.version.split()[0])"]).decode().strip()
    output = subprocess.check_output([python, WORKER], input=json.dumps(urls).encode())
    document = {
        "generated_by": "tools/gen_urlsplit_data.py",
        "reference": "CPython %s with Debian 12's patches (python3.11 3.11.2-6+deb12u6): "
                     "urllib.parse.urlsplit with CVE-2023-24329, CVE-2022-0391, "
                     "CVE-2024-11168 and CVE-2025-0938 fixed" % version,
        "rows": json.loads(output.decode()),
    }
    return json.dumps(document, indent=0, sort_keys=True, ensure_ascii=True) + "\n"


def main(argv):
    text = generate()
    if argv[1:] == ["--check"]:
        with open(DATA) as handle:
            if handle.read() != text:
                print("%s is out of date: run tools/gen_urlsplit_data.py" % DATA)
                return 1
        print("%s is up to date" % DATA)
        return 0
    if argv[1:]:
        print(__doc__)
        return 2
    with open(DATA, "w") as handle:
        handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
