"""Keeps survey_counters exact: every change to a response moves its counts in the same transaction.

A response counts under its survey, its first day and its language: the survey's "responses" (and
"completed" once completed), and for each answer its question's answer count and each value it holds.
An amendment takes back what the stored response counted and counts what it now holds; an erasure only
takes back. Keys are applied in sorted order (app/db/counter_upsert.py), after the response row is
locked, so concurrent writers of the same counters take their locks in one order. Spam counts nowhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.counter_upsert import add_to_counters
from app.db.models import ANSWERED, SURVEY_TOTALS, SurveyCounter
from app.surveys.answers import counted_values

CounterKey = tuple[UUID, date, str, str, str]
"""(survey_id, day, language, question_id, value)"""
KeyInSurvey = tuple[date, str, str, str]
"""(day, language, question_id, value): a counter key within one survey"""


class Counted:
    """What one response counts, as the row holds it (or held it before a change)."""

    __slots__ = ("answers", "completed", "day", "language", "spam", "survey_id")

    def __init__(
        self,
        survey_id: UUID,
        day: date,
        language: str,
        completed: bool,
        answers: list[dict[str, Any]],
        spam: bool = False,
    ) -> None:
        self.survey_id = survey_id
        self.day = day
        self.language = language
        self.completed = completed
        self.answers = answers
        self.spam = spam

    @classmethod
    def of(cls, response: Any) -> Counted:
        """A SurveyResponse's counts as they stand (a copy: the row may change after)."""
        return cls(
            response.survey_id,
            response.day,
            response.language,
            response.completed,
            list(response.answers),
            response.spam,
        )

    def counter_keys(self) -> list[CounterKey]:
        return [(self.survey_id, *key) for key in self.keys_in_survey()]

    def keys_in_survey(self) -> list[KeyInSurvey]:
        """The counter keys without the survey's id (cheaper to sum: a UUID hashes in Python)."""
        if self.spam:
            return []
        base = (self.day, self.language)
        keys = [(*base, SURVEY_TOTALS, "responses")]
        if self.completed:
            keys.append((*base, SURVEY_TOTALS, "completed"))
        for answer in self.answers:
            question_id = answer["question_id"]
            keys.append((*base, question_id, ANSWERED))
            keys.extend((*base, question_id, value) for value in counted_values(answer))
        return keys


def deltas(before: Iterable[Counted], after: Iterable[Counted]) -> Counter[CounterKey]:
    """What the counters gain when the responses counted as `before` count as `after` instead."""
    moved: Counter[CounterKey] = Counter()
    for counted in before:
        for key in counted.counter_keys():
            moved[key] -= 1
    for counted in after:
        for key in counted.counter_keys():
            moved[key] += 1
    return moved


async def move_counts(session: AsyncSession, before: Iterable[Counted], after: Iterable[Counted]) -> None:
    """Apply the change in the caller's transaction (its response rows are already locked)."""
    await add_to_counters(session, SurveyCounter.__table__, deltas(before, after))
