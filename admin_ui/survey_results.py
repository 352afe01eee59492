"""A survey's results as the console shows them: per question its words (in the survey's default
language), how many answered, and a chart of the answers with, by type, the NPS score and its three
groups, the mean rating, the choices by their words, and for open text its themes or latest answers."""

from __future__ import annotations

from dataclasses import dataclass, field

from admin_ui.charts import CountChart, count_chart, share_chart
from app.db.models import Survey, SurveyResponse
from app.surveys.bodies import NpsOut, QuestionResult, SurveyResults, SurveyTheme
from app.surveys.definition import Question, questions_of

LATEST_ANSWERS = 5
NPS_TONES = ["detractor"] * 7 + ["passive"] * 2 + ["promoter"] * 2


@dataclass
class QuestionView:
    number: int
    id: str
    type: str
    text: str
    answers: int
    chart: CountChart | None = None
    nps: NpsOut | None = None
    mean: float | None = None
    themes: list[SurveyTheme] = field(default_factory=list)
    latest: list[str] = field(default_factory=list)
    """Open text: the latest answers, the visitors' own words."""


def result_views(survey: Survey, results: SurveyResults, latest: list[SurveyResponse]) -> list[QuestionView]:
    questions = {question.id: question for question in questions_of(survey.questions)}
    default = survey.languages[0]
    views = []
    for number, result in enumerate(results.questions, start=1):
        question = questions[result.id]
        view = QuestionView(
            number=number,
            id=result.id,
            type=result.type,
            text=_words(question.text, default) or result.id,
            answers=result.answers,
            nps=result.nps,
            mean=result.mean,
            themes=list(result.themes or []),
        )
        view.chart = _chart(question, result, default)
        if result.type == "open_text":
            view.latest = _latest(latest, result.id)
        views.append(view)
    return views


def _chart(question: Question, result: QuestionResult, default: str) -> CountChart | None:
    title = f"Answers to {question.id}"
    if result.distribution is not None:
        counts = list(result.distribution.items())
        return count_chart(title, counts, tones=NPS_TONES if result.type == "nps" else None)
    if result.choices is None:
        return None
    if result.type == "boolean":
        return share_chart(title, [("Yes", result.choices["true"]), ("No", result.choices["false"])])
    words = {choice.id: _words(choice.text, default) or choice.id for choice in question.choices or []}
    counts = [(words.get(choice_id, choice_id), count) for choice_id, count in result.choices.items()]
    return share_chart(title, counts, total=result.answers)


def _words(texts: dict[str, str], default: str) -> str:
    return texts.get(default) or next(iter(texts.values()), "")


def _latest(responses: list[SurveyResponse], question_id: str) -> list[str]:
    found = []
    for response in responses:
        for answer in response.answers:
            value = answer.get("value")
            if answer.get("question_id") == question_id and isinstance(value, str) and value.strip():
                found.append(value)
        if len(found) >= LATEST_ANSWERS:
            break
    return found[:LATEST_ANSWERS]
