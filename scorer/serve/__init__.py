"""``mjscore serve``: a page every phone at the table can use, and the JSON API under it.

:mod:`.api` answers requests as the command line would (the same JSON records),
:mod:`.server` is the HTTP server (standard library only) with its limits, and
``static/`` holds the page: HTML, CSS and plain JavaScript, no build step. The library
never imports this package (import-linter layers in pyproject.toml).
"""
