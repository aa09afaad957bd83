"""The playground's start-up helpers: the address it prints, and --reset."""

from __future__ import annotations

from pathlib import Path

from bot.playground.session import page_address, prepare_folder


def test_the_printed_address_can_be_opened() -> None:
    assert page_address("127.0.0.1", 8080) == "http://127.0.0.1:8080/"
    assert page_address("::1", 8081) == "http://[::1]:8081/"
    assert page_address("0.0.0.0", 8080).startswith("http://127.0.0.1:8080/ ")


def test_reset_deletes_the_database_and_log_and_nothing_else(tmp_path: Path) -> None:
    folder = tmp_path / "playground"
    prepare_folder(folder, reset=False)
    names = ["kortbord.sqlite3", "kortbord.sqlite3-wal", "bot.log", "notes.txt"]
    for name in names:
        (folder / name).write_text("x")

    prepare_folder(folder, reset=False)
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    prepare_folder(folder, reset=True)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
