#!/usr/bin/env python3
"""Generate ``urlsplit_reference.json`` (beside this file): how a fully fixed ``urlsplit`` splits.

Run it with any Python 3::

    python3 gen_urlsplit_data.py           # rewrite the file
    python3 gen_urlsplit_data.py --check   # regenerate in memory, fail if it differs

The outcomes come from Debian 12's ``python3.11`` (3.11.2-6+deb12u6, found at
``/usr/bin/python3.11`` or ``$URLSPLIT_REFERENCE``), whose ``urllib.parse`` carries
CVE-2023-24329, CVE-2022-0391, CVE-2024-11168 and CVE-2025-0938; the worker
``urlsplit_reference.py`` beside it runs its real ``urlsplit``. The URLs are
``urlsplit_cases.FIXED_CASES`` plus ``urlsplit_cases.generated(COUNT, SEED)``,
byte-for-byte reproducible.
"""

import json
import os
import subprocess
import sys

import urlsplit_cases  # beside this script: its folder is sys.path[0]

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "urlsplit_reference.json")
WORKER = os.path.join(HERE, "urlsplit_reference.py")
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
        "generated_by": "gen_urlsplit_data.py",
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
                print("%s is out of date: run gen_urlsplit_data.py" % DATA)
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
