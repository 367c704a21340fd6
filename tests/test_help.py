"""`help(client.leads)` reads as documentation: what the API reference says, without the
paths of private modules, "Initialize self" or doctest directives."""

from __future__ import annotations

import re

import pytest

from leadenrich import AsyncLeadEnrich, LeadEnrich
from tests.helpers import help_text
from tests.test_surface import NAMESPACES


def namespaces() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    for client in (
        LeadEnrich("k", base_url="https://api.test"),
        AsyncLeadEnrich("k", base_url="https://api.test"),
    ):
        kind = type(client).__name__
        found.append((f"{kind}.with_raw_response", client.with_raw_response))
        for name in NAMESPACES:
            namespace = getattr(client, name)
            found += [
                (f"{kind}.{name}", namespace),
                (f"{kind}.{name}.with_raw_response", namespace.with_raw_response),
            ]
    return found


NAMESPACE_OBJECTS = namespaces()


@pytest.mark.parametrize(
    ("name", "namespace"), NAMESPACE_OBJECTS, ids=[name for name, _ in NAMESPACE_OBJECTS]
)
def test_help_of_a_namespace_reads_as_documentation(name: str, namespace: object) -> None:
    text = help_text(namespace)
    assert not re.findall(r"leadenrich\._\w+", text), name
    assert "Initialize self" not in text
    assert "doctest" not in text
    assert "][" not in text, "a cross-reference of the API reference, shown raw"
    assert "Examples:\n" in text


def test_help_of_client_leads_names_its_parts_plainly() -> None:
    text = help_text(LeadEnrich("k", base_url="https://api.test").leads)
    assert text.splitlines()[0].endswith("Leads in module leadenrich object")
    assert "class Leads(StoredLeads, BulkEnrichment, Enrichment)" in text
    assert "Methods inherited from StoredLeads:" in text
    assert "Made by the client: reach it as `client.leads`." in text
    # The link of the reference, as its text: "as `Jobs.wait` polls it".
    assert "as `Jobs.wait` polls it" in " ".join(text.replace(" |", " ").split())
