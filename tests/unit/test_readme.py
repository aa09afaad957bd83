"""Issue 36: the README in the order a newcomer reads it (what it is, try it, play, set up a bot,
run, test, run at scale; "Running in production" right after), the benchmark detail in
docs/scale.md, and every link in the README and the docs it sends readers to valid."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ORDER = ["Try it in your browser", "Play", "Set up a Discord application", "Run it", "Test it",
         "Run at scale"]
PRODUCTION = "Running in production"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _h2(text: str) -> list[str]:
    return [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def test_the_readme_reads_in_a_newcomers_order() -> None:
    text = README.read_text(encoding="utf-8")
    sections = _h2(text)
    assert [s for s in sections if s in ORDER] == ORDER
    assert sections[:len(ORDER)] == ORDER
    after = sections[len(ORDER)] if len(sections) > len(ORDER) else None
    if PRODUCTION in sections:
        assert after == PRODUCTION
    else:
        # the place kept for it, right after "Run at scale"
        assert f'"## {PRODUCTION}"' in _section(text, "Run at scale")
    play = _section(text, "Play")
    assert "### Dubb" in play and "### Tonk" in play
    assert "| `/dubb play cards:` |" in play and "| `/tonk knock` |" in play


def test_what_a_newcomer_needs_comes_first_and_the_benchmarks_live_in_docs() -> None:
    text = README.read_text(encoding="utf-8")
    try_it = _section(text, "Try it in your browser")
    assert "Python 3.11" in try_it and "venv" in try_it
    assert "token or internet needed" not in text
    assert "about 5 minutes on 2 cores" in _section(text, "Test it")
    # the load notes are a paragraph and a link, not a hundred lines before how to play
    assert "docs/scale.md" in _section(text, "Run at scale")
    assert "loop lag p99" not in text and "young collections" not in text
    scale = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    assert "young collections" in scale and "scripts/bench_discord.py --tables 200" in scale


def test_every_link_in_the_readme_and_docs_leads_somewhere() -> None:
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    checked = 0
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+://|mailto:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.relative_to(ROOT)}: {target} leads nowhere"
            if anchor and linked.suffix == ".md":
                assert anchor in _anchors(linked), f"{page.relative_to(ROOT)}: no #{anchor}"
            checked += 1
    assert checked > 10
