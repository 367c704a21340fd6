"""`leadenrich mcp`'s options, and the command without the extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

from leadenrich._cli import main
from tests.test_import_cost import loaded_after

# The mcp package, and the server's own modules: neither loads before the command runs.
SERVER = ("mcp", "leadenrich._mcp", "leadenrich._cli._mcp")


def test_without_the_extra_the_command_says_how_to_install_it() -> None:
    # An interpreter where `import mcp` fails as it does when the extra is not installed.
    code = "import sys; sys.modules['mcp'] = None\nfrom leadenrich._cli import main\nsys.exit(main(['mcp', '--fake']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        "leadenrich: error: `leadenrich mcp` needs the mcp extra, which is not installed: "
        "pip install 'leadenrich[mcp]'\n"
    )
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["mcp", "--max-credits", "-1"], "must be 0 or more, or 'none'"),
        (["mcp", "--max-credits", "lots"], "not a whole number or 'none'"),
        (["mcp", "--confirm-above", "x"], "or 'never'"),
        (["mcp", "--transport", "sse"], "invalid choice"),
        (["mcp", "--port", "0"], "a port is 1 to 65535"),
    ],
)
def test_bad_options_are_usage_errors(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert says in capsys.readouterr().err


def test_fake_takes_no_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--fake", "--api-key", "le_live_mine_0123456789"]) == 2
    err = capsys.readouterr().err
    assert "--fake serves the bundled fake server with its own key" in err
    assert "le_live_mine" not in err


def test_the_help_names_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "serve the API as tools for AI agents" in capsys.readouterr().out


def test_the_cli_starts_without_loading_the_server() -> None:
    code = "import leadenrich\nfrom leadenrich._cli._parser import build_parser\nbuild_parser()"
    assert loaded_after(code, SERVER) == []
    assert loaded_after("from leadenrich._cli import _mcp", SERVER) == ["leadenrich._cli._mcp"]
    # The probe sees the server when it is loaded.
    assert loaded_after("import leadenrich._mcp", SERVER) == ["mcp", "leadenrich._mcp"]


def test_making_the_server_leaves_the_logging_configuration_alone() -> None:
    code = (
        "import logging, pathlib\n"
        "from leadenrich import AsyncLeadEnrich\n"
        "from leadenrich._mcp import CreditCap, ServerState, build_server\n"
        "client = AsyncLeadEnrich(api_key='le_live_x', base_url='https://api.test')\n"
        "build_server(ServerState(client, CreditCap(1), None, pathlib.Path('.')))\n"
        "root = logging.getLogger()\n"
        "print(root.handlers, logging.getLevelName(root.level))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["[]", "WARNING"]
