"""A survey's definition as the API takes it: questions, trigger and audience, and the checks a survey
passes when it is saved and, stricter, when it is (or stays) active.

Saved as a draft, a survey may still miss translations and point skip logic forward to questions not yet
written; an active survey may not: every text exists in every language of the survey, and every `goto`
names a later question or "end". Each refusal names the field, e.g. `questions[1].text.de`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from app.errors import InvalidRequest
from app.surveys.globs import GLOB_MAX_LENGTH, glob_problem

MAX_QUESTIONS = 10
MAX_LANGUAGES = 20
ITEM_ID_PATTERN = r"^[a-z0-9_-]{1,40}$"
LANGUAGE_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$"
EVENT_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
END = "end"
"""The `goto` that ends the survey."""

QuestionType = Literal["open_text", "rating", "nps", "single_choice", "multiple_choice", "boolean"]
CHOICE_TYPES = ("single_choice", "multiple_choice")

ItemId = Annotated[
    str,
    msgspec.Meta(pattern=ITEM_ID_PATTERN, description="Chosen by the author: a-z, 0-9, _ and -, 1 to 40."),
]
Language = Annotated[
    str,
    msgspec.Meta(
        pattern=LANGUAGE_PATTERN, max_length=16, description="A language code such as en, de, sv or pt-BR."
    ),
]
Text = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
Texts = Annotated[
    dict[Language, Text],
    msgspec.Meta(max_length=MAX_LANGUAGES, description="The text in each language of the survey."),
]
Glob = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=GLOB_MAX_LENGTH,
        description="A glob on the pathname: * within one segment, ** across segments, e.g. /docs/**.",
    ),
]
EventName = Annotated[str, msgspec.Meta(pattern=EVENT_PATTERN)]


class Choice(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id: ItemId
    text: Texts


class Branch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, rename={"if_": "if"}):
    """Skip logic: after an answer equal to `if` (a choice id, a number, true or false), go to `goto`."""

    if_: str | int | bool
    goto: str
    """A later question's id, or "end"."""


