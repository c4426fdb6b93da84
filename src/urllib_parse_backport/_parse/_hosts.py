"""The bracketed-host checks that CVE-2024-11168 and CVE-2025-0938 add to ``urlsplit``.

Why a module of our own rather than ``ipaddress``: 2.7 has no ``ipaddress``,
3.6-3.8's rejects scoped addresses (``fe80::1%eth0``, accepted from 3.9,
bpo-34788) and accepts octets with leading zeros (refused from 3.9.5,
bpo-36384). These functions accept exactly what CPython 3.11+'s
``ipaddress.ip_address`` accepts as text, so every interpreter refuses the
same hosts as a fixed 3.11+. Works on ``str`` and 2.7's ``unicode`` alike.
"""

__all__ = ["check_brackets", "is_ipv4", "is_ipv6", "is_ipvfuture"]

_DIGITS = "0123456789"
_HEX = "0123456789abcdefABCDEF"


def is_ipv4(text):
    """Whether ``ipaddress.IPv4Address(text)`` accepts *text*: four dotted
    decimal octets, 0-255, ASCII digits only, no leading zeros (bpo-36384)."""
    octets = text.split(".")
    if len(octets) != 4:
        return False
    for octet in octets:
        if not octet or len(octet) > 3 or octet.strip(_DIGITS):
            return False
        if octet[0] == "0" and octet != "0":
            return False
        if int(octet) > 255:
            return False
    return True


def is_ipv6(text):
    """Whether ``ipaddress.IPv6Address(text)`` of 3.9+ accepts *text*: up to
    eight hextets with at most one ``::``, an optional dotted IPv4 tail, and
    an optional ``%scope`` (bpo-34788) that is not empty and holds no ``%``."""
    if "/" in text:
        return False
    address, percent, scope = text.partition("%")
    if percent and (not scope or "%" in scope):
        return False
    parts = address.split(":")
    if len(parts) < 3:
        return False
    if "." in parts[-1]:
        if not is_ipv4(parts.pop()):
            return False
        parts.extend(("0", "0"))  # the two hextets an IPv4 tail stands for
    if len(parts) > 9:
        return False
    skip = None
    for index in range(1, len(parts) - 1):
        if not parts[index]:
            if skip is not None:
                return False  # more than one '::'
            skip = index
    if skip is None:
        if len(parts) != 8 or not parts[0] or not parts[-1]:
            return False
        hextets = parts
    else:
        high, low = skip, len(parts) - skip - 1
        if not parts[0]:
            high -= 1
            if high:
                return False  # a leading ':' must be '::'
        if not parts[-1]:
            low -= 1
            if low:
                return False  # a trailing ':' must be '::'
        if high + low > 7:
            return False  # '::' must stand for at least one hextet
        hextets = parts[:high] + parts[len(parts) - low:]
    for hextet in hextets:
        if not hextet or len(hextet) > 4 or hextet.strip(_HEX):
            return False
    return True


def is_ipvfuture(text):
    """Whether *text* matches upstream's ``\\Av[a-fA-F0-9]+\\..+\\Z``: ``v``,
    hex digits, a dot, then at least one character, none of them a newline."""
    body = text[1:]
    digits = len(body) - len(body.lstrip(_HEX))
    rest = body[digits + 1:]
    return (text[:1] == "v" and digits > 0 and body[digits:digits + 1] == "."
            and bool(rest) and "\n" not in rest)


def _check_host(hostname):
    """gh-103848's ``_check_bracketed_host``, with its messages (an IPv6 or
    IPvFuture address, never an IPv4 one); ValueError otherwise."""
    if hostname.startswith("v"):
        if not is_ipvfuture(hostname):
            raise ValueError("IPvFuture address is invalid")
    elif is_ipv4(hostname):
        raise ValueError("An IPv4 address cannot be in brackets")
    elif not is_ipv6(hostname):
        # The message of ipaddress.ip_address(), which upstream lets through.
        raise ValueError("%r does not appear to be an IPv4 or IPv6 address" % (hostname,))


def _netloc_host(netloc):
    """gh-105704's ``_check_bracketed_netloc`` up to the host check: the host
    as ``_hostinfo`` reads it; no text may stand before ``[`` or between ``]``
    and the port's ``:`` (else "Invalid IPv6 URL")."""
    hostname_and_port = netloc.rpartition("@")[2]
    before_bracket, have_open_br, bracketed = hostname_and_port.partition("[")
    if have_open_br:
        if before_bracket:
            raise ValueError("Invalid IPv6 URL")
        hostname, _, port = bracketed.partition("]")
        if port and not port.startswith(":"):
            raise ValueError("Invalid IPv6 URL")
        return hostname
    return hostname_and_port.partition(":")[0]


def check_brackets(netloc, hosts=True, netloc_rule=True):
    """The checks of a fixed ``urlsplit`` for a *netloc* holding ``[`` or ``]``.

    Unbalanced brackets: "Invalid IPv6 URL" (every version's own check).
    *netloc_rule* (CVE-2025-0938, gh-105704): only the host part, after the
    last ``@``, may be bracketed, and nothing may stand around the brackets
    but a port. *hosts* (CVE-2024-11168, gh-103848): the host so found (with
    *netloc_rule* off: the text between the first ``[`` and ``]``, as
    gh-103848 alone read it) must be an IPv6 or IPvFuture address.
    """
    opened = "[" in netloc
    if opened != ("]" in netloc):
        raise ValueError("Invalid IPv6 URL")
    if not opened:
        return
    if netloc_rule:
        hostname = _netloc_host(netloc)
    else:
        hostname = netloc.partition("[")[2].partition("]")[0]
    if hosts:
        _check_host(hostname)
