"""What Discord accepts as a message's components, classic and Components V2, answered with its 400 errors.

Discord's component reference (its developer documentation, Components) says:

- a classic message holds up to 5 action rows at the top level, and nothing else there;
- a message with the IS_COMPONENTS_V2 flag (``1 << 15``) holds no content and no embeds; its top level
  takes action rows, sections, text displays, media galleries, files, separators and containers; it
  has up to 40 components in all, nested ones counted, and up to 4,000 characters of text across its
  text displays; the flag cannot be taken off again by an edit;
- a container holds action rows, text displays, sections, media galleries, separators and files;
- a section holds one to three text displays and an accessory, a button or a thumbnail;
- an action row holds one to five buttons, or exactly one select menu;
- a button has a label of at most 80 characters (or an emoji), and a custom_id unless it is a link;
- a string select has 1 to 25 options, each with a label and a value of 1 to 100 characters (values
  distinct) and a description of at most 100, a placeholder of at most 150, and min/max values within
  its options; no more options marked ``default`` than ``max_values``;
- every custom_id has 1 to 100 characters and is unique in the message.
"""

from __future__ import annotations

from typing import Any

from . import errors

V2_FLAG = 1 << 15
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
SELECTS = frozenset({3, 5, 6, 7, 8})
TOP_LEVEL_V2 = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
V2_ONLY = frozenset({SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
MAX_ACTION_ROWS = 5
MAX_COMPONENTS_V2 = 40
MAX_TEXT_V2 = 4000
MAX_CUSTOM_ID = 100
MAX_BUTTONS = 5
MAX_OPTIONS = 25
BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER = 80, 100, 150
LINK_STYLE, PREMIUM_STYLE = 5, 6


def _bad(where: str, problem: str, code: str = "BASE_TYPE_INVALID") -> errors.ApiError:
    return errors.invalid_form(where, problem, code)


def _too_long(where: str, limit: int) -> errors.ApiError:
    return _bad(where, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")


def count(components: list[dict[str, Any]]) -> int:
    """Every component, nested ones (a row's buttons, a section's accessory) counted."""
    total = 0
    for component in components:
        total += 1 + count(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            total += count([accessory])
    return total


def text_length(components: list[dict[str, Any]]) -> int:
    """The characters of all the text displays, however deep."""
    total = 0
    for component in components:
        if component.get("type") == TEXT_DISPLAY:
            total += len(component.get("content") or "")
        total += text_length(component.get("components") or [])
    return total


def check(components: list[dict[str, Any]], *, v2: bool, where: str = "components") -> None:
    """Raise Discord's 400 (code 50035) for what it would refuse in ``components``."""
    if not isinstance(components, list):
        raise _bad(where, "Must be a list.", "BASE_TYPE_LIST")
    if v2:
        if count(components) > MAX_COMPONENTS_V2:
            raise _too_long(where, MAX_COMPONENTS_V2)
        if text_length(components) > MAX_TEXT_V2:
            raise _bad(
                where, f"The text displays hold more than {MAX_TEXT_V2} characters.", "BASE_TYPE_MAX_LENGTH"
            )
    else:
        if len(components) > MAX_ACTION_ROWS:
            raise _too_long(where, MAX_ACTION_ROWS)
    seen: set[str] = set()
    for index, component in enumerate(components):
        kind = component.get("type")
        path = f"{where}.{index}"
        if not v2 and kind != ACTION_ROW:
            raise _bad(
                f"{path}.type",
                "This component type needs the IS_COMPONENTS_V2 message flag."
                if kind in V2_ONLY
                else "Only action rows may be at the top level of a message.",
                "COMPONENT_LAYOUT_INVALID",
            )
        if v2 and kind not in TOP_LEVEL_V2:
            raise _bad(
                f"{path}.type", "This component cannot be at the top level.", "COMPONENT_LAYOUT_INVALID"
            )
        _component(component, path, seen)


def _component(component: dict[str, Any], where: str, seen: set[str]) -> None:
    kind = component.get("type")
    children = component.get("components") or []
    if kind == CONTAINER:
        if not children:
            raise _bad(
                f"{where}.components", "A container holds at least one component.", "BASE_TYPE_REQUIRED"
            )
        for index, child in enumerate(children):
            if child.get("type") not in IN_CONTAINER:
                raise _bad(
                    f"{where}.components.{index}.type",
                    "Not allowed in a container.",
                    "COMPONENT_LAYOUT_INVALID",
                )
            _component(child, f"{where}.components.{index}", seen)
        colour = component.get("accent_color")
        if colour is not None and not 0 <= int(colour) <= 0xFFFFFF:
            raise _bad(f"{where}.accent_color", "Must be an RGB colour.")
    elif kind == SECTION:
        if not 1 <= len(children) <= 3 or any(c.get("type") != TEXT_DISPLAY for c in children):
            raise _bad(
                f"{where}.components", "A section holds one to three text displays.", "BASE_TYPE_BAD_LENGTH"
            )
        for index, child in enumerate(children):
            _component(child, f"{where}.components.{index}", seen)
        accessory = component.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (BUTTON, THUMBNAIL):
            raise _bad(f"{where}.accessory", "A section needs a button or a thumbnail.", "BASE_TYPE_REQUIRED")
        _component(accessory, f"{where}.accessory", seen)
    elif kind == ACTION_ROW:
        kinds = [c.get("type") for c in children]
        selects = [k for k in kinds if k in SELECTS]
        if not children or (selects and len(children) != 1) or (not selects and len(children) > MAX_BUTTONS):
            raise _bad(
                f"{where}.components",
                "An action row holds one to five buttons, or one select menu.",
                "BASE_TYPE_BAD_LENGTH",
            )
        if not selects and any(k != BUTTON for k in kinds):
            raise _bad(
                f"{where}.components",
                "An action row holds buttons or a select menu.",
                "COMPONENT_LAYOUT_INVALID",
            )
        for index, child in enumerate(children):
            _component(child, f"{where}.components.{index}", seen)
    elif kind == TEXT_DISPLAY:
        if not (component.get("content") or ""):
            raise _bad(f"{where}.content", "This field is required", "BASE_TYPE_REQUIRED")
    elif kind == BUTTON:
        _button(component, where, seen)
    elif kind in SELECTS:
        _select(component, where, seen)
    elif kind in (THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR):
        pass
    else:
        raise _bad(f"{where}.type", f"Unknown component type {kind!r}.", "BASE_TYPE_CHOICES")


def _custom_id(component: dict[str, Any], where: str, seen: set[str]) -> None:
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        raise _bad(f"{where}.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
    if len(custom_id) > MAX_CUSTOM_ID:
        raise _too_long(f"{where}.custom_id", MAX_CUSTOM_ID)
    if custom_id in seen:
        raise _bad(
            f"{where}.custom_id", "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"
        )
    seen.add(custom_id)


def _button(component: dict[str, Any], where: str, seen: set[str]) -> None:
    style = component.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        raise _bad(f"{where}.style", "Unknown button style.", "BASE_TYPE_CHOICES")
    label = component.get("label") or ""
    if len(label) > BUTTON_LABEL:
        raise _too_long(f"{where}.label", BUTTON_LABEL)
    if style == LINK_STYLE:
        if not component.get("url") or component.get("custom_id"):
            raise _bad(
                f"{where}.url", "A link button has a url and no custom_id.", "BUTTON_COMPONENT_INVALID"
            )
    elif style != PREMIUM_STYLE:
        _custom_id(component, where, seen)
    if style != PREMIUM_STYLE and not label and not component.get("emoji"):
        raise _bad(f"{where}.label", "A button needs a label or an emoji.", "BUTTON_COMPONENT_INVALID")


def _select(component: dict[str, Any], where: str, seen: set[str]) -> None:
    _custom_id(component, where, seen)
    placeholder = component.get("placeholder") or ""
    if len(placeholder) > PLACEHOLDER:
        raise _too_long(f"{where}.placeholder", PLACEHOLDER)
    low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
    if not 0 <= low <= high <= MAX_OPTIONS or high < 1:
        raise _bad(f"{where}.max_values", "min_values and max_values must be 0-25, min at most max.")
    if component.get("type") != STRING_SELECT:
        return
    options = component.get("options") or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        raise _bad(
            f"{where}.options", f"Must be between 1 and {MAX_OPTIONS} in length.", "BASE_TYPE_BAD_LENGTH"
        )
    if high > len(options):
        raise _bad(f"{where}.max_values", "max_values is more than the options.", "BASE_TYPE_MAX")
    values: set[str] = set()
    for index, option in enumerate(options):
        at = f"{where}.options.{index}"
        for key in ("label", "value"):
            text = option.get(key) or ""
            if not 1 <= len(text) <= OPTION_TEXT:
                raise _bad(
                    f"{at}.{key}", f"Must be between 1 and {OPTION_TEXT} in length.", "BASE_TYPE_BAD_LENGTH"
                )
        if len(option.get("description") or "") > OPTION_TEXT:
            raise _too_long(f"{at}.description", OPTION_TEXT)
        if option["value"] in values:
            raise _bad(
                f"{at}.value",
                "Select option values must be unique.",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            )
        values.add(option["value"])
    if sum(1 for o in options if o.get("default")) > high:
        raise _bad(
            f"{where}.options",
            "More default options than max_values.",
            "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
        )
