"""The table's layout (``bot.discord.layout``): the embed's parts in a container, the buttons
in their rows, and the text kept within Discord's 4,000 characters."""

from __future__ import annotations

import discord

from bot.discord.layout import TEXT_MAX, SeatBlocks, fit_texts, seat_blocks, table_layout


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


def _seated(lines: list[str]) -> tuple[discord.Embed, SeatBlocks]:
    embed = discord.Embed(title="Dubb — in play")
    embed.add_field(name="Play pile", value="empty")
    embed.add_field(name="Players (in turn order)", value="\n".join(lines))
    embed.add_field(name="Latest", value="Anna played 7♥")
    seats = seat_blocks("dubb", 5, "Players (in turn order)",
                        [(1, lines[0]), (-1, lines[1])], "en")
    return embed, seats


def test_each_seat_is_a_section_with_its_profile_button() -> None:
    embed, seats = _seated(["▶ **Anna**: 7 cards, to move", "• 🤖 Astrid: 7 cards"])

    [box] = table_layout(embed, None, None, None, seats).to_components()

    parts = box["components"]
    assert [p["type"] for p in parts] == [10, 10, 10, 9, 9, 10]
    assert parts[2]["content"] == "**Players (in turn order)**"
    assert [s["components"][0]["content"] for s in parts[3:5]] == [
        "▶ **Anna**: 7 cards, to move", "• 🤖 Astrid: 7 cards"]
    assert [(s["accessory"]["label"], s["accessory"]["custom_id"]) for s in parts[3:5]] == [
        ("Profile", "kb:dubb:5:profile:0:1"), ("Profile", "kb:dubb:5:profile:0:-1")]


def test_seats_whose_block_was_shortened_stay_one_text() -> None:
    embed, seats = _seated(["▶ **Anna**: 7 cards, to move", "• 🤖 Astrid: 7 cards"])
    embed.set_field_at(1, name="Players (in turn order)", value="▶ **Anna**: 7 cards, to move")

    [box] = table_layout(embed, None, None, None, seats).to_components()

    assert 9 not in [p["type"] for p in box["components"]]
    assert "**Players (in turn order)**\n▶ **Anna**" in _texts([box])[2]