class Question(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Stored and shown without the parts its type has not (scale, choices) and without empty skip logic;
    `required` is always shown."""

    id: ItemId
    type: QuestionType
    text: Texts
    required: bool = False
    scale: Literal[5, 10] | None = None
    """rating only: 1 to 5 or 1 to 10."""
    choices: Annotated[list[Choice], msgspec.Meta(max_length=20)] | None = None
    """single_choice and multiple_choice only: 2 to 20."""
    next: Annotated[list[Branch], msgspec.Meta(max_length=20)] | None = None


class Trigger(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Every condition given must hold; none given: every page, at once."""

    pages: Annotated[list[Glob], msgspec.Meta(max_length=50)] = msgspec.field(default_factory=list)
    exclude_pages: Annotated[list[Glob], msgspec.Meta(max_length=50)] = msgspec.field(default_factory=list)
    event: EventName | None = None
    """Shown after the page calls Hearken.track(event)."""
    seconds_on_page: Annotated[int, msgspec.Meta(ge=0, le=86_400)] | None = None
    """Counted from the page load, and again from each client-side navigation."""
    scroll_percent: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    lifecycle_event: EventName | None = None
    """Sent as a link by POST /projects/{pid}/lifecycle-events with this event."""


class Audience(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    sample_percent: Annotated[int, msgspec.Meta(ge=1, le=100)] = 100
    verified_only: bool = False
    """Only visitors whose submitted_by comes signed with the project's identity secret."""
    languages: Annotated[list[Language], msgspec.Meta(max_length=MAX_LANGUAGES)] = msgspec.field(
        default_factory=list
    )
    """Only visitors in one of these languages; empty: every language."""


Languages = Annotated[list[Language], msgspec.Meta(min_length=1, max_length=MAX_LANGUAGES)]
Questions = Annotated[list[Question], msgspec.Meta(max_length=MAX_QUESTIONS)]


def check_saved(
    languages: list[str], questions: list[Question], trigger: Trigger, audience: Audience
) -> None:
    """What every survey must satisfy, draft or not; raises InvalidRequest naming the field."""
    if len(set(languages)) != len(languages):
        raise InvalidRequest("languages", "each language at most once")
    seen: set[str] = set()
    for at, question in enumerate(questions):
        where = f"questions[{at}]"
        if question.id in seen:
            raise InvalidRequest(f"{where}.id", f"{question.id!r} is already the id of an earlier question")
        seen.add(question.id)
        _check_texts(f"{where}.text", question.text, languages)
        _check_shape(where, question)
        for b, choice in enumerate(question.choices or []):
            _check_texts(f"{where}.choices[{b}].text", choice.text, languages)
        for b, branch in enumerate(question.next or []):
            _check_branch_value(f"{where}.next[{b}].if", question, branch.if_)
            if not _is_item_id(branch.goto):
                raise InvalidRequest(f"{where}.next[{b}].goto", 'must be a question id or "end"')
    for name, globs in (("pages", trigger.pages), ("exclude_pages", trigger.exclude_pages)):
        for at, glob in enumerate(globs):
            if (problem := glob_problem(glob)) is not None:
                raise InvalidRequest(f"trigger.{name}[{at}]", problem)
    if len(set(audience.languages)) != len(audience.languages):
        raise InvalidRequest("audience.languages", "each language at most once")


def check_activatable(languages: list[str], questions: list[Question]) -> None:
    """What an active survey must satisfy besides: a question at least, every text in every language,
    every goto to a later question or "end"."""
    if not questions:
        raise InvalidRequest("questions", "an active survey needs at least one question")
    order = {question.id: at for at, question in enumerate(questions)}
    for at, question in enumerate(questions):
        where = f"questions[{at}]"
        _check_translated(f"{where}.text", question.text, languages)
        for b, choice in enumerate(question.choices or []):
            _check_translated(f"{where}.choices[{b}].text", choice.text, languages)
        for b, branch in enumerate(question.next or []):
            if branch.goto == END:
                continue
            target = order.get(branch.goto)
            if target is None:
                raise InvalidRequest(f"{where}.next[{b}].goto", f"no question {branch.goto!r} in this survey")
            if target <= at:
                raise InvalidRequest(
                    f"{where}.next[{b}].goto",
                    f"{branch.goto!r} is not after {question.id!r}: skip logic only goes forward",
                )


def _is_item_id(value: str) -> bool:
    return value == END or (0 < len(value) <= 40 and all(c in _ID_CHARACTERS for c in value))


_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def _check_texts(where: str, texts: dict[str, str], languages: list[str]) -> None:
    for language in texts:
        if language not in languages:
            raise InvalidRequest(f"{where}.{language}", "is not one of the survey's languages")


def _check_translated(where: str, texts: dict[str, str], languages: list[str]) -> None:
    for language in languages:
        if not texts.get(language, "").strip():
            raise InvalidRequest(
                f"{where}.{language}", "missing: an active survey has every text in each of its languages"
            )


def _check_shape(where: str, question: Question) -> None:
    if question.type == "rating":
        if question.scale is None:
            raise InvalidRequest(f"{where}.scale", "a rating question needs a scale: 5 or 10")
    elif question.scale is not None:
        raise InvalidRequest(f"{where}.scale", "only a rating question has a scale")
    if question.type in CHOICE_TYPES:
        choices = question.choices or []
        if not 2 <= len(choices) <= 20:
            raise InvalidRequest(f"{where}.choices", "a choice question has 2 to 20 choices")
        ids = [choice.id for choice in choices]
        if len(set(ids)) != len(ids):
            raise InvalidRequest(f"{where}.choices", "each choice id at most once")
    elif question.choices is not None:
        raise InvalidRequest(
            f"{where}.choices", "only single_choice and multiple_choice questions have choices"
        )


def _check_branch_value(where: str, question: Question, value: Any) -> None:
    if not branch_value_fits(question, value):
        raise InvalidRequest(where, f"is not an answer question {question.id!r} can have")


def branch_value_fits(question: Question, value: Any) -> bool:
    """Whether `value` is an answer a branch of `question` may test."""
    if question.type in CHOICE_TYPES:
        return isinstance(value, str) and value in {choice.id for choice in question.choices or []}
    if question.type == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    if question.type == "rating":
        return 1 <= value <= (question.scale or 5)
    if question.type == "nps":
        return 0 <= value <= 10
    return False


def questions_of(raw: list[dict[str, Any]]) -> list[Question]:
    """A stored survey's questions as structs."""
    return msgspec.convert(raw, list[Question])


def stored(value: Any) -> Any:
    """A struct (or list of them) as the JSON column keeps it; a question always says if it is required."""
    if isinstance(value, list):
        return [stored(item) for item in value]
    built = msgspec.to_builtins(value)
    if isinstance(value, Question):
        built["required"] = value.required
    return built
