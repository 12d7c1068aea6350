"""The fake Discord's Components V2: discord.py's layout views (containers, text displays, sections,
action rows) go through it like through Discord, its limits are Discord's (40 components, 4,000
characters of text, 25 options, 100-character custom ids, no content beside them, the flag kept by
edits), and a message can be looked at as text and as a phone-sized picture."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.ext import commands
from PIL import Image

from harness.fakediscord import ApiError, FakeDiscord, running_bot, validation
from harness.fakediscord.layout import V2_FLAG
from tests.helpers.fake_server import Server, make_server


class Pick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pick:(?P<n>\d+)"):
    def __init__(self, n: int, chosen: str | None = None) -> None:
        options = [
            discord.SelectOption(label=f"A PAR → {p}", value=p, default=p == chosen) for p in ("BUR", "GAS")
        ]
        super().__init__(
            discord.ui.Select(custom_id=f"pick:{n}", options=options, placeholder="A PAR: no order yet")
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Pick:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = str(self.item.values[0])
        await interaction.response.edit_message(view=sheet(chosen))


def sheet(chosen: str | None = None) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=discord.Colour.from_rgb(40, 90, 200)
    )
    box.add_item(discord.ui.TextDisplay("### France · Spring 1901\n**1 unit**, `A PAR`"))
    box.add_item(discord.ui.ActionRow(Pick(1, chosen)))
    box.add_item(
        discord.ui.Section(
            discord.ui.TextDisplay("Done?"),
            accessory=discord.ui.Button(label="Ready", custom_id="ready", style=discord.ButtonStyle.success),
        )
    )
    view.add_item(box)
    return view


class LayoutBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

        @self.tree.command(name="sheet", description="A layout, privately")
        async def show(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(view=sheet(), ephemeral=True)

        @self.tree.command(name="flip", description="Try to edit a layout back into content")
        async def flip(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)  # the test runs it in #general
            message = await interaction.channel.send(view=sheet())
            try:
                await message.edit(content="plain again", view=None)
            except discord.HTTPException as exc:
                await interaction.response.send_message(f"refused {exc.status} {exc.code}", ephemeral=True)
                return
            await interaction.response.send_message("edited", ephemeral=True)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Pick)
        await self.tree.sync()


@pytest.fixture
async def server(fake: FakeDiscord) -> Server:
    return await make_server(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, server: Server) -> AsyncIterator[LayoutBot]:
    async with running_bot(LayoutBot(), fake) as client:
        yield client
    assert fake.unknown_calls == []


async def test_a_layout_view_round_trip_and_its_views(
    fake: FakeDiscord, server: Server, bot: LayoutBot
) -> None:
    shown = await (await fake.slash(server.alice, "sheet", channel=server.general)).message()
    assert shown.ephemeral and shown.flags & V2_FLAG and shown.content == "", "the deferred answer became V2"
    text = fake.text_view(shown)
    assert "France · Spring 1901" in text and "[▾ A PAR: no order yet]" in text and "(Ready)" in text
    picked = await (await fake.click(server.alice, shown, "pick:1", values=["BUR"])).message()
    assert picked.id == shown.id and "[▾ A PAR → BUR]" in fake.text_view(picked)
    png = fake.screenshot(picked)
    image = Image.open(io.BytesIO(png))
    assert image.width == 780 and 150 < image.height < 800
    assert image.convert("RGB").getpixel((5, 5)) == (49, 51, 56), "Discord's dark background"


async def test_a_layout_cannot_be_edited_back_into_content(
    fake: FakeDiscord, server: Server, bot: LayoutBot
) -> None:
    answer = await (await fake.slash(server.alice, "flip", channel=server.general)).message()
    assert answer.content == "refused 400 50035"


def layout(*children: dict[str, Any]) -> dict[str, Any]:
    return {"flags": V2_FLAG, "components": list(children)}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(custom_id: str, options: int = 2, **extra: Any) -> dict[str, Any]:
    choices = [{"label": f"Option {i}", "value": f"v{i}"} for i in range(options)]
    return {"type": 3, "custom_id": custom_id, "options": choices, **extra}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


REFUSED = {
    "41 components": layout(container(*[text(f"line {i}") for i in range(40)])),
    "4001 characters of text": layout(text("x" * 2001), text("y" * 2000)),
    "a select of 26 options": layout(row(select("s", options=26))),
    "a custom id of 101 characters": layout(row(button("b" * 101))),
    "two equal custom ids": layout(container(row(button("same")), row(button("same")))),
    "content beside the layout": {**layout(text("hi")), "content": "and words"},
    "a section without an accessory": layout({"type": 9, "components": [text("hi")]}),
    "a section of four texts": layout(
        {"type": 9, "components": [text("a"), text("b"), text("c"), text("d")], "accessory": button("b")}
    ),
    "a select beside a button": layout(row(select("s"), button("b"))),
    "six buttons in a row": layout(row(*[button(f"b{i}") for i in range(6)])),
    "a container in a container": layout(container(container(text("hi")))),
    "a text display without the flag": {"components": [text("hi")]},
    "six action rows without the flag": {
        "content": "x",
        "components": [row(button(f"b{i}")) for i in range(6)],
    },
    "an option label of 101 characters": layout(
        row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})
    ),
    "two default options in a single select": layout(
        row(
            {
                "type": 3,
                "custom_id": "s",
                "options": [
                    {"label": "a", "value": "a", "default": True},
                    {"label": "b", "value": "b", "default": True},
                ],
            }
        )
    ),
    "a button label of 81 characters": layout(row(button("b", "l" * 81))),
    "an empty text display": layout(text("")),
}


@pytest.mark.parametrize("what", sorted(REFUSED))
def test_discord_refuses_what_breaks_its_component_rules(what: str) -> None:
    with pytest.raises(ApiError) as refused:
        validation.message_payload(REFUSED[what], has_files=False)
    assert refused.value.status == 400 and refused.value.code == 50035


def test_what_fits_is_taken() -> None:
    full = layout(
        container(
            text("x" * 3000),
            *[row(select(f"s{i}")) for i in range(12)],
            row(*[button(f"b{i}") for i in range(4)]),
        ),
        text("y" * 1000),
    )
    validation.message_payload(full, has_files=False)  # 1 + 1 + 24 + 5 + 1 = 32 components, 4,000 characters
    validation.message_payload(
        {"content": "x", "components": [row(button(f"b{i}")) for i in range(5)]}, has_files=False
    )
    with pytest.raises(ApiError):
        validation.message_payload({"content": "x"}, has_files=False, editing=True, was_v2=True)
    validation.message_payload({"components": [text("still V2")]}, has_files=False, editing=True, was_v2=True)
