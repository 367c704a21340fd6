"""docs/cli.md stays true: its command lines parse, every command has one, the exit codes match."""

from __future__ import annotations

import re
import shlex
from importlib import import_module
from pathlib import Path

import pytest

from leadenrich._cli import _HANDLERS
from leadenrich._cli._exit_codes import EXIT_CODES
from leadenrich._cli._parser import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def command_lines() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.startswith("leadenrich ")]


@pytest.mark.parametrize("line", command_lines())
def test_each_documented_command_line_parses(line: str) -> None:
    args = build_parser().parse_args(shlex.split(line)[1:])
    assert args.command in _HANDLERS


def test_every_command_has_an_example() -> None:
    documented = {build_parser().parse_args(shlex.split(line)[1:]).command for line in command_lines()}
    assert documented == set(_HANDLERS)


def test_every_command_has_a_handler() -> None:
    for module, name in _HANDLERS.values():
        assert callable(getattr(import_module(module, "leadenrich._cli"), name))


def test_the_exit_code_table_is_the_commands() -> None:
    rows = re.findall(r"^\| (\d+) \|", PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert [int(code) for code in rows] == [int(code) for code, _ in EXIT_CODES]
