"""Pictures inside a Components V2 message (a welcome's opening map above its order sheet): Discord
shows a V2 message's attachments only where a component names them, so an edit that redraws the
message (a tap on its sheet, a refresh of a direct-message sheet) names them again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of a gallery: ``attachment://name`` for the message's own file, else its URL."""

    media: str
    description: str | None = None
    spoiler: bool = False


@dataclass(frozen=True, slots=True)
class Pictures:
    """A media gallery's pictures, kept to draw them again in an edit (an edit keeps the files)."""

    items: tuple[Picture, ...]

    def gallery(self) -> discord.ui.MediaGallery[Any]:
        """The gallery that shows these pictures again."""
        items = [
            discord.MediaGalleryItem(one.media, description=one.description, spoiler=one.spoiler)
            for one in self.items
        ]
        return discord.ui.MediaGallery(*items)


def pictures_of(
    gallery: discord.ui.MediaGallery[Any] | discord.components.MediaGalleryComponent,
    message: discord.Message | None = None,
) -> Pictures:
    """``gallery``'s pictures: a received ``message``'s own attachments by their ``attachment://`` name
    (Discord answers with their CDN address), any other picture by its URL."""
    by_id = {a.id: a.filename for a in message.attachments} if message is not None else {}
    kept: list[Picture] = []
    for item in gallery.items:
        url = item.media.url
        name = by_id.get(item.media.attachment_id or 0)
        if name is None and url.startswith("attachment://"):
            name = url.removeprefix("attachment://")
        media = f"attachment://{name}" if name is not None else url
        kept.append(Picture(media, item.description, item.spoiler))
    return Pictures(tuple(kept))
