"""Where the fake Discord sits: inside the product package, but never used by the bot itself
(only by the playground, which runs the bot against it)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
FAKE = REPO_ROOT / "bot" / "fakediscord"
PLAYGROUND = REPO_ROOT / "bot" / "playground"
# aiohttp comes with discord.py; zstandard is optional (zstd-stream only when importable), and
# so is orjson (JSON written faster when importable)
FAKE_MAY_IMPORT = {"aiohttp", "orjson", "zstandard"}


def imported_modules(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def python_files(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py"))


@pytest.mark.parametrize(
    "path",
    [p for p in python_files(REPO_ROOT / "bot", REPO_ROOT / "cogs")
     if FAKE not in p.parents and PLAYGROUND not in p.parents],
    ids=lambda p: str(p.relative_to(REPO_ROOT)),
)
def test_the_bot_never_imports_the_fake(path: Path) -> None:
    assert not [m for m in imported_modules(path) if m.startswith("bot.fakediscord")]


@pytest.mark.parametrize(
    "path", python_files(FAKE), ids=lambda p: str(p.relative_to(REPO_ROOT))
)
def test_the_fake_needs_only_the_standard_library_and_aiohttp(path: Path) -> None:
    outside = []
    for module in imported_modules(path):
        top = module.split(".")[0]
        if top in sys.stdlib_module_names or top in FAKE_MAY_IMPORT:
            continue
        if module == "bot.fakediscord" or module.startswith("bot.fakediscord."):
            continue
        outside.append(module)
    assert outside == []


# The fake's layers, lowest first: a module may import (at run time or only for type checkers)
# modules of its own layer or below, never above. The state and the gateway know nothing of the
# REST routes or the assembly; the REST routes know the assembly's core (what they are handed),
# never the server that serves it; the driver sits on top.
FAKE_LAYERS: list[set[str]] = [
    {"attachments", "changes", "emojis", "errors", "faults", "forgery", "formdata", "intents",
     "layouts",
     "jsonvalue", "locales", "model", "ratelimit", "records", "sessions", "snowflake",
     "validation"},
    {"world", "activities", "oauth"},
    {"messages", "commands", "clientrpc"},
    {"interactions", "webhooks", "gateway"},
    {"core"},
    {"restkit", "routes_commands", "routes_guilds", "routes_messages", "routes_oauth",
     "routes_webhooks", "routes_client", "discordsays", "rest"},
    {"server"},
    {"results", "slashdata", "componentdata"},
    {"driver"},
    {"__init__", "__main__"},
]


def fake_imports(path: Path) -> set[str]:
    """The fake's modules ``path`` imports, type checkers' imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "bot.fakediscord":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("bot.fakediscord."):
                found.add(node.module.removeprefix("bot.fakediscord."))
    return found


def test_every_module_of_the_fake_has_a_layer() -> None:
    layered = set().union(*FAKE_LAYERS)
    assert {p.stem for p in FAKE.glob("*.py")} == layered


@pytest.mark.parametrize(
    "path", sorted(FAKE.glob("*.py")), ids=lambda p: str(p.relative_to(REPO_ROOT))
)
def test_the_fake_imports_only_its_own_layer_and_below(path: Path) -> None:
    level = {name: n for n, layer in enumerate(FAKE_LAYERS) for name in layer}
    above = sorted(m for m in fake_imports(path) if level.get(m, 0) > level[path.stem])
    assert above == [], f"{path.stem} imports {above} from a higher layer"
