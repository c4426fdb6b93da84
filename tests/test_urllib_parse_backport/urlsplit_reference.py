"""Run by the reference interpreter: read a JSON list of URLs on stdin, print
``urlsplit_cases.outcomes`` of its own ``urllib.parse.urlsplit`` as JSON.

Used by the differential test (one process per batch) and by
``gen_urlsplit_data.py``; imports nothing of the package.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from urllib.parse import urlsplit  # noqa: E402

import urlsplit_cases  # noqa: E402

if __name__ == "__main__":
    sys.stdout.write(urlsplit_cases.dumps(urlsplit_cases.outcomes(urlsplit, json.load(sys.stdin))))
