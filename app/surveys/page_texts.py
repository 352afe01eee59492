"""The hosted survey page's own words in English, German and Swedish (the questions bring theirs)."""

from __future__ import annotations

PAGE_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "submit": "Send answers",
        "thanks": "Thank you! Your answers have been saved.",
        "required": "required",
        "answer_this": "Please answer this question.",
        "not_valid": "Please check this answer.",
        "yes": "Yes",
        "no": "No",
        "unlikely": "Not at all likely",
        "likely": "Extremely likely",
        "errors": "Some answers need your attention.",
        "gone_title": "Survey not available",
        "is not valid": "This survey link is not valid.",
        "has been used": "This survey link has already been used. Thank you for your answers!",
        "has expired": "This survey link has expired.",
        "belongs to a survey that is closed": "This survey is closed.",
    },
    "de": {
        "submit": "Antworten senden",
        "thanks": "Vielen Dank! Ihre Antworten wurden gespeichert.",
        "required": "Pflichtfeld",
        "answer_this": "Bitte beantworten Sie diese Frage.",
        "not_valid": "Bitte prüfen Sie diese Antwort.",
        "yes": "Ja",
        "no": "Nein",
        "unlikely": "Überhaupt nicht wahrscheinlich",
        "likely": "Äußerst wahrscheinlich",
        "errors": "Einige Antworten brauchen Ihre Aufmerksamkeit.",
        "gone_title": "Umfrage nicht verfügbar",
        "is not valid": "Dieser Umfragelink ist ungültig.",
        "has been used": "Dieser Umfragelink wurde bereits verwendet. Vielen Dank für Ihre Antworten!",
        "has expired": "Dieser Umfragelink ist abgelaufen.",
        "belongs to a survey that is closed": "Diese Umfrage ist beendet.",
    },
    "sv": {
        "submit": "Skicka svar",
        "thanks": "Tack! Dina svar har sparats.",
        "required": "obligatorisk",
        "answer_this": "Svara på den här frågan.",
        "not_valid": "Kontrollera det här svaret.",
        "yes": "Ja",
        "no": "Nej",
        "unlikely": "Inte alls troligt",
        "likely": "Mycket troligt",
        "errors": "Några svar behöver din uppmärksamhet.",
        "gone_title": "Enkäten är inte tillgänglig",
        "is not valid": "Den här enkätlänken är ogiltig.",
        "has been used": "Den här enkätlänken har redan använts. Tack för dina svar!",
        "has expired": "Den här enkätlänken har gått ut.",
        "belongs to a survey that is closed": "Den här enkäten är avslutad.",
    },
}


def page_texts(language: str) -> dict[str, str]:
    """The page's words in `language` (its primary subtag), English otherwise."""
    return PAGE_TEXTS.get(language.split("-")[0], PAGE_TEXTS["en"])
