"""The Discord adapter words every message kind by its type and carries out every effect a message
may ask for; it tells messages apart by type, never by the kind's stored name. A kind or an effect
added in gm without its Discord side fails here, not in a game."""

from __future__ import annotations

import ast
import json

from cogs.messages.effects import carry_out
from cogs.messages.render import Outgoing, render, word_message
from gm.delivery.outbox import OutboxMessage
from gm.messages.effects import Effect
from gm.messages.kinds import KINDS, Message, RelayedPressRevised
from tests.helpers.messages import examples
from tests.helpers.paths import ROOT


def unworded(classes: object) -> list[str]:
    """The classes among ``classes`` with no wording of their own (they would read as a plain notice)."""
    return sorted(cls.__name__ for cls in classes if cls not in word_message.registry)  # type: ignore[attr-defined]


def all_subclasses(cls: type) -> set[type]:
    found: set[type] = set(cls.__subclasses__())
    return found.union(*(all_subclasses(sub) for sub in found))


def test_every_kind_has_its_own_wording() -> None:
    assert unworded(KINDS.values()) == [], "register a wording in cogs/messages/render.py (word_message)"


def test_a_kind_left_out_is_seen() -> None:
    class Unworded(Message, family=True):  # a family registers no kind, so the registry stays as it is
        pass

    assert unworded([*KINDS.values(), Unworded]) == ["Unworded"]
    assert word_message.dispatch(Unworded) is word_message.dispatch(Message), "it would read as a notice"


def test_every_effect_is_carried_out() -> None:
    effects = all_subclasses(Effect)
    assert len(effects) >= 5
    missing = sorted(e.__name__ for e in effects if e not in carry_out.registry)
    assert missing == [], "register a function for it in cogs/messages/effects.py (carry_out)"


def outbox_message(content: Message, target_kind: str) -> OutboxMessage:
    return OutboxMessage(
        id=1,
        nonce="n",
        kind=content.kind,
        game_id=content.game_id,
        target_kind=target_kind,
        channel_id=9,
        user_id=42,
        payload=json.loads(json.dumps(content.to_payload())),
    )


def shown(parts: list[Outgoing]) -> str:
    """Everything a reader sees of the parts."""
    texts = []
    for part in parts:
        texts.append(part.content or "")
        if part.embed is not None:
            texts += [part.embed.title or "", part.embed.description or ""]
    return "\n".join(texts)


def test_every_kind_says_its_words_with_members_named() -> None:
    """Whatever its kind, a message's lines reach the reader, a member's reference worded as a
    mention, in the game channel as by direct message."""
    for content in examples():
        if isinstance(content, RelayedPressRevised):
            continue  # nothing is posted: the relay's posts are edited (cogs.messages.effects)
        for target in ("game_channel", "user"):
            text = shown(render(outbox_message(content, target)))
            assert "first line <@42>" in text, (content.kind, target, text)
            assert "[[user:" not in text, (content.kind, target)


def kind_names_in(source: str) -> list[str]:
    """Where ``source`` names a kind by its stored name, or compares a ``kind`` attribute."""
    names = set(KINDS)
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in names:
            found.append(f"{node.lineno}: {node.value!r}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "kind" for side in sides):
                found.append(f"{node.lineno}: compares a kind")
    return found


def test_the_adapter_never_branches_on_a_kinds_stored_name() -> None:
    """No kind's name appears in cogs/messages as a string, and no kind attribute is compared: the
    type says what a message is (the name stays in logs, read from the row)."""
    found = {
        path.name: kind_names_in(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "cogs" / "messages").glob("*.py"))
    }
    assert len(found) >= 5
    assert {name: where for name, where in found.items() if where} == {}


def test_the_scan_sees_a_branch_on_a_kind() -> None:
    assert kind_names_in("if message.kind == other:\n    pass\n") == ["1: compares a kind"]
    assert kind_names_in("x = 1\nKINDS = ('replaced', 'power_joined')\n") == [
        "2: 'replaced'",
        "2: 'power_joined'",
    ]
    assert kind_names_in("log.info('%s', message.kind)\n") == []
