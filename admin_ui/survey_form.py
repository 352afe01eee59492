"""The survey builder's form: what it posts, read back into rows the template shows again exactly as
typed, the list edits its buttons make without JavaScript (add, remove, move), and the change it asks
of the Surveys service.

Every input is named for the field of the survey API it fills (`questions[1].text.de`,
`trigger.pages`), so a refusal of the service, which names that field, is shown beside that input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec

from app.db.models import Survey
from app.errors import InvalidRequest
from app.surveys.bodies import SurveyCreateBody, SurveyPatchBody
from app.surveys.definition import CHOICE_TYPES, MAX_QUESTIONS

QUESTION_TYPES = [
    ("open_text", "Open text"),
    ("rating", "Rating"),
    ("nps", "NPS (0 to 10)"),
    ("single_choice", "Single choice"),
    ("multiple_choice", "Multiple choice"),
    ("boolean", "Yes or no"),
]
DISPLAYS = [("modal", "Modal"), ("banner", "Banner"), ("inline", "Inline")]
MAX_CHOICES = 20
MAX_RULES = 20
END = "end"

_QUESTION = re.compile(r"^questions\[(\d+)\]\.(id|type|required|scale)$")
_QUESTION_TEXT = re.compile(r"^questions\[(\d+)\]\.text\.(.+)$")
_CHOICE_ID = re.compile(r"^questions\[(\d+)\]\.choices\[(\d+)\]\.id$")
_CHOICE_TEXT = re.compile(r"^questions\[(\d+)\]\.choices\[(\d+)\]\.text\.(.+)$")
_RULE = re.compile(r"^questions\[(\d+)\]\.next\[(\d+)\]\.(if|goto)$")
_LIST_ITEM = re.compile(r"^(languages|trigger\.pages|trigger\.exclude_pages|audience\.languages)\[(\d+)\]")
_VALIDATION_AT = re.compile(r"^(?P<rule>.*) - at `\$\.?(?P<path>.*)`$")


@dataclass
class ChoiceRow:
    id: str = ""
    text: dict[str, str] = field(default_factory=dict)

    @property
    def blank(self) -> bool:
        return not self.id.strip() and not any(value.strip() for value in self.text.values())


@dataclass
class RuleRow:
    if_: str = ""
    goto: str = ""


@dataclass
class QuestionRow:
    id: str = ""
    type: str = "open_text"
    required: bool = False
    scale: str = "5"
    text: dict[str, str] = field(default_factory=dict)
    choices: list[ChoiceRow] = field(default_factory=list)
    rules: list[RuleRow] = field(default_factory=list)

    @property
    def has_choices(self) -> bool:
        return self.type in CHOICE_TYPES

    def answers(self) -> list[tuple[str, str]]:
        """The answers skip logic may test, as (value, label)."""
        if self.has_choices:
            return [(choice.id, choice.id) for choice in self.choices if choice.id]
        if self.type == "boolean":
            return [("true", "Yes"), ("false", "No")]
        if self.type == "nps":
            return [(str(n), str(n)) for n in range(11)]
        if self.type == "rating":
            return [(str(n), str(n)) for n in range(1, int(self.scale if self.scale == "10" else 5) + 1)]
        return []


@dataclass
class SurveyDraft:
    """The builder's contents as typed: every value a string, so nothing typed is lost on a re-render."""

    name: str = ""
    languages: str = "en"
    display: str = "modal"
    questions: list[QuestionRow] = field(default_factory=list)
    pages: str = ""
    exclude_pages: str = ""
    event: str = ""
    seconds_on_page: str = ""
    scroll_percent: str = ""
    lifecycle_event: str = ""
    sample_percent: str = "100"
    verified_only: bool = False
    audience_languages: str = ""
    cooldown_days: str = "90"
    ends_at: str = ""
    max_responses: str = ""

    @property
    def language_list(self) -> list[str]:
        """The survey's languages, the default first; one column of texts each."""
        return _words(self.languages)

    def later_ids(self, at: int) -> list[str]:
        """The questions a rule of question `at` may go to."""
        return [question.id for question in self.questions[at + 1 :] if question.id]


