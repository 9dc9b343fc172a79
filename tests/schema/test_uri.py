"""The URI rule of a source (schema/uri.py): which stored uris are accepted, and which a page may turn into a link."""

from __future__ import annotations

import pytest

from credo.schema.commands import AddSource, build
from credo.schema.errors import InvalidInput
from credo.schema.uri import check_uri, linkable

ACCEPTED = [
    ("https://example.com/runbook", "https://example.com/runbook"),
    ("http://intranet:8080/a?b=c#d", "http://intranet:8080/a?b=c#d"),
    ("HTTPS://EXAMPLE.COM", "HTTPS://EXAMPLE.COM"),
    ("  https://example.com/padded  ", "https://example.com/padded"),
    ("urn:isbn:0451450523", "urn:isbn:0451450523"),
    ("mailto:dpo@example.com", "mailto:dpo@example.com"),
]
REFUSED = [
    ("https://\u202eevil.example", "invisible"),  # a right-to-left override makes the link read otherwise
    ("https://exa\u200bmple.com", "invisible"),
    ("javascript:alert(document.cookie)", "schemes"),
    ("JavaScript:alert(1)", "schemes"),
    (" javascript:alert(1)", "schemes"),  # trimmed first: still javascript
    ("java\tscript:alert(1)", "whitespace or control"),  # a browser drops the tab and runs it
    ("java\nscript:alert(1)", "whitespace or control"),
    ("javascript\x00:alert(1)", "whitespace or control"),
    ("data:text/html,<script>alert(1)</script>", "schemes"),
    ("vbscript:msgbox(1)", "schemes"),
    ("file:///etc/passwd", "schemes"),
    ("//evil.example/x", "schemes"),  # protocol-relative: no scheme
    ("/relative/path", "schemes"),
    ("example.com", "schemes"),
    ("", "schemes"),
    ("http:/no-host", "host"),
    ("https:", "host"),
    ("mailto:", "something after"),
    ("https://exa mple.com", "whitespace"),
]


@pytest.mark.parametrize(("given", "stored"), ACCEPTED)
def test_a_source_uri_of_an_allowed_scheme_is_accepted_trimmed(given, stored):
    assert check_uri(given) == stored
    assert build(AddSource, kind="document", text="t", uri=given).uri == stored


@pytest.mark.parametrize(("given", "rule"), REFUSED)
def test_a_source_uri_of_another_scheme_is_refused_naming_uri(given, rule):
    with pytest.raises(InvalidInput) as refused:
        build(AddSource, kind="document", text="t", uri=given)
    assert refused.value.field == "uri" and rule in refused.value.rule


@pytest.mark.parametrize(("stored", "link"), [
    ("https://example.com", True), ("http://example.com/a", True), ("mailto:a@example.com", True),
    ("urn:isbn:0451450523", False),  # valid, but no browser opens it: text
    ("javascript:alert(1)", False), ("JAVASCRIPT:alert(1)", False), (" javascript:alert(1)", False),
    ("java\tscript:alert(1)", False), ("data:text/html,x", False), ("//evil.example", False), (None, False),
    ("", False),
])
def test_a_page_links_only_http_https_and_mailto_uris(stored, link):
    assert linkable(stored) is link
