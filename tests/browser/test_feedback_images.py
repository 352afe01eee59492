"""Images through the real feedback widget in Chromium: a screen capture and attached files, previewed, one
removed before sending, the rest stored with the item, while the host page keeps its strict CSP.

Chromium's switches for tests accept the capture without a prompt. Headless Chromium cannot capture its
own tab (auto-accepting "this tab" alone never answers there), so the fake media device stands in for the
screen: the widget's whole path runs (getDisplayMedia, a frame drawn, encoded, previewed, sent), with a
generated picture where a person's browser would give the tab."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect, sync_playwright

from app.ingest import MIN_HUMAN_MS
from tests.browser.widget_pages import Site
from tests.images import jpeg_with_gps, png
from tests.local_http import local_http
from tests.services import CHROMIUM, CHROMIUM_ARGS, require_chromium

TAB_CAPTURE = [
    "--auto-accept-this-tab-capture",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
]
"""Chromium accepts a page's getDisplayMedia() without asking, from its fake capture device."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *TAB_CAPTURE])
        yield chromium
        chromium.close()


def test_a_screenshot_and_an_attached_image_are_sent_with_the_feedback(page: Page, site: Site) -> None:
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto(site.page(site.tag("feedback")))
    page.get_by_role("button", name="Feedback").click()
    dialog = page.get_by_role("dialog", name="Send feedback")
    assert not any("feedback-media" in url for url in loaded)  # fetched only when asked for
    dialog.get_by_label("Message").fill("The totals row overlaps the chart")

    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Attach an image").click()
    chooser.value.set_files(
        [
            {"name": "photo.jpg", "mimeType": "image/jpeg", "buffer": jpeg_with_gps()},
            {"name": "extra.png", "mimeType": "image/png", "buffer": png(30, 20)},
        ]
    )
    expect(dialog.get_by_role("img", name="photo.jpg (1)")).to_be_visible()
    assert any(url.endswith("/static/widgets/v1/feedback-media.js") for url in loaded)

    dialog.get_by_role("button", name="Add a screenshot").click()
    expect(dialog.get_by_role("img", name="screenshot.png (3)")).to_be_visible()
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Attach an image").click()
    chooser.value.set_files({"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not an image"})
    expect(dialog.get_by_role("status")).to_have_text("Up to 3 images: PNG, JPEG or WebP, at most 5 MB each.")
    dialog.get_by_role("button", name="Remove: extra.png (2)").click()
    expect(dialog.get_by_role("img")).to_have_count(2)

    page.wait_for_timeout(MIN_HUMAN_MS)  # a person takes a moment before sending
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text("Thank you for your feedback!")

    (item,) = site.server.read(site.tenant, "feedback")["feedback"]
    assert item["message"] == "The totals row overlaps the chart" and item["spam"] is False
    kinds = [attachment["content_type"] for attachment in item["attachments"]]
    assert kinds == ["image/jpeg", "image/png"]
    screenshot = item["attachments"][1]
    assert screenshot["width"] >= 640 and screenshot["height"] >= 360  # a whole frame, as captured
    served = local_http.get(
        f"{site.server.base_url}/api/v1/projects/{site.tenant.project_id}/feedback/{item['id']}"
        f"/attachments/{screenshot['id']}",
        headers=site.tenant.headers,
    )
    assert Image.open(BytesIO(served.content)).size == (screenshot["width"], screenshot["height"])