def draft_of(survey: Survey) -> SurveyDraft:
    trigger, audience = survey.trigger, survey.audience
    return SurveyDraft(
        name=survey.name,
        languages=", ".join(survey.languages),
        display=survey.display,
        questions=[_question_row(question) for question in survey.questions],
        pages="\n".join(trigger.get("pages", [])),
        exclude_pages="\n".join(trigger.get("exclude_pages", [])),
        event=trigger.get("event") or "",
        seconds_on_page=_text(trigger.get("seconds_on_page")),
        scroll_percent=_text(trigger.get("scroll_percent")),
        lifecycle_event=trigger.get("lifecycle_event") or "",
        sample_percent=_text(audience.get("sample_percent", 100)),
        verified_only=bool(audience.get("verified_only")),
        audience_languages=", ".join(audience.get("languages", [])),
        cooldown_days=str(survey.cooldown_days),
        ends_at=survey.ends_at.strftime("%Y-%m-%dT%H:%M") if survey.ends_at else "",
        max_responses=_text(survey.max_responses),
    )


def _question_row(question: dict[str, Any]) -> QuestionRow:
    return QuestionRow(
        id=question["id"],
        type=question["type"],
        required=bool(question.get("required")),
        scale=str(question.get("scale") or 5),
        text=dict(question.get("text", {})),
        choices=[ChoiceRow(choice["id"], dict(choice["text"])) for choice in question.get("choices") or []],
        rules=[RuleRow(_text(rule["if"]).lower(), rule["goto"]) for rule in question.get("next") or []],
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def draft_from_form(form: dict[str, list[str]]) -> SurveyDraft:
    """The rows of a posted builder form (`form`: every name with its values)."""

    def one(name: str, default: str = "") -> str:
        values = form.get(name)
        return values[-1] if values else default

    questions: dict[int, QuestionRow] = {}
    choices: dict[tuple[int, int], ChoiceRow] = {}
    rules: dict[tuple[int, int], RuleRow] = {}
    for name, values in form.items():
        value = values[-1] if values else ""
        if match := _QUESTION.match(name):
            row = questions.setdefault(int(match[1]), QuestionRow(type=""))
            if match[2] == "required":
                row.required = value in ("on", "true")
            else:
                setattr(row, match[2], value)
        elif match := _QUESTION_TEXT.match(name):
            questions.setdefault(int(match[1]), QuestionRow(type="")).text[match[2]] = value
        elif match := _CHOICE_ID.match(name):
            choices.setdefault((int(match[1]), int(match[2])), ChoiceRow()).id = value
        elif match := _CHOICE_TEXT.match(name):
            choices.setdefault((int(match[1]), int(match[2])), ChoiceRow()).text[match[3]] = value
        elif match := _RULE.match(name):
            rule = rules.setdefault((int(match[1]), int(match[2])), RuleRow())
            setattr(rule, "if_" if match[3] == "if" else "goto", value)
    for (at, _), choice in sorted(choices.items()):
        if at in questions:
            questions[at].choices.append(choice)
    for (at, _), rule in sorted(rules.items()):
        if at in questions:
            questions[at].rules.append(rule)
    for row in questions.values():
        row.type = row.type or "open_text"
    return SurveyDraft(
        name=one("name"),
        languages=one("languages"),
        display=one("display", "modal"),
        questions=[questions[at] for at in sorted(questions)][:MAX_QUESTIONS],
        pages=one("trigger.pages"),
        exclude_pages=one("trigger.exclude_pages"),
        event=one("trigger.event"),
        seconds_on_page=one("trigger.seconds_on_page"),
        scroll_percent=one("trigger.scroll_percent"),
        lifecycle_event=one("trigger.lifecycle_event"),
        sample_percent=one("audience.sample_percent"),
        verified_only=one("audience.verified_only") in ("on", "true"),
        audience_languages=one("audience.languages"),
        cooldown_days=one("cooldown_days"),
        ends_at=one("ends_at"),
        max_responses=one("max_responses"),
    )


def apply_edit(draft: SurveyDraft, action: str) -> str | None:
    """A list edit of the builder's buttons: `add_question`, `remove_question:1`, `up:1`, `down:1`,
    `add_choice:1`, `remove_choice:1:0`, `add_rule:1`, `remove_rule:1:0`. Anything else changes nothing.
    Answers the input to put the focus in (the row added, the question moved), if any."""
    verb, _, rest = action.partition(":")
    at, _, inner = rest.partition(":")
    questions = draft.questions
    if verb == "add_question":
        if len(questions) >= MAX_QUESTIONS:
            return None
        questions.append(QuestionRow(id=_fresh("q", {q.id for q in questions}, len(questions) + 1)))
        return f"questions[{len(questions) - 1}].id"
    if not at.isdigit() or int(at) >= len(questions):
        return None
    index, question = int(at), questions[int(at)]
    if verb == "remove_question":
        del questions[index]
    elif verb == "up" and index > 0:
        questions[index - 1], questions[index] = questions[index], questions[index - 1]
        return f"questions[{index - 1}].id"
    elif verb == "down" and index + 1 < len(questions):
        questions[index + 1], questions[index] = questions[index], questions[index + 1]
        return f"questions[{index + 1}].id"
    elif verb == "add_choice" and len(question.choices) < MAX_CHOICES:
        taken = {choice.id for choice in question.choices}
        question.choices.append(ChoiceRow(id=_fresh("choice-", taken, len(question.choices) + 1)))
        return f"questions[{index}].choices[{len(question.choices) - 1}].id"
    elif verb == "remove_choice" and inner.isdigit() and int(inner) < len(question.choices):
        del question.choices[int(inner)]
    elif verb == "add_rule" and len(question.rules) < MAX_RULES:
        question.rules.append(RuleRow(goto=END))
        return f"questions[{index}].next[{len(question.rules) - 1}].if"
    elif verb == "remove_rule" and inner.isdigit() and int(inner) < len(question.rules):
        del question.rules[int(inner)]
    return None


def fill_choices(draft: SurveyDraft) -> None:
    """A choice question shown with fewer than its two choices gets empty rows to type them in."""
    for question in draft.questions:
        if question.has_choices:
            while len(question.choices) < 2:
                taken = {choice.id for choice in question.choices}
                question.choices.append(ChoiceRow(id=_fresh("choice-", taken, len(question.choices) + 1)))


def _fresh(prefix: str, taken: set[str], start: int) -> str:
    number = start
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def new_survey(template: str, name: str) -> SurveyCreateBody:
    """The "New survey" form's ask: a draft from `template`, or blank (then `name` is required)."""
    body = {"template": template or None, "name": name.strip() or None}
    try:
        return msgspec.convert(body, SurveyCreateBody)
    except msgspec.ValidationError as exc:
        raise invalid_request(exc) from None


def survey_change(draft: SurveyDraft, status: str | None = None) -> SurveyPatchBody:
    """The change the draft asks for; raises InvalidRequest naming the field like the API does."""
    languages = draft.language_list
    body: dict[str, Any] = {
        "name": draft.name.strip(),
        "languages": languages,
        "display": draft.display,
        "questions": [_question(question, languages) for question in draft.questions],
        "trigger": {
            "pages": _lines(draft.pages),
            "exclude_pages": _lines(draft.exclude_pages),
            "event": draft.event.strip() or None,
            "seconds_on_page": _whole("trigger.seconds_on_page", draft.seconds_on_page),
            "scroll_percent": _whole("trigger.scroll_percent", draft.scroll_percent),
            "lifecycle_event": draft.lifecycle_event.strip() or None,
        },
        "audience": {
            "sample_percent": _whole("audience.sample_percent", draft.sample_percent) or 100,
            "verified_only": draft.verified_only,
            "languages": _words(draft.audience_languages),
        },
        "cooldown_days": _whole("cooldown_days", draft.cooldown_days, default=90),
        "ends_at": _moment("ends_at", draft.ends_at),
        "max_responses": _whole("max_responses", draft.max_responses),
    }
    if status is not None:
        body["status"] = status
    try:
        return msgspec.convert(body, SurveyPatchBody)
    except msgspec.ValidationError as exc:
        raise invalid_request(exc) from None


def _question(row: QuestionRow, languages: list[str]) -> dict[str, Any]:
    question: dict[str, Any] = {
        "id": row.id.strip(),
        "type": row.type,
        "text": _texts(row.text, languages),
        "required": row.required,
    }
    if row.type == "rating":
        question["scale"] = 10 if row.scale == "10" else 5
    if row.has_choices:
        question["choices"] = [
            {"id": choice.id.strip(), "text": _texts(choice.text, languages)}
            for choice in row.choices
            if not choice.blank
        ]
    rules = [rule for rule in row.rules if rule.if_.strip() and rule.goto.strip()]
    if rules:
        question["next"] = [{"if": _branch_value(row, rule.if_.strip()), "goto": rule.goto} for rule in rules]
    return question


def _texts(texts: dict[str, str], languages: list[str]) -> dict[str, str]:
    """The texts typed in the survey's languages; an empty one is missing (a draft may miss some)."""
    return {language: texts[language].strip() for language in languages if texts.get(language, "").strip()}


def _branch_value(row: QuestionRow, value: str) -> str | int | bool:
    if row.type == "boolean" and value in ("true", "false"):
        return value == "true"
    if row.type in ("nps", "rating") and value.isdigit():
        return int(value)
    return value


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"[\s,]+", text.strip()) if word]


