"""data-language (en, de, sv), the browser's language when it is not set, English otherwise."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site


def open_page(browser: Browser, locale: str, url: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(locale=locale, viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.goto(url)
    return context, page


def test_german_everywhere(browser: Browser, site: Site) -> None:
    body = "".join(site.tag(name, language="de") for name in ("helpful", "star", "contact", "feedback"))
    context, page = open_page(browser, "en-US", site.page(body))
    helpful = page.locator("hearken-helpful")
    expect(helpful.get_by_text("War diese Seite hilfreich?")).to_be_visible()
    expect(page.locator("hearken-star").get_by_role("radio", name="1 Stern", exact=True)).to_have_count(1)
    expect(page.locator("hearken-star").get_by_role("radio", name="4 Sterne")).to_have_count(1)
    helpful.get_by_role("button", name="Ja").click()
    expect(helpful.get_by_role("status")).to_have_text("Vielen Dank für Ihr Feedback!")

    page.get_by_role("button", name="Kontakt", exact=True).click()
    dialog = page.get_by_role("dialog", name="Kontaktieren Sie uns")
    for label in ("Name", "E-Mail", "Nachricht"):
        expect(dialog.get_by_label(label, exact=True)).to_be_visible()
    dialog.get_by_label("E-Mail").fill("kein-at-zeichen")
    dialog.get_by_role("button", name="Senden").click()
    expect(dialog.get_by_label("Name", exact=True)).to_have_accessible_description(
        "Bitte füllen Sie dieses Feld aus."
    )
    expect(dialog.get_by_label("E-Mail")).to_have_accessible_description(
        "Bitte geben Sie eine gültige E-Mail-Adresse ein."
    )
    screenshot(page, "contact-de")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Feedback").click()
    feedback = page.get_by_role("dialog", name="Feedback senden")
    expect(feedback.get_by_label("Art")).to_have_value("Other")
    feedback.get_by_label("Art").select_option(label="Fehler")
    expect(feedback.get_by_role("button", name="Schließen")).to_be_visible()
    context.close()


def test_swedish_from_the_attribute(browser: Browser, site: Site) -> None:
    body = (
        site.tag("helpful", language="sv")
        + site.tag("contact", language="sv")
        + site.tag("star", language="sv")
    )
    context, page = open_page(browser, "de-DE", site.page(body))
    helpful = page.locator("hearken-helpful")
    expect(helpful.get_by_text("Var den här sidan till hjälp?")).to_be_visible()
    expect(page.locator("hearken-star").get_by_role("radio", name="5 stjärnor")).to_have_count(1)
    helpful.get_by_role("button", name="Nej").click()
    expect(helpful.get_by_role("status")).to_have_text("Tack för din feedback!")
    page.get_by_role("button", name="Kontakta oss").click()
    dialog = page.get_by_role("dialog", name="Kontakta oss")
    for label in ("Namn", "E-post", "Meddelande"):
        expect(dialog.get_by_label(label)).to_be_visible()
    dialog.get_by_label("Namn").fill("Sven")
    dialog.get_by_label("E-post").fill("sven@example.se")
    dialog.get_by_label("Meddelande").fill("Hej")
    dialog.get_by_role("button", name="Skicka").click()
    expect(dialog.get_by_role("status")).to_have_text(
        "Tack! Ditt meddelande har skickats. Vårt team återkommer snart."
    )
    screenshot(page, "contact-sv-sent")
    context.close()


def test_browser_language_is_used_when_no_attribute(browser: Browser, site: Site) -> None:
    context, page = open_page(browser, "sv-SE", site.page(site.tag("helpful")))
    expect(page.locator("hearken-helpful").get_by_role("button", name="Ja")).to_be_visible()
    context.close()


def test_english_when_neither_is_supported(browser: Browser, site: Site) -> None:
    context, page = open_page(browser, "fr-FR", site.page(site.tag("helpful", language="fi")))
    expect(page.locator("hearken-helpful").get_by_text("Was this page helpful?")).to_be_visible()
    context.close()
