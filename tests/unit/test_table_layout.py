"""The table's layout (``bot.discord.layout``): the embed's parts in a container, the buttons
in their rows, and the text kept within Discord's 4,000 characters."""

from __future__ import annotations

import io

import discord

from bot.cardart import CardImage
from bot.discord.layout import (
    TEXT_MAX,
    SeatBlocks,
    answer_layout,
    fit_texts,
    panel_layout,
    seat_blocks,
    table_layout,
)


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


def _reference(embed: discord.Embed, rows: list[list[discord.ui.Item[discord.ui.LayoutView]]],
               texts: list[str], seats: SeatBlocks | None, image: tuple[str, str] | None,
               files: list[str]) -> list[dict[str, object]]:
    """The same layout built of discord.py's own objects, serialised by discord.py."""
    container = discord.ui.Container(accent_colour=embed.colour)
    for text in texts:
        if seats is not None and text.startswith(f"**{seats.field}**\n"):
            container.add_item(discord.ui.TextDisplay(f"**{seats.field}**"))
            for line, profile in zip(seats.lines, seats.buttons, strict=True):
                container.add_item(discord.ui.Section(line, accessory=discord.ui.Button(
                    label=profile.label, custom_id=profile.custom_id, style=profile.style)))
            continue
        container.add_item(discord.ui.TextDisplay(text))
    if image is not None:
        container.add_item(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{image[0]}", description=image[1])))
    for filename in files:
        container.add_item(discord.ui.File(f"attachment://{filename}"))
    for row in rows:
        container.add_item(discord.ui.ActionRow(*row))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    return layout.to_components()


def test_the_layout_is_what_discord_py_would_send_for_the_same_items() -> None:
    # the layout is plain data (issue 44): byte for byte what discord.py's LayoutView of the
    # same container, texts, sections, gallery, files and rows serialises to
    embed, seats = _seated(["▶ **Anna**: 7 cards, to move", "• 🤖 Astrid: 7 cards"])
    embed.colour = discord.Colour(0x2E7D32)
    embed.set_footer(text="Options: 1 pack")
    pick = discord.ui.Select(custom_id="ks:dubb:5:play:3", placeholder="Play…", options=[
        discord.SelectOption(label="7♥", value="7h", emoji=discord.PartialEmoji(name="c7h", id=9))])

    def items() -> list[discord.ui.Item[discord.ui.View]]:
        return [discord.ui.Button(label="Draw", custom_id="kb:dubb:5:draw:3"),
                discord.ui.Button(label="Rules", url="https://example.com/rules"),
                discord.ui.Select(custom_id=pick.custom_id, placeholder=pick.placeholder,
                                  options=pick.options)]

    view = discord.ui.View(timeout=None)
    for item in items():
        view.add_item(item)
    image = discord.File(io.BytesIO(b"png"), filename="table.png",
                         description="Anna's 7♥ on the pile")
    got = answer_layout(embed, view, content="<@1> to move.", picture=image, seats=seats,
                        files=[discord.File(io.BytesIO(b"{}"), filename="table.json")]
                        ).to_components()

    texts = ["<@1> to move.", "## Dubb — in play", "**Play pile**\nempty",
             "**Players (in turn order)**\n" + "\n".join(seats.lines),
             "**Latest**\nAnna played 7♥", "-# Options: 1 pack"]
    first, second, third = items()
    assert got == _reference(embed, [[first, second], [third]], texts, seats,
                             ("table.png", "Anna's 7♥ on the pile"), ["table.json"])

    # a hand panel: its text, the hand's picture, its moves; no accent colour
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Pass", custom_id="kb:dubb:5:pass:3"))
    hand = CardImage(b"png", "Your hand: 7♥", 10, 10, "hand.png")
    panel = discord.ui.LayoutView(timeout=None)
    panel.add_item(discord.ui.Container(
        discord.ui.TextDisplay("Your hand"),
        discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://hand.png",
                                                         description="Your hand: 7♥")),
        discord.ui.ActionRow(discord.ui.Button(label="Pass", custom_id="kb:dubb:5:pass:3"))))
    assert panel_layout("Your hand", view, hand).to_components() == panel.to_components()
    assert view.children == []
