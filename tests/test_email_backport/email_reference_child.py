"""The reference's side of ``email_helpers.Reference``: write each message.

Run by Debian 12's ``python3.11`` (it carries gh-121650): reads
``[cases, policy name, max_line_length]`` per line, each case ``[how, text]``;
writes the list of what ``email_helpers.written`` gives for each (the test
process computes the same, patched).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from email_helpers import written  # noqa: E402

for line in sys.stdin:
    cases, name, length = json.loads(line)
    print(json.dumps([written(how, text, name, length) for how, text in cases]), flush=True)
