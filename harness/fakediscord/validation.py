"""The limits Discord enforces on what a bot sends, answered with the same 400 errors (code 50035).

Only the limits a gamemaster bot can realistically hit are checked: message length, embeds, components,
modals, autocomplete choices and application command definitions.
"""

from __future__ import annotations

import re
from typing import Any

from . import errors, layout
from .state import walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
FIELD_NAME, FIELD_VALUE, FOOTER_TEXT, AUTHOR_NAME = 256, 1024, 2048, 256
MAX_ACTION_ROWS = 5
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _too_long(field: str, limit: int) -> errors.ApiError:
    return errors.invalid_form(field, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")


def message_payload(
    payload: dict[str, Any], *, has_files: bool, editing: bool = False, was_v2: bool = False
) -> None:
    """``was_v2``: an edit of a message sent with IS_COMPONENTS_V2 (which it cannot drop)."""
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        raise errors.invalid_form("content", "Could not interpret the value as a string.")
    if content is not None and len(content) > MAX_CONTENT:
        raise _too_long("content", MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _too_long("embeds", MAX_EMBEDS)
    for index, embed in enumerate(embeds):
        _embed(embed, f"embeds.{index}")
    flags = payload.get("flags")
    asks_v2 = bool(int(flags or 0) & layout.V2_FLAG)
    if was_v2 and flags is not None and not asks_v2:
        raise errors.invalid_form(
            "flags", "The IS_COMPONENTS_V2 flag cannot be removed from a message.", "MESSAGE_CANNOT_REMOVE_V2"
        )
    is_v2 = was_v2 or asks_v2
    if is_v2 and (content or embeds or payload.get("poll") or payload.get("sticker_ids")):
        raise errors.invalid_form("content", "Messages with IS_COMPONENTS_V2 cannot have content or embeds.")
    if "components" in payload or not editing:
        layout.check(payload.get("components") or [], v2=is_v2)
    components = payload.get("components") or []
    if not editing and not (content or embeds or components or has_files or payload.get("poll")):
        raise errors.ApiError(400, errors.CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def _embed(embed: dict[str, Any], where: str) -> None:
    total = 0
    for key, limit in EMBED_LIMITS.items():
        value = embed.get(key) or ""
        if len(value) > limit:
            raise _too_long(f"{where}.{key}", limit)
        total += len(value)
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        raise _too_long(f"{where}.fields", MAX_FIELDS)
    for index, field in enumerate(fields):
        name, value = field.get("name") or "", field.get("value") or ""
        if not name or not value:
            raise errors.invalid_form(
                f"{where}.fields.{index}", "This field is required", "BASE_TYPE_REQUIRED"
            )
        if len(name) > FIELD_NAME:
            raise _too_long(f"{where}.fields.{index}.name", FIELD_NAME)
        if len(value) > FIELD_VALUE:
            raise _too_long(f"{where}.fields.{index}.value", FIELD_VALUE)
        total += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    if len(footer) > FOOTER_TEXT:
        raise _too_long(f"{where}.footer.text", FOOTER_TEXT)
    author = (embed.get("author") or {}).get("name") or ""
    if len(author) > AUTHOR_NAME:
        raise _too_long(f"{where}.author.name", AUTHOR_NAME)
    total += len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        raise errors.invalid_form(where, f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def modal(data: dict[str, Any]) -> None:
    title = data.get("title") or ""
    if not 1 <= len(title) <= 45:
        raise errors.invalid_form("data.title", "Must be between 1 and 45 in length.", "BASE_TYPE_BAD_LENGTH")
    if not data.get("custom_id"):
        raise errors.invalid_form("data.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        raise errors.invalid_form(
            "data.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH"
        )
    for component in walk_components(components):
        label = component.get("label")
        if component.get("type") in (4, 18) and label is not None and len(label) > 45:
            raise _too_long("data.components.label", 45)
        if component.get("type") == 4 and len(component.get("value") or "") > component.get(
            "max_length", 4000
        ):
            raise errors.invalid_form("data.components.value", "Value is longer than max_length.")


def autocomplete_choices(data: dict[str, Any]) -> None:
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise errors.invalid_form("data.choices", "This field is required", "BASE_TYPE_REQUIRED")
    if len(choices) > MAX_CHOICES:
        raise _too_long("data.choices", MAX_CHOICES)
    for index, choice in enumerate(choices):
        name = choice.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise errors.invalid_form(f"data.choices.{index}.name", "Must be between 1 and 100 in length.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise _too_long(f"data.choices.{index}.value", 100)


def command_payload(command: dict[str, Any], where: str) -> None:
    name = command.get("name") or ""
    command_type = command.get("type", 1)
    if command_type == 1 and (not COMMAND_NAME.match(name) or name != name.lower()):
        raise errors.invalid_form(
            f"{where}.name", "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME"
        )
    if command_type == 1 and not 1 <= len(command.get("description") or "") <= 100:
        raise errors.invalid_form(f"{where}.description", "Must be between 1 and 100 in length.")
    options = command.get("options") or []
    if len(options) > 25:
        raise _too_long(f"{where}.options", 25)
    for index, option in enumerate(options):
        command_payload({**option, "type": 1}, f"{where}.options.{index}")
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            raise _too_long(f"{where}.options.{index}.choices", MAX_CHOICES)
