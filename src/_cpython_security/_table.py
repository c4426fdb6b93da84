"""The start-up table: what ``_deferred`` reads before a watched module is imported.

Written by ``tools/make_pth.py`` from the registry's rows (``--check`` in the lint
environment keeps it equal to them); do not edit. Every row's modules on every
interpreter are listed: a name this one does not ship is never imported.
"""

#: Modules whose first import starts the switches: each fix's modules, each
#: package, each option's modules.
WATCHED = frozenset([
    'Cookie',
    'HTMLParser',
    'bottle',
    'cherrypy._cpreqbody',
    'cherrypy.lib.httputil',
    'ctypes',
    'ctypes_safe',
    'django.core.validators',
    'django.utils.http',
    'email.generator',
    'email.message',
    'email_backport',
    'encodings.idna',
    'future.backports.email.generator',
    'future.backports.email.message',
    'future.backports.html.parser',
    'future.backports.http.client',
    'future.backports.http.cookies',
    'future.backports.urllib.parse',
    'future.backports.urllib.request',
    'html.parser',
    'html_parser_backport',
    'http.client',
    'http.cookies',
    'http_client_backport',
    'http_cookies_backport',
    'httplib',
    'idna_backport',
    'ipaddress',
    'ipaddress_backport',
    'multipart.multipart',
    'python_multipart.multipart',
    'tarfile',
    'tarfile_backport',
    'twisted.web.http',
    'urllib.parse',
    'urllib.request',
    'urllib2',
    'urllib_parse_backport',
    'urllib_request_backport',
    'urlparse',
    'webob.compat',
    'wsgiref.handlers',
    'wsgiref.headers',
    'wsgiref_backport',
    'zipfile',
    'zipfile_backport',
])

#: The values every switch takes: on, then off.
_PLAIN = ('1', 'true', 'yes', 'on', '', '0', 'false', 'no', 'off')

#: Each start-up variable, with the values start-up knows (lower case, as written).
UNDERSTOOD = {
    'CPYTHON_SECURITY_PATCH': _PLAIN,
    'CTYPES_SAFE_PATCH': _PLAIN + ('force',),
    'EMAIL_BACKPORT_PATCH': _PLAIN + ('force',),
    'HTML_PARSER_BACKPORT_PATCH': _PLAIN + ('force',),
    'HTTP_CLIENT_BACKPORT_PATCH': _PLAIN + ('force',),
    'HTTP_COOKIES_BACKPORT_PATCH': _PLAIN + ('force',),
    'IDNA_BACKPORT_PATCH': _PLAIN + ('force',),
    'IPADDRESS_BACKPORT_PATCH': _PLAIN + ('force',),
    'TARFILE_BACKPORT_PATCH': _PLAIN + ('force',),
    'URLLIB_PARSE_BACKPORT_PATCH': _PLAIN + ('force', 'frameworks'),
    'URLLIB_REQUEST_BACKPORT_PATCH': _PLAIN + ('force',),
    'WSGIREF_BACKPORT_PATCH': _PLAIN + ('force',),
    'ZIPFILE_BACKPORT_PATCH': _PLAIN + ('force',),
}

#: Variables whose presence alone runs a switch: start-up runs at once.
ALSO_VARIABLES = ('PYTHON_URLLIB_QS_SEPARATOR',)

#: What CPYTHON_SECURITY_SKIP may name: packages and fix ids (upper case).
SKIP_NAMES = frozenset([
    'CVE-2019-18348',
    'CVE-2019-20907',
    'CVE-2020-26116',
    'CVE-2020-8492',
    'CVE-2021-23336',
    'CVE-2021-3177',
    'CVE-2021-3733',
    'CVE-2021-3737',
    'CVE-2022-0391',
    'CVE-2022-45061',
    'CVE-2023-24329',
    'CVE-2024-11168',
    'CVE-2024-6232',
    'CVE-2024-6923',
    'CVE-2024-7592',
    'CVE-2024-8088',
    'CVE-2025-0938',
    'CVE-2025-13836',
    'CVE-2025-15282',
    'CVE-2025-6069',
    'CVE-2025-8194',
    'CVE-2025-8291',
    'CVE-2026-0672',
    'CVE-2026-0865',
    'CVE-2026-1299',
    'CVE-2026-15308',
    'CVE-2026-3644',
    'GH-128840',
    'GH-136063',
    'GH-144370',
    'GH-146211',
    'GH-150743',
    'ctypes_safe',
    'email_backport',
    'html_parser_backport',
    'http_client_backport',
    'http_cookies_backport',
    'idna_backport',
    'ipaddress_backport',
    'tarfile_backport',
    'urllib_parse_backport',
    'urllib_request_backport',
    'wsgiref_backport',
    'zipfile_backport',
])
