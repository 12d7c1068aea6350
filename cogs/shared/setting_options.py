"""The game settings' options of /game create and /game settings, made from their one declaration
(gm.settings.SETTING_OPTIONS): a new setting needs no code here.

discord.py reads a command's options from its callback: the parameters of its signature (a type each),
and the ``describe``, ``choices`` and ``autocomplete`` decorators. :func:`with_setting_options` gives
a callback that takes the settings as ``**options`` one keyword parameter per option, in the
declaration's order and each None when not given, by setting the callback's ``__signature__`` (which
``inspect.signature``, and so discord.py, reads), and applies those decorators with the declared help,
choices and suggestions. discord.py calls the callback with the options by name, so they arrive in
``options``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands

from cogs.shared import text
from gm.public import SETTING_OPTIONS, SettingOption

MAX_OPTIONS = 25  # Discord's limit of options per command
MAX_CHOICES = 25  # and of choices or suggestions per option
MAX_CHOICE_NAME = 100  # characters

Callback = TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, None]])
Completion = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def with_setting_options(callback: Callback) -> Callback:
    """``callback`` (``async def settings(self, interaction, game: str | None, **options: Any)``) with
    one optional parameter per setting option after its own, described, with its choices and
    suggestions (see the module). Apply it below ``@group.command``."""
    return _with_options(callback, SETTING_OPTIONS)


def with_create_options(callback: Callback) -> Callback:
    """As :func:`with_setting_options`, with the options /game create offers (``Option.in_create``:
    Discord's 25 options a command leave the rarest settings to /game settings)."""
    return _with_options(callback, tuple(item for item in SETTING_OPTIONS if item.option.in_create))


def _with_options(callback: Callback, offered: tuple[SettingOption, ...]) -> Callback:
    signature = inspect.signature(callback)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    added = [
        inspect.Parameter(
            item.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=item.kind | None
        )
        for item in offered
    ]
    # why the ignore below: inspect (and discord.py's options) read __signature__; typeshed lacks it
    callback.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
    app_commands.describe(**{item.name: item.help for item in offered})(callback)
    choices: dict[str, list[app_commands.Choice[Any]]] = {
        item.name: [
            app_commands.Choice(name=text.word(label)[:MAX_CHOICE_NAME], value=value)
            for value, label in item.option.choices.items()
        ]
        for item in offered
        if item.option.choices
    }
    app_commands.choices(**choices)(callback)
    completions = {item.name: _completion(item.option.suggest) for item in offered if item.option.suggest}
    app_commands.autocomplete(**completions)(callback)
    return callback


def _completion(suggest: Callable[[str], list[str]]) -> Completion:
    """An autocomplete callback offering ``suggest``'s values for what was typed so far."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=v, value=v) for v in suggest(current)][:MAX_CHOICES]

    return complete
