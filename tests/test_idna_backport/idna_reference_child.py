"""The reference's side of ``idna_helpers.Reference``: run the ``idna`` codec on JSON lines.

Run by Debian 12's ``python3.11``: reads a JSON list of ``[op, text]`` per
line (``op``: ``encode`` a host name, ``decode`` its ASCII form, or
``nameprep`` a label), writes ``[True, text]`` or ``[False, null]`` for each.
"""

import json
import sys
from encodings.idna import nameprep


def _run(op, text):
    try:
        if op == "encode":
            return [True, text.encode("idna").decode("ascii")]
        if op == "decode":
            return [True, text.encode("ascii").decode("idna")]
        return [True, nameprep(text)]
    except UnicodeError:
        return [False, None]


for line in sys.stdin:
    print(json.dumps([_run(op, text) for op, text in json.loads(line)]), flush=True)
