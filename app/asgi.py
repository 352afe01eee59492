"""The application that `hearken` commands use and `hearken run` serves, built once, when this module
is first imported: the command line finds its commands on it, and uvicorn (which imports it by name)
then serves the same object instead of building a second one. Each worker process of `--wc N` imports
it and so builds its own."""

from app.main import create_app

app = create_app()
