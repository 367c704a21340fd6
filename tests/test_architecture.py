"""The shape of the package: every module on the architecture page, imports in one
direction, and an SDK that works without its fake server."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_every_module_is_on_the_architecture_page() -> None:
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    package = ROOT / "leadenrich"
    modules = [f"`{path.name}`" for path in package.glob("*.py")]
    subpackages = [f"`{path.parent.name}/`" for path in package.glob("*/__init__.py")]
    missing = [name for name in sorted(modules + subpackages) if name not in page]
    assert not missing, f"docs/architecture.md does not mention {', '.join(missing)}"


def import_graph() -> dict[str, set[str]]:
    """Which leadenrich modules each leadenrich module imports, TYPE_CHECKING ones included."""
    package = ROOT / "leadenrich"
    paths = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in package.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                parts = here.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
                base = ".".join(filter(None, [base, node.module or ""]))
                # `from . import _clock` imports a module; `from ._models import LeadIn` a package.
                targets.update(
                    f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names
                )
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[name] = {target for target in targets if target in paths and target != name}
    return graph


def test_modules_import_in_one_direction() -> None:
    graph = import_graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = " -> ".join([*path[path.index(name) :], name])
            raise AssertionError(f"import cycle: {cycle}")
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_sdk_never_imports_the_fake_server() -> None:
    for name, targets in import_graph().items():
        # The CLI's fake-server command serves it; everything else must work without it.
        if name.startswith(("leadenrich.testing", "leadenrich._cli")):
            continue
        assert not any(t.startswith("leadenrich.testing") for t in targets), name
