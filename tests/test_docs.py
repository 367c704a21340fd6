"""The documentation's code runs, and the public surface documents itself with examples.

Every ```python block of docs/*.md runs on its own, as a reader who copies just that
block would run it: in a fresh namespace, on a fresh FakeServer (with the tests' quick
enrichments) that LEADENRICH_API_KEY and LEADENRICH_BASE_URL point at. So each block holds
its own imports and makes its own client and data. Blocks that `await` at the top level run on an event loop of their own,
as a notebook cell does.

Conventions of the pages:

- A block that defines `test_` functions is also run by pytest in a subprocess, so the
  tests a page shows (with the leadenrich fixtures) pass, not merely compile.
- A block that only includes an example (`--8<-- "examples/x.py"`) is not run here: the
  example is, by tests/test_examples.py.
- A block preceded by `<!-- no-test: why -->` is skipped. Keep those few, and say why.
- Includes of other files outside code blocks (the README's intro) are expanded first,
  so their Python blocks run too.

The SDK's own waits (polling intervals, pacing, back-off) are scaled by the same factor
as the fake server's clock, so a page that polls every second runs in milliseconds.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import dataclasses
import doctest
import html
import importlib
import inspect
import logging
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import leadenrich
from leadenrich import AsyncLeadEnrich, LeadEnrich, testing
from leadenrich.testing import FakeServer
from tests.helpers import QUICK, USERS_PYTEST

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# The fake server's default time_scale: a second of the service lasts 5 ms.
TIME_SCALE = 0.005

_FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`]*)$")
_INCLUDE = re.compile(r'^ *--8<-- "(?P<path>[^":]+)(?::(?P<section>[\w-]+))?"$')
_NO_TEST = re.compile(r"^<!-- no-test: (?P<why>.+\S) -->$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    """Where the code starts in the page, 1-based."""
    language: str
    code: str
    skipped: str | None
    """Why the block is not run, from its `<!-- no-test: why -->` line."""

    @property
    def includes(self) -> list[str]:
        """The files this block includes instead of holding code of its own."""
        lines = [line for line in self.code.splitlines() if line.strip()]
        found = [_INCLUDE.match(line) for line in lines]
        return [m["path"] for m in found if m] if lines and all(found) else []


def section(path: str, name: str | None) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    if name is None:
        return text
    start, end = f"--8<-- [start:{name}]", f"--8<-- [end:{name}]"
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if start in line)
    last = next(i for i, line in enumerate(lines) if end in line)
    return "\n".join(lines[first + 1 : last])


def expanded(page: Path) -> list[str]:
    """The page's lines with top-level includes (outside code blocks) replaced by the text."""
    lines: list[str] = []
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        include = None if in_fence else _INCLUDE.match(line)
        if include:
            lines.extend(section(include["path"], include["section"]).splitlines())
        else:
            lines.append(line)
    return lines


def blocks(page: Path) -> list[Block]:
    found: list[Block] = []
    lines = expanded(page)
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if not fence or not fence["info"].strip():
            index += 1
            continue
        language = fence["info"].split()[0].lower()
        end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
        indent = len(fence["indent"])
        code = "\n".join(line[indent:] for line in lines[index + 1 : end])
        # The line above the fence, skipping ruff's formatting switch that guards includes.
        above = [line for line in lines[:index] if line.strip() and line.strip() != "<!-- fmt: off -->"]
        skip = _NO_TEST.match(above[-1].strip()) if above else None
        found.append(
            Block(page.relative_to(ROOT).as_posix(), index + 2, language, code, skip["why"] if skip else None)
        )
        index = end + 1
    return found


# The README is a page too: its snippets are the first code a newcomer copies.
PAGES = [*sorted(DOCS.glob("*.md")), ROOT / "README.md"]
PYTHON_PAGES = [page for page in PAGES if any(b.language == "python" for b in blocks(page))]


def python_blocks(page: Path) -> Iterator[Block]:
    for block in blocks(page):
        if block.language == "python" and not block.includes and block.skipped is None:
            yield block


@pytest.fixture
def scaled_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clients a page makes wait at the fake server's pace, as `leadenrich fake-server` sets up."""
    monkeypatch.setenv("LEADENRICH_TIME_SCALE", str(TIME_SCALE))


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """Pages configure logging as a user would; put it back for the next test."""
    root, sdk = logging.getLogger(), logging.getLogger("leadenrich")
    handlers, level, sdk_level = list(root.handlers), root.level, sdk.level
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(level)
    sdk.setLevel(sdk_level)


