"""Settings as pydantic models whose every refusal is a sentence a user can act on.

A field says once what it accepts: its type and range (``Field(ge=1, le=72, strict=True)``), its
default, and a :class:`Refusal`, the sentence naming a wrong value ("A grace extension lasts 1 to 72
hours, not 0."), whatever pydantic found wrong with it (a text, a float, a bool, out of range). A
validator with a check of its own raises :func:`refused` with its sentence. :meth:`CheckedModel.checked`
turns pydantic's ValidationError into one InvalidSettings naming every problem, in field order (a
nested model's fields in its own order); :meth:`CheckedModel.stored` reads what was stored, never
refusing it.

Building a model in code (``GameSettings(players=3)``) validates as well; a wrong value there raises
pydantic's ValidationError: values from users go through :meth:`CheckedModel.checked`.
"""

from __future__ import annotations

import logging
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Self, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from gm.errors import InvalidSettings

log = logging.getLogger(__name__)

REFUSED = "refused"  # the type of a validator's own refusal (its message is the sentence)


@dataclass(frozen=True, slots=True)
class Refusal:
    """The sentence naming a wrong value of a field. ``template`` may use ``{value}`` (what was
    given, through ``shown``), ``{low}`` and ``{high}`` (the field's bounds, through ``shown``) and
    ``{choices}`` (a Literal's values, comma-separated)."""

    template: str
    shown: Callable[[Any], str] = repr

    def sentence(self, value: Any, field: FieldInfo) -> str:
        low, high = bounds(field)
        return self.template.format(
            value=self.shown(value),
            low=self.shown(low) if low is not None else "",
            high=self.shown(high) if high is not None else "",
            choices=", ".join(str(c) for c in choices_of(field)),
        )


def refused(sentence: str) -> PydanticCustomError:
    """A validator's refusal: raise it with the sentence the user reads."""
    return PydanticCustomError(REFUSED, "{sentence}", {"sentence": sentence})


def bounds(field: FieldInfo) -> tuple[Any, Any]:
    """A field's least and greatest value (``Field(ge=..., le=...)``), None where it has none."""
    low = next((m.ge for m in field.metadata if isinstance(m, annotated_types.Ge)), None)
    high = next((m.le for m in field.metadata if isinstance(m, annotated_types.Le)), None)
    return low, high


def choices_of(field: FieldInfo) -> tuple[Any, ...]:
    """The values a ``Literal`` field allows (none for other fields)."""
    annotation = field.annotation
    return get_args(annotation) if get_origin(annotation) is Literal else ()


def refusal_of(field: FieldInfo) -> Refusal | None:
    return next((m for m in field.metadata if isinstance(m, Refusal)), None)


def nested_model(field: FieldInfo) -> type[CheckedModel] | None:
    """The model a field holds (``DeadlineSchedule | None`` -> DeadlineSchedule), None for a value."""
    annotation = field.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        kinds = [a for a in get_args(annotation) if a is not type(None)]
        annotation = kinds[0] if len(kinds) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, CheckedModel):
        return annotation
    return None


class CheckedModel(BaseModel):
    """Frozen settings whose refusals are sentences (see the module). Unknown names are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def checked(
        cls, data: Mapping[str, Any], *, context: Mapping[str, Any] | None = None, hint: str | None = None
    ) -> Self:
        """``data`` validated (``context`` for validators that need it), or InvalidSettings naming
        every problem at once, with ``hint``."""
        found, problems = cls.problems_in(data, context=context)
        if found is None:
            raise InvalidSettings(problems, hint or "Change those values and try again.")
        return found

    @classmethod
    def problems_in(
        cls, data: Mapping[str, Any], *, context: Mapping[str, Any] | None = None
    ) -> tuple[Self | None, list[str]]:
        """``data`` validated and no problem, or None and every problem, as sentences."""
        try:
            return cls.model_validate(dict(data), context=dict(context or {})), []
        except ValidationError as error:
            return None, problems_of(cls, error)

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> Self:
        """What was stored: names this version does not know are left out, missing ones take their
        defaults, and a value that is no longer valid (never written by a validated model; a hand-edited
        row) is logged and left to its default rather than refused: a game stays readable."""
        fields = cls.model_fields
        known = {k: v for k, v in data.items() if k in fields}
        for _ in range(len(known) + 1):
            try:
                return cls.model_validate(known)
            except ValidationError as error:
                wrong = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
                log.warning("stored %s %s not valid, default used: %s", cls.__name__, sorted(wrong), error)
                known = {k: v for k, v in known.items() if k not in wrong}
        return cls()


def problems_of(model: type[BaseModel], error: ValidationError) -> list[str]:
    """Each of pydantic's errors as the sentence its field (or validator) declares, in order, once."""
    problems: list[str] = []
    for item in error.errors(include_url=False):
        sentence = _sentence(model, item)
        if sentence not in problems:
            problems.append(sentence)
    return problems


def _sentence(model: type[BaseModel], item: Any) -> str:
    if item["type"] == REFUSED:
        return str(item["ctx"]["sentence"])
    location = [part for part in item["loc"] if isinstance(part, str)]
    if item["type"] == "extra_forbidden":
        return f"There is no setting called {location[-1] if location else item['input']!r}."
    owner: type[BaseModel] = model
    field: FieldInfo | None = None
    for name in location:
        field = owner.model_fields.get(name)
        if field is None:
            break
        inner = nested_model(field)
        if inner is None or name == location[-1]:
            break
        owner = inner
    refusal = refusal_of(field) if field is not None else None
    if field is None or refusal is None:  # every field declares one (tests/gm/test_gm_settings.py)
        return f"{'.'.join(location) or model.__name__}: {item['msg']}, not {item['input']!r}."
    return refusal.sentence(item["input"], field)
