"""The table's layout (``bot.discord.layout``): the embed's parts in a container, the buttons
in their rows, and the text kept within Discord's 4,000 characters."""

from __future__ import annotations

import discord

from bot.discord.layout import TEXT_MAX, fit_texts, table_layout


def _texts(components: list[dict[str, object]]) -> list[str]:
    out: list[str] = []
    for c in components:
        if c.get("type") == 10:
            out.append(str(c["content"]))
        out += _texts(c.get("components") or [])  # type: ignore[arg-type]
    return out


def test_the_embeds_parts_and_the_buttons_rows_go_into_one_container() -> None:
    embed = discord.Embed(title="Dubb — in play", description="Anna to move", colour=0x2E7D32)
    embed.add_field(name="Latest", value="Bo drew 1 card")
    embed.set_footer(text="Options: 1 pack")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Draw", custom_id="draw"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    view.add_item(discord.ui.Button(label="Pass", custom_id="pass", row=1))

    [box] = table_layout(embed, view, "<@1> to move.", None).to_components()

    assert (box["type"], box["accent_color"]) == (17, 0x2E7D32)
    assert _texts([box]) == [
        "<@1> to move.",
        "## Dubb — in play\nAnna to move",
        "**Latest**\nBo drew 1 card",
        "-# Options: 1 pack",
    ]
    rows = [[c.get("label") for c in r["components"]] for r in box["components"] if r["type"] == 1]
    assert rows == [["Draw", "Rules"], ["Pass"]]
    assert view.children == []  # its items moved into the layout


def test_text_over_4000_characters_loses_its_oldest_lines_first() -> None:
    heading = "## Dubb — game over\n" + "\n".join(f"line {i} " + "x" * 50 for i in range(80))
    latest = "**Latest**\n" + "\n".join(f"move {i}" for i in range(6))
    fitted = fit_texts(["<@1> to move."], [heading, latest], ["-# Options"])

    assert sum(len(t) for t in fitted) <= TEXT_MAX
    assert fitted[0] == "<@1> to move." and fitted[-1] == "-# Options"
    assert fitted[1].startswith("## Dubb — game over\n") and "line 79 " in fitted[1]
    assert "line 0 " not in fitted[1] and fitted[2] == latest
