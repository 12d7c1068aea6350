"""The message an interaction's answer creates or edits, parsed only when somebody reads it.

discord.py asks Discord for the message each answer to an interaction made (``with_response``: the
message sent, the sheet a tap redrew, the "thinking..." of a deferral) and turns it at once into an
:class:`discord.InteractionMessage` (every select option of a sheet parsed: about a millisecond for a
mid-game sheet), kept as the answer's ``resource``. Nothing in the bot reads it: the answers' return
values are dropped. :func:`parse_answers_lazily` makes discord.py build that message the first time
``resource`` is read instead, from the same data: what it holds is unchanged, only its parse is
deferred (and skipped when nobody asks). The answer's id, type, message id and the rest are read as
before, by discord.py's own code.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import interactions

log = logging.getLogger(__name__)


def parse_answers_lazily() -> bool:
    """Install the lazy ``resource`` (once per process); False, and nothing changed, when this
    discord.py's interaction answers are not built as this module expects."""
    original: Any = getattr(interactions, "InteractionCallbackResponse", None)
    if original is not None and getattr(original, "_lazy_resource", False):
        return True
    if (
        original is None
        or not hasattr(interactions, "_InteractionMessageState")
        or "resource" not in getattr(original, "__slots__", ())
        or not hasattr(original, "_update")
    ):
        log.debug("discord.py's interaction answers are not as expected: their messages are parsed")
        return False

    class LazyAnswer(original):
        """discord.py's answer, whose ``_update`` sees it without its message, which ``resource``
        parses on first read."""

        __slots__ = ("_message_data", "_resource")
        _lazy_resource = True

        def _update(self, data: dict[str, Any]) -> None:
            resource: Any = data.get("resource")
            message = resource.get("message") if isinstance(resource, dict) else None
            self._message_data: Any = message
            self._resource: Any = None
            if message is not None:  # the rest of the resource (its type) read by discord.py as before
                data = {**data, "resource": {k: v for k, v in resource.items() if k != "message"}}
            super()._update(data)

        @property
        def resource(self) -> Any:
            if self._resource is None and self._message_data is not None:
                state: Any = interactions._InteractionMessageState(self._parent, self._state)
                self._resource = discord.InteractionMessage(
                    state=state,
                    channel=self._parent.channel,
                    data=self._message_data,
                )
            return self._resource

        @resource.setter
        def resource(self, value: Any) -> None:
            self._resource = value

    LazyAnswer.__name__ = LazyAnswer.__qualname__ = original.__name__
    module: Any = interactions
    module.InteractionCallbackResponse = LazyAnswer  # the name discord.py builds its answers with
    return True
