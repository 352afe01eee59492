"""Answers to a survey's questions: checked against the question, kept as given, counted by value.

A stored answer is `{"question_id", "type", "value"}`: the question's type is kept with it, so that the
counts an answer added can be taken back exactly (an amended or erased response) even after the survey's
questions changed. The API shows `question_id` and `value`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.errors import InvalidRequest
from app.surveys.definition import CHOICE_TYPES, END, Question

OPEN_TEXT_MAX_LENGTH = 5000


def checked_answer(at: int, question: Question | None, question_id: str, value: Any) -> dict[str, Any]:
    """The answer `answers[at]` as stored, or 400 naming that field and the question."""
    if question is None:
        raise InvalidRequest(f"answers[{at}].question_id", f"no question {question_id!r} in this survey")
    problem = value_problem(question, value)
    if problem is not None:
        raise InvalidRequest(f"answers[{at}].value", f"question {question.id!r} {problem}")
    return {"question_id": question.id, "type": question.type, "value": value}


def value_problem(question: Question, value: Any) -> str | None:
    """Why `value` is no answer to `question`, or None."""
    kind = question.type
    if kind == "open_text":
        if not isinstance(value, str) or not value.strip() or len(value) > OPEN_TEXT_MAX_LENGTH:
            return f"takes a text of 1 to {OPEN_TEXT_MAX_LENGTH} characters"
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else "takes true or false"
    if kind in ("rating", "nps"):
        low, high = (0, 10) if kind == "nps" else (1, question.scale or 5)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"takes a whole number from {low} to {high}"
        return None
    ids = {choice.id for choice in question.choices or []}
    if kind == "single_choice":
        return (
            None if isinstance(value, str) and value in ids else f"takes one of its choice ids: {sorted(ids)}"
        )
    if (
        not isinstance(value, list)
        or not value
        or len(set(map(str, value))) != len(value)
        or not all(isinstance(v, str) and v in ids for v in value)
    ):
        return f"takes a list of distinct choice ids from {sorted(ids)}"
    return None


def counted_values(answer: dict[str, Any]) -> list[str]:
    """The values a stored answer counts under, besides its question's answer count."""
    kind, value = answer["type"], answer["value"]
    if kind == "open_text":
        return []
    if kind == "boolean":
        return ["true" if value else "false"]
    if kind == "multiple_choice":
        return [str(v) for v in value]
    return [str(value)]


def merged(stored: Sequence[dict[str, Any]], new: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A later call's answers added to what is stored: an answer to a question answered before replaces
    it in place, the others follow in the order given."""
    answers = {answer["question_id"]: answer for answer in stored}
    answers.update({answer["question_id"]: answer for answer in new})
    return list(answers.values())


def missing_required(questions: Sequence[Question], answers: Sequence[dict[str, Any]]) -> Question | None:
    """The first required question on the respondent's path that has no answer. The path follows the
    skip logic from the answers given: a question skipped over is not missing."""
    given = {answer["question_id"]: answer["value"] for answer in answers}
    order: dict[str, int] | None = None  # each question's place, made once skip logic names one
    at = 0
    while at < len(questions):
        question = questions[at]
        if question.id not in given:
            if question.required:
                return question
            at += 1
            continue
        goto = next_after(question, given[question.id])
        if goto == END:
            return None
        if goto is None:
            at += 1
            continue
        if order is None:
            order = {question.id: place for place, question in enumerate(questions)}
        at = order.get(goto, at + 1)
    return None


def next_after(question: Question, value: Any) -> str | None:
    """Where skip logic leads after this answer: a question id, "end", or None for the next question."""
    for branch in question.next or []:
        expected = branch.if_
        if question.type in CHOICE_TYPES and isinstance(value, list):
            if expected in value:
                return branch.goto
        elif value == expected and isinstance(value, bool) == isinstance(expected, bool):
            return branch.goto
    return None
