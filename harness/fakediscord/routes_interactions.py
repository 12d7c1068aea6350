"""REST routes for interaction callbacks and the interaction webhook (followups, original response).

Modelled on Discord's behaviour: one callback per interaction, within the acknowledgement deadline; the
callback types allowed depend on the interaction type; the first followup after a deferred ("thinking")
response replaces that loading message and keeps its visibility (a public defer makes the followup public
even if it asks to be ephemeral); @original of a component interaction is the message the component is on.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from . import errors, payloads, validation
from .backend import UploadedFile
from .rest import body, fake_of, files_of, json_ok, no_content
from .state import Interaction, InteractionKind, Message, MessageFlag

routes = web.RouteTableDef()

MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
CHAT_INPUT_COMMAND_MESSAGE = 20

_ALLOWED = {
    InteractionKind.APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
    InteractionKind.MESSAGE_COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    InteractionKind.AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    InteractionKind.MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


def is_v2(message: Message) -> bool:
    return bool(message.flags & MessageFlag.IS_COMPONENTS_V2)


def _message_type(interaction: Interaction) -> int:
    return CHAT_INPUT_COMMAND_MESSAGE if interaction.kind == InteractionKind.APPLICATION_COMMAND else 0


def _post_response_message(
    request: web.Request,
    interaction: Interaction,
    data: dict[str, Any],
    files: list[UploadedFile],
    *,
    loading: bool = False,
) -> Message:
    fake = fake_of(request)
    channel = fake.world.channel(interaction.channel_id)
    ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
    return fake.backend.post_message(
        channel,
        fake.world.bot.id,
        data,
        files,
        message_type=_message_type(interaction),
        interaction_id=interaction.id,
        ephemeral_to=interaction.user_id if ephemeral else None,
        extra_flags=MessageFlag.LOADING if loading else 0,
    )


@routes.post("/interactions/{interaction_id}/{token}/callback")
async def callback(request: web.Request) -> web.Response:
    fake = fake_of(request)
    world = fake.world
    interaction = world.interactions.get(int(request.match_info["interaction_id"]))
    if interaction is None or interaction.token != request.match_info["token"]:
        raise errors.not_found(errors.UNKNOWN_INTERACTION, "interaction")
    if interaction.acknowledged:
        raise errors.ApiError(400, errors.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
    deadline = fake.ack_deadline
    if deadline is not None and asyncio.get_running_loop().time() - interaction.created_at > deadline:
        raise errors.not_found(errors.UNKNOWN_INTERACTION, "interaction")
    request_body = body(request)
    response_type = int(request_body.get("type") or 0)
    data: dict[str, Any] = request_body.get("data") or {}
    if response_type not in _ALLOWED[interaction.kind]:
        raise errors.invalid_form("type", f"Callback type {response_type} is not valid for this interaction.")
    if response_type in (DEFERRED_UPDATE, UPDATE_MESSAGE) and interaction.source_message_id is None:
        raise errors.invalid_form("type", "Only interactions on a message can update it.")
    files = files_of(request)
    message: Message | None = None
    if response_type == MESSAGE:
        validation.message_payload(data, has_files=bool(files))
        message = _post_response_message(request, interaction, data, files)
    elif response_type == DEFERRED_MESSAGE:
        message = _post_response_message(
            request, interaction, {"flags": data.get("flags", 0)}, [], loading=True
        )
    elif response_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        message = world.messages[interaction.source_message_id or 0]
        if response_type == UPDATE_MESSAGE:
            validation.message_payload(data, has_files=bool(files), editing=True, was_v2=is_v2(message))
            fake.backend.edit_message(message, data, files)
    elif response_type == AUTOCOMPLETE_RESULT:
        validation.autocomplete_choices(data)
        interaction.choices = list(data["choices"])
    elif response_type == MODAL:
        validation.modal(data)
        interaction.modal = data
    interaction.response_type, interaction.response_data = response_type, data
    if message is not None:
        interaction.original_message_id = message.id
    fake.notifier.notify()
    return json_ok(_callback_answer(request, interaction, response_type, message))


def _callback_answer(
    request: web.Request, interaction: Interaction, response_type: int, message: Message | None
) -> dict[str, Any]:
    summary: dict[str, Any] = {"id": str(interaction.id), "type": int(interaction.kind)}
    answer: dict[str, Any] = {"interaction": summary}
    if message is None or response_type == DEFERRED_UPDATE:
        return answer
    summary.update(
        response_message_id=str(message.id),
        response_message_loading=message.loading,
        response_message_ephemeral=message.ephemeral,
    )
    answer["resource"] = {"type": response_type, "message": payloads.message(fake_of(request).world, message)}
    return answer


# --- the interaction webhook -----------------------------------------------------------------------------


def _interaction_for_webhook(request: web.Request) -> Interaction:
    fake = fake_of(request)
    token = request.match_info["token"]
    if request.match_info["application_id"] == str(fake.world.application_id):
        for interaction in fake.world.interactions.values():
            if interaction.token == token and interaction.acknowledged:
                return interaction
    raise errors.not_found(errors.UNKNOWN_WEBHOOK, "Webhook")


def _webhook_message(request: web.Request, interaction: Interaction) -> Message:
    world = fake_of(request).world
    raw = request.match_info["message_id"]
    message_id = interaction.original_message_id if raw == "@original" else int(raw)
    allowed = {interaction.original_message_id, *interaction.followup_ids}
    message = world.messages.get(message_id or 0)
    if message is None or message.deleted or message_id not in allowed:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return message


@routes.post("/webhooks/{application_id}/{token}")
async def followup(request: web.Request) -> web.Response:
    fake = fake_of(request)
    interaction = _interaction_for_webhook(request)
    if interaction.kind == InteractionKind.AUTOCOMPLETE:
        raise errors.ApiError(400, 50035, "Autocomplete interactions cannot have followups")
    data, files = body(request), files_of(request)
    validation.message_payload(data, has_files=bool(files))
    original = fake.world.messages.get(interaction.original_message_id or 0)
    if original is not None and original.loading and interaction.response_type == DEFERRED_MESSAGE:
        # The followup becomes the "thinking" message: its visibility stays the defer's, and it
        # takes the followup's IS_COMPONENTS_V2 (a deferred answer may be a layout).
        original.flags &= ~MessageFlag.LOADING
        original.flags |= int(data.get("flags") or 0) & MessageFlag.IS_COMPONENTS_V2
        fake.backend.edit_message(original, {k: v for k, v in data.items() if k != "flags"}, files)
        message = original
    else:
        message = _post_response_message(request, interaction, data, files)
        interaction.followup_ids.append(message.id)
    if request.query.get("wait") in ("0", "false"):
        return no_content()
    return json_ok(payloads.message(fake.world, message))


@routes.get("/webhooks/{application_id}/{token}/messages/{message_id}")
async def get_webhook_message(request: web.Request) -> web.Response:
    interaction = _interaction_for_webhook(request)
    return json_ok(payloads.message(fake_of(request).world, _webhook_message(request, interaction)))


@routes.patch("/webhooks/{application_id}/{token}/messages/{message_id}")
async def edit_webhook_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    interaction = _interaction_for_webhook(request)
    message = _webhook_message(request, interaction)
    data, files = body(request), files_of(request)
    validation.message_payload(data, has_files=bool(files), editing=True, was_v2=is_v2(message))
    message.flags &= ~MessageFlag.LOADING
    fake.backend.edit_message(message, data, files)
    return json_ok(payloads.message(fake.world, message))


@routes.delete("/webhooks/{application_id}/{token}/messages/{message_id}")
async def delete_webhook_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    interaction = _interaction_for_webhook(request)
    fake.backend.delete_message(_webhook_message(request, interaction))
    return no_content()
