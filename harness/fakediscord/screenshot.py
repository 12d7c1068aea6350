"""A message as a player sees it, for review: as text (:func:`message_text_view`) and as a phone-sized
picture in Discord's dark theme (:func:`message_png`).

Both read the message the fake holds (content, embeds, classic and Components V2 components) and
show what the client shows: a select shows the option marked ``default`` (the choice it holds) or its
placeholder, buttons their labels in their style's colour, a container its accent bar, text displays
and embeds their markdown (headings, bold, code, subtext; timestamps and mentions written out). It is
a reviewer's approximation of Discord's client, not a pixel copy: fonts are DejaVu, emoji that the
font lacks are dropped.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .state import Message
from .world import World

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
SELECTS = (3, 5, 6, 7, 8)

# --- as text -------------------------------------------------------------------------------------------


def message_text_view(world: World, message: Message) -> str:
    """The message as lines of text: what a player reads, and what each control shows."""
    lines = [f"{_author(world, message)}" + ("  (only you can see this)" if message.ephemeral else "")]
    if message.content:
        lines += [_plain(world, message.content)]
    for embed in message.embeds:
        lines.append("┃ " + _plain(world, embed.get("title") or ""))
        lines += ["┃ " + x for x in _plain(world, embed.get("description") or "").splitlines()]
        for field in embed.get("fields", []):
            lines.append(f"┃ {_plain(world, field['name'])}: {_plain(world, field['value'])}")
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            lines.append(f"┃ ({footer})")
    for component in message.components:
        lines += _component_lines(world, component, "")
    lines += [f"[file] {a.filename}" for a in message.attachments]
    return "\n".join(lines)


def _component_lines(world: World, component: dict[str, Any], indent: str) -> list[str]:
    kind = component.get("type")
    if kind == 17:
        inner = [x for c in component.get("components", []) for x in _component_lines(world, c, "")]
        return [f"{indent}┌──"] + [f"{indent}│ {x}" for x in inner] + [f"{indent}└──"]
    if kind == 10:
        return [indent + x for x in _plain(world, component.get("content") or "").splitlines()]
    if kind == 9:
        texts = [x for c in component.get("components", []) for x in _component_lines(world, c, "")]
        accessory = component.get("accessory") or {}
        return [indent + " ".join(texts) + "   " + _control(accessory)]
    if kind == 14:
        return [indent + "────"]
    if kind == 1:
        return [indent + "  ".join(_control(c) for c in component.get("components", []))]
    return [indent + _control(component)]


def _control(component: dict[str, Any]) -> str:
    kind = component.get("type")
    off = " (off)" if component.get("disabled") else ""
    if kind == 2:
        emoji = (component.get("emoji") or {}).get("name") or ""
        label = " ".join(x for x in (emoji, component.get("label") or "") if x)
        return f"({label}){off}"
    if kind in SELECTS:
        return f"[▾ {select_shows(component)}]{off}"
    return f"<component {kind}>"


def select_shows(component: dict[str, Any]) -> str:
    """What a closed select shows: its chosen option's label, else its placeholder."""
    chosen = [o["label"] for o in component.get("options", []) if o.get("default")]
    return ", ".join(chosen) if chosen else component.get("placeholder") or "Make a selection"


def _author(world: World, message: Message) -> str:
    user = world.users.get(message.author_id)
    return (user.global_name or user.username) if user is not None else str(message.author_id)


MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|<#(\d+)>|<t:(-?\d+)(?::([tTdDfFR]))?>")


def _plain(world: World, text: str) -> str:
    """Discord's markup written out: mentions as names, timestamps as dates, escapes removed."""

    def spell(match: re.Match[str]) -> str:
        user, role, channel, stamp, style = match.groups()
        if user:
            found = world.users.get(int(user))
            return "@" + (found.global_name or found.username if found else user)
        if role:
            for guild in world.guilds.values():
                if int(role) in guild.roles:
                    return "@" + guild.roles[int(role)].name
            return "@role"
        if channel:
            place = world.channels.get(int(channel))
            return "#" + (place.name if place is not None and place.name else "channel")
        return _timestamp(int(stamp), style or "f")

    return re.sub(r"\\([\\`*_~|>#\-\[\]()])", r"\1", MENTION.sub(spell, text))


# Emoji the DejaVu fonts lack, as the nearest sign they have (others are left out).
EMOJI = {"✅": "✓", "❌": "✗", "⚠️": "⚠", "⚠": "⚠", "▫️": "·", "👆": "", "📝": "", "🗺️": "", "◀️": "◀", "⏫": "▲"}
NO_GLYPH = re.compile("[\U0001f000-\U0001faff\ufe0f\u2705\u274c]")


