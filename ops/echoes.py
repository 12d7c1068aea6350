"""The bot's own message edits, and its own direct messages, echoed back by Discord, left unparsed.

Discord tells the bot of every edit of a message it can see, its own included: each sheet redrawn in a
direct message, each post edited comes back as a ``MESSAGE_UPDATE`` event, which discord.py turns into
a whole :class:`discord.Message` (every select menu's options parsed: a sheet has hundreds) before it
dispatches ``on_raw_message_edit``. Nothing here reads the bot's own edits (cogs.commands.direct's
listener ignores a bot's), and with no message cache (``max_messages=None``) nothing else needs them:
in ``bench/load.py paced`` they were 1.4 % of the event loop's time. :func:`skip_own_edits` drops them
before that parse, unless discord.py tracks a view on that message (it then syncs the view's state
from the edit, as it always did).

The same for each message the bot posts in a direct message (a reply to orders sent by direct message,
a call to order): it comes back as a ``MESSAGE_CREATE``, parsed into a :class:`discord.Message` and
dispatched to every ``on_message`` listener (a task each), which all ignore a bot's message.
:func:`skip_own_direct_posts` drops them; the bot's posts in a server's channel are still parsed
(discord.py sets the channel's ``last_message_id`` from them, which cogs.places.spaces reads).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

EVENT = "MESSAGE_UPDATE"
POSTED = "MESSAGE_CREATE"


def skip_own_edits(state: Any, me: Callable[[], int | None]) -> bool:
    """Make ``state`` (the client's ``discord.state.ConnectionState``) drop the ``MESSAGE_UPDATE``
    events of messages written by ``me()`` (the bot's user id, None before login) that no view of
    discord.py's tracks. False, and nothing changed, when this discord.py parses them elsewhere."""
    parsers: Any = getattr(state, "parsers", None)
    views: Any = getattr(state, "_view_store", None)
    parse = parsers.get(EVENT) if isinstance(parsers, dict) else None
    if parse is None or not hasattr(views, "is_message_tracked"):
        log.debug("discord.py's state has no %s parser here: the bot's own edits are parsed", EVENT)
        return False

    def tracked(data: dict[str, Any]) -> bool:
        interaction = data.get("interaction") or {}
        ids = (data.get("id"), interaction.get("id") if isinstance(interaction, dict) else None)
        return any(views.is_message_tracked(int(str(i))) for i in ids if str(i or "").isdigit())

    def parse_update(data: dict[str, Any]) -> None:
        author = data.get("author")
        mine = me()
        own = mine is not None and isinstance(author, dict) and str(author.get("id")) == str(mine)
        if own and not tracked(data):
            return  # the bot's own edit, echoed back: nothing reads it
        parse(data)

    parsers[EVENT] = parse_update  # the client's own table: discord.py itself is unchanged
    return True


def skip_own_direct_posts(state: Any, me: Callable[[], int | None]) -> bool:
    """Make ``state`` drop the ``MESSAGE_CREATE`` events of direct messages written by ``me()`` (the
    bot's user id, None before login). False, and nothing changed, when this discord.py has no such
    parser."""
    parsers: Any = getattr(state, "parsers", None)
    parse = parsers.get(POSTED) if isinstance(parsers, dict) else None
    if parse is None:
        log.debug("discord.py's state has no %s parser here: the bot's own posts are parsed", POSTED)
        return False

    def parse_post(data: dict[str, Any]) -> None:
        if data.get("guild_id") is None:
            author = data.get("author")
            mine = me()
            if mine is not None and isinstance(author, dict) and str(author.get("id")) == str(mine):
                return  # the bot's own direct message, echoed back: nothing reads it
        parse(data)

    parsers[POSTED] = parse_post  # the client's own table: discord.py itself is unchanged
    return True
