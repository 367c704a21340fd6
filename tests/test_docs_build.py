"""The documentation check of CI can fail: `.ci/docs` on a site with one broken link.

CI once built the site with `mkdocs build --strict --quiet`, and with `--quiet` mkdocs
counts no warnings, so `--strict` passed over two broken links. These tests run the very
command CI runs (`.ci/docs`) with the project's mkdocs.yml (its plugins, hooks and link
checks), on a site of two pages, and see it fail on the one broken link planted there, and
on the one missing heading, and on nothing else.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build(tmp_path: Path, link: str) -> subprocess.CompletedProcess[str]:
    """`.ci/docs` on a copy of the project's configuration whose home page links `link`."""
    docs = tmp_path / "docs"
    docs.mkdir()
    # The hook and templates of mkdocs.yml are found where its paths say, from this config.
    (docs / "extensions").symlink_to(ROOT / "docs" / "extensions")
    (docs / "index.md").write_text(f"# Home\n\nSee [the guide]({link}).\n", encoding="utf-8")
    (docs / "guide.md").write_text("# Guide\n\n## Retries\n\nText.\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\nnav:\n  - index.md\n  - guide.md\n",
        encoding="utf-8",
    )
    return subprocess.run(
        ["bash", str(ROOT / ".ci" / "docs"), str(config)], capture_output=True, text=True, timeout=120
    )


def test_ci_builds_the_docs_with_the_check_that_fails() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash .ci/docs" in run.splitlines()
    assert "mkdocs build" not in run, "CI builds the docs in one place: .ci/docs"
    command = [line for line in (ROOT / ".ci" / "docs").read_text().splitlines() if "mkdocs build" in line]
    [build] = command
    assert "--strict" in build
    assert "--quiet" not in build
    assert " -q" not in build


@pytest.mark.parametrize(
    ("link", "warning"),
    [
        ("gide.md", "contains a link 'gide.md', but the target is not found"),
        (
            "guide.md#retry",
            "contains a link 'guide.md#retry', but the doc 'guide.md' does not contain an anchor",
        ),
    ],
)
def test_a_broken_link_fails_the_build(tmp_path: Path, link: str, warning: str) -> None:
    result = build(tmp_path, link)
    assert result.returncode == 1, result.stderr
    assert warning in result.stderr, result.stderr
    # That link, and nothing else of the configuration, failed the build.
    assert "Aborted with 1 warnings in strict mode!" in result.stdout, result.stderr


def test_a_root_file_s_link_to_the_guide_works_where_the_site_includes_it(tmp_path: Path) -> None:
    # README.md and CHANGELOG.md link `docs/page.md`; included in a page of docs/, the
    # site's hook makes it `page.md`.
    result = build(tmp_path, "docs/guide.md#retries")
    assert result.returncode == 0, result.stderr