def _drawable(text: str) -> str:
    for emoji, sign in EMOJI.items():
        text = text.replace(emoji, sign)
    return NO_GLYPH.sub("", text)


def _timestamp(seconds: int, style: str) -> str:
    moment = datetime.fromtimestamp(seconds, UTC)
    if style == "R":
        delta = (moment - datetime.now(UTC)).total_seconds()
        if abs(delta) < 45:
            return "in a few seconds" if delta > 0 else "a few seconds ago"
        size, unit = abs(delta), "seconds"
        for limit, name in ((60, "minute"), (3600, "hour"), (86400, "day")):
            if abs(delta) >= limit:
                size, unit = abs(delta) / limit, name
        amount = round(size)
        words = f"{amount} {unit}{'' if amount == 1 or unit == 'seconds' else 's'}"
        return f"in {words}" if delta >= 0 else f"{words} ago"
    if style in ("t", "T"):
        return moment.strftime("%H:%M")
    if style in ("d", "D"):
        return moment.strftime("%d %B %Y")
    return moment.strftime("%A %d %B %Y %H:%M")


# --- as a picture ---------------------------------------------------------------------------------------

BACKGROUND = (49, 51, 56)
CONTAINER = (43, 45, 49)
SELECT_BOX = (30, 31, 34)
SELECT_BORDER = (30, 31, 34)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
WHITE = (255, 255, 255)
CODE = (30, 31, 34)
BUTTON_COLOURS = {
    "primary": (88, 101, 242),
    "secondary": (78, 80, 88),
    "success": (36, 128, 70),
    "danger": (218, 55, 60),
    "link": (78, 80, 88),
    "premium": (78, 80, 88),
}
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path(__file__).resolve().parents[2] / "data" / "fonts")


@dataclass(frozen=True)
class Fonts:
    regular: Any
    bold: Any
    small: Any
    big: Any
    mono: Any


def _font(names: Iterable[str], size: int) -> Any:
    for folder in FONT_DIRS:
        for name in names:
            path = folder / name
            if path.exists():
                return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def _fonts(scale: int) -> Fonts:
    regular = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
    bold = ("DejaVuSans-Bold.ttf",)
    return Fonts(
        regular=_font(regular, 15 * scale),
        bold=_font(bold, 15 * scale),
        small=_font(regular, 12 * scale),
        big=_font(bold, 19 * scale),
        mono=_font(("DejaVuSansMono.ttf", *regular), 14 * scale),
    )


@dataclass
class _Run:
    text: str
    font: Any
    colour: tuple[int, int, int]
    code: bool = False