def run_block(block: Block, namespace: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
    # Leading newlines make tracebacks point at the line of the page.
    source = "\n" * (block.line - 1) + block.code
    code = compile(source, str(ROOT / block.page), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(code, namespace)
    if inspect.iscoroutine(result):
        loop.run_until_complete(result)
    if re.search(r"^(async )?def test_", block.code, re.MULTILINE):
        run_with_pytest(block)


def run_with_pytest(block: Block) -> None:
    test_file = Path.cwd() / f"test_{Path(block.page).stem.replace('-', '_')}_{block.line}.py"
    test_file.write_text(block.code, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *USERS_PYTEST, test_file.name],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=test_file.parent,
    )
    assert result.returncode == 0, (
        f"{block.page}:{block.line}: the tests fail\n{result.stdout}{result.stderr}"
    )


def close_everything(namespace: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
    """Close what a page opened and left open, as the end of a script would."""
    for value in namespace.values():
        if isinstance(value, LeadEnrich):
            value.close()
        elif isinstance(value, AsyncLeadEnrich):
            loop.run_until_complete(value.aclose())
        elif isinstance(value, httpx.Client):
            value.close()
        elif isinstance(value, FakeServer) and value.running:
            value.stop()


PYTHON_BLOCKS = [block for page in PYTHON_PAGES for block in python_blocks(page)]


@pytest.mark.usefixtures("scaled_waits", "restored_logging")
@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[f"{b.page}:{b.line}" for b in PYTHON_BLOCKS])
def test_block_runs_alone(block: Block, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # checkpoints and CSV files the pages write land here
    with FakeServer(**QUICK) as server:
        monkeypatch.setenv("LEADENRICH_API_KEY", server.api_key)
        monkeypatch.setenv("LEADENRICH_BASE_URL", server.url)
        namespace: dict[str, Any] = {"__name__": "__main__"}
        loop = asyncio.new_event_loop()
        try:
            run_block(block, namespace, loop)
        finally:
            close_everything(namespace, loop)
            loop.close()


def top_level_async(code: str) -> bool:
    """Whether a block awaits outside a function: it runs only in a notebook (or IPython)."""
    tree = ast.parse(code)
    inside = {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, (ast.AsyncFunctionDef, ast.FunctionDef, ast.Lambda))
        for node in ast.walk(function)
    }
    return any(
        isinstance(node, (ast.Await, ast.AsyncFor, ast.AsyncWith)) and id(node) not in inside
        for node in ast.walk(tree)
    )


def test_a_block_says_what_it_needs_beyond_a_script() -> None:
    # A reader copies a block alone: it says itself when it is a notebook cell, and which
    # extra brings pandas.
    unsaid = []
    for block in PYTHON_BLOCKS:
        if top_level_async(block.code) and "notebook" not in block.code.splitlines()[0].lower():
            unsaid.append(
                f"{block.page}:{block.line} awaits at the top level without saying it is a notebook cell"
            )
        if re.search(r"\bpandas\b|to_pandas\(", block.code) and "leadenrich[notebook]" not in block.code:
            unsaid.append(f"{block.page}:{block.line} needs pandas without naming leadenrich[notebook]")
    assert not unsaid, "\n".join(unsaid)


def test_includes_name_tested_examples() -> None:
    included = [(b.page, path) for page in PAGES for b in blocks(page) for path in b.includes]
    assert included, "no page includes an example"
    for page, path in included:
        assert path.startswith("examples/"), f"{page} includes {path}: include examples, which are tested"
        assert (ROOT / path).is_file(), f"{page} includes {path}, which does not exist"


def test_skipped_blocks_are_few() -> None:
    skipped = [f"{b.page}:{b.line} ({b.skipped})" for page in PAGES for b in blocks(page) if b.skipped]
    # A skipped block is a snippet nobody checks: each one needs a reason that still holds.
    assert len(skipped) <= 3, skipped


def test_the_readme_s_commands_and_examples_are_said_once_in_the_site() -> None:
    # The site includes the README's sections rather than copying them: one text to
    # keep true, shown where a reader looks for it.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    start = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert '--8<-- "README.md:try"' in home
    assert home.index("README.md:try") < home.index("README.md:use"), "the key-free path comes first"
    assert '--8<-- "README.md:examples"' in start
    assert '--8<-- "README.md:pip"' in start
    try_command = next(b.code for b in blocks(ROOT / "README.md") if b.language == "bash")
    pages = [page for page in DOCS.glob("*.md") if try_command in page.read_text(encoding="utf-8")]
    assert pages == [], f"the README's first command copied into {pages}"
    assert readme.count("| `examples/quickstart.py` |") == 1
    assert not [page for page in DOCS.glob("*.md") if "| `examples/quickstart.py` |" in page.read_text()]


def test_the_home_page_says_what_the_sdk_is_once_and_shows_an_enrichment() -> None:
    home = "\n".join(expanded(DOCS / "index.md"))
    assert home.count("The typed Python SDK for the Lead Enrichment Developer API v1") == 1
    shown = [b.code for b in blocks(DOCS / "index.md") if b.language == "python"]
    assert any("client.leads.enrich_sync(" in code for code in shown), "no enrichment on the home page"


def rendered_reference(site: Path) -> str:
    """The API reference's pages as mkdocs renders them, built alone (the links to the
    guide dangle), one after the other."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = site / "docs"
    pages = sorted((DOCS / "reference").glob("*.md"))
    (docs / "reference").mkdir(parents=True)
    for page in pages:
        (docs / "reference" / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    nav = [{page.stem: f"reference/{page.name}"} for page in pages]
    config = load_config(
        str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site / "site"), nav=nav, strict=False
    )
    # mkdocstrings raises the interpreter's recursion limit and leaves it raised: restored,
    # so that the tests that run after this one on the worker see Python's own.
    limit = sys.getrecursionlimit()
    try:
        build(config)
    finally:
        sys.setrecursionlimit(limit)
    built = site / "site" / "reference"
    return "\n".join(
        (built / ("" if page.stem == "index" else page.stem) / "index.html").read_text(encoding="utf-8")
        for page in pages
    )


def shown_text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def test_the_api_reference_shows_values_and_public_names(tmp_path: Path) -> None:
    page = rendered_reference(tmp_path)
    text = shown_text(page)
    assert not re.findall(r"\bDEFAULT_[A-Z_]+", text), "a default shown as the name of a constant"
    signatures = [
        shown_text(found)
        for found in re.findall(r'<div class="doc-signature highlight">(.*?)</div>', page, re.DOTALL)
    ]
    private = sorted({name for s in signatures for name in re.findall(r"(?<![\w.])_[A-Z]\w*", s)})
    assert not private, f"private types in signatures: {private}"
    [client] = [s for s in signatures if s.startswith("LeadEnrich(")]
    # However the formatter breaks the line after `Timeout(`.
    assert re.search(r"timeout: float \| Timeout = Timeout\(\s*connect=5\.0, read=30\.0,", client), client
    assert "max_retries: int = 2," in client
    assert "http_client: httpx.Client | None = None" in client
    [async_client] = [s for s in signatures if s.startswith("AsyncLeadEnrich(")]
    assert "http_client: httpx.AsyncClient | None = None" in async_client
    # Every base a class shows is one a user can import: the SDK's public names, or another package's.
    bases = re.findall(r'<p class="doc doc-class-bases">(.*?)</p>', page, re.DOTALL)
    assert bases
    public = {*leadenrich.__all__, *testing.__all__}
    for found in bases:
        # The first name of each base is the class (`Generic` of `Generic[T]`), with its path.
        for base in re.findall(r"<code>.*?</code>", found, re.DOTALL):
            path = re.findall(r'title="([^"]+)"', base)[0].split(" (")[-1].rstrip(")")
            assert not path.startswith("leadenrich") or path.rsplit(".", 1)[-1] in public, (
                f"private base {path}: {shown_text(found)}"
            )
    assert "Bases: BaseModel" in text
    # No private name a reader cannot import: no validator, default or anchor of a private module.
    assert not re.findall(
        r"(?<![\w.])_(?:bare_domain|wrap|valid_combination|lenient_input|unwrap|listed)\b", text
    )
    assert "_rules." not in text
    anchors = re.findall(r'id="(leadenrich[^"]*)"', page)
    assert anchors
    assert not [anchor for anchor in anchors if "._" in anchor], "anchors that name a private module"


def test_the_reference_documents_each_name_where_a_reader_imports_it() -> None:
    # `from leadenrich import parse_event` fails: its page says leadenrich.webhooks, and
    # every name documented is imported from the module its identifier names.
    for page in (DOCS / "reference").glob("*.md"):
        for path in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), re.MULTILINE):
            module, _, name = path.rpartition(".")
            assert not re.search(r"(^|\.)_", path), f"{page.name}: {path} is a private path"
            assert hasattr(importlib.import_module(module), name), f"{page.name}: no {path}"
    webhooks = (DOCS / "reference" / "webhooks.md").read_text(encoding="utf-8")
    assert "from leadenrich.webhooks import parse_event" in webhooks
    assert not hasattr(leadenrich, "parse_event")


def public_surface() -> dict[str, Any]:
    """Every public class, function, method and property a user of leadenrich reaches."""
    from leadenrich import testing, webhooks
    from leadenrich._resources import email, jobs, leads, mobile

    roots: dict[str, Any] = {name: getattr(leadenrich, name) for name in leadenrich.__all__}
    roots.pop("__version__")
    for module in (leads, jobs, email, mobile):
        roots.update({name: getattr(module, name) for name in module.__all__})
    roots["webhooks.parse_event"] = webhooks.parse_event
    roots.update({f"testing.{name}": getattr(testing, name) for name in testing.__all__})
    surface = dict(roots)
    for name, obj in roots.items():
        if not inspect.isclass(obj):
            continue
        for klass in obj.__mro__:
            if not klass.__module__.startswith("leadenrich"):
                continue
            # A dataclass field whose default is a function is a setting, not a method.
            settings = (
                {f.name for f in dataclasses.fields(klass)} if dataclasses.is_dataclass(klass) else set()
            )
            for attr, member in vars(klass).items():
                # pydantic's own: its config, and the hook it sets on a model with private attributes.
                if attr.startswith("_") or attr in ("model_config", "model_post_init") or attr in settings:
                    continue
                if inspect.isfunction(member) or isinstance(member, property):
                    surface.setdefault(f"{name}.{attr}", member)
    return surface


def test_public_classes_and_methods_show_an_example() -> None:
    missing = [
        name for name, obj in sorted(public_surface().items()) if "Example" not in (inspect.getdoc(obj) or "")
    ]
    assert not missing, f"docstrings without an example: {', '.join(missing)}"


# A docstring example that talks to a service is shown, not run, and says so by what it
# uses, not by a directive that help() would show: the reader's client or server, or what
# the reader has (their rows, a response, a preview), or a client or a server it makes, or what an
# example shown before it made, or `await`. Any other name it uses without defining it
# is a mistake in the example.
READERS = frozenset(
    {"client", "server", "rows", "row", "frame", "raw", "result", "lead", "created", "pending", "outcomes"}
    | {"preview", "request_body", "exc", "pandas"}
)
MAKE_A_SERVICE = frozenset(
    {"LeadEnrich", "AsyncLeadEnrich", "FakeServer", "connect", "aconnect", "client_for", "async_client_for"}
)


def names(source: str) -> tuple[set[str], set[str], bool]:
    """The names an example uses and those it binds, and whether it awaits."""
    tree = compile(source, "<example>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    used: set[str] = set()
    bound: set[str] = set()
    awaits = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler)):
            bound.add(node.name or "")
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        awaits = awaits or isinstance(node, (ast.Await, ast.AsyncFor, ast.AsyncWith))
    return used, bound, awaits


def shown_only(test: doctest.DocTest) -> None:
    """Mark the examples of `test` that talk to a service to be skipped."""
    # The reader's names stand for the reader's objects, even where a module has its own.
    known = (set(test.globs) - READERS) | set(dir(builtins))
    live: set[str] = set()
    for example in test.examples:
        used, bound, awaits = names(example.source)
        free = used - bound - known
        unknown = free - READERS - MAKE_A_SERVICE - live
        assert not unknown, f"{test.name}: {example.source.strip()!r} uses {', '.join(sorted(unknown))}"
        if free or used & (MAKE_A_SERVICE | live) or awaits:
            example.options[doctest.SKIP] = True
        if example.options.get(doctest.SKIP):
            # What it made stands for the service's answers, even under a module's name.
            live |= bound
            known -= bound
        else:
            known |= bound
            live -= bound


def test_docstring_examples_run() -> None:
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for info in pkgutil.walk_packages(leadenrich.__path__, "leadenrich."):
        if info.name.endswith(".__main__"):
            continue  # importing it would run the command line
        module = importlib.import_module(info.name)
        for test in finder.find(module, module.__name__):
            shown_only(test)
            ran += sum(not example.options.get(doctest.SKIP) for example in test.examples)
            runner.run(test)
    assert ran > 0
    assert runner.failures == 0, "a docstring example fails: see the output above"


def test_an_example_that_talks_to_a_service_is_shown_not_run() -> None:
    parser = doctest.DocTestParser()
    docstring = """
    >>> page = client.leads.list()
    >>> page.has_next_page()
    True
    >>> server = FakeServer().start()
    >>> await client.usage()
    >>> sorted({"b": 1, "a": 2})
    ['a', 'b']
    """
    test = parser.get_doctest(docstring, {}, "example", None, 0)
    shown_only(test)
    assert [bool(example.options.get(doctest.SKIP)) for example in test.examples] == [True] * 4 + [False]
    typo = parser.get_doctest(">>> credits_lef(usage)\n", {}, "typo", None, 0)
    with pytest.raises(AssertionError, match="uses credits_lef, usage"):
        shown_only(typo)


def test_the_changelog_has_a_section_for_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.MULTILINE)
    assert released, "no released section"
    assert released[0][0] == leadenrich.__version__, "the newest section is not this version"
    assert text.index("## [Unreleased]") < text.index(f"## [{leadenrich.__version__}]")
