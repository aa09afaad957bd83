"""The shape of the code: the floors of ``bot`` and ``cogs`` from the top down, imports that only
point down them, no import cycle anywhere (the fake Discord included), engines that never import
discord, and a host (all of ``bot`` outside a game's own package and the registry, and ``cogs``)
that never names a game. ``docs/architecture.md`` explains the floors."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from bot.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(path: Path, modules: dict[str, Path], *, typing_too: bool = False) -> set[str]:
    """The project modules ``path`` imports when it runs (``from a import b`` counts ``a.b`` if
    that is a module, else ``a``), anywhere in the file, inside functions too. Imports only for
    type checkers are not run; ``typing_too`` counts them all the same, since a module that
    names another's types depends on it as much as one that calls it."""
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                   for n in ast.walk(block)}
    for node in ast.walk(tree):
        if id(node) in typing_only and not typing_too:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if name in modules:
                    out.add(name)
                elif node.module in modules:
                    out.add(node.module)
    return out


FLOORS: tuple[tuple[str, ...], ...] = (
    # programs people and operators start: the bot, the playground, the operators' commands
    ("bot.__main__", "bot.main", "bot.preflight", "bot.playground", "bot.ops",
     "bot.healthcheck"),
    # one bot process: the Discord client, its shards and cogs, the health monitor
    ("bot.client", "bot.sharding", "bot.monitor", "cogs"),
    # the Activity: the table in a Discord Activity, a face of the table service beside the
    # Discord message (its server, sessions, scenes and streams), shown through the controllers
    ("bot.activity",),
    # the games: engines, and the faces that draw them in Discord; the registry lists them
    ("bot.games",),
    # the Discord layer: the table controller and the rooms around it
    ("bot.discord",),
    # hints and reviews: the coach weighs a seat's moves with the expert's search
    ("bot.coach",),
    # the daily deal: one committed deal a day, played against computers, scored by duplicate
    ("bot.daily",),
    # a table's life without Discord: the service, timers, computers, events, exports
    ("bot.table",),
    # ratings and the settings a process starts with
    ("bot.ratings", "bot.config"),
    # what the table keeps and shows: the database, the card pictures, the catalogs, the
    # simulator's loop
    ("bot.storage", "bot.cardart", "bot.i18n", "bot.sim"),
    # the contract between host and games: protocols, the spec, codecs, the expert's search
    ("bot.gamekit",),
    # the ground: cards, deals, errors, logs, metrics; and the fake Discord, which the tests and
    # the playground start and which imports none of the bot
    ("bot.errors", "bot.cards", "bot.deals", "bot.logs", "bot.metrics", "bot.runloop",
     "bot.collector", "bot.discord_api", "bot.fakediscord", "bot"),
)
"""The floors, top to bottom: a module may import its own floor and those below it, never one
above. A module belongs to the floor of the longest prefix that names it."""


def _floor(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for number, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                    best is None or len(prefix) > best[1]):
                best = (number, len(prefix))
    return None if best is None else best[0]


def test_every_module_stands_on_a_floor() -> None:
    assert [name for name in _modules() if _floor(name) is None] == []


def test_no_import_runs_up() -> None:
    modules = _modules()
    upward = []
    for name, path in modules.items():
        here = _floor(name)
        assert here is not None
        for imported in _imports(path, modules, typing_too=True):
            there = _floor(imported)
            if there is not None and there < here:
                upward.append(f"{name} (floor {here}) imports {imported} (floor {there})")
    assert upward == []


def test_engines_and_the_simulator_run_without_discord() -> None:
    code = (
        "import sys, importlib\n"
        "import bot.games.registry, bot.sim.generic, bot.table, bot.storage\n"
        "for spec in bot.games.registry.GAMES.values():\n"
        "    importlib.import_module(spec.engine.__module__)\n"
        "assert 'discord' not in sys.modules, sorted(m for m in sys.modules if 'discord' in m)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_no_game_module_outside_its_face_imports_discord() -> None:
    for name, path in _modules().items():
        if not name.startswith("bot.games.") or ".face" in name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "discord" or n.startswith("discord.") for n in names), name


def test_imports_form_no_cycle() -> None:
    modules = _modules()
    graph = {name: _imports(path, modules, typing_too=True) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


def test_the_host_never_names_a_game() -> None:
    words = {w.lower() for spec in GAMES.values() for w in (spec.kind, spec.name)}
    for name, path in _modules().items():
        in_a_game = any(name == f"bot.games.{k}" or name.startswith(f"bot.games.{k}.")
                        for k in GAMES)
        if in_a_game or name == "bot.games.registry":
            continue
        text = path.read_text(encoding="utf-8").lower()
        named = sorted(w for w in words if w in text)
        assert named == [], f"{name} names {named}"
