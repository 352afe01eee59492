"""Ready-made surveys, each created as a draft with its questions in English, German and Swedish."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.surveys.definition import Branch, Choice, Question, Trigger

TemplateName = Literal["nps", "csat", "ces", "pmf", "churn_reason"]
TEMPLATE_LANGUAGES = ["en", "de", "sv"]


@dataclass(frozen=True)
class Template:
    name: str
    questions: list[Question]
    trigger: Trigger


def _texts(en: str, de: str, sv: str) -> dict[str, str]:
    return {"en": en, "de": de, "sv": sv}


def _choice(choice_id: str, en: str, de: str, sv: str) -> Choice:
    return Choice(id=choice_id, text=_texts(en, de, sv))


def _open(question_id: str, en: str, de: str, sv: str) -> Question:
    return Question(id=question_id, type="open_text", text=_texts(en, de, sv))


TEMPLATES: dict[str, Template] = {
    "nps": Template(
        "Net Promoter Score",
        [
            Question(
                id="score",
                type="nps",
                required=True,
                text=_texts(
                    "How likely are you to recommend us to a friend or colleague?",
                    "Wie wahrscheinlich ist es, dass Sie uns einem Freund oder Kollegen empfehlen?",
                    "Hur troligt är det att du skulle rekommendera oss till en vän eller kollega?",
                ),
            ),
            _open(
                "reason",
                "What is the main reason for your score?",
                "Was ist der wichtigste Grund für Ihre Bewertung?",
                "Vad är det främsta skälet till ditt betyg?",
            ),
        ],
        Trigger(seconds_on_page=30),
    ),
    "csat": Template(
        "Customer satisfaction",
        [
            Question(
                id="satisfaction",
                type="rating",
                scale=5,
                required=True,
                text=_texts(
                    "How satisfied are you with your experience today?",
                    "Wie zufrieden sind Sie mit Ihrer heutigen Erfahrung?",
                    "Hur nöjd är du med din upplevelse i dag?",
                ),
            ),
            _open(
                "improve",
                "What could we do better?",
                "Was könnten wir besser machen?",
                "Vad kunde vi ha gjort bättre?",
            ),
        ],
        Trigger(seconds_on_page=20),
    ),
    "ces": Template(
        "Customer effort",
        [
            Question(
                id="effort",
                type="rating",
                scale=5,
                required=True,
                text=_texts(
                    "How easy was it to do what you came to do today? (1 = very hard, 5 = very easy)",
                    "Wie einfach war es heute, Ihr Anliegen zu erledigen? (1 = sehr schwer, 5 = sehr leicht)",
                    "Hur lätt var det att göra det du kom för i dag? (1 = mycket svårt, 5 = mycket lätt)",
                ),
                next=[Branch(if_=5, goto="end")],
            ),
            _open(
                "obstacle",
                "What made it harder than it should have been?",
                "Was hat es schwerer gemacht, als es hätte sein sollen?",
                "Vad gjorde det svårare än det borde ha varit?",
            ),
        ],
        Trigger(),
    ),
    "pmf": Template(
        "Product/market fit",
        [
            Question(
                id="disappointment",
                type="single_choice",
                required=True,
                text=_texts(
                    "How would you feel if you could no longer use our product?",
                    "Wie würden Sie sich fühlen, wenn Sie unser Produkt nicht mehr nutzen könnten?",
                    "Hur skulle du känna dig om du inte längre kunde använda vår produkt?",
                ),
                choices=[
                    _choice("very", "Very disappointed", "Sehr enttäuscht", "Mycket besviken"),
                    _choice("somewhat", "Somewhat disappointed", "Etwas enttäuscht", "Något besviken"),
                    _choice("not", "Not disappointed", "Nicht enttäuscht", "Inte besviken"),
                ],
            ),
            _open(
                "main_benefit",
                "What is the main benefit you get from our product?",
                "Was ist der wichtigste Nutzen, den Sie aus unserem Produkt ziehen?",
                "Vilken är den största nyttan du får av vår produkt?",
            ),
            _open(
                "improve",
                "How could we improve the product for you?",
                "Wie könnten wir das Produkt für Sie verbessern?",
                "Hur skulle vi kunna förbättra produkten för dig?",
            ),
        ],
        Trigger(seconds_on_page=60),
    ),
    "churn_reason": Template(
        "Why are you leaving?",
        [
            Question(
                id="reason",
                type="single_choice",
                required=True,
                text=_texts(
                    "What is the main reason you are leaving?",
                    "Was ist der wichtigste Grund, warum Sie kündigen?",
                    "Vad är det främsta skälet till att du lämnar oss?",
                ),
                choices=[
                    _choice("too_expensive", "It is too expensive", "Es ist zu teuer", "Det är för dyrt"),
                    _choice(
                        "missing_features",
                        "It lacks features I need",
                        "Mir fehlen Funktionen, die ich brauche",
                        "Det saknar funktioner jag behöver",
                    ),
                    _choice(
                        "hard_to_use",
                        "It is too hard to use",
                        "Es ist zu schwer zu bedienen",
                        "Det är för svårt att använda",
                    ),
                    _choice(
                        "switched",
                        "I switched to another product",
                        "Ich bin zu einem anderen Produkt gewechselt",
                        "Jag har bytt till en annan produkt",
                    ),
                    _choice(
                        "no_longer_needed",
                        "I no longer need it",
                        "Ich brauche es nicht mehr",
                        "Jag behöver det inte längre",
                    ),
                    _choice("other", "Something else", "Etwas anderes", "Något annat"),
                ],
            ),
            _open(
                "keep",
                "Is there anything we could have done to keep you?",
                "Hätten wir etwas tun können, damit Sie bleiben?",
                "Finns det något vi kunde ha gjort för att du skulle stanna?",
            ),
        ],
        Trigger(lifecycle_event="subscription_cancelled"),
    ),
}