def _whole(name: str, text: str, default: int | None = None) -> int | None:
    if not text.strip():
        return default
    try:
        return int(text.strip())
    except ValueError:
        raise InvalidRequest(name, "must be a whole number") from None


def _moment(name: str, text: str) -> datetime | None:
    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidRequest(name, "must be a date and time, e.g. 2026-12-31T18:00") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


FRIENDLY = {
    "name": "one line of 1 to 200 characters",
    "id": "use a to z, 0 to 9, _ and -: 1 to 40 characters",
    "languages": "language codes such as en, de, sv or pt-BR, at least one",
    "audience.languages": "language codes such as en, de, sv or pt-BR",
    "trigger.event": "letters, digits and _ . : -, up to 64 characters",
    "trigger.lifecycle_event": "letters, digits and _ . : -, up to 64 characters",
    "trigger.seconds_on_page": "a whole number from 0 to 86400",
    "trigger.scroll_percent": "a whole number from 0 to 100",
    "audience.sample_percent": "a whole number from 1 to 100",
    "cooldown_days": "a whole number of days from 0 to 3650",
    "max_responses": "a whole number from 1",
    "text": "at most 500 characters",
}


def invalid_request(exc: msgspec.ValidationError) -> InvalidRequest:
    """msgspec's refusal of the built change, in words beside the input it concerns."""
    match = _VALIDATION_AT.match(str(exc))
    if match is None:
        return InvalidRequest("survey", str(exc))
    path = match["path"]
    key = form_key(path)
    last = re.sub(r"\[\d+\]", "", key).rsplit(".", 1)[-1]
    rule = FRIENDLY.get(key) or FRIENDLY.get(last) or FRIENDLY.get(_parent(key)) or match["rule"]
    return InvalidRequest(key, rule)


