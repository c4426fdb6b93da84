"""What the email_backport tests share: the stock functions, messages, the reference."""

import io
import json
import os
import subprocess
import sys

import email
import email.generator
import email.message

PY2 = sys.version_info[0] == 2
_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "email_reference_child.py")


class LiteralHeader(str):
    """Upstream's test header (test_generator.py): its fold is its text, unchecked."""

    name = "Header"

    def fold(self, **kwargs):
        return self


def literal_message(text, policy):
    """Upstream's message of ``test_verify_generated_headers``: Header replaced by *text*."""
    message = email.message_from_string("Header: Value\r\n\r\nBody", policy=policy)
    del message["Header"]
    message["Header"] = LiteralHeader(text)
    return message


def flattened(message, generator=None, **keywords):
    """*message* as the (Bytes)Generator writes it, or ``(type name, message)`` of its error."""
    generator = generator or email.generator.Generator
    bytes_out = generator.__name__ == "BytesGenerator"
    out = io.BytesIO() if bytes_out else (io.BytesIO() if PY2 else io.StringIO())
    try:
        generator(out, **keywords).flatten(message)
    except Exception as error:  # the outcome compared, whatever it is
        return (type(error).__name__, str(error))
    return out.getvalue()


def written(how, text, policy_name, max_line_length):
    """What ``Generator`` writes for a message whose Subject is *text*, ``set``
    (``message["Subject"] = text``) or ``parsed`` (a source line ``Subject: text``),
    with policy *policy_name* and *max_line_length*; or ``[error type, message]``."""
    from email import policy as policies
    policy = getattr(policies, policy_name).clone(max_line_length=max_line_length)
    try:
        if how == "set":
            message = email.message_from_string("To: a@example.com\n\nBody\n", policy=policy)
            message["Subject"] = text
        else:
            message = email.message_from_string("Subject: %s\n\nBody\n" % text, policy=policy)
        out = io.StringIO()
        email.generator.Generator(out, policy=policy).flatten(message)
        return out.getvalue()
    except Exception as error:  # the outcome compared, whatever it is
        return [type(error).__name__, str(error)]


class Reference(object):
    """The reference interpreter computing :func:`written` for a list of cases."""

    def __init__(self):
        # Here: the reference's child imports this module, where no helper is on its path.
        from reference import REFERENCE  # Debian 12's python3.11: what it carries is probed
        self.process = subprocess.Popen([REFERENCE, _CHILD], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, universal_newlines=True)

    def written(self, cases, policy_name, max_line_length):
        self.process.stdin.write(json.dumps([cases, policy_name, max_line_length]) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()
