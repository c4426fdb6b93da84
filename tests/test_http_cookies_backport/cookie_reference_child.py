"""The reference's side of ``cookie_helpers.Reference``: unquote each JSON line's values.

Run by Debian 12's ``python3.11`` (it carries gh-123067): reads a JSON list
of strings per line, writes the list of ``http.cookies._unquote`` results.
"""

import json
import sys
from http.cookies import _unquote

for line in sys.stdin:
    print(json.dumps([_unquote(value) for value in json.loads(line)]), flush=True)