def _parent(key: str) -> str:
    """`questions[0].text.de` -> `text`: a text of any language."""
    parts = re.sub(r"\[\d+\]", "", key).split(".")
    return parts[-2] if len(parts) > 1 else ""


def form_key(path: str) -> str:
    """The input a refusal names: one item of a list typed as lines or words is that list's input."""
    if match := _LIST_ITEM.match(path):
        return match[1]
    return path


def errors_of(exc: InvalidRequest) -> dict[str, str]:
    """{input: message} for a refusal; an item of a list typed as lines says which line."""
    key = form_key(exc.field)
    prefix = f"{exc.field}: "
    rule = exc.details[len(prefix) :] if exc.details.startswith(prefix) else exc.details
    if key != exc.field and (item := re.search(r"\[(\d+)\]", exc.field)):
        rule = f"item {int(item[1]) + 1}: {rule}"
    return {key: rule[:1].upper() + rule[1:]}


_DESCRIBED = [
    (re.compile(r"^questions\[(\d+)\]\.choices\[(\d+)\]\.text\.(.+)$"), "Question {0}, choice {1} in {2}"),
    (re.compile(r"^questions\[(\d+)\]\.choices\[(\d+)\]\.id$"), "Question {0}, choice {1} id"),
    (re.compile(r"^questions\[(\d+)\]\.text\.(.+)$"), "Question {0} in {1}"),
    (re.compile(r"^questions\[(\d+)\]\.next\[(\d+)\]\.\w+$"), "Question {0}, skip rule {1}"),
    (re.compile(r"^questions\[(\d+)\]\.(\w+)$"), "Question {0}, {1}"),
]


def describe(key: str) -> str:
    """An input's name as the builder labels it: `questions[1].text.de` -> "Question 2 in de"."""
    for pattern, words in _DESCRIBED:
        if match := pattern.match(key):
            parts = [str(int(part) + 1) if part.isdigit() else part for part in match.groups()]
            return words.format(*parts)
    words = key.replace("trigger.", "Trigger: ").replace("audience.", "Audience: ").replace("_", " ")
    return words[:1].upper() + words[1:]
