"""An mkdocs hook: links of the repository's root files, as the site shows them.

README.md and CHANGELOG.md link the guide as `docs/page.md`, which is right where they
are read on their own (a clone, GitHub). The site includes them in pages that live in
`docs/` themselves (`--8<-- "CHANGELOG.md"`), where the same link must read `page.md`.
The rewrite runs after the snippets are included and before mkdocs checks the links, so
a link that is still wrong after it fails the strict build like any other.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

# `](docs/page.md...)`: a Markdown link's target, from the root to a page of the guide.
_ROOT_LINK = re.compile(r"\]\(docs/(?=[^)\s]+\.md)")


class _SiblingLinks(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return [_ROOT_LINK.sub("](", line) for line in lines]


class _RootLinks(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # pymdownx.snippets includes files at priority 32: this runs just after it.
        md.preprocessors.register(_SiblingLinks(md), "leadenrich_root_links", 31)


def on_config(config: Any) -> Any:
    config.markdown_extensions.append(_RootLinks())
    return config
