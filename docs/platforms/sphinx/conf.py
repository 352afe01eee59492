"""A Sphinx site with the Furo theme and Hearken's helpful widget at the end of every article.

The script tag goes into each page's <head> (deferred, so it runs once the page is parsed) and places
the widget at the end of Furo's <article>. Replace the two values below with your own.
"""

HEARKEN_URL = "https://hearken.example.com"
HEARKEN_PROJECT_KEY = "HEARKEN-PROJECT-KEY"

project = "Example docs"
html_theme = "furo"
html_js_files = [
    (
        f"{HEARKEN_URL}/static/widgets/v1/helpful.js",
        {"defer": "defer", "data-project-key": HEARKEN_PROJECT_KEY, "data-container": "article[role=main]"},
    )
]
