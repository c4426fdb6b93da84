"""The reference's side of the differential: parse each case of a JSON corpus.

Run by Debian 12's ``python3.11`` with the test folder on ``sys.path``:
``html_reference_child.py CORPUS.json CONVERT`` writes, as JSON, the events
``html_events.parse`` records for each case (its chunks fed one by one,
then close()), with ``convert_charrefs`` set to CONVERT (``0`` or ``1``).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I: not there

from html_events import parse  # noqa: E402

with open(sys.argv[1]) as source:
    cases = json.load(source)
convert = sys.argv[2] == "1"
json.dump([parse(chunks, convert) for chunks in cases], sys.stdout)
