"""Audit fixture: code that splits on ';' for reasons other than query strings.

Nothing here is a finding: CSV rows, Cookie headers, MIME parameters, SQL
statements, search paths, HTML entities and values that are lists.
"""

import os
import re

_ENTITY = re.compile(r'&([^&;\s]+);')
_PARAMS = re.compile(r'\s*;\s*')


def csv_rows(text):
    rows = []
    for line in text.split('\n'):
        rows.append(line.split(';'))
    return rows


def cookies(header):
    jar = {}
    for morsel in header.split('; '):
        name, _, value = morsel.partition('=')
        jar[name] = value
    for morsel in header.split(';'):
        jar.setdefault(morsel.strip(), '')
    return jar


def mime_parameters(content_type):
    parts = content_type.split(';')
    params = {}
    for part in parts[1:]:
        name, _, value = part.strip().partition('=')
        params[name.lower()] = value.strip('"')
    return parts[0].strip(), params


def mime_by_regex(content_type):
    return _PARAMS.split(content_type)


def sql_statements(script):
    return [statement.strip() for statement in script.split(';') if statement.strip()]


def search_path():
    return os.environ.get('PATH', '').split(';') + os.environ.get('PATHEXT', '').split(';')


def entities(html):
    return _ENTITY.split(html.replace('&amp;', '&'))


def query_and_cookie(environ):
    fields = environ['QUERY_STRING'].split('&')
    cookies = environ.get('HTTP_COOKIE', '').split(';')
    return fields, cookies


def query_and_cookie_subscripts(environ, headers):
    fields = environ['QUERY_STRING'].split('&')
    cookies = environ['HTTP_COOKIE'].split(';')
    more = headers['Cookie'].split(';')
    return fields, cookies, more


def list_values(qs):
    params = {}
    for pair in qs.split('&'):
        name, value = pair.split('=', 1)
        params[name] = value.split(';')
    return params


def url_without_path_parameters(url):
    path, _, query = url.partition('?')
    return path.split(';')[0], query.split('&')


def html_escaped_links(text):
    return text.split('&amp;')