class _Painter:
    """Lays the message out top to bottom on a phone-wide canvas (drawn twice: to measure, then to paint)."""

    def __init__(
        self,
        world: World,
        width: int,
        scale: int,
        draw: ImageDraw.ImageDraw | None,
        expanded: str | None = None,
    ) -> None:
        self.world, self.width, self.s, self.draw = world, width * scale, scale, draw
        self.fonts = _fonts(scale)
        self.y = 0
        self.expanded = expanded  # the custom_id of a select drawn open, its options listed
        self.files: dict[str, bytes] = {}  # the message's attachments, for its media galleries
        self.canvas: Image.Image | None = None  # the picture drawn on (pictures are pasted on it)

    def px(self, n: float) -> int:
        return round(n * self.s)

    # text

    def markdown(self, text: str, left: int, right: int) -> None:
        for raw in _plain(self.world, text).splitlines() or [""]:
            font, colour, line = self.fonts.regular, TEXT, raw
            if line.startswith("### ") or line.startswith("## ") or line.startswith("# "):
                font, line = self.fonts.big, line.split(" ", 1)[1]
            elif line.startswith("-# "):
                font, colour, line = self.fonts.small, MUTED, line[3:]
            if not line.strip():
                self.y += self.px(8)
                continue
            self.paragraph(_runs(line, font, colour, self.fonts), left, right)

    def paragraph(self, runs: list[_Run], left: int, right: int) -> None:
        """Words wrapped between ``left`` and ``right``."""
        words: list[tuple[str, _Run]] = []
        for run in runs:
            for word in [run.text] if run.code else re.split(r"(\s+)", run.text):
                if word:
                    words.append((word, run))
        height = max((self._height(r.font) for r in runs), default=self._height(self.fonts.regular))
        x = left
        line_words: list[tuple[int, str, _Run]] = []
        for word, run in words:
            w = self._width(word, run.font)
            if x + w > right and line_words and not word.isspace():
                self._flush(line_words, height)
                x, line_words = left, []
            if word.isspace() and not line_words:
                continue
            line_words.append((x, word, run))
            x += w
        self._flush(line_words, height)

    def _flush(self, words: list[tuple[int, str, _Run]], height: int) -> None:
        if self.draw is not None:
            for x, word, run in words:
                if run.code and not word.isspace():
                    w = self._width(word, run.font)
                    self.draw.rounded_rectangle(
                        (x - 2, self.y, x + w + 2, self.y + height), radius=self.px(3), fill=CODE
                    )
                self.draw.text((x, self.y), _drawable(word), font=run.font, fill=run.colour)
        self.y += height + self.px(4)

    def _width(self, text: str, font: Any) -> int:
        return int(font.getlength(_drawable(text)))

    def _height(self, font: Any) -> int:
        top, bottom = font.getbbox("Ag")[1::2]
        return int(bottom - 0 + self.px(3)) if top >= 0 else int(bottom - top)

    # blocks

    def header(self, message: Message) -> None:
        pad = self.px(16)
        if self.draw is not None:
            r = self.px(20)
            self.draw.ellipse((pad, self.y, pad + 2 * r, self.y + 2 * r), fill=(88, 101, 242))
            self.draw.text((pad + self.px(9), self.y + self.px(9)), "D", font=self.fonts.bold, fill=WHITE)
            name_x = pad + 2 * r + self.px(12)
            self.draw.text((name_x, self.y), _author(self.world, message), font=self.fonts.bold, fill=WHITE)
            tag_x = name_x + self._width(_author(self.world, message), self.fonts.bold) + self.px(6)
            self.draw.rounded_rectangle(
                (tag_x, self.y + self.px(2), tag_x + self.px(30), self.y + self.px(18)),
                radius=self.px(3),
                fill=(88, 101, 242),
            )
            self.draw.text(
                (tag_x + self.px(4), self.y + self.px(3)), "APP", font=self.fonts.small, fill=WHITE
            )
        self.y += self.px(24)

    def message(self, message: Message) -> None:
        left, right = self.px(68), self.width - self.px(12)
        self.y = self.px(16)
        self.files = message.files()
        self.header(message)
        if message.content:
            self.markdown(message.content, left, right)
        for embed in message.embeds:
            self.embed(embed, left, right)
        for component in message.components:
            self.component(component, left, right)
            self.y += self.px(6)
        shown = {url.removeprefix("attachment://") for url in _gallery_urls(message.components)}
        for attachment in message.attachments:
            if attachment.filename in shown:  # drawn where a media gallery shows it
                continue
            self.paragraph([_Run(f"[file] {attachment.filename}", self.fonts.small, MUTED)], left, right)
        if message.ephemeral:
            self.y += self.px(4)
            self.paragraph(
                [_Run("Only you can see this · Dismiss message", self.fonts.small, (0, 168, 252))],
                left,
                right,
            )
        self.y += self.px(16)

    def _measured(self) -> _Painter:
        """A painter that only measures, from where this one is."""
        twin = _Painter(self.world, self.width // self.s, self.s, None, self.expanded)
        twin.y = self.y
        twin.files = self.files
        return twin

    def _panel(
        self, left: int, top: int, right: int, bottom: int, accent: tuple[int, int, int] | None
    ) -> None:
        """A panel's background, with its accent bar on the left."""
        if self.draw is None:
            return
        self.draw.rounded_rectangle((left, top, right, bottom), radius=self.px(8), fill=CONTAINER)
        if accent is not None:
            self.draw.rounded_rectangle(
                (left, top, left + self.px(4), bottom), radius=self.px(2), fill=accent
            )

    def embed(self, embed: dict[str, Any], left: int, right: int) -> None:
        colour = embed.get("color")
        if self.draw is not None:
            twin = self._measured()
            twin._embed_body(embed, left, right)
            self._panel(left, self.y, right, twin.y, _rgb(colour) if colour is not None else (32, 34, 37))
        self._embed_body(embed, left, right)
        self.y += self.px(6)

    def _embed_body(self, embed: dict[str, Any], left: int, right: int) -> None:
        self.y += self.px(10)
        inner_left, inner_right = left + self.px(14), right - self.px(10)
        if embed.get("title"):
            self.paragraph(_runs(embed["title"], self.fonts.bold, WHITE, self.fonts), inner_left, inner_right)
        if embed.get("description"):
            self.markdown(embed["description"], inner_left, inner_right)
        for field in embed.get("fields", []):
            self.paragraph([_Run(field["name"], self.fonts.bold, WHITE)], inner_left, inner_right)
            self.markdown(field["value"], inner_left, inner_right)
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            self.paragraph([_Run(footer, self.fonts.small, MUTED)], inner_left, inner_right)
        self.y += self.px(10)

    def _container_body(self, component: dict[str, Any], left: int, right: int) -> None:
        self.y += self.px(12)
        inner_left, inner_right = left + self.px(16), right - self.px(12)
        for child in component.get("components", []):
            self.component(child, inner_left, inner_right)
            self.y += self.px(6)
        self.y += self.px(6)

    def component(self, component: dict[str, Any], left: int, right: int) -> None:
        kind = component.get("type")
        if kind == 17:
            if self.draw is not None:
                twin = self._measured()
                twin._container_body(component, left, right)
                colour = component.get("accent_color")
                self._panel(left, self.y, right, twin.y, _rgb(colour) if colour is not None else None)
            self._container_body(component, left, right)
        elif kind == 10:
            self.markdown(component.get("content") or "", left, right)
        elif kind == 9:
            accessory = component.get("accessory") or {}
            button_width = self._button_width(accessory) if accessory.get("type") == 2 else 0
            top = self.y
            for child in component.get("components", []):
                self.component(child, left, right - button_width - self.px(12))
            bottom = self.y
            if accessory.get("type") == 2:
                self.y = top
                self._button(accessory, right - button_width, top)
                self.y = max(bottom, top + self.px(36))
        elif kind == 14:
            if self.draw is not None and component.get("divider", True):
                self.draw.line(
                    (left, self.y + self.px(6), right, self.y + self.px(6)), fill=(63, 65, 71), width=self.s
                )
            self.y += self.px(14)
        elif kind == 12:
            for item in component.get("items", []):
                self._picture(str((item.get("media") or {}).get("url") or ""), left, right)
        elif kind == 1:
            self._row(component.get("components", []), left, right)
        elif kind in SELECTS:
            self._select(component, left, right)

    def _picture(self, url: str, left: int, right: int) -> None:
        """One picture of a media gallery, as wide as the panel (an attachment of the message)."""
        data = self.files.get(url.removeprefix("attachment://"))
        if data is None:
            self.paragraph([_Run(f"[picture] {url}", self.fonts.small, MUTED)], left, right)
            return
        picture = Image.open(io.BytesIO(data)).convert("RGB")
        width = right - left
        height = round(picture.height * width / picture.width)
        if self.canvas is not None:
            self.canvas.paste(picture.resize((width, height), Image.Resampling.LANCZOS), (left, self.y))
        self.y += height

    def _row(self, items: list[dict[str, Any]], left: int, right: int) -> None:
        x, top = left, self.y
        for item in items:
            if item.get("type") in SELECTS:
                self._select(item, left, right)
                return
            w = self._button_width(item)
            if x + w > right and x > left:
                x, top = left, top + self.px(40)
            self._button(item, x, top)
            x += w + self.px(8)
        self.y = top + self.px(36)

    def _button_label(self, button: dict[str, Any]) -> str:
        emoji = (button.get("emoji") or {}).get("name") or ""
        shown = emoji if emoji and self._has_glyphs(emoji) else ""
        return " ".join(x for x in (shown, button.get("label") or "") if x)

    def _has_glyphs(self, text: str) -> bool:
        font = self.fonts.regular
        try:
            return all(
                font.getmask(ch).getbbox() is not None for ch in text if ch.strip() and ord(ch) > 0x2000
            )
        except Exception:
            return False

    def _button_width(self, button: dict[str, Any]) -> int:
        return self._width(self._button_label(button), self.fonts.regular) + self.px(28)

    def _button(self, button: dict[str, Any], x: int, top: int) -> None:
        if self.draw is None:
            return
        colour = BUTTON_COLOURS[BUTTON_STYLES.get(int(button.get("style") or 2), "secondary")]
        if button.get("disabled"):
            (r, g, b), (br, bg, bb) = colour, BACKGROUND
            colour = (int(r * 0.55 + br * 0.45), int(g * 0.55 + bg * 0.45), int(b * 0.55 + bb * 0.45))
        w = self._button_width(button)
        self.draw.rounded_rectangle((x, top, x + w, top + self.px(34)), radius=self.px(4), fill=colour)
        label_colour = WHITE if not button.get("disabled") else (170, 172, 176)
        self.draw.text(
            (x + self.px(14), top + self.px(8)),
            self._button_label(button),
            font=self.fonts.regular,
            fill=label_colour,
        )

    def _select(self, select: dict[str, Any], left: int, right: int) -> None:
        top = self.y
        if self.draw is not None:
            self.draw.rounded_rectangle(
                (left, top, right, top + self.px(40)),
                radius=self.px(4),
                fill=SELECT_BOX,
                outline=SELECT_BORDER,
            )
            chosen = any(o.get("default") for o in select.get("options", []))
            shown = _drawable(select_shows(select))
            font = self.fonts.regular
            room = right - left - self.px(44)
            while self._width(shown, font) > room and len(shown) > 2:
                shown = shown[:-2] + "…"
            self.draw.text(
                (left + self.px(12), top + self.px(11)), shown, font=font, fill=TEXT if chosen else MUTED
            )
            cx, cy = right - self.px(20), top + self.px(20)
            self.draw.line(
                (cx - self.px(6), cy - self.px(3), cx, cy + self.px(3), cx + self.px(6), cy - self.px(3)),
                fill=TEXT,
                width=self.px(2),
            )
        self.y = top + self.px(44)
        if select.get("custom_id") == self.expanded:
            self._options(select, left, right)

    def _options(self, select: dict[str, Any], left: int, right: int) -> None:
        """A select drawn open: its options, the chosen one marked, as the client lists them."""
        top = self.y
        if self.draw is not None:
            twin = self._measured()
            twin._option_rows(select, left, right)
            self.draw.rounded_rectangle((left, top, right, twin.y), radius=self.px(4), fill=SELECT_BOX)
        self._option_rows(select, left, right)

    def _option_rows(self, select: dict[str, Any], left: int, right: int) -> None:
        self.y += self.px(4)
        for option in select.get("options", []):
            start = self.y
            label = _Run(option["label"], self.fonts.regular, WHITE if option.get("default") else TEXT)
            self.paragraph([label], left + self.px(12), right - self.px(36))
            if option.get("description"):
                self.paragraph(
                    [_Run(option["description"], self.fonts.small, MUTED)], left + self.px(12), right
                )
            if option.get("default") and self.draw is not None:
                self.draw.text((right - self.px(28), start), "✓", font=self.fonts.bold, fill=(88, 101, 242))
            self.y += self.px(6)


def _runs(line: str, font: Any, colour: tuple[int, int, int], fonts: Fonts) -> list[_Run]:
    """A line's **bold** and `code` spans."""
    runs: list[_Run] = []
    for part in re.split(r"(\*\*[^*]+\*\*|`[^`]+`)", line):
        if not part:
            continue
        if part.startswith("**") and part.endswith("**"):
            runs.append(_Run(part[2:-2], fonts.bold if font is fonts.regular else font, WHITE))
        elif part.startswith("`") and part.endswith("`"):
            runs.append(_Run(part[1:-1], fonts.mono, TEXT, code=True))
        else:
            runs.append(_Run(part, font, colour))
    return runs


def _gallery_urls(components: list[dict[str, Any]]) -> list[str]:
    """The URLs every media gallery of the components shows, however deep."""
    urls = []
    for component in components:
        if component.get("type") == 12:
            urls += [str((item.get("media") or {}).get("url") or "") for item in component.get("items", [])]
        urls += _gallery_urls(component.get("components") or [])
    return urls


def _rgb(value: int) -> tuple[int, int, int]:
    return ((value >> 16) & 255, (value >> 8) & 255, value & 255)


def message_png(
    world: World, message: Message, *, width: int = 390, scale: int = 2, expanded: str | None = None
) -> bytes:
    """The message on a phone ``width`` points wide, drawn at ``scale`` pixels per point (PNG bytes);
    ``expanded``: the custom_id of a select to draw open, as a player sees it when choosing."""
    measuring = _Painter(world, width, scale, None, expanded)
    measuring.message(message)
    image = Image.new("RGB", (width * scale, max(measuring.y, 10)), BACKGROUND)
    painter = _Painter(world, width, scale, ImageDraw.Draw(image), expanded)
    painter.canvas = image
    painter.message(message)
    out = io.BytesIO()
    image.quantize(colors=128, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()
