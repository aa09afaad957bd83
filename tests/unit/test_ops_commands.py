"""The operator commands live in ``bot.ops`` (``python -m bot.ops <command>``). Their older,
documented names stay as aliases that forward there by module name and import nothing of the
bot, since storage and the simulator's helpers sit below what the commands reach."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALIASES = ("bot/storage/__main__.py", "bot/verify.py", "bot/sim/__main__.py")


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False, env={"PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("alias", ALIASES)
def test_an_alias_imports_nothing_of_the_bot(alias: str) -> None:
    tree = ast.parse((ROOT / alias).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert names and not [n for n in names if n == "bot" or n.startswith("bot.")], names


@pytest.mark.parametrize("prefix", [("bot.ops",), ("bot.storage",)], ids=["ops", "alias"])
def test_audit_runs_under_its_new_and_its_old_name(tmp_path: Path, prefix: tuple[str]) -> None:
    done = _run(*prefix, "audit", str(tmp_path / "new.sqlite3"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "0 hands checked, every one sums to zero" in done.stdout
    assert done.stdout.endswith("audited: 0 failed check(s)\n")


@pytest.mark.parametrize("prefix", [("bot.ops", "verify"), ("bot.verify",)],
                         ids=["ops", "alias"])
def test_verify_runs_under_its_new_and_its_old_name(tmp_path: Path, prefix: tuple[str]) -> None:
    done = _run(*prefix, "missing.json", cwd=tmp_path)
    assert done.returncode == 2 and "kortbord: nothing to verify" in done.stderr


@pytest.mark.parametrize("prefix", [("bot.ops", "sim"), ("bot.sim",)], ids=["ops", "alias"])
def test_the_simulator_runs_under_its_new_and_its_old_name(tmp_path: Path,
                                                           prefix: tuple[str]) -> None:
    done = _run(*prefix, "tonk", "--hands", "2", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hands"] == 2 and report["invariant_violations"] == 0


def test_the_command_list_and_an_unknown_command(tmp_path: Path) -> None:
    listed = _run("bot.ops", "--help", cwd=tmp_path)
    assert listed.returncode == 0
    for command in ("copy", "backup", "restore", "audit", "rerate", "verify", "sim"):
        assert f"\n  {command} " in listed.stdout
    unknown = _run("bot.ops", "nonsense", cwd=tmp_path)
    assert unknown.returncode == 2 and "usage: python -m bot.ops" in unknown.stderr
