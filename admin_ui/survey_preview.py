"""The builder's live preview: the survey as a visitor sees it in one of its languages, built from the
builder's contents as typed (saved or not). A text not yet written in that language shows the default
language's text, marked for the author; the widget's own words come in English, German or Swedish."""

from __future__ import annotations

from dataclasses import dataclass

from admin_ui.survey_form import QuestionRow, SurveyDraft

WIDGET_WORDS = {
    "en": {
        "send": "Send",
        "next": "Next",
        "close": "Close",
        "yes": "Yes",
        "no": "No",
        "unlikely": "Not at all likely",
        "likely": "Extremely likely",
        "optional": "optional",
        "answer": "Your answer",
    },
    "de": {
        "send": "Senden",
        "next": "Weiter",
        "close": "Schließen",
        "yes": "Ja",
        "no": "Nein",
        "unlikely": "Überhaupt nicht wahrscheinlich",
        "likely": "Äußerst wahrscheinlich",
        "optional": "optional",
        "answer": "Ihre Antwort",
    },
    "sv": {
        "send": "Skicka",
        "next": "Nästa",
        "close": "Stäng",
        "yes": "Ja",
        "no": "Nej",
        "unlikely": "Inte alls troligt",
        "likely": "Mycket troligt",
        "optional": "valfri",
        "answer": "Ditt svar",
    },
}


@dataclass(frozen=True)
class ShownText:
    text: str
    missing: bool
    """Not written in the preview's language: the default language's text (or nothing) stands in."""


@dataclass(frozen=True)
class ShownQuestion:
    number: int
    type: str
    text: ShownText
    required: bool
    values: list[str]
    """The buttons of a rating or NPS question."""
    choices: list[ShownText]


@dataclass(frozen=True)
class Preview:
    language: str
    languages: list[str]
    display: str
    questions: list[ShownQuestion]
    words: dict[str, str]

    @property
    def missing(self) -> int:
        """How many texts of this language are not written yet."""
        return sum(
            question.text.missing + sum(choice.missing for choice in question.choices)
            for question in self.questions
        )


def preview_of(draft: SurveyDraft, language: str) -> Preview:
    languages = draft.language_list or ["en"]
    shown = language if language in languages else languages[0]
    default = languages[0]
    return Preview(
        language=shown,
        languages=languages,
        display=draft.display,
        questions=[
            _question(number, row, shown, default) for number, row in enumerate(draft.questions, start=1)
        ],
        words=WIDGET_WORDS.get(shown.split("-")[0], WIDGET_WORDS["en"]),
    )


def _question(number: int, row: QuestionRow, language: str, default: str) -> ShownQuestion:
    values: list[str] = []
    if row.type == "nps":
        values = [str(n) for n in range(11)]
    elif row.type == "rating":
        values = [str(n) for n in range(1, (10 if row.scale == "10" else 5) + 1)]
    return ShownQuestion(
        number=number,
        type=row.type,
        text=_shown(row.text, language, default),
        required=row.required,
        values=values,
        choices=[_shown(choice.text, language, default) for choice in row.choices if not choice.blank]
        if row.has_choices
        else [],
    )


def _shown(texts: dict[str, str], language: str, default: str) -> ShownText:
    own = texts.get(language, "").strip()
    if own:
        return ShownText(own, False)
    return ShownText(texts.get(default, "").strip(), True)
