"""The shape of the package: every module on the architecture page, imports in one
direction, an SDK that works without its fake server, and a command line and a fake
server built on the SDK's public names."""

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


def module_paths() -> dict[str, Path]:
    """Every leadenrich module by its dotted name."""
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (ROOT / "leadenrich").rglob("*.py")
    }


def imports(name: str, path: Path, paths: dict[str, Path]) -> list[tuple[str, list[str]]]:
    """What a module imports, TYPE_CHECKING ones included: each target module, with the
    names taken from it (none for `import x`)."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            parts = here.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            base = ".".join(filter(None, [base, node.module or ""]))
            for alias in node.names:
                # `from . import _clock` imports a module; `from ._models import LeadIn` a name.
                submodule = f"{base}.{alias.name}"
                found.append((submodule, []) if submodule in paths else (base, [alias.name]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    """Which leadenrich modules each leadenrich module imports, TYPE_CHECKING ones included."""
    paths = module_paths()
    return {
        name: {target for target, _ in imports(name, path, paths) if target in paths and target != name}
        for name, path in paths.items()
    }


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
        # The CLI's fake-server and `mcp --fake` commands serve it; everything else must
        # work without it.
        if name.startswith(("leadenrich.testing", "leadenrich._cli")):
            continue
        assert not any(t.startswith("leadenrich.testing") for t in targets), name


# The fake server's modules that may reach into the SDK beyond its public names: the
# bridge to the clients, and the fake's core reading and writing the SDK's models.
BRIDGE = "leadenrich.testing._connect"
MODELS = "leadenrich._models"
# How a package loads its names on first use: plumbing of the import system, no SDK logic.
LAZY = "leadenrich._lazy"
# The command line and the MCP server: users of the SDK's public names, as a script is.
MCP = "leadenrich._mcp"
USERS = ("leadenrich._cli", MCP)
MAX_FAKE_MODULE_LINES = 300


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(f"{package}.")


def test_the_cli_the_mcp_server_and_the_fake_use_the_public_api() -> None:
    import leadenrich
    import leadenrich.testing
    import leadenrich.webhooks

    public = {
        module.__name__: set(module.__all__)
        for module in (leadenrich, leadenrich.testing, leadenrich.webhooks)
    }
    paths = module_paths()
    wrong: list[str] = []
    for name, path in sorted(paths.items()):
        package = next((p for p in (*USERS, "leadenrich.testing") if within(name, p)), None)
        if package is None or name == BRIDGE:
            continue
        for target, names in imports(name, path, paths):
            if not within(target, "leadenrich") or within(target, package):
                continue
            if package == "leadenrich._cli" and within(target, MCP):
                continue  # the mcp command runs the MCP server
            if package == "leadenrich.testing" and target in (MODELS, LAZY):
                continue
            if target not in public:
                wrong.append(f"{name} imports the private module {target}")
            elif set(names) - public[target]:
                wrong.append(f"{name} imports {', '.join(sorted(set(names) - public[target]))} from {target}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_no_module_of_the_fake_server_is_long() -> None:
    # The fake grew into one 600-line class once; a subject per module keeps each readable.
    lengths = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "leadenrich" / "testing").glob("*.py")
    }
    long = {name: length for name, length in lengths.items() if length > MAX_FAKE_MODULE_LINES}
    assert not long, f"over {MAX_FAKE_MODULE_LINES} lines: {long}"
