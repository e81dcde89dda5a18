"""``mjscore serve``: a page every phone at the table can use, the table's shared score
sheet, and the JSON API under them.

:mod:`.app` is the ASGI app (Starlette; the ``[serve]`` extra) and :mod:`.guard` the
connection limits it runs with under uvicorn; :mod:`.workers` the pool of processes that
do every scoring (:mod:`.api` answers each job there, as the command line would);
:mod:`.store` keeps the tables in SQLite, :mod:`.sheet` is what a table's sheet computes
(through :mod:`scorer.table.ledger`) and :mod:`.tables` its endpoints. ``static/`` holds the
page: HTML, CSS and plain JavaScript, no build step. The library never imports this
package (import-linter layers in pyproject.toml).
"""
