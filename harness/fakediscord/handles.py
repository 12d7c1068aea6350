"""What a test gets back from a user action: something to await for the bot's answer.

`await handle` gives "the reply" (a Message, a ModalPrompt or autocomplete choices); the typed methods
(`message()`, `modal()`, `choices()`, `followups(n)`, `replies(n)`) say exactly what is expected and fail
with an explanation when the bot answered something else or nothing in time.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from .errors import FakeDiscordError
from .notifier import Notifier
from .state import Channel, Interaction, Message, User, walk_components
from .world import World


class Watched(Protocol):
    """What a handle reads of the fake (FakeDiscord is one: the fake makes handles, so they never
    import it)."""

    world: World
    notifier: Notifier
    reply_timeout: float

    def explain(self, what: str, since: datetime) -> str: ...


DEFERRED_MESSAGE, DEFERRED_UPDATE, AUTOCOMPLETE_RESULT, MODAL = 5, 6, 8, 9


@dataclass
class ModalPrompt:
    """A modal the bot opened in answer to an interaction."""

    interaction: Interaction
    custom_id: str
    title: str
    components: list[dict[str, Any]]

    def inputs(self) -> list[dict[str, Any]]:
        """The text inputs (type 4), wherever they sit (action rows or labels)."""
        return [c for c in walk_components(self.components) if c.get("type") == 4]

    def input(self, custom_id: str) -> dict[str, Any]:
        for component in self.inputs():
            if component.get("custom_id") == custom_id:
                return component
        present = [c.get("custom_id") for c in self.inputs()]
        raise FakeDiscordError(f"modal {self.custom_id!r} has no input {custom_id!r}: {present}")

    def label_of(self, custom_id: str) -> str | None:
        """The label shown for an input (on the input itself, or on its Label wrapper)."""
        for component in walk_components(self.components):
            if (
                component.get("type") == 18
                and (component.get("component") or {}).get("custom_id") == custom_id
            ):
                return component.get("label")
        return self.input(custom_id).get("label")


class InteractionHandle:
    def __init__(
        self, fake: Watched, interaction: Interaction, started: datetime, source_revisions: int = 0
    ) -> None:
        self.fake = fake
        self.interaction = interaction
        self._started = started
        self._source_revisions = source_revisions

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.interaction.description}>"

    def __await__(self) -> Generator[Any, None, Message | ModalPrompt | list[dict[str, Any]]]:
        return self.reply().__await__()

    def _timeout(self, timeout: float | None) -> float:
        return self.fake.reply_timeout if timeout is None else timeout

    def _explain(self, what: str) -> Any:
        return lambda: self.fake.explain(f"{what} to {self.interaction.description}", self._started)

    async def response(self, timeout: float | None = None) -> Interaction:
        """Wait until the bot acknowledged the interaction (any callback type)."""
        interaction = self.interaction
        return await self.fake.notifier.wait_for(
            lambda: interaction if interaction.acknowledged else None,
            timeout=self._timeout(timeout),
            explain=self._explain("the bot's interaction response"),
        )

    async def reply(self, timeout: float | None = None) -> Message | ModalPrompt | list[dict[str, Any]]:
        """The choices for autocomplete, the modal if one was opened, otherwise the visible message."""
        interaction = await self.response(timeout)
        if interaction.response_type == AUTOCOMPLETE_RESULT:
            return list(interaction.choices or [])
        if interaction.response_type == MODAL:
            return self._modal()
        return await self.message(timeout)

    async def message(self, timeout: float | None = None) -> Message:
        """The message the user ends up seeing: the response, the filled-in deferred response, or (after a
        deferred update) the edited message the component is on."""
        await self.response(timeout)
        interaction = self.interaction
        if interaction.response_type in (MODAL, AUTOCOMPLETE_RESULT):
            raise FakeDiscordError(
                f"{interaction.description}: expected a message but the bot answered with "
                f"{'a modal' if interaction.response_type == MODAL else 'autocomplete choices'}"
            )
        world = self.fake.world

        def probe() -> Message | None:
            message = world.messages.get(interaction.original_message_id or 0)
            if message is None:
                return None
            if (
                interaction.response_type == DEFERRED_UPDATE
                and len(message.revisions) <= self._source_revisions
            ):
                return None
            return None if message.loading else message

        return await self.fake.notifier.wait_for(
            probe, timeout=self._timeout(timeout), explain=self._explain("the bot's reply message")
        )

    async def followups(self, count: int, timeout: float | None = None) -> list[Message]:
        """The first `count` followup messages (not counting a followup that filled a deferred response)."""
        interaction, world = self.interaction, self.fake.world

        def probe() -> list[Message] | None:
            found = [world.messages[i] for i in interaction.followup_ids]
            return found[:count] if len(found) >= count else None

        return await self.fake.notifier.wait_for(
            probe, timeout=self._timeout(timeout), explain=self._explain(f"{count} followup message(s)")
        )

    def messages(self) -> list[Message]:
        """Everything the bot has shown for this interaction so far: the response, then the followups."""
        ids = [self.interaction.original_message_id, *self.interaction.followup_ids]
        found = [self.fake.world.messages.get(i or 0) for i in ids]
        return [m for m in found if m is not None and not m.deleted]

    async def modal(self, timeout: float | None = None) -> ModalPrompt:
        interaction = await self.response(timeout)
        if interaction.response_type != MODAL:
            raise FakeDiscordError(
                f"{interaction.description}: expected a modal, the bot answered with callback type "
                f"{interaction.response_type}"
            )
        return self._modal()

    def _modal(self) -> ModalPrompt:
        modal = self.interaction.modal or {}
        return ModalPrompt(
            self.interaction, modal.get("custom_id", ""), modal.get("title", ""), modal.get("components", [])
        )

    async def choices(self, timeout: float | None = None) -> list[dict[str, Any]]:
        interaction = await self.response(timeout)
        if interaction.response_type != AUTOCOMPLETE_RESULT:
            raise FakeDiscordError(
                f"{interaction.description}: expected autocomplete choices, got callback type "
                f"{interaction.response_type}"
            )
        return list(interaction.choices or [])


class DMHandle:
    """A message a user sent to the bot by DM; await it for the bot's first DM back after it."""

    def __init__(self, fake: Watched, user: User, channel: Channel, sent: Message) -> None:
        self.fake = fake
        self.user = user
        self.channel = channel
        self.sent = sent

    def __await__(self) -> Generator[Any, None, Message]:
        return self.reply().__await__()

    def _bot_replies(self) -> list[Message]:
        """The bot's messages in the channel after the user's, oldest first. Read from the newest
        message back to the user's (ids grow as messages are made), not through every message of
        the world: every waiter probes again at every change, and a load test has hundreds waiting."""
        bot_id, channel_id, after = self.fake.world.bot.id, self.channel.id, self.sent.id
        found = []
        for m in reversed(self.fake.world.messages.values()):
            if m.id <= after:
                break
            mine = m.channel_id == channel_id and m.author_id == bot_id
            if mine and m.ephemeral_to is None and not m.deleted:
                found.append(m)
        return found[::-1]

    async def reply(self, timeout: float | None = None) -> Message:
        return (await self.replies(1, timeout))[0]

    async def replies(self, count: int, timeout: float | None = None) -> list[Message]:
        """The bot's first `count` DMs to this user after the user's message."""

        def probe() -> list[Message] | None:
            found = self._bot_replies()
            return found[:count] if len(found) >= count else None

        return await self.fake.notifier.wait_for(
            probe,
            timeout=self.fake.reply_timeout if timeout is None else timeout,
            explain=lambda: self.fake.explain(
                f"{count} DM(s) from the bot answering {self.user.username}'s {self.sent.content[:40]!r}",
                self.sent.timestamp,
            ),
        )
